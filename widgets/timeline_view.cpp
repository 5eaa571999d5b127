#include "timeline_view.h"

#include "bookmark_model.h"
#include "format.h"
#include "analysis/recorded_spans.h"
#include "index/time_ticks.h"
#include "model/session.h"
#include "timeline_palette.h"

#include <QApplication>
#include <QHelpEvent>
#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <map>

namespace ws {

namespace {

constexpr double kZoomStep = 1.25;
const QColor kBackground(250, 250, 251);
const QColor kGroupBackground(236, 238, 242);
const QColor kGutterBackground(244, 245, 247);
const QColor kGridLine(0, 0, 0, 18);
const QColor kSelection(255, 140, 0);
const QColor kRangeShade(66, 133, 244, 40);
const QColor kMarkShade(230, 126, 34, 60);
const QColor kUnrecordedHatch(120, 120, 120); // time a capture did not record (cudaProfilerStart/Stop)

// Kernel names are long demangled C++ signatures; the timeline shows the function name and keeps the
// full text for the tooltip and details.
QString shortName(std::string_view name) {
    std::string_view s = name;
    if (s.starts_with("void "))
        s.remove_prefix(5);
    size_t cut = s.size();
    int depth = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '<' || s[i] == '(') {
            if (depth == 0 && i > 0) {
                cut = i;
                break;
            }
            ++depth;
        }
    }
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(cut));
}

// Names of the derived counters (core/analysis/gpu_counters), listed so lupdate sees them.
[[maybe_unused]] const char* const kDerivedCounterNames[] = {
    QT_TRANSLATE_NOOP("ws::DerivedCounter", "GPU Utilization"),
    QT_TRANSLATE_NOOP("ws::DerivedCounter", "Est. SM Efficiency"),
    QT_TRANSLATE_NOOP("ws::DerivedCounter", "Est. CU Efficiency"),
    QT_TRANSLATE_NOOP("ws::DerivedCounter", "GPU Memory Allocated"),
    QT_TRANSLATE_NOOP("ws::DerivedCounter", "GPU Memory Reserved"),
    QT_TRANSLATE_NOOP("ws::DerivedCounter", "CPU Memory Allocated"),
    QT_TRANSLATE_NOOP("ws::DerivedCounter", "CPU Memory Reserved"),
    QT_TRANSLATE_NOOP("ws::DerivedCounter", "GPU Memory (net allocations)"),
    QT_TRANSLATE_NOOP("ws::DerivedCounter", "CPU Memory (net allocations)"),
    QT_TRANSLATE_NOOP("ws::DerivedCounter", "Inference Phase"),
    QT_TRANSLATE_NOOP("ws::DerivedCounter", "Time per Output Token (ms)"),
};

} // namespace

TimelineView::TimelineView(TimeViewport* timeViewport, QWidget* parent)
    : QAbstractScrollArea(parent), m_time(timeViewport) {
    setObjectName(QStringLiteral("timelineView"));
    setFocusPolicy(Qt::StrongFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    setFrameShape(QFrame::NoFrame);
    connect(m_time, &TimeViewport::viewChanged, viewport(), qOverload<>(&QWidget::update));
    connect(m_time, &TimeViewport::selectedSliceChanged, this, [this] {
        collectSelectedFlows();
        viewport()->update();
    });
    connect(m_time, &TimeViewport::selectedRangeChanged, viewport(), qOverload<>(&QWidget::update));
    connect(m_time, &TimeViewport::markedRangesChanged, viewport(), qOverload<>(&QWidget::update));
    connect(verticalScrollBar(), &QScrollBar::valueChanged, viewport(), qOverload<>(&QWidget::update));
}

TimelineView::~TimelineView() = default;

void TimelineView::setSession(std::shared_ptr<const Session> session) {
    m_session = std::move(session);
    m_names.clear();
    m_colors.clear();
    m_selectedFlows.clear();
    m_counters.clear();
    m_added.clear();
    m_queryTracks.clear(); // made from the old model's rows
    m_layout.setQueryTracks({});
    if (!m_session)
        return;
    buildCounterSources();
    std::vector<uint32_t> counterProcesses;
    for (const CounterSource& c : m_counters)
        counterProcesses.push_back(c.process);
    m_layout.build(*m_session, counterProcesses);
    m_time->setWidthPx(std::max(1, viewport()->width() - kGutterWidth));
    m_time->setSessionRange(m_session->startNs(), m_session->endNs());
    // A capture that recorded only between cudaProfilerStart and Stop opens on what it recorded, not
    // on the samplers' seconds around it (Zoom to Fit still shows everything).
    m_unrecorded.clear();
    if (const std::vector<RecordedSpan> spans = recordedSpans(*m_session); !spans.empty()) {
        m_time->showRange(spans.front().start, spans.back().end);
        int64_t from = m_session->startNs();
        for (const RecordedSpan& sp : spans) {
            if (sp.start > from)
                m_unrecorded.emplace_back(from, sp.start);
            from = std::max(from, sp.end);
        }
        if (m_session->endNs() > from)
            m_unrecorded.emplace_back(from, m_session->endNs());
    }
    buildOverview();
    updateScrollRange();
    viewport()->update();
}

void TimelineView::buildCounterSources() {
    auto text = [this](StringId id) {
        const std::string_view v = m_session->str(id);
        return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size()));
    };
    for (const CounterSeries& c : m_session->counters()) {
        if (c.ts.empty())
            continue;
        CounterSource src;
        src.process = c.process;
        src.label = text(c.name);
        if (!m_session->str(c.series).empty())
            src.label += QStringLiteral(" · ") + text(c.series);
        src.ts = c.ts;
        src.value = c.value;
        src.bytes = m_session->str(c.series) == "B"; // captures name the unit in the series
        m_counters.push_back(std::move(src));
    }
    m_derived = deriveCounters(*m_session);
    for (const DerivedCounter& d : m_derived) {
        CounterSource src;
        src.process = d.process;
        src.label = QCoreApplication::translate("ws::DerivedCounter", d.name.c_str());
        src.ts = d.ts;
        src.value = d.value;
        src.bytes = d.unit == DerivedCounter::Unit::Bytes;
        m_counters.push_back(std::move(src));
    }
    for (CounterSource& c : m_counters) {
        c.lod.build(c.ts, c.value);
        const auto [mn, mx] = std::minmax_element(c.value.begin(), c.value.end());
        c.min = std::min(0.0, *mn);
        c.max = *mx;
    }
}

