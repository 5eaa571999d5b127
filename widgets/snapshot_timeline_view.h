#pragma once

#include "analysis/snapshot_timeline.h"
#include "model/memory_snapshot.h"

#include <QImage>
#include <QWidget>

#include <memory>
#include <optional>

namespace ws {

/*
 * SnapshotTimelineView: the active memory timeline of a PyTorch memory snapshot (memory_viz's main
 * view): each live allocation a band, stacked in allocation order, coloured by its stack. A thin
 * view over core's SnapshotTimeline: the picture is rasterized by core to the plot's pixels when
 * the window or size changes, kept as an image, and a repaint only draws that image and the marks
 * (the OOMs in red, the chosen time as a line), so a redraw costs the same with 100 k live
 * allocations as with ten.
 *
 * The x axis is the trace order by default (one step per alloc or free, as memory_viz draws it,
 * so bursts are readable), or time, which follows the timeline's selection exactly.
 *
 * Hovering a band shows its size, lifetime and allocating line; a click selects the band
 * (allocationClicked: its stack goes to the Stack tab) and the time under the cursor
 * (timeClicked: the allocator state view follows). Times are the trace's microseconds.
 */
class SnapshotTimelineView : public QWidget {
    Q_OBJECT
public:
    explicit SnapshotTimelineView(QWidget* parent = nullptr);

    void setSnapshot(std::shared_ptr<const MemorySnapshot> snapshot, int16_t device);
    // Visible window in the trace's µs; nullopt: the whole trace.
    void setWindow(std::optional<std::pair<int64_t, int64_t>> window);
    void setMarker(std::optional<int64_t> us);
    // The x axis: the trace's order of allocs and frees (memory_viz's), or time.
    void setByOrder(bool byOrder);
    bool byOrder() const { return m_byOrder; }
    // The window on the x axis (change indices when by order, else µs).
    std::pair<int64_t, int64_t> window() const { return {m_from, m_to}; }
    const SnapshotTimeline::Raster& raster() const { return m_raster; }
    // Milliseconds the last rasterization and the last paint took (the bench reads them).
    double lastRasterMs() const { return m_rasterMs; }
    double lastPaintMs() const { return m_paintMs; }
    // The allocation (index into allocations) under a widget point, if any.
    std::optional<uint32_t> allocationAt(QPoint p) const;
    int64_t timeAtX(int x) const;
    QSize sizeHint() const override { return {800, 260}; }

signals:
    void allocationClicked(quint32 allocation);
    void timeClicked(qint64 us);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    QRect plotRect() const;
    void rasterize();
    void colorize();
    QRgb colorOf(uint32_t cell) const;
    int64_t positionOf(int64_t us) const; // x-axis position of a time
    int xOf(int64_t us) const;

    std::shared_ptr<const MemorySnapshot> m_snapshot;
    std::optional<SnapshotTimeline> m_timeline;
    SnapshotTimeline::Raster m_raster;
    QImage m_image;
    bool m_dirty = true;
    int64_t m_from = 0;
    int64_t m_to = 1;
    bool m_byOrder = true;
    std::optional<std::pair<int64_t, int64_t>> m_windowUs;
    std::optional<int64_t> m_marker;
    uint32_t m_hovered = 0; // allocation + 1
    double m_rasterMs = 0;
    double m_paintMs = 0;
};

} // namespace ws
