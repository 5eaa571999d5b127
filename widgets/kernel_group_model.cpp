#include "kernel_group_model.h"

#include "format.h"
#include "model/session.h"

#include <algorithm>
#include <cmath>

namespace ws {

namespace {

QString optNumber(double v, int decimals) { return std::isnan(v) ? QString() : QString::number(v, 'f', decimals); }

} // namespace

KernelGroupModel::KernelGroupModel(QObject* parent) : QAbstractTableModel(parent) {}

void KernelGroupModel::setGroups(std::shared_ptr<const Session> session, std::vector<KernelGroup> groups,
                                 KernelGrouping grouping) {
    beginResetModel();
    m_session = std::move(session);
    m_groups = std::move(groups);
    m_grouping = grouping;
    endResetModel();
}

KernelGroupModel::Column KernelGroupModel::columnAt(int section) const {
    // Name grouping has no operator, grid and block columns.
    if (m_grouping == KernelGrouping::Name && section > 0)
        section += 3;
    return static_cast<Column>(section);
}

int KernelGroupModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_groups.size());
}

int KernelGroupModel::columnCount(const QModelIndex& parent) const {
    if (parent.isValid())
        return 0;
    return m_grouping == KernelGrouping::Name ? 10 : 13;
}

const KernelGroup* KernelGroupModel::groupAt(const QModelIndex& index) const {
    if (!index.isValid() || index.row() >= rowCount())
        return nullptr;
    return &m_groups[static_cast<size_t>(index.row())];
}

QVariant KernelGroupModel::data(const QModelIndex& index, int role) const {
    const KernelGroup* g = groupAt(index);
    if (!g || index.column() >= columnCount())
        return {};
    const Column column = columnAt(index.column());
    if (role == Qt::UserRole)
        return QVariant::fromValue(static_cast<qulonglong>(g->firstRow));
    if (role == Qt::TextAlignmentRole) {
        const bool text = column == Column::Kernel || column == Column::Operator || column == Column::TensorCores;
        return QVariant::fromValue(Qt::Alignment(text ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter));
    }
    if (role == Qt::ToolTipRole && column == Column::Kernel)
        return QString::fromStdString(std::string(m_session->str(g->name)));
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Column::Kernel: return QString::fromStdString(std::string(m_session->str(g->name)));
    case Column::Operator: return QString::fromStdString(std::string(m_session->str(g->op)));
    case Column::Grid: return QString::fromStdString(dim3Text(g->grid));
    case Column::Block: return QString::fromStdString(dim3Text(g->block));
    case Column::Calls: return formatCount(g->calls);
    case Column::Total: return formatDuration(g->totalNs);
    case Column::Mean: return formatDuration(static_cast<int64_t>(std::llround(g->meanNs)));
    case Column::Min: return formatDuration(g->minNs);
    case Column::Max: return formatDuration(g->maxNs);
    case Column::PercentGpu: return QString::number(g->percentOfGpu, 'f', 2);
    case Column::BlocksPerSm: return optNumber(g->meanBlocksPerSm, 2);
    case Column::Occupancy: return optNumber(g->meanOccupancy, 2);
    case Column::TensorCores: return g->tensorCores ? tr("yes") : tr("no");
    }
    return {};
}

QVariant KernelGroupModel::headerData(int section, Qt::Orientation orientation, int role) const {
    // The tooltip is the title itself: long titles are cut to the column's width.
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole) || section < 0 ||
        section >= columnCount())
        return {};
    switch (columnAt(section)) {
    case Column::Kernel: return tr("Kernel");
    case Column::Operator: return tr("Operator");
    case Column::Grid: return tr("Grid");
    case Column::Block: return tr("Block");
    case Column::Calls: return tr("Calls");
    case Column::Total: return tr("Total");
    case Column::Mean: return tr("Mean");
    case Column::Min: return tr("Min");
    case Column::Max: return tr("Max");
    case Column::PercentGpu: return tr("% of GPU time");
    case Column::BlocksPerSm: return tr("Mean blocks per SM");
    case Column::Occupancy: return tr("Mean est. achieved occupancy (%)");
    case Column::TensorCores: return tr("Tensor Cores");
    }
    return {};
}

void KernelGroupModel::sort(int column, Qt::SortOrder order) {
    if (column < 0 || column >= columnCount() || !m_session)
        return;
    const Column c = columnAt(column);
    const Session& s = *m_session;
    // Absent values (NaN means, empty names) go last in both directions.
    auto less = [&](const KernelGroup& a, const KernelGroup& b) -> bool {
        switch (c) {
        case Column::Kernel: return s.str(a.name) < s.str(b.name);
        case Column::Operator: return s.str(a.op) < s.str(b.op);
        case Column::Grid: return int64_t(a.grid[0]) * a.grid[1] * a.grid[2] < int64_t(b.grid[0]) * b.grid[1] * b.grid[2];
        case Column::Block:
            return int64_t(a.block[0]) * a.block[1] * a.block[2] < int64_t(b.block[0]) * b.block[1] * b.block[2];
        case Column::Calls: return a.calls < b.calls;
        case Column::Total:
        case Column::PercentGpu: return a.totalNs < b.totalNs;
        case Column::Mean: return a.meanNs < b.meanNs;
        case Column::Min: return a.minNs < b.minNs;
        case Column::Max: return a.maxNs < b.maxNs;
        case Column::BlocksPerSm: return a.meanBlocksPerSm < b.meanBlocksPerSm;
        case Column::Occupancy: return a.meanOccupancy < b.meanOccupancy;
        case Column::TensorCores: return a.tensorCores < b.tensorCores;
        }
        return false;
    };
    auto absent = [&](const KernelGroup& g) {
        return (c == Column::BlocksPerSm && std::isnan(g.meanBlocksPerSm)) ||
               (c == Column::Occupancy && std::isnan(g.meanOccupancy)) || (c == Column::Operator && g.op == kEmptyString);
    };
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    std::stable_sort(m_groups.begin(), m_groups.end(), [&](const KernelGroup& a, const KernelGroup& b) {
        const bool na = absent(a), nb = absent(b);
        if (na != nb)
            return nb;
        if (na)
            return false;
        return order == Qt::AscendingOrder ? less(a, b) : less(b, a);
    });
    // Rows are whole groups: persistent indices are not kept across a sort (the view resets selection).
    const QModelIndexList persistent = persistentIndexList();
    changePersistentIndexList(persistent, QModelIndexList(persistent.size()));
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

} // namespace ws