void TimelineView::addDerivedCounters(std::vector<DerivedCounter> counters) {
    if (!m_session || counters.empty())
        return;
    std::map<uint32_t, std::pair<bool, bool>> state; // process -> collapsed, pinned
    for (const TimelineLayout::Group& g : m_layout.groups())
        state[g.process] = {g.collapsed, g.pinned};
    for (DerivedCounter& d : counters) {
        if (d.ts.empty())
            continue;
        m_added.push_back(std::move(d));
        const DerivedCounter& kept = m_added.back();
        CounterSource src;
        src.process = kept.process;
        src.label = QCoreApplication::translate("ws::DerivedCounter", kept.name.c_str());
        src.ts = kept.ts;
        src.value = kept.value;
        src.bytes = kept.unit == DerivedCounter::Unit::Bytes;
        src.lod.build(src.ts, src.value);
        const auto [mn, mx] = std::minmax_element(src.value.begin(), src.value.end());
        src.min = std::min(0.0, *mn);
        src.max = *mx;
        m_counters.push_back(std::move(src));
    }
    std::vector<uint32_t> counterProcesses;
    for (const CounterSource& c : m_counters)
        counterProcesses.push_back(c.process);
    m_layout.build(*m_session, counterProcesses);
    for (int g = 0; g < static_cast<int>(m_layout.groups().size()); ++g)
        if (const auto it = state.find(m_layout.groups()[static_cast<size_t>(g)].process); it != state.end()) {
            m_layout.setCollapsed(g, it->second.first);
            m_layout.setPinned(g, it->second.second);
        }
    updateScrollRange();
    viewport()->update();
}

void TimelineView::buildOverview() {
    // GPU busy fraction per bucket of the whole session: the overview strip's shading.
    constexpr size_t kBuckets = 2048;
    m_overview.assign(kBuckets, 0.f);
    const double span = static_cast<double>(std::max<int64_t>(1, m_session->endNs() - m_session->startNs()));
    const double bucketNs = span / kBuckets;
    for (const Track& t : m_session->tracks()) {
        if (!t.gpu || t.rowCount() == 0)
            continue;
        for (uint32_t i = t.rowBegin[0]; i < t.rowBegin[1]; ++i) {
            double a = static_cast<double>(t.start[i] - m_session->startNs()) / bucketNs;
            const double b = static_cast<double>(t.end(i) - m_session->startNs()) / bucketNs;
            while (a < b && a < kBuckets) {
                const double next = std::min(b, std::floor(a) + 1);
                m_overview[static_cast<size_t>(std::max(0.0, a))] += static_cast<float>(next - a);
                a = next;
            }
        }
    }
    const float top = std::max(1.f, *std::max_element(m_overview.begin(), m_overview.end()));
    for (float& v : m_overview)
        v = std::min(1.f, v / top);
}

void TimelineView::updateScrollRange() {
    const int visible = std::max(0, viewport()->height() - kTopHeight - m_layout.pinnedHeight());
    verticalScrollBar()->setRange(0, std::max(0, m_layout.totalHeight() - m_layout.pinnedHeight() - visible));
    verticalScrollBar()->setPageStep(visible);
    verticalScrollBar()->setSingleStep(TimelineLayout::kSliceHeight);
}

void TimelineView::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    m_time->setWidthPx(std::max(1, viewport()->width() - kGutterWidth));
    updateScrollRange();
}

const TimelineView::NameCache& TimelineView::displayName(uint32_t nameId) {
    auto it = m_names.find(nameId);
    if (it == m_names.end()) {
        NameCache c;
        c.text = shortName(m_session->str(nameId));
        c.width = fontMetrics().horizontalAdvance(c.text);
        it = m_names.insert(nameId, c);
    }
    return *it;
}

void TimelineView::setBookmarks(const BookmarkModel* bookmarks) {
    if (m_bookmarks)
        disconnect(m_bookmarks, nullptr, this, nullptr);
    m_bookmarks = bookmarks;
    if (m_bookmarks) {
        auto repaint = [this] { viewport()->update(); };
        connect(m_bookmarks, &QAbstractItemModel::modelReset, this, repaint);
        connect(m_bookmarks, &QAbstractItemModel::rowsInserted, this, repaint);
        connect(m_bookmarks, &QAbstractItemModel::rowsRemoved, this, repaint);
        connect(m_bookmarks, &QAbstractItemModel::dataChanged, this, repaint);
    }
    viewport()->update();
}

void TimelineView::relayoutRows() {
    updateScrollRange();
    viewport()->update();
}

void TimelineView::setAllCollapsed(bool collapsed) {
    m_layout.setAllCollapsed(collapsed);
    updateScrollRange();
    viewport()->update();
}

QColor TimelineView::sliceColor(const Track& track, uint32_t slice) {
    const EventKind kind = m_session->kindOf(track, slice);
    const uint64_t key = uint64_t(track.names[slice]) << 8 | static_cast<uint8_t>(kind);
    auto it = m_colors.find(key);
    if (it == m_colors.end())
        it = m_colors.insert(key, TimelinePalette::sliceColor(kind, m_session->str(track.names[slice])).rgb());
    return QColor::fromRgb(*it);
}

void TimelineView::renderTo(QImage& image) {
    QPainter p(&image);
    paintAll(p, QRect(QPoint(0, 0), image.size()));
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(viewport());
    paintAll(p, viewport()->rect());
}

void TimelineView::paintAll(QPainter& p, const QRect& area) {
    p.fillRect(area, kBackground);
    if (!m_session)
        return;
    p.setFont(font());
    paintRows(p, area);
    paintUnrecorded(p, area);
    paintSelection(p, area);
    paintFlows(p, area);
    paintLabels(p, area);
    paintOverview(p, area.width());
    paintRuler(p, area.width());
    paintCursor(p, area);
}

