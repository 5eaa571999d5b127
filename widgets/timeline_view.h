#pragma once

#include "index/counter_lod.h"
#include "analysis/gpu_counters.h"
#include "index/slice_lod.h"
#include "model/flow.h"
#include "query_track.h"
#include "time_viewport.h"
#include "timeline_layout.h"

#include <QAbstractScrollArea>
#include <QScrollBar>
#include <QHash>
#include <QLine>
#include <QPolygon>

#include <deque>
#include <memory>
#include <span>
#include <optional>
#include <vector>

namespace ws {

class BookmarkModel;
struct Track;
class Session;

/*
 * TimelineView: the main view. Every CPU thread, GPU stream, annotation and counter of a session as
 * rows under a time ruler, drawn with QPainter from the model's columns.
 *
 * Screen areas: an overview strip of the whole session and the ruler on top (fixed), the track
 * labels on the left (fixed width), the rows (scrolled vertically by the scroll bar, in time by the
 * shared TimeViewport). Drawing cost is bounded by pixels: each visible row is folded by foldRow()
 * and each counter by CounterLod, whatever the number of events.
 *
 * Input: Ctrl+wheel zooms at the cursor, wheel scrolls, Shift+wheel or a horizontal wheel pans,
 * dragging the rows pans, dragging on the ruler selects a time range; W/S zoom, A/D and arrow keys
 * pan, F fits the selection, 0 fits everything, Esc clears the selection, B adds a bookmark. Clicking selects a slice
 * (its CPU launch / GPU work is linked by flow arrows); hovering shows a tooltip.
 */
class TimelineView : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit TimelineView(TimeViewport* timeViewport, QWidget* parent = nullptr);
    ~TimelineView() override;

    void setSession(std::shared_ptr<const Session> session);
    // More counter rows under their processes, from an analysis that finished after the session
    // was shown (the inference phases); groups keep their collapsed and pinned state.
    void addDerivedCounters(std::vector<DerivedCounter> counters);
    // A track made from a query's result, shown above the groups (the Query tab's "Add as track").
    void addQueryTrack(QueryTrack track);
    void clearQueryTracks();
    size_t queryTrackCount() const { return m_queryTracks.size(); }
    const QueryTrack& queryTrack(size_t i) const { return m_queryTracks[i]; }
    const TimelineLayout& layout() const { return m_layout; }
    // For context-menu actions and tests; call relayoutRows() after changing it.
    TimelineLayout& mutableLayout() { return m_layout; }
    void relayoutRows();
    size_t counterRowSources() const { return m_counters.size(); }
    QString counterLabel(uint32_t index) const { return m_counters[index].label; }
    TimeViewport* timeViewport() const { return m_time; }

    // The slice under a point of the view (hit test); nullopt over empty space.
    std::optional<SliceRef> sliceAt(const QPoint& pos) const;
    // Scrolls so that a slice is visible and centred in time.
    void revealSlice(const SliceRef& slice);
    void setAllCollapsed(bool collapsed);
    // Bookmarks are drawn as flags on the ruler; B asks to add one at the cursor.
    void setBookmarks(const BookmarkModel* bookmarks);
    // Renders one frame into an image (benchmarks and tests).
    void renderTo(QImage& image);

    static constexpr int kGutterWidth = 260;
    static constexpr int kOverviewHeight = 18;
    static constexpr int kRulerHeight = 26;
    static constexpr int kTopHeight = kOverviewHeight + kRulerHeight;

signals:
    void sliceActivated(const ws::SliceRef& slice); // double-click
    void bookmarkRequested(int64_t ts);             // B pressed (at the cursor, else the centre)

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    /* One counter row: a recorded series of the session or a derived one (utilization, memory). */
    struct CounterSource {
        uint32_t process = 0;
        QString label;
        std::span<const int64_t> ts;
        std::span<const double> value;
        bool bytes = false;
        double min = 0;
        double max = 0;
        CounterLod lod;
    };

