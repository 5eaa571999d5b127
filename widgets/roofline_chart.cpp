#include "roofline_chart.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace ws {

namespace {

QColor boundColor(Bound b) {
    switch (b) {
    case Bound::Compute: return QColor(214, 96, 30);
    case Bound::Memory: return QColor(41, 112, 196);
    case Bound::Latency: return QColor(128, 128, 128);
    case Bound::Unknown: break;
    }
    return QColor(180, 180, 180);
}

// "10^k" tick text: 0.01 ... 1000 plainly, else as a power of ten.
QString tickText(int exponent) {
    if (exponent >= -2 && exponent <= 4)
        return QString::number(std::pow(10.0, exponent), 'g', 6);
    return QStringLiteral("1e%1").arg(exponent);
}

} // namespace

RooflineChart::RooflineChart(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setObjectName(QStringLiteral("rooflineChart"));
}

void RooflineChart::setPeaks(std::optional<GpuPeaks> peaks, double tensorPeakTflops) {
    m_peaks = peaks;
    m_tensorPeak = tensorPeakTflops;
    update();
}

void RooflineChart::setPoints(std::vector<Point> points) {
    m_points = std::move(points);
    update();
}

void RooflineChart::setHighlighted(int id) {
    m_highlighted = id;
    update();
}

RooflineChart::Axes RooflineChart::axes() const {
    Axes a;
    // Decades around the points and the roofs: the ridge and the peaks always in view.
    double xmin = 1e9, xmax = -1e9, ymin = 1e9, ymax = -1e9;
    for (const Point& p : m_points) {
        if (p.intensity <= 0 || p.tflops <= 0)
            continue;
        xmin = std::min(xmin, std::log10(p.intensity));
        xmax = std::max(xmax, std::log10(p.intensity));
        ymin = std::min(ymin, std::log10(p.tflops));
        ymax = std::max(ymax, std::log10(p.tflops));
    }
    if (m_peaks && m_peaks->memoryGBps > 0 && m_tensorPeak > 0) {
        const double ridge = m_tensorPeak * 1e3 / m_peaks->memoryGBps;
        xmax = std::max(xmax, std::log10(ridge) + 1);
        ymax = std::max(ymax, std::log10(m_tensorPeak));
        xmin = std::min(xmin, 0.0);
        ymin = std::min(ymin, std::log10(m_peaks->memoryGBps / 1e3) - 1);
    }
    if (xmin > xmax) {
        xmin = -2;
        xmax = 3;
        ymin = -3;
        ymax = 3;
    }
    a.x0 = std::floor(xmin);
    a.x1 = std::ceil(xmax + 1e-9);
    a.y0 = std::floor(ymin);
    a.y1 = std::ceil(ymax + 0.3);
    if (a.x1 - a.x0 < 2)
        a.x1 = a.x0 + 2;
    if (a.y1 - a.y0 < 2)
        a.y0 = a.y1 - 2;
    // Eight decades at most: the tiniest kernels sit on the bottom edge rather than squash the roofs.
    a.y0 = std::max(a.y0, a.y1 - 8);
    const QFontMetrics fm(font());
    const double left = fm.horizontalAdvance(QStringLiteral("1e-10")) + fm.height() + 12;
    a.plot = QRectF(left, fm.height() + 8, std::max(10.0, width() - left - 16.0),
                    std::max(10.0, height() - 2.5 * fm.height() - 26.0));
    return a;
}

QPointF RooflineChart::toPixel(const Axes& a, double intensity, double tflops) const {
    const double x = (std::log10(std::max(intensity, 1e-12)) - a.x0) / (a.x1 - a.x0);
    const double y = (std::log10(std::max(tflops, 1e-12)) - a.y0) / (a.y1 - a.y0);
    return {a.plot.left() + x * a.plot.width(), a.plot.bottom() - y * a.plot.height()};
}

double RooflineChart::radius(const Point& p) const {
    return (p.measured ? 6.0 : 3.0) + 14.0 * std::sqrt(std::clamp(p.weight, 0.0, 1.0));
}

