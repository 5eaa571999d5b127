#include "snapshot_timeline_view.h"

#include "format.h"

#include <QElapsedTimer>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace ws {

namespace {

constexpr int kLeft = 70;   // byte labels
constexpr int kTop = 18;    // peak label
constexpr int kBottom = 18; // time labels
constexpr int kRight = 8;

} // namespace

SnapshotTimelineView::SnapshotTimelineView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("snapshotTimeline"));
    setMouseTracking(true);
    setMinimumHeight(160);
    setToolTip(tr("Active memory: each live allocation is a band, stacked in allocation order. Click a band for "
                  "its stack and the allocator state at that time."));
}

void SnapshotTimelineView::setSnapshot(std::shared_ptr<const MemorySnapshot> snapshot, int16_t device) {
    m_snapshot = std::move(snapshot);
    m_timeline.reset();
    if (m_snapshot)
        m_timeline = SnapshotTimeline::build(*m_snapshot, device);
    m_hovered = 0;
    setWindow(std::nullopt);
}

void SnapshotTimelineView::setWindow(std::optional<std::pair<int64_t, int64_t>> window) {
    m_windowUs = window;
    if (window) {
        m_from = positionOf(window->first);
        m_to = std::max(positionOf(window->second), m_from + 1);
    } else if (m_snapshot && m_timeline) {
        // A little room on the right so the last state (often the OOM) is visible.
        m_from = m_byOrder ? 0 : m_snapshot->firstUs;
        const int64_t last = m_byOrder ? static_cast<int64_t>(m_timeline->changeCount()) : m_snapshot->lastUs;
        m_to = last + std::max<int64_t>((last - m_from) / 50, 1);
    }
    m_dirty = true;
    update();
}

void SnapshotTimelineView::setByOrder(bool byOrder) {
    if (byOrder == m_byOrder)
        return;
    m_byOrder = byOrder;
    setWindow(m_windowUs);
}

int64_t SnapshotTimelineView::positionOf(int64_t us) const {
    return m_byOrder && m_timeline ? static_cast<int64_t>(m_timeline->changeAt(us)) : us;
}

int SnapshotTimelineView::xOf(int64_t us) const {
    const QRect p = plotRect();
    return p.left() + static_cast<int>(static_cast<double>(positionOf(us) - m_from) / static_cast<double>(m_to - m_from) *
                                       p.width());
}

void SnapshotTimelineView::setMarker(std::optional<int64_t> us) {
    m_marker = us;
    update();
}

QRect SnapshotTimelineView::plotRect() const {
    return QRect(kLeft, kTop, std::max(width() - kLeft - kRight, 1), std::max(height() - kTop - kBottom, 1));
}

int64_t SnapshotTimelineView::timeAtX(int x) const {
    // The time of the state the column shows.
    const int column = std::clamp(x - plotRect().left(), 0, std::max(m_raster.width - 1, 0));
    return m_raster.columnUs.empty() ? 0 : m_raster.columnUs[static_cast<size_t>(column)];
}

QRgb SnapshotTimelineView::colorOf(uint32_t cell) const {
    if (cell == 0)
        return qRgb(255, 255, 255);
    if (cell == m_hovered)
        return qRgb(20, 20, 20);
    // By stack, so the allocations of one line share a colour; neighbours of different stacks
    // differ in hue.
    const uint32_t stack = m_snapshot->allocations[cell - 1].stack;
    const uint32_t h = stack * 2654435761u;
    return QColor::fromHsv(static_cast<int>(h % 360), 110 + static_cast<int>((h >> 9) % 90),
                           190 + static_cast<int>((h >> 17) % 50))
        .rgb();
}

void SnapshotTimelineView::rasterize() {
    const QRect p = plotRect();
    QElapsedTimer timer;
    timer.start();
    if (m_timeline)
        m_raster = m_timeline->rasterize(m_from, m_to, p.width(), p.height(), 0, m_byOrder);
    else
        m_raster = {};
    m_rasterMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    colorize();
    m_dirty = false;
}

void SnapshotTimelineView::colorize() {
    m_image = QImage(m_raster.width, m_raster.height, QImage::Format_RGB32);
    if (m_raster.width == 0 || m_raster.height == 0)
        return;
    for (int y = 0; y < m_raster.height; ++y) {
        auto* line = reinterpret_cast<QRgb*>(m_image.scanLine(m_raster.height - 1 - y));
        uint32_t last = UINT32_MAX;
        QRgb rgb = 0;
        for (int x = 0; x < m_raster.width; ++x) {
            const uint32_t cell = m_raster.at(x, y);
            if (cell != last) {
                rgb = colorOf(cell);
                last = cell;
            }
            line[x] = rgb;
        }
    }
}

