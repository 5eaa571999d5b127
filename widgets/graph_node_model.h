#pragma once

#include <QAbstractTableModel>

#include <memory>

namespace ws {

class GraphReplays;
class Session;

/*
 * GraphNodeModel: the nodes of one CUDA graph (analysis/graph_replays.h): what each runs, the
 * operator and Python line that captured it, its calls and time across the replays, and its share
 * of the graph's GPU time. Qt::UserRole gives a numeric sort key per cell (for a
 * QSortFilterProxyModel whose sortRole is Qt::UserRole); nodeAt() the node behind a source row.
 */
class GraphNodeModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Node, Name, Operator, Line, Calls, Total, Mean, Min, Max, Share, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;
    // graph: index into replays->graphs(); out of range shows nothing.
    void setGraph(std::shared_ptr<const Session> session, std::shared_ptr<const GraphReplays> replays, size_t graph);
    // The node index of a row of this model, -1 for none.
    int nodeAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const Session> m_session;
    std::shared_ptr<const GraphReplays> m_replays;
    size_t m_graph = 0;
};

} // namespace ws
