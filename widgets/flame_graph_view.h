#pragma once

#include "analysis/flame_graph.h"

#include <QWidget>
#include <atomic>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QStackedWidget;

namespace ws {

class Session;
class TimeViewport;

/*
 * FlameGraphCanvas: paints one FlameGraph (core/analysis) as an icicle: one row per depth, the
 * root ("all") on top, each frame as wide as its share of its parent. Frames narrower than a pixel
 * are not laid out (they and their subtrees are skipped), so a graph of millions of nodes draws only
 * what can be seen; a lazy (bottom-up) graph is expanded by the model only where it is laid out. Colours are stable per function name; frames matching the search are drawn in
 * a highlight colour and the others faded.
 *
 * Zoom: the zoomed frame fills the width on its own row, its ancestors stay above it at full width
 * (click one to zoom out to it, the root resets). Hovering shows a tooltip (function, file:line,
 * total and self with their share of the graph).
 */
class FlameGraphCanvas : public QWidget {
    Q_OBJECT
public:
    explicit FlameGraphCanvas(QWidget* parent = nullptr);

    void setGraph(std::shared_ptr<const FlameGraph> graph);
    const FlameGraph* graph() const { return m_graph.get(); }
    // Case-insensitive substring of the function name; empty: no highlight.
    void setSearch(const QString& text);
    // The node that fills the width (0, the root, when not zoomed).
    uint32_t zoomNode() const { return m_zoom; }
    void setZoomNode(uint32_t node);
    bool isMatch(uint32_t node) const;
    // The weight of the stacks through a matching frame (flamegraph.pl's "Matched"; FlameGraph::match).
    int64_t matchedTotal() const { return m_matchedTotal; }
    // Distinct frames with weight that match.
    int matchCount() const { return m_matchCount; }
    // The node under a point of the canvas, or FlameNode::kNone.
    uint32_t nodeAt(QPoint pos) const;
    // Where a node is drawn; empty when it is not laid out (narrower than a pixel, or zoomed away).
    QRectF nodeRect(uint32_t node) const;
    // The frames laid out (drawn) at the current width and zoom.
    size_t laidOutCount() const { return m_boxes.size(); }
    QString toolTipFor(uint32_t node) const;
    QString labelFor(uint32_t node) const;
    static constexpr int kRowHeight = 18;

signals:
    void zoomChanged();
    // Double-click on a frame; the view decides what to do with it.
    void frameActivated(uint32_t node);
    void contextMenuForFrame(uint32_t node, QPoint globalPos);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Box {
        uint32_t node;
        int depth;
        double x;
        double w;
        bool ancestor; // an ancestor of the zoomed node, drawn at full width
    };
    std::shared_ptr<const FlameGraph> m_graph;
    uint32_t m_zoom = 0;
    uint32_t m_hover = FlameNode::kNone;
    uint32_t m_pressed = FlameNode::kNone;
    QString m_search;
    std::vector<bool> m_frameMatch; // per frame of the graph
    int64_t m_matchedTotal = 0;
    int m_matchCount = 0;
    std::vector<Box> m_boxes;     // in depth order, left to right per depth
    std::vector<int32_t> m_boxOf; // node -> index into m_boxes, -1 when not laid out
    int m_depth = 0;

    void relayout();
    void updateMatches();
    QColor colorFor(uint32_t node) const;
};

/*
 * FlameGraphView: the "Flame Graph" bottom tab, a view over core's FlameGraph for the range selected
 * on the timeline (the whole session when none): a weight (CPU samples, GPU time by the Python stack
 * that launched each kernel, bytes allocated), top-down or bottom-up, dispatch and decorator frames
 * folded or shown (FrameFoldingSettings, on by default), a search that highlights matching frames,
 * and the canvas. The graph is built on a worker thread (startDetached) when the
 * tab is shown and whenever the range or an option changes while it is shown; a newer build cancels
 * the one before. Double-clicking a frame with a source location asks to show it (sourceRequested),
 * the context menu also offers the editor. An empty graph shows the model's reason.
 */
class FlameGraphView : public QWidget {
    Q_OBJECT
public:
    FlameGraphView(TimeViewport* time, std::shared_ptr<const Session> session, QWidget* parent = nullptr);
    ~FlameGraphView() override;

    // Builds the graph for the current options now, on the calling thread (tests, screenshots).
    void computeNow();
    void setWeight(FlameWeight weight);
    void setBottomUp(bool bottomUp);
    void setSearch(const QString& text);
    // Fold dispatch and decorator frames (FrameFoldingSettings; the choice is saved).
    void setFolding(bool fold);
    bool isFolding() const;
    FlameGraphCanvas* canvas() const { return m_canvas; }
    const FlameGraph* graph() const { return m_graph.get(); }
    bool isShowingGraph() const;
    QString messageText() const;
    QString statusText() const;
    QString breadcrumbText() const;

signals:
    // Show a frame's source location (in the Stack tab's source pane; editor: open it in the editor).
    void sourceRequested(const QString& file, int line, bool editor);
    // A new graph is shown (or the reason it is empty).
    void ready();

protected:
    void showEvent(QShowEvent* event) override;

private:
    FlameOptions currentOptions() const;
    void start();
    void present(std::shared_ptr<const FlameGraph> graph, uint64_t generation);
    void updateStatus();
    void requestSource(uint32_t node, bool editor);
    void showMenu(uint32_t node, QPoint globalPos);

    TimeViewport* m_time;
    std::shared_ptr<const Session> m_session;
    std::shared_ptr<const FlameGraph> m_graph;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    uint64_t m_generation = 0;
    bool m_dirty = true;

    QComboBox* m_weight;
    QComboBox* m_direction;
    QCheckBox* m_fold;
    QLineEdit* m_search;
    QPushButton* m_resetZoom;
    QLabel* m_breadcrumb;
    QLabel* m_status;
    QStackedWidget* m_pages;
    QLabel* m_message;
    QScrollArea* m_scroll;
    FlameGraphCanvas* m_canvas;
};

} // namespace ws