void TimelineView::paintOverview(QPainter& p, int width) {
    const QRect strip(kGutterWidth, 0, width - kGutterWidth, kOverviewHeight);
    p.fillRect(QRect(0, 0, width, kOverviewHeight), kGutterBackground);
    p.setPen(QColor(90, 90, 90));
    p.drawText(QRect(8, 0, kGutterWidth - 16, kOverviewHeight), Qt::AlignVCenter | Qt::AlignLeft, tr("GPU activity"));
    if (strip.width() <= 0 || m_overview.empty())
        return;
    const double buckets = static_cast<double>(m_overview.size());
    for (int x = 0; x < strip.width(); ++x) {
        const size_t a = static_cast<size_t>(x * buckets / strip.width());
        const size_t b = std::max(a + 1, static_cast<size_t>((x + 1) * buckets / strip.width()));
        float v = 0;
        for (size_t i = a; i < b && i < m_overview.size(); ++i)
            v = std::max(v, m_overview[i]);
        if (v > 0) {
            const int h = std::max(1, static_cast<int>(v * (kOverviewHeight - 4)));
            p.fillRect(strip.x() + x, kOverviewHeight - 2 - h, 1, h, QColor(118, 185, 0));
        }
    }
    // The visible window over the whole session.
    const double span = static_cast<double>(std::max<int64_t>(1, m_session->endNs() - m_session->startNs()));
    const double x0 = (static_cast<double>(m_time->t0() - m_session->startNs()) / span) * strip.width();
    const double x1 = (static_cast<double>(m_time->t1() - m_session->startNs()) / span) * strip.width();
    const QRectF window(strip.x() + std::max(0.0, x0), 1, std::max(2.0, std::min<double>(strip.width(), x1) - std::max(0.0, x0)),
                        kOverviewHeight - 2);
    p.fillRect(window, QColor(66, 133, 244, 50));
    p.setPen(QColor(66, 133, 244));
    p.drawRect(window);
}

void TimelineView::paintRuler(QPainter& p, int width) {
    const QRect ruler(0, kOverviewHeight, width, kRulerHeight);
    p.fillRect(ruler, QColor(252, 252, 253));
    p.setPen(QColor(200, 202, 206));
    p.drawLine(0, kTopHeight - 1, width, kTopHeight - 1);
    p.drawLine(0, kOverviewHeight, width, kOverviewHeight);
    const TimeTicks ticks = computeTicks(m_session->startNs(), m_time->t0(), m_time->t1(), m_time->nsPerPx(), 90);
    p.setPen(QColor(70, 70, 70));
    for (int64_t t : ticks.times) {
        const int x = static_cast<int>(std::lround(timeX(t)));
        if (x < kGutterWidth)
            continue;
        p.drawLine(x, kTopHeight - 8, x, kTopHeight - 1);
        p.drawText(x + 3, kOverviewHeight + 15,
                   QString::fromStdString(formatTickLabel(t - m_session->startNs(), ticks.step)));
    }
    // Minor ticks: a fifth of the step when they stay 8 px apart.
    const double minor = static_cast<double>(ticks.step) / 5 / m_time->nsPerPx();
    if (minor >= 8 && !ticks.times.empty()) {
        p.setPen(QColor(160, 160, 160));
        for (double x = timeX(ticks.times.front()) - 5 * minor; x < width; x += minor)
            if (x >= kGutterWidth)
                p.drawLine(QPointF(x, kTopHeight - 4), QPointF(x, kTopHeight - 1));
    }
    // Bookmarks: a flag on the ruler with the start of its note.
    if (m_bookmarks) {
        const QColor flag(230, 120, 0);
        for (const Bookmark& b : m_bookmarks->bookmarks()) {
            const double x = timeX(b.ts);
            if (x < kGutterWidth || x > width)
                continue;
            const QPointF tip(x, kTopHeight - 1);
            const QPointF tri[3] = {tip, tip + QPointF(-5, -9), tip + QPointF(5, -9)};
            p.setPen(Qt::NoPen);
            p.setBrush(flag);
            p.drawPolygon(tri, 3);
            p.setBrush(Qt::NoBrush);
            p.setPen(flag.darker(140));
            p.drawText(QPointF(x + 6, kTopHeight - 3),
                       fontMetrics().elidedText(QString::fromStdString(b.note), Qt::ElideRight, 140));
        }
    }
    p.fillRect(QRect(0, kOverviewHeight, kGutterWidth, kRulerHeight), kGutterBackground);
    p.setPen(QColor(90, 90, 90));
    p.drawText(QRect(8, kOverviewHeight, kGutterWidth - 16, kRulerHeight), Qt::AlignVCenter | Qt::AlignLeft,
               tr("%1 visible").arg(formatDuration(m_time->t1() - m_time->t0())));
}

template <typename F>
void TimelineView::forEachVisibleRow(QPainter& p, const QRect& clipBase, int height, F&& paintRow) {
    // Two bands: the pinned rows at fixed positions, then the scrolled rows clipped below them.
    const auto& rows = m_layout.rows();
    const int pinned = m_layout.pinnedHeight();
    const int bands[2][2] = {{kTopHeight, kTopHeight + pinned}, {kTopHeight + pinned, height}};
    for (int b = 0; b < 2; ++b) {
        const int* band = bands[b];
        if (band[1] <= band[0])
            continue;
        p.save();
        p.setClipRect(QRect(clipBase.x(), band[0], clipBase.width(), band[1] - band[0]));
        for (size_t r = static_cast<size_t>(std::max(0, m_layout.rowAt(contentY(band[0])))); r < rows.size(); ++r) {
            const int y = viewY(rows[r].y);
            if (y >= band[1] || (b == 0 && rows[r].y >= pinned))
                break;
            paintRow(rows[r], y);
        }
        p.restore();
    }
    if (pinned > 0) {
        p.setPen(QColor(150, 155, 165));
        p.drawLine(clipBase.x(), kTopHeight + pinned, clipBase.right(), kTopHeight + pinned);
    }
}