    struct NameCache {
        QString text;
        int width = 0;
    };

    void paintAll(QPainter& p, const QRect& area);
    void paintOverview(QPainter& p, int width);
    void paintRuler(QPainter& p, int width);
    void paintRows(QPainter& p, const QRect& area);
    void paintSliceRow(QPainter& p, const TimelineLayout::Row& row, int y, int width);
    void paintGroupSummary(QPainter& p, const TimelineLayout::Group& group, int y, int height, int width);
    void paintInstantRow(QPainter& p, const TimelineLayout::Row& row, int y, int width);
    void paintCounterRow(QPainter& p, const TimelineLayout::Row& row, int y, int width);
    void paintQueryRow(QPainter& p, const TimelineLayout::Row& row, int y, int width);
    // The query interval under a point, or nullptr.
    const QueryTrack::Interval* queryIntervalAt(const QPoint& pos) const;
    void layoutQueryTracks();
    void flushCounterPolygon(QPainter& p, int base);
    void paintLabels(QPainter& p, const QRect& area);
    void paintSelection(QPainter& p, const QRect& area);
    void paintUnrecorded(QPainter& p, const QRect& area);
    void paintFlows(QPainter& p, const QRect& area);
    void paintCursor(QPainter& p, const QRect& area);

    const NameCache& displayName(uint32_t nameId);
    QColor sliceColor(const Track& track, uint32_t slice);
    // Layout y <-> view y. The pinned band (layout y < pinnedHeight) stays fixed under the ruler;
    // the rest scrolls beneath it.
    int contentY(int viewY) const {
        const int y = viewY - kTopHeight;
        return y < m_layout.pinnedHeight() ? y : y + verticalScrollBar()->value();
    }
    int viewY(int contentY) const {
        return contentY + kTopHeight - (contentY < m_layout.pinnedHeight() ? 0 : verticalScrollBar()->value());
    }
    template <typename F> void forEachVisibleRow(QPainter& p, const QRect& clipBase, int height, F&& paintRow);
    void showGroupMenu(int group, const QPoint& globalPos);
    double timeX(int64_t t) const { return kGutterWidth + m_time->xForTime(t); }
    void updateScrollRange();
    void buildOverview();
    void buildCounterSources();
    void toggleGroupAt(const QPoint& pos);
    QString tooltipAt(const QPoint& pos) const;
    std::optional<QPointF> sliceAnchor(const SliceRef& s, bool atEnd) const;
    void collectSelectedFlows();

    TimeViewport* m_time;
    std::shared_ptr<const Session> m_session;
    TimelineLayout m_layout;
    std::vector<DerivedCounter> m_derived; // storage behind the derived CounterSources
    std::deque<DerivedCounter> m_added;    // addDerivedCounters' (a deque: its elements never move)
    std::vector<CounterSource> m_counters;
    std::vector<QueryTrack> m_queryTracks;
    // A capture recorded only between cudaProfilerStart and Stop: the time outside its spans, drawn
    // hatched as unseen (recorded_spans.h); empty for every other session.
    std::vector<std::pair<int64_t, int64_t>> m_unrecorded;
    std::vector<float> m_overview; // GPU busy fraction per overview bucket
    QHash<uint32_t, NameCache> m_names;
    QHash<uint64_t, QRgb> m_colors; // (name, kind) -> colour: hashing long kernel names per frame is not free
    // Scratch buffers reused by every row of every frame.
    std::vector<LodItem> m_items;
    std::vector<CounterLod::Column> m_counterColumns;
    QPolygon m_fillPolygon;
    std::vector<QLine> m_edgeLines;
    std::vector<Flow> m_selectedFlows;
    const BookmarkModel* m_bookmarks = nullptr; // flows touching the selected slice, found once per selection

    enum class Drag { None, Pan, Range, Overview };
    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    QPoint m_lastPos;
    int64_t m_rangeAnchor = 0;
    bool m_moved = false;
    std::optional<int> m_cursorX;
};

} // namespace ws
