#pragma once

#include "analysis/memory_allocations.h"
#include "permuted_table_model.h"

#include <memory>
#include <optional>
#include <vector>

namespace ws {

class Session;

/*
 * Table model over a core MemoryAllocations: one row per allocation of one device (or every
 * device), optionally only those allocated or freed inside a time range. Columns: operator, size,
 * allocated at and freed at (time since the session start), lifetime, status. Allocations never
 * freed in the trace are leaks: their status says so and the row is tinted; frees whose allocation
 * happened before the trace have an empty "allocated at". Unknown values are empty cells, never 0.
 * Sorting is a permutation of the visible rows (stable, unknown values last). Qt::UserRole on any
 * cell gives the allocation's row index in the core table; allocationAt() gives the row itself.
 */
class MemoryAllocationModel : public PermutedTableModel {
    Q_OBJECT
public:
    enum Column { Operator, Size, AllocatedAt, FreedAt, Lifetime, Status, ColumnCount };

    explicit MemoryAllocationModel(QObject* parent = nullptr);
    void setAllocations(std::shared_ptr<const Session> session, std::shared_ptr<const MemoryAllocations> allocations);
    // Which rows to show; a range keeps rows allocated or freed in [start, end).
    void setFilter(std::optional<MemoryDevice> device, std::optional<std::pair<int64_t, int64_t>> range);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    const MemoryAllocation* allocationAt(const QModelIndex& index) const;

private:
    void rebuild();
    void applySort();

    std::shared_ptr<const Session> m_session;
    std::shared_ptr<const MemoryAllocations> m_allocations;
    std::vector<std::string> m_opText; // per core row, computed once
    std::optional<MemoryDevice> m_device;
    std::optional<std::pair<int64_t, int64_t>> m_range;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

} // namespace ws
