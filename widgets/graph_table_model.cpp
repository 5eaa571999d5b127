#include "graph_table_model.h"

#include "analysis/graph_replays.h"
#include "format.h"

namespace ws {

void GraphTableModel::setReplays(std::shared_ptr<const GraphReplays> replays) {
    beginResetModel();
    m_replays = std::move(replays);
    endResetModel();
}

int GraphTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_replays ? 0 : static_cast<int>(m_replays->graphs().size());
}

int GraphTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant GraphTableModel::data(const QModelIndex& index, int role) const {
    if (!m_replays || !index.isValid() || index.row() >= rowCount())
        return {};
    const GraphRow& g = m_replays->graphs()[static_cast<size_t>(index.row())];
    const auto column = static_cast<Column>(index.column());
    if (role == Qt::UserRole) {
        switch (column) {
        case Number: return g.number;
        case CapturedAt: return QString::fromStdString(g.label());
        case Replays: return static_cast<qulonglong>(g.replays);
        case Nodes: return static_cast<qulonglong>(g.nodes.size());
        case MeanReplay: return static_cast<qlonglong>(g.meanReplayNs());
        case MinReplay: return static_cast<qlonglong>(g.replays ? g.minReplayNs : 0);
        case MaxReplay: return static_cast<qlonglong>(g.maxReplayNs);
        case Busy: return static_cast<qlonglong>(g.busyNs);
        case Attributed: return g.nodes.empty() ? 0.0 : static_cast<double>(g.attributedNodes) / g.nodes.size();
        case ColumnCount: break;
        }
        return {};
    }
    if (role == Qt::ToolTipRole && column == CapturedAt && g.line > 0)
        return tr("%1, line %2").arg(QString::fromStdString(g.file)).arg(g.line);
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::Alignment(column == CapturedAt ? Qt::AlignLeft | Qt::AlignVCenter
                                                                       : Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Number: return g.number;
    case CapturedAt:
        return g.line > 0 ? QString::fromStdString(g.label()) : tr("graph %1 (no capture recorded)").arg(g.number);
    case Replays: return formatCount(g.replays);
    case Nodes: return formatCount(g.nodes.size());
    case MeanReplay: return formatDuration(g.meanReplayNs());
    case MinReplay: return formatDuration(g.replays ? g.minReplayNs : 0);
    case MaxReplay: return formatDuration(g.maxReplayNs);
    case Busy: return formatDuration(g.busyNs);
    case Attributed:
        return formatPercent(g.nodes.empty() ? std::optional<double>()
                                             : std::optional<double>(static_cast<double>(g.attributedNodes) / g.nodes.size()));
    case ColumnCount: break;
    }
    return {};
}

QVariant GraphTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (static_cast<Column>(section)) {
    case Number: return tr("Graph");
    case CapturedAt: return tr("Captured at");
    case Replays: return tr("Replays");
    case Nodes: return tr("Nodes");
    case MeanReplay: return tr("Mean replay");
    case MinReplay: return tr("Fastest replay");
    case MaxReplay: return tr("Slowest replay");
    case Busy: return tr("GPU time");
    case Attributed: return tr("Nodes with capture");
    case ColumnCount: break;
    }
    return {};
}

} // namespace ws