void TimelineView::paintRows(QPainter& p, const QRect& area) {
    const int width = area.width();
    p.save();
    p.setClipRect(QRect(kGutterWidth, kTopHeight, width - kGutterWidth, area.height() - kTopHeight));
    // Vertical grid lines at the ruler's ticks.
    const TimeTicks ticks = computeTicks(m_session->startNs(), m_time->t0(), m_time->t1(), m_time->nsPerPx(), 90);
    p.setPen(kGridLine);
    for (int64_t t : ticks.times) {
        const int x = static_cast<int>(std::lround(timeX(t)));
        p.drawLine(x, kTopHeight, x, area.height());
    }
    p.restore();
    const QRect rowsArea(kGutterWidth, kTopHeight, width - kGutterWidth, area.height() - kTopHeight);
    forEachVisibleRow(p, rowsArea, area.height(), [&](const TimelineLayout::Row& row, int y) {
        switch (row.kind) {
        case TimelineLayout::RowKind::GroupHeader: {
            const auto& group = m_layout.groups()[static_cast<size_t>(row.group)];
            p.fillRect(QRect(kGutterWidth, y, width - kGutterWidth, row.height), kGroupBackground);
            if (group.collapsed)
                paintGroupSummary(p, group, y + 3, row.height - 6, width);
            break;
        }
        case TimelineLayout::RowKind::Slices:
            paintSliceRow(p, row, y, width);
            break;
        case TimelineLayout::RowKind::Instants:
            paintInstantRow(p, row, y, width);
            break;
        case TimelineLayout::RowKind::Counter:
            paintCounterRow(p, row, y, width);
            break;
        case TimelineLayout::RowKind::Query:
            paintQueryRow(p, row, y, width);
            break;
        }
    });
}

void TimelineView::addQueryTrack(QueryTrack track) {
    m_queryTracks.push_back(std::move(track));
    layoutQueryTracks();
}

void TimelineView::clearQueryTracks() {
    m_queryTracks.clear();
    layoutQueryTracks();
}

void TimelineView::layoutQueryTracks() {
    std::vector<uint32_t> lanes;
    for (const QueryTrack& t : m_queryTracks)
        lanes.push_back(static_cast<uint32_t>(std::max<size_t>(1, t.lanes.size())));
    m_layout.setQueryTracks(std::move(lanes));
    updateScrollRange();
    viewport()->update();
}

void TimelineView::paintQueryRow(QPainter& p, const TimelineLayout::Row& row, int y, int width) {
    const QueryTrack& track = m_queryTracks[row.counter];
    if (row.trackRow >= track.lanes.size())
        return;
    const QueryTrack::Lane& lane = track.lanes[row.trackRow];
    m_items.clear();
    const LodWindow window{m_time->t0(), m_time->t1(), m_time->nsPerPx(), 3.0};
    foldRow(std::span<const int64_t>(lane.start), std::span<const int64_t>(lane.dur), window, m_items);
    // One colour per query track, from the palette's hues, so two tracks read apart.
    const QColor color = QColor::fromHsv(static_cast<int>((row.counter * 67 + 280) % 360), 130, 200);
    const int h = row.height - 2;
    const QFontMetrics& fm = fontMetrics();
    const int textY = y + 1 + (h + fm.ascent() - fm.descent()) / 2;
    for (const LodItem& item : m_items) {
        const double x0 = std::max<double>(kGutterWidth - 1, timeX(item.start));
        const double x1 = std::min<double>(width + 2, std::max(x0 + 1, timeX(item.end)));
        const QRectF box(x0, y + 1, x1 - x0, h);
        p.fillRect(box, item.folded ? color.darker(130) : color);
        if (item.folded || box.width() < 24)
            continue;
        p.save();
        p.setClipRect(box, Qt::IntersectClip);
        p.setPen(TimelinePalette::textColorOn(color));
        p.drawText(QPointF(box.x() + 3, textY), track.intervals[lane.interval[item.first]].label);
        p.restore();
    }
}

const QueryTrack::Interval* TimelineView::queryIntervalAt(const QPoint& pos) const {
    if (!m_session || pos.x() < kGutterWidth || pos.y() < kTopHeight)
        return nullptr;
    const int r = m_layout.rowAt(contentY(pos.y()));
    if (r < 0)
        return nullptr;
    const auto& row = m_layout.rows()[static_cast<size_t>(r)];
    if (row.kind != TimelineLayout::RowKind::Query)
        return nullptr;
    const int64_t time = m_time->timeForX(pos.x() - kGutterWidth);
    return m_queryTracks[row.counter].at(row.trackRow, time, static_cast<int64_t>(2 * m_time->nsPerPx()));
}

void TimelineView::paintSliceRow(QPainter& p, const TimelineLayout::Row& row, int y, int width) {
    const Track& t = m_session->tracks()[row.track];
    const uint32_t begin = t.rowBegin[row.trackRow];
    const uint32_t end = t.rowBegin[row.trackRow + 1];
    const std::span<const int64_t> starts(t.start.data() + begin, end - begin);
    const std::span<const int64_t> durs(t.dur.data() + begin, end - begin);
    m_items.clear();
    const LodWindow window{m_time->t0(), m_time->t1(), m_time->nsPerPx(), 3.0};
    foldRow(starts, durs, window, m_items);
    const int h = row.height - 2;
    const double maxX = width + 2;
    const QFontMetrics& fm = fontMetrics();
    const int textY = y + 1 + (h + fm.ascent() - fm.descent()) / 2;
    for (const LodItem& item : m_items) {
        const double x0 = std::max<double>(kGutterWidth - 1, timeX(item.start));
        const double x1 = std::min(maxX, std::max(x0 + 1, timeX(item.end)));
        const QRectF box(x0, y + 1, x1 - x0, h);
        if (item.folded) {
            // A fold takes the darkened colour of its middle slice (a cheap stand-in for the
            // majority): dense kernels stay green, dense NCCL orange, and the box reads as "many".
            const uint32_t middle = begin + item.first + item.count / 2;
            p.fillRect(box, TimelinePalette::foldColor(sliceColor(t, middle)));
            if (box.width() > 60 && item.count > 1) {
                p.setPen(QColor(245, 245, 245));
                p.drawText(box.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                           tr("%n events", nullptr, static_cast<int>(item.count)));
            }
            continue;
        }
        const uint32_t slice = begin + item.first;
        const uint32_t nameId = t.names[slice];
        const QColor color = sliceColor(t, slice);
        p.fillRect(box, color);
        if (box.width() >= 24) {
            const NameCache& name = displayName(nameId);
            const int avail = static_cast<int>(box.width()) - 6;
            p.setPen(TimelinePalette::textColorOn(color));
            if (name.width <= avail) {
                p.drawText(QPointF(box.x() + 3, textY), name.text);
            } else {
                // Cheap truncation by average advance; the clip keeps it inside the box.
                const int chars = std::max(1, static_cast<int>(name.text.size() * avail / std::max(1, name.width)) - 1);
                p.save();
                p.setClipRect(box, Qt::IntersectClip);
                p.drawText(QPointF(box.x() + 3, textY), name.text.left(chars) + QChar(0x2026));
                p.restore();
            }
        }
    }
}

