#include "memory_chart.h"

#include "format.h"

#include <QChart>
#include <QLineSeries>
#include <QMouseEvent>
#include <QPainter>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace ws {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kKiB = 1024.0;

} // namespace

MemoryChart::MemoryChart(QWidget* parent)
    : QChartView(parent), m_allocated(new QLineSeries), m_reserved(new QLineSeries), m_capacity(new QLineSeries),
      m_peak(new QScatterSeries), m_axisX(new QValueAxis), m_axisY(new QValueAxis) {
    auto* c = new QChart;
    c->setAnimationOptions(QChart::NoAnimation);
    c->legend()->setAlignment(Qt::AlignTop);
    c->setMargins(QMargins(4, 4, 4, 4));
    m_allocated->setName(tr("Allocated"));
    m_allocated->setPen(QPen(QColor(31, 119, 180), 1.5));
    m_reserved->setName(tr("Reserved"));
    m_reserved->setPen(QPen(QColor(255, 127, 14), 1.5));
    QPen dashed(QColor(214, 39, 40), 1.5, Qt::DashLine);
    m_capacity->setPen(dashed);
    m_peak->setName(tr("Peak allocated"));
    m_peak->setMarkerSize(9);
    m_peak->setColor(QColor(214, 39, 40));
    m_peak->setBorderColor(QColor(120, 0, 0));
    m_peak->setPointLabelsVisible(true);
    m_peak->setPointLabelsClipping(false);
    for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*>{m_reserved, m_allocated, m_capacity, m_peak})
        c->addSeries(s);
    m_axisX->setTitleText(tr("Time since trace start (ms)"));
    m_axisY->setLabelFormat(QStringLiteral("%.4g"));
    c->addAxis(m_axisX, Qt::AlignBottom);
    c->addAxis(m_axisY, Qt::AlignLeft);
    for (QAbstractSeries* s : c->series()) {
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
    }
    // QChartView made a default chart of its own and gives up its ownership here: delete it (it
    // leaked once per view, which LeakSanitizer reported).
    QChart* previous = QChartView::chart();
    setChart(c);
    delete previous;
    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::NoRubberBand); // our own drag selects a time range instead of zooming
    setMouseTracking(false);
}

void MemoryChart::setCurve(const MemoryCurve* curve, int64_t origin) {
    m_curve = curve;
    m_origin = origin;
    refresh();
}

void MemoryChart::setWindow(int64_t from, int64_t to) {
    m_from = from;
    m_to = std::max(to, from + 1);
    refresh();
}

void MemoryChart::setSelection(std::optional<std::pair<int64_t, int64_t>> range) {
    m_selection = range;
    viewport()->update();
}

qsizetype MemoryChart::allocatedPointCount() const { return m_allocated->count(); }

void MemoryChart::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    const int width = static_cast<int>(chart()->plotArea().width());
    if (width != m_lastPlotWidth)
        refresh();
}

void MemoryChart::refresh() {
    m_lastPlotWidth = static_cast<int>(chart()->plotArea().width());
    const double ms0 = static_cast<double>(m_from - m_origin) / 1e6;
    const double ms1 = static_cast<double>(m_to - m_origin) / 1e6;
    m_axisX->setRange(ms0, ms1);
    // Plain decimals (no 1.28e+03): as many as the span needs for distinct tick labels.
    const int decimals = std::clamp(2 - static_cast<int>(std::floor(std::log10(std::max(ms1 - ms0, 1e-6)))), 0, 6);
    m_axisX->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
    if (!m_curve) {
        for (QXYSeries* s : std::initializer_list<QXYSeries*>{m_allocated, m_reserved, m_capacity, m_peak})
            s->clear();
        m_axisY->setRange(0, 1);
        return;
    }
    // Two points per pixel of plot width: min and max of each pixel bucket.
    const size_t budget = static_cast<size_t>(std::max(m_lastPlotWidth, 200)) * 2;
    const std::vector<MemoryPoint> alloc = decimateMemoryCurve(*m_curve, m_curve->allocated, m_from, m_to, budget);
    const std::vector<MemoryPoint> reserved =
        m_curve->hasReserved() ? decimateMemoryCurve(*m_curve, m_curve->reserved, m_from, m_to, budget)
                               : std::vector<MemoryPoint>{};
    int64_t maxValue = 1;
    for (const auto* pts : {&alloc, &reserved})
        for (const MemoryPoint& p : *pts)
            maxValue = std::max(maxValue, p.value);
    const std::optional<int64_t> capacity = m_curve->capacity;
    // The capacity joins the scale only when the curves would still be readable under it.
    const bool capacityOnScale = capacity && static_cast<double>(*capacity) <= 4.0 * static_cast<double>(maxValue);
    const double top = static_cast<double>(capacityOnScale ? std::max(maxValue, *capacity) : maxValue);
    double unit = kKiB;
    QString unitName = tr("KiB");
    if (top >= kGiB) {
        unit = kGiB;
        unitName = tr("GiB");
    } else if (top >= kMiB) {
        unit = kMiB;
        unitName = tr("MiB");
    }
    auto x = [this](int64_t t) { return static_cast<double>(t - m_origin) / 1e6; };
    auto steps = [&](const std::vector<MemoryPoint>& pts) {
        QList<QPointF> out;
        out.reserve(static_cast<qsizetype>(pts.size() * 2 + 1));
        for (size_t i = 0; i < pts.size(); ++i) {
            const double v = static_cast<double>(pts[i].value) / unit;
            if (i > 0)
                out.append(QPointF(x(pts[i].ts), static_cast<double>(pts[i - 1].value) / unit));
            out.append(QPointF(x(pts[i].ts), v));
        }
        if (!pts.empty())
            out.append(QPointF(ms1, static_cast<double>(pts.back().value) / unit)); // the last level holds
        return out;
    };
    m_allocated->replace(steps(alloc));
    m_reserved->replace(steps(reserved));
    m_reserved->setVisible(m_curve->hasReserved());
    m_allocated->setName(m_curve->allocatedFromTotals ? tr("Allocated") : tr("Allocated since trace start (no totals in trace)"));

    m_peak->clear();
    const MemoryPeak peak = m_curve->peakAllocatedIn(m_from, m_to);
    if (peak.known()) {
        m_peak->append(x(peak.ts), static_cast<double>(peak.value) / unit);
        m_peak->setPointLabelsFormat(tr("Peak %1").arg(formatBytes(peak.value)));
    }
    m_capacity->clear();
    if (capacity) {
        const double c = static_cast<double>(*capacity) / unit;
        m_capacity->append(ms0, c);
        m_capacity->append(ms1, c);
        m_capacity->setName(capacityOnScale ? tr("Capacity %1").arg(formatBytes(*capacity))
                                            : tr("Capacity %1 (above the plot)").arg(formatBytes(*capacity)));
        m_capacity->setVisible(true);
    } else {
        m_capacity->setVisible(false);
    }
    m_axisY->setTitleText(unitName);
    m_axisY->setRange(0, top / unit * 1.12);
    m_axisY->applyNiceNumbers();
    viewport()->update();
}

