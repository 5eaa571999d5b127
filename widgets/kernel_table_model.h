#pragma once

#include "analysis/kernel_table.h"
#include "analysis/ncu_match.h"
#include "permuted_table_model.h"
#include "time_viewport.h"

#include <QString>

#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace ws {

class Session;

/*
 * Table model over a core KernelTable: one row per kernel call, columns as KernelColumn. Sorting
 * and name filtering are done by the core table (a permutation of row indices, kept in m_order),
 * not by a QSortFilterProxyModel, so 1 M rows sort in about 100 ms. Absent values show as empty
 * cells. Qt::UserRole on any cell gives the table row index; kernelAt() gives the row itself.
 */
class KernelTableModel : public PermutedTableModel {
    Q_OBJECT
public:
    explicit KernelTableModel(QObject* parent = nullptr);
    void setTable(std::shared_ptr<const Session> session, std::shared_ptr<const KernelTable> table);
    // Case-insensitive substring on the kernel name; empty shows every call.
    void setNameFilter(const QString& needle);
    // Only kernels overlapping the range; nullopt shows all.
    void setTimeRange(std::optional<TimeRange> range);
    // Table indices of the visible rows, in display order.
    const std::vector<uint32_t>& visibleRows() const { return m_order; }
    std::shared_ptr<const KernelTable> table() const { return m_table; }
    std::shared_ptr<const Session> session() const { return m_session; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    const KernelRow* kernelAt(const QModelIndex& index) const;
    // The bound verdict as the table shows it ("compute", ...; empty when unknown), translated.
    static QString boundText(Bound bound);

    // Nsight Compute's measurements of some calls (issue #49): the columns after the KernelColumns
    // (NcuColumn), empty for the calls ncu did not profile; none when nothing is attached.
    enum class NcuColumn { Duration, SmThroughput, MemoryThroughput, Bound };
    static constexpr int kNcuColumnCount = 4;
    void setMeasured(const NcuResults& results, const NcuMatch& match);
    size_t measuredCalls() const { return m_measuredRow.size(); }

private:
    void rebuild();

    std::shared_ptr<const Session> m_session;
    std::shared_ptr<const KernelTable> m_table;
    std::optional<KernelColumn> m_sortColumn;
    std::optional<int> m_sortNcu; // an NcuColumn sorts instead
    struct Measured {
        double durationNs, smPct, memoryPct;
        Bound bound;
    };
    std::vector<Measured> m_measured;
    std::unordered_map<uint32_t, uint32_t> m_measuredRow; // table row -> m_measured index
    bool m_descending = false;
    QString m_filter;
    std::optional<TimeRange> m_range;
};

} // namespace ws
