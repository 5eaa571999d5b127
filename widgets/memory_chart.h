#pragma once

#include "analysis/memory_curve.h"

#include <QChartView>

#include <optional>
#include <utility>

class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace ws {

/*
 * MemoryChart: the memory curves of one device as a Qt Charts step plot: allocated and reserved
 * bytes over time (ms since the session start), a marker and label on the highest allocated value
 * in the visible window, and the device capacity as a dashed line (kept in the legend, not on the
 * scale, when it is far above the curves so they stay readable).
 *
 * Qt Charts gets at most a few points per pixel: each redraw decimates the core curve to the plot
 * width with decimateMemoryCurve (min and max per pixel bucket, so peaks survive), so a million
 * records cost the same to draw as a thousand. Dragging horizontally over the plot selects a time
 * range (rangeDragged); a click without dragging clears it (rangeCleared). The shared selection is
 * shown as a shaded band (setSelection).
 */
class MemoryChart : public QChartView {
    Q_OBJECT
public:
    explicit MemoryChart(QWidget* parent = nullptr);

    // The curve to draw (nullptr: none), times relative to `origin` (the session start). The
    // curve must outlive the chart's use of it.
    void setCurve(const MemoryCurve* curve, int64_t origin);
    // Visible time window [from, to) in session ns.
    void setWindow(int64_t from, int64_t to);
    void setSelection(std::optional<std::pair<int64_t, int64_t>> range);
    std::pair<int64_t, int64_t> window() const { return {m_from, m_to}; }
    // Points handed to Qt Charts for the allocated curve (for tests and the budget check).
    qsizetype allocatedPointCount() const;
    // Session time under a view x coordinate.
    int64_t timeAtX(double x) const;
    double xForTime(int64_t t) const;

signals:
    void rangeDragged(qint64 from, qint64 to);
    void rangeCleared();

protected:
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;

private:
    void refresh();

    const MemoryCurve* m_curve = nullptr;
    int64_t m_origin = 0;
    int64_t m_from = 0;
    int64_t m_to = 1;
    std::optional<std::pair<int64_t, int64_t>> m_selection;
    std::optional<double> m_dragStartX;
    double m_dragX = 0;
    int m_lastPlotWidth = -1;
    QLineSeries* m_allocated;
    QLineSeries* m_reserved;
    QLineSeries* m_capacity;
    QScatterSeries* m_peak;
    QValueAxis* m_axisX;
    QValueAxis* m_axisY;
};

} // namespace ws