void TimelineView::paintGroupSummary(QPainter& p, const TimelineLayout::Group& group, int y, int height, int width) {
    // Collapsed: the depth-0 rows of all tracks folded on top of each other, as a density strip.
    const LodWindow window{m_time->t0(), m_time->t1(), m_time->nsPerPx(), 1.0};
    const QColor color = group.gpu ? QColor(118, 185, 0, 170) : QColor(90, 120, 170, 150);
    for (uint32_t ti : group.tracks) {
        const Track& t = m_session->tracks()[ti];
        if (t.rowCount() == 0)
            continue;
        const std::span<const int64_t> starts(t.start.data(), t.rowBegin[1]);
        const std::span<const int64_t> durs(t.dur.data(), t.rowBegin[1]);
        m_items.clear();
        foldRow(starts, durs, window, m_items);
        for (const LodItem& item : m_items) {
            const double x0 = std::max<double>(kGutterWidth, timeX(item.start));
            const double x1 = std::min<double>(width, std::max(x0 + 1, timeX(item.end)));
            p.fillRect(QRectF(x0, y, x1 - x0, height), color);
        }
    }
}

void TimelineView::paintInstantRow(QPainter& p, const TimelineLayout::Row& row, int y, int width) {
    const Track& t = m_session->tracks()[row.track];
    auto first = std::lower_bound(t.instantTs.begin(), t.instantTs.end(), m_time->t0());
    auto last = std::upper_bound(first, t.instantTs.end(), m_time->t1());
    p.setPen(Qt::NoPen);
    int lastX = -1;
    for (auto it = first; it != last; ++it) {
        const int x = static_cast<int>(timeX(*it));
        if (x == lastX)
            continue; // one mark per pixel column
        lastX = x;
        if (x >= kGutterWidth && x <= width) {
            const size_t i = static_cast<size_t>(it - t.instantTs.begin());
            p.setBrush(TimelinePalette::sliceColor(EventKind::Instant, m_session->str(t.instantNames[i])).darker(130));
            const QPointF c(x, y + row.height / 2.0);
            const double r = row.height / 2.0 - 1;
            const QPointF diamond[4] = {c + QPointF(0, -r), c + QPointF(r, 0), c + QPointF(0, r), c + QPointF(-r, 0)};
            p.drawPolygon(diamond, 4);
        }
        // Thousands of instants in view: jump to the next pixel column instead of visiting each.
        const int64_t nextT = m_time->timeForX(x - kGutterWidth + 1);
        auto next = std::lower_bound(it + 1, last, nextT);
        it = next - 1;
    }
    p.setBrush(Qt::NoBrush);
}

void TimelineView::flushCounterPolygon(QPainter& p, int base) {
    if (m_fillPolygon.isEmpty())
        return;
    const QPolygon top = m_fillPolygon; // the curve alone, for its edge
    m_fillPolygon << QPoint(m_fillPolygon.last().x(), base) << QPoint(m_fillPolygon.first().x(), base);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(184, 207, 250));
    p.drawPolygon(m_fillPolygon);
    p.setBrush(Qt::NoBrush);
    p.setPen(QColor(30, 90, 200));
    p.drawPolyline(top);
    m_fillPolygon.clear();
}

void TimelineView::paintCounterRow(QPainter& p, const TimelineLayout::Row& row, int y, int width) {
    const CounterSource& src = m_counters[row.counter];
    std::vector<CounterLod::Column>& cols = m_counterColumns;
    const int w = width - kGutterWidth;
    src.lod.columns(m_time->t0(), m_time->nsPerPx(), w, cols);
    const double range = src.max - src.min > 0 ? src.max - src.min : 1;
    const int h = row.height - 4;
    auto yOf = [&](double v) { return static_cast<int>(std::lround(y + 2 + h * (1 - (v - src.min) / range))); };
    const int base = yOf(0);
    // One filled polygon under the curve plus one polyline along its top (solid spans, cheap for
    // the raster engine); only columns whose min..max envelope spans more than a pixel add a line.
    m_fillPolygon.clear();
    m_edgeLines.clear();
    for (int x = 0; x < w; ++x) {
        const CounterLod::Column& c = cols[static_cast<size_t>(x)];
        if (!c.valid) {
            if (!m_fillPolygon.isEmpty())
                flushCounterPolygon(p, base);
            continue;
        }
        const int top = yOf(c.max), low = yOf(c.min), px = kGutterWidth + x;
        m_fillPolygon << QPoint(px, top) << QPoint(px + 1, top);
        if (low > top + 1)
            m_edgeLines.emplace_back(px, top, px, low);
    }
    flushCounterPolygon(p, base);
    p.setPen(QColor(30, 90, 200));
    p.drawLines(m_edgeLines.data(), static_cast<int>(m_edgeLines.size()));
    const QString peak = src.bytes ? formatBytes(static_cast<int64_t>(src.max))
                                   : (src.max <= 1.0 ? formatPercent(src.max) : QString::number(src.max, 'g', 4));
    const QString label = tr("max %1").arg(peak);
    const QRect box(kGutterWidth + 2, y + 1, fontMetrics().horizontalAdvance(label) + 6, fontMetrics().height());
    p.fillRect(box, QColor(255, 255, 255, 200)); // legible over the curve
    p.setPen(QColor(70, 70, 70));
    p.drawText(box, Qt::AlignCenter, label);
}