int RooflineChart::pointAt(const QPoint& pos) const {
    const Axes a = axes();
    int best = -1;
    double bestDistance = 1e18;
    for (size_t i = 0; i < m_points.size(); ++i) {
        const Point& p = m_points[i];
        if (p.intensity <= 0 || p.tflops <= 0)
            continue;
        const QPointF c = toPixel(a, p.intensity, p.tflops);
        const double d = std::hypot(c.x() - pos.x(), c.y() - pos.y());
        if (d <= radius(p) + 3 && d < bestDistance) {
            bestDistance = d;
            best = static_cast<int>(i);
        }
    }
    return best;
}

void RooflineChart::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), palette().base());
    const Axes a = axes();
    const QColor text = palette().color(QPalette::Text);
    const QFontMetrics fm(font());

    // Grid and ticks at each decade.
    painter.setPen(QPen(palette().color(QPalette::Mid), 0.5, Qt::DotLine));
    for (int e = static_cast<int>(a.x0); e <= static_cast<int>(a.x1); ++e) {
        const double x = toPixel(a, std::pow(10.0, e), 1).x();
        painter.drawLine(QPointF(x, a.plot.top()), QPointF(x, a.plot.bottom()));
    }
    for (int e = static_cast<int>(a.y0); e <= static_cast<int>(a.y1); ++e) {
        const double y = toPixel(a, 1, std::pow(10.0, e)).y();
        painter.drawLine(QPointF(a.plot.left(), y), QPointF(a.plot.right(), y));
    }
    painter.setPen(text);
    painter.drawRect(a.plot);
    for (int e = static_cast<int>(a.x0); e <= static_cast<int>(a.x1); ++e) {
        const double x = toPixel(a, std::pow(10.0, e), 1).x();
        const QString t = tickText(e);
        painter.drawText(QPointF(x - fm.horizontalAdvance(t) / 2.0, a.plot.bottom() + fm.ascent() + 3), t);
    }
    for (int e = static_cast<int>(a.y0); e <= static_cast<int>(a.y1); ++e) {
        const double y = toPixel(a, 1, std::pow(10.0, e)).y();
        const QString t = tickText(e);
        painter.drawText(QPointF(a.plot.left() - fm.horizontalAdvance(t) - 4, y + fm.ascent() / 2.0 - 1), t);
    }
    const QString xTitle = tr("Arithmetic intensity (FLOP/byte)");
    painter.drawText(QPointF(a.plot.center().x() - fm.horizontalAdvance(xTitle) / 2.0, height() - 4.0), xTitle);
    painter.save();
    painter.translate(fm.height() - 2, a.plot.center().y());
    painter.rotate(-90);
    const QString yTitle = tr("Achieved TFLOP/s");
    painter.drawText(QPointF(-fm.horizontalAdvance(yTitle) / 2.0, 0), yTitle);
    painter.restore();

    painter.setClipRect(a.plot);
    if (m_peaks && m_peaks->memoryGBps > 0) {
        // The roofs: bandwidth x intensity up to each compute peak.
        const double bw = m_peaks->memoryGBps / 1e3; // TFLOP/s per FLOP/byte
        auto roof = [&](double peak, const QColor& color, const QString& name) {
            if (peak <= 0)
                return;
            const double ridge = peak / bw;
            QPen pen(color, 2);
            painter.setPen(pen);
            const double xLeft = std::pow(10.0, a.x0), xRight = std::pow(10.0, a.x1);
            painter.drawLine(toPixel(a, xLeft, xLeft * bw), toPixel(a, ridge, peak));
            painter.drawLine(toPixel(a, ridge, peak), toPixel(a, xRight, peak));
            const QPointF at = toPixel(a, xRight, peak);
            // Above the roof, or under it where the roof is the plot's top edge.
            const double y = at.y() - 4 - fm.ascent() < a.plot.top() ? at.y() + fm.ascent() + 2 : at.y() - 4;
            painter.drawText(QPointF(at.x() - fm.horizontalAdvance(name) - 4, y), name);
        };
        roof(m_tensorPeak, QColor(200, 60, 40), tr("Tensor Cores %1 TFLOP/s").arg(m_tensorPeak, 0, 'f', 0));
        roof(m_peaks->fp32, QColor(150, 90, 160), tr("FP32 %1 TFLOP/s").arg(m_peaks->fp32, 0, 'f', 1));
        if (m_tensorPeak > 0) {
            const double ridge = m_tensorPeak / bw;
            const QPointF r = toPixel(a, ridge, m_tensorPeak);
            painter.setPen(QPen(QColor(200, 60, 40), 1, Qt::DashLine));
            painter.drawLine(QPointF(r.x(), r.y()), QPointF(r.x(), a.plot.bottom()));
            painter.drawText(QPointF(r.x() + 4, a.plot.bottom() - 6), tr("ridge %1").arg(ridge, 0, 'f', 0));
        }
        const QString memory = tr("HBM %1 GB/s").arg(m_peaks->memoryGBps, 0, 'f', 0);
        const QPointF m = toPixel(a, std::pow(10.0, a.x0 + 0.3), std::pow(10.0, a.x0 + 0.3) * bw);
        painter.setPen(QColor(200, 60, 40));
        painter.drawText(QPointF(m.x() + 4, m.y() - 6), memory);
    }

    // Points, the largest first so that small ones stay visible on top.
    std::vector<size_t> order(m_points.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    // Measured points on top of the estimates they sit beside.
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
        if (m_points[x].measured != m_points[y].measured)
            return m_points[y].measured;
        return m_points[x].weight > m_points[y].weight;
    });
    for (size_t i : order) {
        const Point& p = m_points[i];
        if (p.intensity <= 0 || p.tflops <= 0)
            continue;
        QPointF c = toPixel(a, p.intensity, p.tflops);
        c.setY(std::min(c.y(), a.plot.bottom()));
        const double r = radius(p);
        QColor fill = boundColor(p.bound);
        fill.setAlpha(p.phase ? 0 : 150);
        const bool highlighted = p.id == m_highlighted && m_highlighted >= 0;
        painter.setPen(QPen(highlighted || p.measured ? text : boundColor(p.bound).darker(130),
                            highlighted ? 2.5 : (p.phase || p.measured ? 2 : 1)));
        painter.setBrush(fill);
        if (p.measured) {
            QPainterPath diamond;
            diamond.moveTo(c.x(), c.y() - r);
            diamond.lineTo(c.x() + r, c.y());
            diamond.lineTo(c.x(), c.y() + r);
            diamond.lineTo(c.x() - r, c.y());
            diamond.closeSubpath();
            painter.drawPath(diamond);
        } else {
            painter.drawEllipse(c, r, r);
        }
        if (p.phase) {
            painter.setPen(text);
            painter.drawText(QPointF(c.x() + r + 3, c.y() + fm.ascent() / 2.0), p.label);
        }
    }
    painter.setClipping(false);

    // Legend: what the colours and shapes say.
    double x = a.plot.left() + 8;
    const double y = a.plot.top() + fm.height();
    for (const auto& [bound, name] : {std::pair{Bound::Compute, tr("compute-bound")}, std::pair{Bound::Memory, tr("memory-bound")},
                                      std::pair{Bound::Latency, tr("latency-bound")}}) {
        painter.setPen(Qt::NoPen);
        QColor c = boundColor(bound);
        c.setAlpha(150);
        painter.setBrush(c);
        painter.drawEllipse(QPointF(x + 5, y - fm.ascent() / 2.0 + 1), 5, 5);
        painter.setPen(text);
        painter.drawText(QPointF(x + 14, y), name);
        x += 24 + fm.horizontalAdvance(name);
    }
    const QString shapes = tr("circle: estimate from shapes, diamond: Nsight Compute, ring: a phase");
    painter.drawText(QPointF(x + 8, y), shapes);
}

void RooflineChart::mouseMoveEvent(QMouseEvent* event) {
    const int i = pointAt(event->position().toPoint());
    if (i < 0) {
        QToolTip::hideText();
        return;
    }
    const Point& p = m_points[static_cast<size_t>(i)];
    QToolTip::showText(event->globalPosition().toPoint(),
                       tr("%1\n%2 FLOP/byte, %3 TFLOP/s%4")
                           .arg(p.label)
                           .arg(p.intensity, 0, 'g', 3)
                           .arg(p.tflops, 0, 'g', 3)
                           .arg(p.measured ? tr(" (measured by Nsight Compute)") : QString()),
                       this);
}

void RooflineChart::mousePressEvent(QMouseEvent* event) {
    const int i = pointAt(event->position().toPoint());
    if (i >= 0)
        emit pointClicked(m_points[static_cast<size_t>(i)].id);
}

} // namespace ws
