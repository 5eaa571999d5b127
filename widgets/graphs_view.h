#pragma once

#include "time_viewport.h"

#include <QWidget>

#include <memory>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace ws {

class GraphNodeModel;
class GraphReplays;
class GraphTableModel;
class Session;

/*
 * The "Graphs" tab (issue #48): the session's CUDA graph replays grouped by graph
 * (analysis/graph_replays.h), each with where it was captured, its replays and time per replay;
 * below, the selected graph's nodes, slowest first, with the operator and Python line that captured
 * each. Follows the timeline's selected range (the replays launched in it). Double-clicking a graph
 * reveals its first replay's launch, a node its activity in that replay, and a node's line opens its
 * source (sourceRequested, as the flame graph's frames do). Export writes the nodes as CSV.
 */
class GraphsView : public QWidget {
    Q_OBJECT
public:
    GraphsView(TimeViewport* time, std::shared_ptr<const Session> session, QWidget* parent = nullptr);
    ~GraphsView() override;
    void computeNow();
    const GraphReplays* replays() const { return m_replays.get(); }
    GraphTableModel* graphModel() const { return m_graphModel; }
    GraphNodeModel* nodeModel() const { return m_nodeModel; }
    // Shows graph g's nodes (index into replays()->graphs()).
    void selectGraph(size_t g);
    bool exportCsv(const QString& path, QString* error) const;

signals:
    void revealRequested(const ws::SliceRef& slice);
    void sourceRequested(const QString& file, int line, bool editor);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void rebuild();
    void chooseExportFile();

    TimeViewport* m_time;
    std::shared_ptr<const Session> m_session;
    std::shared_ptr<const GraphReplays> m_replays;
    GraphTableModel* m_graphModel;
    GraphNodeModel* m_nodeModel;
    QSortFilterProxyModel* m_graphProxy;
    QSortFilterProxyModel* m_nodeProxy;
    QTableView* m_graphTable;
    QTableView* m_nodeTable;
    QLabel* m_summary;
    QLabel* m_nodesTitle;
    bool m_built = false;
};

} // namespace ws
