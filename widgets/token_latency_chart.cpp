#include "token_latency_chart.h"

#include "format.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <array>
#include <cmath>

namespace ws {

namespace {

constexpr int kBins = 24;

} // namespace

TokenLatencyChart::TokenLatencyChart(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("tokenLatencyChart"));
    setMouseTracking(true);
    setMinimumHeight(140);
}

void TokenLatencyChart::setBars(std::vector<Bar> bars, int64_t p50Ns, int64_t p99Ns) {
    m_bars = std::move(bars);
    m_p50 = p50Ns;
    m_p99 = p99Ns;
    update();
}

QRectF TokenLatencyChart::seriesRect() const {
    const QFontMetrics fm(font());
    const double left = fm.horizontalAdvance(QStringLiteral("000.0 ms")) + 8;
    return QRectF(left, fm.height() + 6, std::max(10.0, width() * 0.75 - left), std::max(10.0, height() - 2.0 * fm.height() - 14));
}

QRectF TokenLatencyChart::histogramRect() const {
    const QRectF s = seriesRect();
    return QRectF(s.right() + 16, s.top(), std::max(10.0, width() - s.right() - 24), s.height());
}

// The decodes' latency the axis goes to: the p99 with room, so that one slow token (the first
// decode after a warm-up) does not flatten the rest; taller bars are cut at the top.
int64_t TokenLatencyChart::maxDecodeNs() const {
    int64_t longest = 0;
    for (const Bar& b : m_bars)
        if (!b.prefill)
            longest = std::max(longest, b.latencyNs);
    return std::max<int64_t>(1, std::min(longest, std::max<int64_t>(m_p99 * 3 / 2, m_p50 * 3)));
}

int TokenLatencyChart::barAt(const QPoint& pos) const {
    const QRectF r = seriesRect();
    if (m_bars.empty() || !r.adjusted(0, -4, 0, 4).contains(pos))
        return -1;
    const double w = r.width() / static_cast<double>(m_bars.size());
    const int i = static_cast<int>((pos.x() - r.left()) / w);
    return i >= 0 && i < static_cast<int>(m_bars.size()) ? i : -1;
}

void TokenLatencyChart::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const QColor text = palette().color(QPalette::Text);
    const QFontMetrics fm(font());
    const QRectF r = seriesRect(), h = histogramRect();
    p.setPen(text);
    p.drawText(QPointF(r.left(), fm.ascent() + 2), tr("Time per output token, decode by decode"));
    p.drawText(QPointF(h.left(), fm.ascent() + 2), tr("Distribution"));
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(r);
    p.drawRect(h);
    if (m_bars.empty())
        return;
    const double top = static_cast<double>(maxDecodeNs());
    auto yOf = [&](double ns) { return r.bottom() - std::min(1.0, ns / top) * r.height(); };
    const double w = r.width() / static_cast<double>(m_bars.size());
    for (size_t i = 0; i < m_bars.size(); ++i) {
        const Bar& b = m_bars[i];
        const double x = r.left() + w * static_cast<double>(i);
        if (b.prefill) {
            p.fillRect(QRectF(x, r.top(), std::max(1.0, w * 0.3), r.height()), QColor(214, 39, 40, 120));
            continue;
        }
        const double y = yOf(static_cast<double>(b.latencyNs));
        const bool cut = static_cast<double>(b.latencyNs) > top;
        p.fillRect(QRectF(x, y, std::max(1.0, w * 0.8), r.bottom() - y), cut ? QColor(214, 96, 30) : QColor(41, 112, 196));
    }
    auto line = [&](int64_t ns, const QString& name) {
        if (ns <= 0)
            return;
        const double y = yOf(static_cast<double>(ns));
        p.setPen(QPen(text, 1, Qt::DashLine));
        p.drawLine(QPointF(r.left(), y), QPointF(r.right(), y));
        const QString label = QStringLiteral("%1 %2").arg(name, formatDuration(ns));
        const QRectF box(r.right() - fm.horizontalAdvance(label) - 8, y - fm.height() - 1, fm.horizontalAdvance(label) + 6,
                         fm.height());
        p.fillRect(box, palette().base()); // readable over the bars
        p.drawText(QPointF(box.left() + 3, y - 3 - fm.descent() / 2.0), label);
    };
    line(m_p50, tr("p50"));
    line(m_p99, tr("p99"));
    p.setPen(text);
    const QString topText = formatDuration(static_cast<int64_t>(top));
    p.drawText(QPointF(r.left() - fm.horizontalAdvance(topText) - 4, r.top() + fm.ascent()), topText);
    p.drawText(QPointF(r.left() - fm.horizontalAdvance(QStringLiteral("0")) - 4, r.bottom()), QStringLiteral("0"));

    // The histogram: decodes per latency bin up to the same top, the tallest bin full width.
    std::array<int, kBins + 1> bins{};
    for (const Bar& b : m_bars)
        if (!b.prefill)
            ++bins[std::min<size_t>(kBins, static_cast<size_t>(static_cast<double>(b.latencyNs) / top * kBins))];
    bins[kBins - 1] += bins[kBins]; // the cut ones in the top bin
    const int tallest = std::max(1, *std::max_element(bins.begin(), bins.end() - 1));
    const double bh = h.height() / kBins;
    for (int k = 0; k < kBins; ++k) {
        const double len = h.width() * bins[static_cast<size_t>(k)] / tallest;
        p.fillRect(QRectF(h.left(), h.bottom() - bh * (k + 1), len, std::max(1.0, bh - 1)), QColor(41, 112, 196, 170));
    }
}

void TokenLatencyChart::mouseMoveEvent(QMouseEvent* event) {
    const int i = barAt(event->position().toPoint());
    if (i < 0) {
        QToolTip::hideText();
        return;
    }
    const Bar& b = m_bars[static_cast<size_t>(i)];
    QToolTip::showText(event->globalPosition().toPoint(),
                       b.prefill ? tr("Prefill (forward %1): a request starts").arg(b.id)
                                 : tr("Decode (forward %1): %2 for its token").arg(b.id).arg(formatDuration(b.latencyNs)),
                       this);
}

void TokenLatencyChart::mousePressEvent(QMouseEvent* event) {
    const int i = barAt(event->position().toPoint());
    if (i >= 0)
        emit stepClicked(m_bars[static_cast<size_t>(i)].id);
}

} // namespace ws
