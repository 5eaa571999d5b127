#pragma once

#include "analysis/operator_table.h"
#include "analysis/operator_tree.h"
#include "permuted_table_model.h"

#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace ws {

class Session;

/*
 * Table model over a core OperatorTable (one row per operator group, columns as OperatorColumn).
 * Sorting and name filtering are done by the core table (a permutation of row indices kept in
 * m_order), like KernelTableModel; the chosen sort column and filter survive setTable(), so a new
 * grouping or time range keeps the user's order. Durations show through formatDuration, device
 * columns of a trace without GPU activity and Tensor Core percentages without device time show as
 * "n/a" (never 0). Qt::UserRole on any cell gives the table row index; rowAt() the row itself.
 */
class OperatorTableModel : public PermutedTableModel {
    Q_OBJECT
public:
    explicit OperatorTableModel(QObject* parent = nullptr);
    void setTable(std::shared_ptr<const Session> session, std::shared_ptr<const OperatorTree> tree,
                  std::shared_ptr<const OperatorTable> table);
    // Case-insensitive substring on the operator name; empty shows every row.
    void setNameFilter(const QString& needle);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    const OperatorRow* rowAt(const QModelIndex& index) const;
    const OperatorTable* table() const { return m_table.get(); }
    const OperatorTree* tree() const { return m_tree.get(); }
    // Visible rows in display order (table indices), e.g. for CSV export of what is shown.
    const std::vector<uint32_t>& order() const { return m_order; }

private:
    void rebuild();

    std::shared_ptr<const Session> m_session;
    std::shared_ptr<const OperatorTree> m_tree;
    std::shared_ptr<const OperatorTable> m_table;
    std::optional<OperatorColumn> m_sortColumn;
    bool m_descending = false;
    QString m_filter;
};

} // namespace ws
