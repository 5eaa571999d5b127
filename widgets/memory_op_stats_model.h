#pragma once

#include "analysis/memory_op_stats.h"
#include "permuted_table_model.h"

#include <memory>
#include <optional>
#include <vector>

namespace ws {

class Session;

/*
 * Table model over core MemoryOpStats (torch-tb-profiler's memory statistics, FORMATS.md 3.10):
 * one row per operator name of one device (or every device). Columns: operator, calls, size
 * increase, self size increase, allocation count, self allocation count, allocation size, self
 * allocation size. Rows start in the core order (largest allocation size first); sort() reorders
 * them stably. Qt::UserRole gives the core row index.
 */
class MemoryOpStatsModel : public PermutedTableModel {
    Q_OBJECT
public:
    enum Column {
        Operator,
        Calls,
        SizeIncrease,
        SelfSizeIncrease,
        AllocationCount,
        SelfAllocationCount,
        AllocationSize,
        SelfAllocationSize,
        ColumnCount
    };

    explicit MemoryOpStatsModel(QObject* parent = nullptr);
    void setStats(std::shared_ptr<const Session> session, std::shared_ptr<const MemoryOpStats> stats,
                  std::optional<MemoryDevice> device);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    const MemoryOpStat* statAt(const QModelIndex& index) const;

private:
    void applySort();

    std::shared_ptr<const Session> m_session;
    std::shared_ptr<const MemoryOpStats> m_stats;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

} // namespace ws