void TimelineView::paintLabels(QPainter& p, const QRect& area) {
    p.fillRect(QRect(0, kTopHeight, kGutterWidth, area.height() - kTopHeight), kGutterBackground);
    QFont bold = font();
    bold.setBold(true);
    const QRect gutter(0, kTopHeight, kGutterWidth, area.height() - kTopHeight);
    forEachVisibleRow(p, gutter, area.height(), [&](const TimelineLayout::Row& row, int y) {
        const QRect box(0, y, kGutterWidth, row.height);
        if (row.kind == TimelineLayout::RowKind::GroupHeader) {
            const auto& group = m_layout.groups()[static_cast<size_t>(row.group)];
            p.fillRect(box, kGroupBackground);
            p.setFont(bold);
            p.setPen(QColor(40, 40, 40));
            QString prefix = group.collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ");
            if (group.pinned)
                prefix += QStringLiteral("📌 ");
            p.drawText(box.adjusted(6, 0, -6, 0), Qt::AlignVCenter | Qt::AlignLeft,
                       fontMetrics().elidedText(prefix + group.label, Qt::ElideRight, kGutterWidth - 12));
            p.setFont(font());
            return;
        }
        if (!row.firstOfTrack)
            return;
        const QString label = row.kind == TimelineLayout::RowKind::Counter ? m_counters[row.counter].label
                              : row.kind == TimelineLayout::RowKind::Query
                                  ? m_queryTracks[row.counter].name
                                  : QString::fromStdString(m_session->trackLabel(m_session->tracks()[row.track]));
        p.setPen(QColor(50, 50, 50));
        p.drawText(QRect(18, y, kGutterWidth - 24, TimelineLayout::kSliceHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   fontMetrics().elidedText(label, Qt::ElideMiddle, kGutterWidth - 24));
    });
    p.setPen(QColor(210, 212, 216));
    p.drawLine(kGutterWidth - 1, kTopHeight, kGutterWidth - 1, area.height());
}

std::optional<QPointF> TimelineView::sliceAnchor(const SliceRef& s, bool atEnd) const {
    const int row = m_layout.rowOfSlice(*m_session, s.track, s.slice);
    if (row < 0)
        return std::nullopt;
    const Track& t = m_session->tracks()[s.track];
    const auto& r = m_layout.rows()[static_cast<size_t>(row)];
    const int64_t time = atEnd ? t.end(s.slice) : t.start[s.slice];
    return QPointF(timeX(time), viewY(r.y) + r.height / 2.0);
}

void TimelineView::paintUnrecorded(QPainter& p, const QRect& area) {
    if (m_unrecorded.empty())
        return;
    const QBrush hatch(kUnrecordedHatch, Qt::BDiagPattern);
    for (const auto& [start, end] : m_unrecorded) {
        if (end < m_time->t0() || start > m_time->t1())
            continue;
        const double x0 = std::max<double>(kGutterWidth, timeX(start));
        const double x1 = std::min<double>(area.width(), timeX(end));
        if (x1 > x0)
            p.fillRect(QRectF(x0, kTopHeight, x1 - x0, area.height() - kTopHeight), hatch);
    }
}

void TimelineView::paintSelection(QPainter& p, const QRect& area) {
    // Marked ranges: bands over the rows, at least 2 px wide so a short gap stays visible zoomed out.
    const std::vector<TimeRange>& marked = m_time->markedRanges();
    if (!marked.empty()) {
        auto first = std::lower_bound(marked.begin(), marked.end(), m_time->t0(),
                                      [](const TimeRange& r, int64_t t) { return r.end < t; });
        double lastX = -1;
        for (auto it = first; it != marked.end() && it->start <= m_time->t1(); ++it) {
            const double x0 = std::max<double>(kGutterWidth, timeX(it->start));
            const double x1 = std::min<double>(area.width(), std::max(x0 + 2, timeX(it->end)));
            if (x1 <= lastX)
                continue; // folded into the previous band
            p.fillRect(QRectF(x0, kTopHeight, x1 - x0, area.height() - kTopHeight), kMarkShade);
            lastX = x1;
        }
    }
    if (auto range = m_time->selectedRange()) {
        const double x0 = std::max<double>(kGutterWidth, timeX(range->start));
        const double x1 = std::min<double>(area.width(), timeX(range->end));
        if (x1 > x0) {
            p.fillRect(QRectF(x0, kTopHeight, x1 - x0, area.height() - kTopHeight), kRangeShade);
            p.setPen(QColor(66, 133, 244));
            p.drawLine(QPointF(x0, kTopHeight), QPointF(x0, area.height()));
            p.drawLine(QPointF(x1, kTopHeight), QPointF(x1, area.height()));
        }
    }
    const auto sel = m_time->selectedSlice();
    if (!sel)
        return;
    const int row = m_layout.rowOfSlice(*m_session, sel->track, sel->slice);
    if (row < 0)
        return;
    const Track& t = m_session->tracks()[sel->track];
    const auto& r = m_layout.rows()[static_cast<size_t>(row)];
    const double x0 = timeX(t.start[sel->slice]);
    const double x1 = std::max(x0 + 2, timeX(t.end(sel->slice)));
    p.save();
    p.setClipRect(QRect(kGutterWidth, kTopHeight, area.width() - kGutterWidth, area.height() - kTopHeight));
    p.setPen(QPen(kSelection, 2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(x0, viewY(r.y) + 0.5, x1 - x0, r.height - 1));
    p.restore();
}

void TimelineView::collectSelectedFlows() {
    m_selectedFlows.clear();
    const auto sel = m_time->selectedSlice();
    if (!sel || !m_session)
        return;
    for (uint32_t f : m_session->flowsOf(sel->track, sel->slice)) // indexed: O(log flows)
        m_selectedFlows.push_back(m_session->flows()[f]);
}

void TimelineView::paintFlows(QPainter& p, const QRect& area) {
    if (m_selectedFlows.empty())
        return;
    p.save();
    p.setClipRect(QRect(kGutterWidth, kTopHeight, area.width() - kGutterWidth, area.height() - kTopHeight));
    p.setRenderHint(QPainter::Antialiasing);
    const QColor color(200, 60, 30);
    for (const Flow& f : m_selectedFlows) {
        const auto a = sliceAnchor({f.fromTrack, f.fromSlice}, false);
        const auto b = sliceAnchor({f.toTrack, f.toSlice}, false);
        if (!a || !b)
            continue;
        QPainterPath path(*a);
        const double dy = (b->y() - a->y()) / 2;
        path.cubicTo(QPointF(a->x(), a->y() + dy), QPointF(b->x(), b->y() - dy), *b);
        p.setPen(QPen(color, 1.5));
        p.drawPath(path);
        // Arrow head pointing at the consumer.
        const double dir = b->y() >= a->y() ? -1 : 1;
        const QPointF head[3] = {*b, *b + QPointF(-4, dir * 7), *b + QPointF(4, dir * 7)};
        p.setBrush(color);
        p.drawPolygon(head, 3);
        p.setBrush(Qt::NoBrush);
    }
    p.restore();
}

void TimelineView::paintCursor(QPainter& p, const QRect& area) {
    if (!m_cursorX || *m_cursorX < kGutterWidth)
        return;
    const int x = *m_cursorX;
    p.setPen(QPen(QColor(0, 0, 0, 90), 1, Qt::DashLine));
    p.drawLine(x, kOverviewHeight, x, area.height());
    const QString text = formatDuration(m_time->timeForX(x - kGutterWidth) - m_session->startNs());
    const int w = fontMetrics().horizontalAdvance(text) + 8;
    const QRect box(std::min(x + 2, area.width() - w), kOverviewHeight + 1, w, kRulerHeight - 10);
    p.fillRect(box, QColor(40, 40, 40));
    p.setPen(Qt::white);
    p.drawText(box, Qt::AlignCenter, text);
}

std::optional<SliceRef> TimelineView::sliceAt(const QPoint& pos) const {
    if (!m_session || pos.x() < kGutterWidth || pos.y() < kTopHeight)
        return std::nullopt;
    const int r = m_layout.rowAt(contentY(pos.y()));
    if (r < 0)
        return std::nullopt;
    const auto& row = m_layout.rows()[static_cast<size_t>(r)];
    if (row.kind == TimelineLayout::RowKind::Query) {
        // A query's interval stands for the slice its row came from, where it has one.
        const QueryTrack::Interval* interval = queryIntervalAt(pos);
        return interval ? interval->slice : std::nullopt;
    }
    if (row.kind != TimelineLayout::RowKind::Slices)
        return std::nullopt;
    const Track& t = m_session->tracks()[row.track];
    const uint32_t begin = t.rowBegin[row.trackRow], end = t.rowBegin[row.trackRow + 1];
    const int64_t time = m_time->timeForX(pos.x() - kGutterWidth);
    // Accept slices within 2 px so tiny kernels can still be picked.
    const auto slack = static_cast<int64_t>(2 * m_time->nsPerPx());
    auto first = t.start.begin() + begin, last = t.start.begin() + end;
    auto it = std::upper_bound(first, last, time + slack);
    uint32_t best = Track::kNoId;
    int64_t bestDistance = INT64_MAX;
    for (int k = 0; k < 2 && it != first; ++k) {
        --it;
        const auto i = static_cast<uint32_t>(it - t.start.begin());
        const int64_t distance = time < t.start[i] ? t.start[i] - time : std::max<int64_t>(0, time - t.end(i));
        if (distance <= slack && distance < bestDistance) {
            best = i;
            bestDistance = distance;
        }
    }
    if (best == Track::kNoId)
        return std::nullopt;
    return SliceRef{row.track, best};
}

void TimelineView::revealSlice(const SliceRef& s) {
    if (!m_session)
        return;
    const Track& t = m_session->tracks()[s.track];
    const int64_t dur = t.dur[s.slice];
    if (dur > m_time->t1() - m_time->t0())
        m_time->showRange(t.start[s.slice], t.end(s.slice));
    else
        m_time->centerOn(t.start[s.slice] + dur / 2);
    int row = m_layout.rowOfSlice(*m_session, s.track, s.slice);
    if (row < 0) {
        // Hidden in a collapsed group: open it.
        for (int g = 0; g < static_cast<int>(m_layout.groups().size()); ++g)
            if (m_layout.groups()[static_cast<size_t>(g)].process == t.process)
                m_layout.setCollapsed(g, false);
        updateScrollRange();
        row = m_layout.rowOfSlice(*m_session, s.track, s.slice);
    }
    if (row >= 0) {
        const auto& r = m_layout.rows()[static_cast<size_t>(row)];
        const int visible = viewport()->height() - kTopHeight;
        if (r.y < verticalScrollBar()->value() || r.y + r.height > verticalScrollBar()->value() + visible)
            verticalScrollBar()->setValue(r.y - visible / 2);
    }
    viewport()->update();
}

QString TimelineView::tooltipAt(const QPoint& pos) const {
    if (const QueryTrack::Interval* q = queryIntervalAt(pos))
        return tr("<b>%1</b><br>starts at %2<br>duration %3")
            .arg(q->label.toHtmlEscaped(), formatDuration(q->start - m_session->startNs()), formatDuration(q->dur));
    const auto s = sliceAt(pos);
    if (!s)
        return {};
    const Track& t = m_session->tracks()[s->track];
    const std::string_view name = m_session->str(t.names[s->slice]);
    const QString fullName = QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())).toHtmlEscaped();
    return tr("<b>%1</b><br>%2 · starts at %3<br>duration %4")
        .arg(fullName, QString::fromLatin1(eventKindName(m_session->kindOf(t, s->slice))),
             formatDuration(t.start[s->slice] - m_session->startNs()), formatDuration(t.dur[s->slice]));
}