void SnapshotTimelineView::paintEvent(QPaintEvent*) {
    QElapsedTimer timer;
    timer.start();
    if (m_dirty)
        rasterize();
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    const QRect p = plotRect();
    if (!m_snapshot || m_raster.width == 0) {
        painter.drawText(rect(), Qt::AlignCenter, tr("No allocations in this snapshot's trace."));
        return;
    }
    painter.drawImage(p.topLeft(), m_image);
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawRect(p.adjusted(0, 0, -1, -1));
    // Scale: the top of the plot and the middle.
    painter.setPen(palette().color(QPalette::Text));
    const QFontMetrics fm(font());
    painter.drawText(QRect(0, p.top() - fm.height() / 2, kLeft - 6, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                     formatBytes(m_raster.maxBytes));
    painter.drawText(QRect(0, p.center().y() - fm.height() / 2, kLeft - 6, fm.height()),
                     Qt::AlignRight | Qt::AlignVCenter, formatBytes(m_raster.maxBytes / 2));
    painter.drawText(QRect(0, p.bottom() - fm.height() / 2, kLeft - 6, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                     QStringLiteral("0"));
    // Times from the trace start, at both ends (by order, the times of the first and last states).
    const int64_t origin = m_snapshot->firstUs;
    painter.drawText(QRect(p.left(), p.bottom() + 2, p.width(), kBottom - 2), Qt::AlignLeft | Qt::AlignVCenter,
                     formatDuration((m_raster.columnUs.front() - origin) * 1000));
    painter.drawText(QRect(p.left(), p.bottom() + 2, p.width(), kBottom - 2), Qt::AlignRight | Qt::AlignVCenter,
                     (m_byOrder ? tr("trace order, to %1") : QStringLiteral("%1"))
                         .arg(formatDuration((m_raster.columnUs.back() - origin) * 1000)));
    const int64_t peak = *std::max_element(m_raster.columnBytes.begin(), m_raster.columnBytes.end());
    painter.drawText(QRect(p.left(), 0, p.width(), kTop), Qt::AlignLeft | Qt::AlignVCenter,
                     tr("Active memory, peak %1 in view").arg(formatBytes(peak)));
    auto visible = [&](int64_t us) { return positionOf(us) >= m_from && positionOf(us) <= m_to; };
    for (const SnapshotOom& o : m_snapshot->ooms) {
        if (o.device != m_timeline->device() || !visible(o.timeUs))
            continue;
        const int x = xOf(o.timeUs);
        painter.setPen(QPen(QColor(200, 30, 30), 2));
        painter.drawLine(x, p.top(), x, p.bottom());
        painter.drawText(QRect(x - 200, 0, 196, kTop), Qt::AlignRight | Qt::AlignVCenter,
                         tr("OOM: %1 requested").arg(formatBytes(o.size)));
    }
    if (m_marker && visible(*m_marker)) {
        painter.setPen(QPen(palette().color(QPalette::Highlight), 1, Qt::DashLine));
        const int x = xOf(*m_marker);
        painter.drawLine(x, p.top(), x, p.bottom());
    }
    m_paintMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

void SnapshotTimelineView::resizeEvent(QResizeEvent* event) {
    m_dirty = true;
    QWidget::resizeEvent(event);
}

std::optional<uint32_t> SnapshotTimelineView::allocationAt(QPoint pos) const {
    const QRect p = plotRect();
    if (!p.contains(pos) || m_dirty || m_raster.width != p.width() || m_raster.height != p.height())
        return std::nullopt;
    const uint32_t cell = m_raster.at(pos.x() - p.left(), p.bottom() - pos.y());
    return cell ? std::optional<uint32_t>(cell - 1) : std::nullopt;
}

void SnapshotTimelineView::mouseMoveEvent(QMouseEvent* event) {
    const std::optional<uint32_t> a = allocationAt(event->position().toPoint());
    const uint32_t hovered = a ? *a + 1 : 0;
    if (hovered != m_hovered) {
        m_hovered = hovered;
        colorize(); // one recolouring pass over the pixels, no new rasterization
        update();
    }
    if (!a) {
        QToolTip::hideText();
        return;
    }
    const SnapshotAllocation& al = m_snapshot->allocations[*a];
    const int64_t origin = m_snapshot->firstUs;
    const QString from = al.allocUs == SnapshotAllocation::kBeforeTrace ? tr("before the trace")
                                                                        : formatDuration((al.allocUs - origin) * 1000);
    const QString to = al.freeUs == SnapshotAllocation::kNeverFreed ? tr("still live at the end")
                                                                    : formatDuration((al.freeUs - origin) * 1000);
    const std::string label = m_snapshot->stackLabel(al.stack);
    QToolTip::showText(event->globalPosition().toPoint(),
                       tr("%1 at 0x%2\nallocated %3, freed %4\n%5")
                           .arg(formatBytes(al.size), QString::number(static_cast<qulonglong>(al.addr), 16), from, to,
                                label.empty() ? tr("(no stack recorded)") : QString::fromStdString(label)),
                       this);
}

void SnapshotTimelineView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return;
    const QPoint pos = event->position().toPoint();
    if (!plotRect().contains(pos))
        return;
    emit timeClicked(timeAtX(pos.x()));
    if (const std::optional<uint32_t> a = allocationAt(pos))
        emit allocationClicked(*a);
}

void SnapshotTimelineView::leaveEvent(QEvent* event) {
    if (m_hovered) {
        m_hovered = 0;
        colorize();
        update();
    }
    QWidget::leaveEvent(event);
}

} // namespace ws
