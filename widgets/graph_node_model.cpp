#include "graph_node_model.h"

#include "analysis/graph_replays.h"
#include "format.h"
#include "model/session.h"

namespace ws {

void GraphNodeModel::setGraph(std::shared_ptr<const Session> session, std::shared_ptr<const GraphReplays> replays,
                              size_t graph) {
    beginResetModel();
    m_session = std::move(session);
    m_replays = std::move(replays);
    m_graph = graph;
    endResetModel();
}

int GraphNodeModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !m_replays || m_graph >= m_replays->graphs().size())
        return 0;
    return static_cast<int>(m_replays->graphs()[m_graph].nodes.size());
}

int GraphNodeModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

int GraphNodeModel::nodeAt(int row) const { return row >= 0 && row < rowCount() ? row : -1; }

QVariant GraphNodeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const GraphRow& g = m_replays->graphs()[m_graph];
    const GraphNodeRow& n = g.nodes[static_cast<size_t>(index.row())];
    const auto column = static_cast<Column>(index.column());
    const int64_t mean = n.calls ? n.totalNs / static_cast<int64_t>(n.calls) : 0;
    const double share = g.busyNs > 0 ? static_cast<double>(n.totalNs) / static_cast<double>(g.busyNs) : 0.0;
    const QString line = n.line > 0 ? QString::fromStdString(shortLocation(n.file, n.line)) : QString();
    if (role == Qt::UserRole) {
        switch (column) {
        case Node: return n.index + 1;
        case Name: return QString::fromUtf8(m_session->str(n.name).data(), static_cast<int>(m_session->str(n.name).size()));
        case Operator: return QString::fromUtf8(m_session->str(n.op).data(), static_cast<int>(m_session->str(n.op).size()));
        case Line: return line;
        case Calls: return static_cast<qulonglong>(n.calls);
        case Total: return static_cast<qlonglong>(n.totalNs);
        case Mean: return static_cast<qlonglong>(mean);
        case Min: return static_cast<qlonglong>(n.calls ? n.minNs : 0);
        case Max: return static_cast<qlonglong>(n.maxNs);
        case Share: return share;
        case ColumnCount: break;
        }
        return {};
    }
    if (role == Qt::ToolTipRole) {
        if (column == Line && n.line > 0)
            return tr("%1 (%2, line %3)").arg(QString::fromStdString(n.function), QString::fromStdString(n.file)).arg(n.line);
        if (column == Name)
            return data(index, Qt::UserRole);
        return {};
    }
    if (role == Qt::TextAlignmentRole) {
        const bool text = column == Name || column == Operator || column == Line;
        return QVariant::fromValue(Qt::Alignment(text ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter));
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Node: return n.index + 1;
    case Name:
    case Operator: return data(index, Qt::UserRole);
    case Line: return line;
    case Calls: return formatCount(n.calls);
    case Total: return formatDuration(n.totalNs);
    case Mean: return formatDuration(mean);
    case Min: return formatDuration(n.calls ? n.minNs : 0);
    case Max: return formatDuration(n.maxNs);
    case Share: return formatPercent(share);
    case ColumnCount: break;
    }
    return {};
}

QVariant GraphNodeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (static_cast<Column>(section)) {
    case Node: return tr("Node");
    case Name: return tr("Kernel, copy or set");
    case Operator: return tr("Operator");
    case Line: return tr("Captured at line");
    case Calls: return tr("Calls");
    case Total: return tr("Total");
    case Mean: return tr("Mean");
    case Min: return tr("Min");
    case Max: return tr("Max");
    case Share: return tr("Share of graph");
    case ColumnCount: break;
    }
    return {};
}

} // namespace ws