bool TimelineView::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = tooltipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, viewport());
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    if (!m_session)
        return;
    const QPoint angle = event->angleDelta();
    const double x = event->position().x() - kGutterWidth;
    if (event->modifiers() & Qt::ControlModifier) {
        m_time->zoomAt(x, std::pow(kZoomStep, angle.y() / 120.0));
    } else if ((event->modifiers() & Qt::ShiftModifier) || std::abs(angle.x()) > std::abs(angle.y())) {
        const int d = angle.x() != 0 ? angle.x() : angle.y();
        m_time->panPx(-d / 120.0 * 80);
    } else {
        QAbstractScrollArea::wheelEvent(event);
        return;
    }
    event->accept();
}

void TimelineView::toggleGroupAt(const QPoint& pos) {
    const int r = m_layout.rowAt(contentY(pos.y()));
    if (r < 0)
        return;
    const auto& row = m_layout.rows()[static_cast<size_t>(r)];
    if (row.kind != TimelineLayout::RowKind::GroupHeader)
        return;
    m_layout.setCollapsed(row.group, !m_layout.groups()[static_cast<size_t>(row.group)].collapsed);
    updateScrollRange();
    viewport()->update();
}

void TimelineView::contextMenuEvent(QContextMenuEvent* event) {
    if (!m_session || event->pos().y() < kTopHeight)
        return;
    const int r = m_layout.rowAt(contentY(event->pos().y()));
    if (r < 0)
        return;
    const TimelineLayout::Row& row = m_layout.rows()[static_cast<size_t>(r)];
    if (row.kind == TimelineLayout::RowKind::Query) {
        // A query's track has no group: it can only go.
        QMenu menu(this);
        const uint32_t track = row.counter;
        menu.addAction(tr("Remove Track"), this, [this, track] {
            m_queryTracks.erase(m_queryTracks.begin() + track);
            layoutQueryTracks();
        });
        menu.addAction(tr("Remove All Query Tracks"), this, &TimelineView::clearQueryTracks);
        menu.exec(event->globalPos());
        return;
    }
    showGroupMenu(row.group, event->globalPos());
}

