#pragma once

#include <QAbstractTableModel>

#include <cstdint>
#include <functional>
#include <vector>

namespace ws {

/*
 * PermutedTableModel: base of the table models whose rows are a permutation of a core table's
 * rows (m_order: source row of each shown row, sorted and filtered in core). relayout() runs a
 * re-sort as one layout change in which persistent indices (selection, current row) follow their
 * source row, or become invalid when it is no longer shown.
 */
class PermutedTableModel : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;

protected:
    // `rebuild` rewrites m_order; sourceRows bounds the source row indices.
    void relayout(size_t sourceRows, const std::function<void()>& rebuild);

    std::vector<uint32_t> m_order;
};

} // namespace ws
