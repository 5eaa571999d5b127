#include "permuted_table_model.h"

namespace ws {

void PermutedTableModel::relayout(size_t sourceRows, const std::function<void()>& rebuild) {
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<uint32_t> rowsBefore;
    for (const QModelIndex& i : before)
        rowsBefore.push_back(m_order[static_cast<size_t>(i.row())]);
    rebuild();
    std::vector<int> position(sourceRows, -1);
    for (size_t p = 0; p < m_order.size(); ++p)
        position[m_order[p]] = static_cast<int>(p);
    QModelIndexList after;
    for (qsizetype k = 0; k < before.size(); ++k) {
        const int p = position[rowsBefore[static_cast<size_t>(k)]];
        after.push_back(p < 0 ? QModelIndex() : index(p, before[k].column()));
    }
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

} // namespace ws