void TimelineView::showGroupMenu(int group, const QPoint& globalPos) {
    const auto& g = m_layout.groups()[static_cast<size_t>(group)];
    QMenu menu(this);
    auto relayout = [this] { relayoutRows(); };
    menu.addAction(g.collapsed ? tr("Expand") : tr("Collapse"), this, [=, this] {
        m_layout.setCollapsed(group, !g.collapsed);
        relayout();
    });
    menu.addAction(g.pinned ? tr("Unpin") : tr("Pin to Top"), this, [=, this] {
        m_layout.setPinned(group, !g.pinned);
        relayout();
    });
    menu.addAction(tr("Move Up"), this, [=, this] {
        m_layout.moveGroup(group, -1);
        relayout();
    });
    menu.addAction(tr("Move Down"), this, [=, this] {
        m_layout.moveGroup(group, +1);
        relayout();
    });
    menu.addSeparator();
    menu.addAction(tr("Collapse All Others"), this, [=, this] {
        for (int i = 0; i < static_cast<int>(m_layout.groups().size()); ++i)
            m_layout.setCollapsed(i, i != group);
        relayout();
    });
    menu.exec(globalPos);
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    if (!m_session || event->button() != Qt::LeftButton)
        return;
    m_pressPos = m_lastPos = event->position().toPoint();
    m_moved = false;
    const QPoint pos = m_pressPos;
    if (pos.y() < kOverviewHeight && pos.x() >= kGutterWidth) {
        m_drag = Drag::Overview;
        mouseMoveEvent(event);
    } else if (pos.y() < kTopHeight && pos.x() >= kGutterWidth) {
        m_drag = Drag::Range;
        m_rangeAnchor = m_time->timeForX(pos.x() - kGutterWidth);
    } else if (pos.x() < kGutterWidth) {
        m_drag = Drag::None;
        toggleGroupAt(pos);
    } else {
        m_drag = Drag::Pan;
        setCursor(Qt::ClosedHandCursor);
    }
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    m_cursorX = pos.x();
    if (!m_session) {
        return;
    }
    if ((pos - m_pressPos).manhattanLength() > 3)
        m_moved = true;
    switch (m_drag) {
    case Drag::Pan:
        m_time->panPx(m_lastPos.x() - pos.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - (pos.y() - m_lastPos.y()));
        break;
    case Drag::Range: {
        const int64_t t = m_time->timeForX(pos.x() - kGutterWidth);
        if (m_moved)
            m_time->setSelectedRange(TimeRange{std::min(t, m_rangeAnchor), std::max(t, m_rangeAnchor)});
        break;
    }
    case Drag::Overview: {
        const double fraction = static_cast<double>(pos.x() - kGutterWidth) / std::max(1, viewport()->width() - kGutterWidth);
        m_time->centerOn(m_session->startNs() +
                         static_cast<int64_t>(fraction * static_cast<double>(m_session->endNs() - m_session->startNs())));
        break;
    }
    case Drag::None:
        break;
    }
    m_lastPos = pos;
    viewport()->update();
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    if (m_drag == Drag::Pan && !m_moved) {
        m_time->setSelectedSlice(sliceAt(event->position().toPoint()));
    } else if (m_drag == Drag::Range && !m_moved) {
        m_time->setSelectedRange(std::nullopt);
    }
    m_drag = Drag::None;
    unsetCursor();
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event) {
    if (const auto s = sliceAt(event->position().toPoint())) {
        m_time->setSelectedSlice(s);
        emit sliceActivated(*s);
    }
}

void TimelineView::leaveEvent(QEvent* event) {
    m_cursorX.reset();
    viewport()->update();
    QAbstractScrollArea::leaveEvent(event);
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    if (!m_session) {
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    const double center = (viewport()->width() - kGutterWidth) / 2.0;
    const double anchor = m_cursorX && *m_cursorX >= kGutterWidth ? *m_cursorX - kGutterWidth : center;
    const double panStep = (viewport()->width() - kGutterWidth) / 8.0;
    switch (event->key()) {
    case Qt::Key_W:
        m_time->zoomAt(anchor, kZoomStep * kZoomStep);
        break;
    case Qt::Key_S:
        m_time->zoomAt(anchor, 1 / (kZoomStep * kZoomStep));
        break;
    case Qt::Key_A:
    case Qt::Key_Left:
        m_time->panPx(-panStep);
        break;
    case Qt::Key_D:
    case Qt::Key_Right:
        m_time->panPx(panStep);
        break;
    case Qt::Key_Up:
        verticalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepSub);
        break;
    case Qt::Key_Down:
        verticalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepAdd);
        break;
    case Qt::Key_0:
        m_time->fitAll();
        break;
    case Qt::Key_F:
        if (const auto s = m_time->selectedSlice()) {
            const Track& t = m_session->tracks()[s->track];
            m_time->showRange(t.start[s->slice], t.end(s->slice));
        } else if (const auto r = m_time->selectedRange()) {
            m_time->showRange(r->start, r->end);
        }
        break;
    case Qt::Key_B:
        emit bookmarkRequested(m_time->timeForX(anchor));
        break;
    case Qt::Key_Escape:
        m_time->setSelectedSlice(std::nullopt);
        m_time->setSelectedRange(std::nullopt);
        break;
    default:
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    event->accept();
}

} // namespace ws