int64_t MemoryChart::timeAtX(double viewX) const {
    const QRectF plot = chart()->plotArea();
    const QPointF p = chart()->mapFromScene(mapToScene(QPoint(static_cast<int>(viewX), 0)));
    const double frac = std::clamp((p.x() - plot.left()) / std::max(1.0, plot.width()), 0.0, 1.0);
    return m_from + static_cast<int64_t>(frac * static_cast<double>(m_to - m_from));
}

double MemoryChart::xForTime(int64_t t) const {
    const QRectF plot = chart()->plotArea();
    const double frac = static_cast<double>(t - m_from) / static_cast<double>(std::max<int64_t>(1, m_to - m_from));
    const QPointF scene = chart()->mapToScene(QPointF(plot.left() + frac * plot.width(), 0));
    return mapFromScene(scene).x();
}

void MemoryChart::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && chart()->plotArea().contains(chart()->mapFromScene(mapToScene(event->position().toPoint())))) {
        m_dragStartX = event->position().x();
        m_dragX = *m_dragStartX;
        event->accept();
        return;
    }
    QChartView::mousePressEvent(event);
}

void MemoryChart::mouseMoveEvent(QMouseEvent* event) {
    if (m_dragStartX) {
        m_dragX = event->position().x();
        viewport()->update();
        event->accept();
        return;
    }
    QChartView::mouseMoveEvent(event);
}

void MemoryChart::mouseReleaseEvent(QMouseEvent* event) {
    if (m_dragStartX && event->button() == Qt::LeftButton) {
        const double a = std::min(*m_dragStartX, event->position().x());
        const double b = std::max(*m_dragStartX, event->position().x());
        m_dragStartX.reset();
        viewport()->update();
        if (b - a >= 3) {
            const int64_t from = timeAtX(a), to = timeAtX(b);
            if (to > from)
                emit rangeDragged(from, to);
        } else {
            emit rangeCleared();
        }
        event->accept();
        return;
    }
    QChartView::mouseReleaseEvent(event);
}

void MemoryChart::drawForeground(QPainter* painter, const QRectF& rect) {
    QChartView::drawForeground(painter, rect);
    const QRectF plot = chart()->plotArea();
    auto band = [&](double x0, double x1, const QColor& fill) {
        // x0/x1 in view coordinates; the painter works in scene coordinates.
        const double s0 = mapToScene(QPoint(static_cast<int>(x0), 0)).x();
        const double s1 = mapToScene(QPoint(static_cast<int>(x1), 0)).x();
        const QRectF scenePlot = chart()->mapRectToScene(plot);
        QRectF r(QPointF(std::max(std::min(s0, s1), scenePlot.left()), scenePlot.top()),
                 QPointF(std::min(std::max(s0, s1), scenePlot.right()), scenePlot.bottom()));
        if (r.width() > 0)
            painter->fillRect(r, fill);
    };
    if (m_selection && m_selection->second > m_from && m_selection->first < m_to)
        band(xForTime(std::max(m_selection->first, m_from)), xForTime(std::min(m_selection->second, m_to)),
             QColor(70, 130, 220, 45));
    if (m_dragStartX)
        band(*m_dragStartX, m_dragX, QColor(70, 130, 220, 80));
}

} // namespace ws
