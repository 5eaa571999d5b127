#pragma once

#include <QAbstractTableModel>

#include <memory>

namespace ws {

class GraphReplays;

/*
 * GraphTableModel: one row per CUDA graph of a session (analysis/graph_replays.h): where it was
 * captured, its replays and nodes, time per replay and GPU time. Qt::UserRole gives a numeric sort
 * key per cell (for a QSortFilterProxyModel whose sortRole is Qt::UserRole), and the row's graph
 * index in column 0.
 */
class GraphTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Number, CapturedAt, Replays, Nodes, MeanReplay, MinReplay, MaxReplay, Busy, Attributed, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;
    void setReplays(std::shared_ptr<const GraphReplays> replays);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const GraphReplays> m_replays;
};

} // namespace ws
