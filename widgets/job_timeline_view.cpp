#include "job_timeline_view.h"

#include "analysis/distributed.h"
#include "format.h"
#include "index/time_ticks.h"
#include "job_loader.h"
#include "model/session.h"
#include "time_viewport.h"
#include "timeline_palette.h"

#include <QContextMenuEvent>
#include <QInputDialog>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace ws {

namespace {

constexpr int kLabelWidth = 210;
constexpr int kRulerHeight = 26;
constexpr int kHeaderHeight = 22;
constexpr int kRowHeight = 18;

const QColor kStepColor(0xb8, 0xc7, 0xdc);
const QColor kCommColor(0xc4, 0x4e, 0x52);
const QColor kCommCpuColor(0xe8, 0xa0, 0xa0);

// First GPU start of a node (its arrival on the device); the CPU start when it launched nothing.
int64_t arrivalOf(const CommNode& n) {
    if (n.ranges.size() < 2)
        return n.ranges.front().start;
    int64_t a = n.ranges[1].start;
    for (size_t j = 2; j < n.ranges.size(); ++j)
        a = std::min(a, n.ranges[j].start);
    return a;
}

int64_t completionOf(const CommNode& n) {
    int64_t e = n.ranges.back().end;
    for (const Interval& r : n.ranges)
        e = std::max(e, r.end);
    return e;
}

// Occurrence of each node's name among the nodes of its worker before it: (name, occurrence) links
// the same collective across ranks.
std::vector<uint32_t> occurrences(const std::vector<CommNode>& nodes) {
    std::unordered_map<std::string, uint32_t> seen;
    std::vector<uint32_t> occ(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i)
        occ[i] = seen[nodes[i].name]++;
    return occ;
}

} // namespace

JobTimelineView::JobTimelineView(QWidget* parent) : QAbstractScrollArea(parent), m_view(new TimeViewport(this)) {
    setObjectName(QStringLiteral("jobTimeline"));
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    connect(m_view, &TimeViewport::viewChanged, viewport(), qOverload<>(&QWidget::update));
    connect(m_view, &TimeViewport::selectedRangeChanged, viewport(), qOverload<>(&QWidget::update));
    connect(verticalScrollBar(), &QScrollBar::valueChanged, viewport(), qOverload<>(&QWidget::update));
}

JobTimelineView::~JobTimelineView() = default;

void JobTimelineView::setJob(std::shared_ptr<const LoadedJob> job, std::vector<int64_t> offsetsNs) {
    m_job = std::move(job);
    m_offsets = std::move(offsetsNs);
    m_collapsed.assign(m_job ? m_job->ranks.size() : 0, false);
    // Many ranks: start with the groups collapsed past the first few, so headers fit.
    for (size_t w = 8; w < m_collapsed.size(); ++w)
        m_collapsed[w] = true;
    m_selectedNodes.clear();
    m_info.clear();
    relayout();
    fitAll();
    selectLargestSkew();
}

void JobTimelineView::setOffsets(std::vector<int64_t> offsetsNs) {
    m_offsets = std::move(offsetsNs);
    fitAll();
    if (!m_selectedNodes.empty()) {
        const auto it = std::find_if(m_selectedNodes.begin(), m_selectedNodes.end(), [](int n) { return n >= 0; });
        if (it != m_selectedNodes.end())
            selectCollective(static_cast<size_t>(it - m_selectedNodes.begin()), static_cast<size_t>(*it));
    }
    viewport()->update();
}

void JobTimelineView::setGroupCollapsed(size_t worker, bool collapsed) {
    if (worker >= m_collapsed.size())
        return;
    m_collapsed[worker] = collapsed;
    relayout();
}

void JobTimelineView::relayout() {
    m_rows.clear();
    int y = 0;
    auto add = [&](RowKind kind, size_t w, uint32_t track, int h) {
        m_rows.push_back({kind, w, track, y, h});
        y += h;
    };
    if (m_job)
        for (size_t w = 0; w < m_job->ranks.size(); ++w) {
            add(RowKind::Header, w, 0, kHeaderHeight);
            if (m_collapsed[w])
                continue;
            const RankDistributed& r = m_job->ranks[w];
            if (!r.steps.empty())
                add(RowKind::Steps, w, 0, kRowHeight);
            if (!r.nodes.empty())
                add(RowKind::Collectives, w, 0, kRowHeight);
            const Session* s = w < m_job->sessions.size() ? m_job->sessions[w].get() : nullptr;
            if (!s)
                continue;
            for (uint32_t t = 0; t < s->tracks().size(); ++t) {
                const Track& tr = s->tracks()[t];
                if (tr.gpu && tr.sliceCount() > 0)
                    add(RowKind::Stream, w, t, kRowHeight);
            }
        }
    m_contentHeight = y;
    verticalScrollBar()->setPageStep(std::max(1, viewport()->height() - kRulerHeight));
    verticalScrollBar()->setRange(0, std::max(0, m_contentHeight - (viewport()->height() - kRulerHeight)));
    viewport()->update();
}

void JobTimelineView::fitAll() {
    if (!m_job || m_job->ranks.empty())
        return;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t w = 0; w < m_job->ranks.size(); ++w) {
        const RankDistributed& r = m_job->ranks[w];
        const Session* s = w < m_job->sessions.size() ? m_job->sessions[w].get() : nullptr;
        int64_t a = INT64_MAX, b = INT64_MIN;
        if (!r.steps.empty()) {
            a = r.steps.front().start;
            b = r.steps.back().end;
        } else if (s) {
            a = s->startNs();
            b = s->endNs();
        }
        for (const CommNode& n : r.nodes) {
            a = std::min(a, n.ranges.front().start);
            b = std::max(b, completionOf(n));
        }
        if (a > b)
            continue;
        lo = std::min(lo, a + offsetOf(w));
        hi = std::max(hi, b + offsetOf(w));
    }
    if (lo >= hi)
        return;
    m_view->setWidthPx(std::max(1, viewport()->width() - kLabelWidth));
    m_view->setSessionRange(lo, hi);
    m_view->fitAll();
}

int JobTimelineView::rowAt(int y) const {
    const int content = y - kRulerHeight + verticalScrollBar()->value();
    if (y < kRulerHeight || content < 0)
        return -1;
    auto it = std::upper_bound(m_rows.begin(), m_rows.end(), content, [](int v, const Row& r) { return v < r.y; });
    if (it == m_rows.begin())
        return -1;
    const auto i = static_cast<int>(it - m_rows.begin() - 1);
    return content < m_rows[static_cast<size_t>(i)].y + m_rows[static_cast<size_t>(i)].height ? i : -1;
}

void JobTimelineView::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    m_view->setWidthPx(std::max(1, viewport()->width() - kLabelWidth));
    relayout();
}

void JobTimelineView::drawRuler(QPainter& p, int width) {
    p.fillRect(0, 0, width, kRulerHeight, palette().window());
    p.setPen(palette().color(QPalette::Mid));
    p.drawLine(0, kRulerHeight - 1, width, kRulerHeight - 1);
    const int64_t origin = m_view->sessionStart();
    const TimeTicks ticks = computeTicks(origin, m_view->t0(), m_view->t1(), m_view->nsPerPx(), 90);
    p.setPen(palette().color(QPalette::WindowText));
    for (int64_t t : ticks.times) {
        const int x = kLabelWidth + static_cast<int>(m_view->xForTime(t));
        p.drawLine(x, kRulerHeight - 7, x, kRulerHeight - 1);
        p.drawText(x + 3, kRulerHeight - 9, QString::fromStdString(formatTickLabel(t - origin, ticks.step)));
    }
    p.drawText(QRect(6, 0, kLabelWidth - 12, kRulerHeight), Qt::AlignVCenter | Qt::AlignLeft,
               tr("%n rank(s)", nullptr, m_job ? static_cast<int>(m_job->ranks.size()) : 0));
}

void JobTimelineView::drawRow(QPainter& p, const Row& row, int x0, int width) {
    const RankDistributed& r = m_job->ranks[row.worker];
    const int64_t off = offsetOf(row.worker);
    const double nsPerPx = m_view->nsPerPx();
    auto xOf = [&](int64_t t) { return x0 + m_view->xForTime(t + off); };
    const int64_t winLo = m_view->t0() - off, winHi = m_view->t1() - off;
    const int top = row.y, h = row.height;
    auto box = [&](int64_t a, int64_t b, const QColor& c, int inset) {
        const double xa = std::max(xOf(a), static_cast<double>(x0) - 1), xb = std::min(xOf(b), static_cast<double>(x0 + width) + 1);
        p.fillRect(QRectF(xa, top + inset, std::max(1.0, xb - xa), h - 2 * inset), c);
    };
    switch (row.kind) {
    case RowKind::Header: break;
    case RowKind::Steps:
        for (const RankStep& s : r.steps) {
            if (s.end < winLo || s.start > winHi)
                continue;
            box(s.start, s.end, kStepColor, 2);
            // Steps usually touch: a dark edge at each start keeps them apart.
            p.fillRect(QRectF(xOf(s.start), top + 2, 1.0, h - 4), kStepColor.darker(160));
            const double xa = std::max(xOf(s.start), static_cast<double>(x0)), xb = std::min(xOf(s.end), static_cast<double>(x0 + width));
            if (xb - xa > 40) {
                p.setPen(Qt::black);
                p.drawText(QRectF(xa + 3, top, xb - xa - 6, h), Qt::AlignVCenter | Qt::AlignLeft,
                           s.label.empty() ? tr("step") : tr("step %1").arg(QString::fromStdString(s.label)));
            }
        }
        break;
    case RowKind::Collectives:
        for (size_t i = 0; i < r.nodes.size(); ++i) {
            const CommNode& n = r.nodes[i];
            if (completionOf(n) < winLo || n.ranges.front().start > winHi)
                continue;
            box(n.ranges[0].start, n.ranges[0].end, kCommCpuColor, 6);
            for (size_t j = 1; j < n.ranges.size(); ++j)
                box(n.ranges[j].start, n.ranges[j].end, kCommColor, 2);
            const bool selected = row.worker < m_selectedNodes.size() && m_selectedNodes[row.worker] == static_cast<int>(i);
            if (selected) {
                const double xa = xOf(n.ranges.front().start), xb = xOf(completionOf(n));
                p.setPen(QPen(Qt::black, 2));
                p.setBrush(Qt::NoBrush);
                p.drawRect(QRectF(xa - 1, top + 1, std::max(2.0, xb - xa + 2), h - 2));
            }
        }
        break;
    case RowKind::Stream: {
        const Session& s = *m_job->sessions[row.worker];
        const Track& t = s.tracks()[row.track];
        for (size_t rr = 0; rr < t.rowCount(); ++rr) {
            const auto first = t.start.begin() + t.rowBegin[rr], last = t.start.begin() + t.rowBegin[rr + 1];
            auto it = std::lower_bound(first, last, winLo);
            if (it != first)
                --it; // a slice starting left of the window may reach into it
            for (auto i = static_cast<size_t>(it - t.start.begin()); i < t.rowBegin[rr + 1];) {
                if (t.start[i] > winHi)
                    break;
                const std::string_view name = s.str(t.names[i]);
                box(t.start[i], t.end(i), TimelinePalette::sliceColor(s.kindOf(t, i), name), 2);
                // Skip what falls in the pixel column just drawn.
                const int64_t nextT = std::max(t.end(i), t.start[i] + static_cast<int64_t>(nsPerPx));
                const auto next = std::lower_bound(t.start.begin() + static_cast<std::ptrdiff_t>(i) + 1, last, nextT);
                i = static_cast<size_t>(next - t.start.begin());
            }
        }
        break;
    }
    }
}

void JobTimelineView::paintEvent(QPaintEvent*) {
    QPainter p(viewport());
    const int width = viewport()->width();
    p.fillRect(viewport()->rect(), palette().base());
    if (!m_job) {
        p.drawText(viewport()->rect(), Qt::AlignCenter, tr("No job"));
        return;
    }
    const int scroll = verticalScrollBar()->value();
    const int x0 = kLabelWidth, plotWidth = width - kLabelWidth;
    p.save();
    p.setClipRect(0, kRulerHeight, width, viewport()->height() - kRulerHeight);
    p.translate(0, kRulerHeight - scroll);
    const int visLo = scroll, visHi = scroll + viewport()->height();
    for (const Row& row : m_rows) {
        if (row.y + row.height < visLo || row.y > visHi)
            continue;
        if (row.kind == RowKind::Header) {
            p.fillRect(0, row.y, width, row.height, palette().alternateBase());
            p.setPen(palette().color(QPalette::Mid));
            p.drawLine(0, row.y, width, row.y);
            const RankDistributed& r = m_job->ranks[row.worker];
            QString label = (m_collapsed[row.worker] ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) +
                            (r.rank >= 0 ? tr("rank %1").arg(r.rank) + QStringLiteral(" · ") : QString()) +
                            QString::fromStdString(r.worker); // no rank: the worker's name says which
            if (!r.gpuName.empty())
                label += QStringLiteral(" · ") + QString::fromStdString(r.gpuName);
            if (const int64_t off = offsetOf(row.worker); off != 0 && m_showClockOffsets)
                label += tr(" · clock %1%2").arg(off > 0 ? QStringLiteral("+") : QStringLiteral("−"), formatDuration(std::abs(off)));
            p.setPen(palette().color(QPalette::WindowText));
            QFont bold = p.font();
            bold.setBold(true);
            p.setFont(bold);
            p.drawText(QRect(6, row.y, width - 12, row.height), Qt::AlignVCenter | Qt::AlignLeft, label);
            p.setFont(font());
            continue;
        }
        p.save();
        p.setClipRect(x0, row.y, plotWidth, row.height);
        drawRow(p, row, x0, plotWidth);
        p.restore();
        QString label;
        switch (row.kind) {
        case RowKind::Steps: label = tr("Steps"); break;
        case RowKind::Collectives: label = tr("Communication"); break;
        case RowKind::Stream:
            label = QString::fromStdString(m_job->sessions[row.worker]->trackLabel(m_job->sessions[row.worker]->tracks()[row.track]));
            break;
        case RowKind::Header: break;
        }
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(18, row.y, kLabelWidth - 22, row.height), Qt::AlignVCenter | Qt::AlignLeft,
                   p.fontMetrics().elidedText(label, Qt::ElideRight, kLabelWidth - 22));
    }
    p.restore();
    // Selected range, over everything below the ruler.
    if (const auto range = m_view->selectedRange()) {
        const double xa = x0 + m_view->xForTime(range->start), xb = x0 + m_view->xForTime(range->end);
        QColor shade = palette().color(QPalette::Highlight);
        shade.setAlpha(40);
        p.fillRect(QRectF(std::max<double>(xa, x0), 0, std::max(1.0, xb - std::max<double>(xa, x0)), viewport()->height()), shade);
    }
    p.setPen(palette().color(QPalette::Mid));
    p.drawLine(x0 - 1, kRulerHeight, x0 - 1, viewport()->height());
    drawRuler(p, width);
}

void JobTimelineView::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (event->modifiers() & Qt::ControlModifier) {
        m_view->zoomAt(event->position().x() - kLabelWidth, std::pow(1.25, steps));
        event->accept();
        return;
    }
    if (event->modifiers() & Qt::ShiftModifier) {
        m_view->panPx(-steps * 80);
        event->accept();
        return;
    }
    QAbstractScrollArea::wheelEvent(event);
}

void JobTimelineView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return;
    m_pressPos = event->position().toPoint();
    m_panLastX = event->position().x();
    m_rulerDrag = event->position().y() < kRulerHeight && event->position().x() >= kLabelWidth;
    if (m_rulerDrag)
        m_rangeAnchor = m_view->timeForX(event->position().x() - kLabelWidth);
}

void JobTimelineView::mouseMoveEvent(QMouseEvent* event) {
    if (!m_pressPos) {
        // Hover: the collective under the cursor.
        const int r = rowAt(static_cast<int>(event->position().y()));
        if (r >= 0 && m_rows[static_cast<size_t>(r)].kind == RowKind::Collectives && event->position().x() >= kLabelWidth) {
            const Row& row = m_rows[static_cast<size_t>(r)];
            const int64_t t = m_view->timeForX(event->position().x() - kLabelWidth) - offsetOf(row.worker);
            for (const CommNode& n : m_job->ranks[row.worker].nodes)
                if (n.ranges.front().start <= t && t <= completionOf(n)) {
                    QToolTip::showText(event->globalPosition().toPoint(),
                                       tr("%1 · %2 · in flight %3")
                                           .arg(QString::fromStdString(n.name),
                                                n.bytes ? formatBytes(*n.bytes) : tr("size n/a"),
                                                formatDuration(completionOf(n) - n.ranges.front().start)),
                                       this);
                    return;
                }
        }
        QToolTip::hideText();
        return;
    }
    if (m_rulerDrag) {
        const int64_t t = m_view->timeForX(event->position().x() - kLabelWidth);
        m_view->setSelectedRange(TimeRange{std::min(t, m_rangeAnchor), std::max(t, m_rangeAnchor)});
        return;
    }
    m_view->panPx(event->position().x() - m_panLastX);
    m_panLastX = event->position().x();
}

void JobTimelineView::mouseReleaseEvent(QMouseEvent* event) {
    if (!m_pressPos)
        return;
    const bool moved = (event->position().toPoint() - *m_pressPos).manhattanLength() > 3;
    m_pressPos.reset();
    if (m_rulerDrag) {
        m_rulerDrag = false;
        const auto range = m_view->selectedRange();
        if (!moved || !range || range->length() <= 0) {
            m_view->setSelectedRange(std::nullopt);
            emit rangeSelected(std::nullopt);
        } else {
            emit rangeSelected(std::make_pair(range->start, range->end));
        }
        return;
    }
    if (moved)
        return;
    const int r = rowAt(static_cast<int>(event->position().y()));
    if (r < 0)
        return;
    const Row& row = m_rows[static_cast<size_t>(r)];
    if (row.kind == RowKind::Header) {
        setGroupCollapsed(row.worker, !m_collapsed[row.worker]);
        return;
    }
    if (row.kind != RowKind::Collectives || event->position().x() < kLabelWidth)
        return;
    const int64_t t = m_view->timeForX(event->position().x() - kLabelWidth) - offsetOf(row.worker);
    const int64_t slack = static_cast<int64_t>(3 * m_view->nsPerPx());
    const auto& nodes = m_job->ranks[row.worker].nodes;
    for (size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].ranges.front().start - slack <= t && t <= completionOf(nodes[i]) + slack) {
            selectCollective(row.worker, i);
            return;
        }
}

bool JobTimelineView::selectCollective(size_t worker, size_t node) {
    if (!m_job || worker >= m_job->ranks.size() || node >= m_job->ranks[worker].nodes.size())
        return false;
    const CommNode& picked = m_job->ranks[worker].nodes[node];
    const uint32_t occ = occurrences(m_job->ranks[worker].nodes)[node];
    const size_t W = m_job->ranks.size();
    m_selectedNodes.assign(W, -1);
    int64_t firstArrival = INT64_MAX, lastArrival = INT64_MIN, firstEnd = INT64_MAX, lastEnd = INT64_MIN;
    size_t last = worker;
    size_t present = 0;
    for (size_t w = 0; w < W; ++w) {
        const auto& nodes = m_job->ranks[w].nodes;
        const std::vector<uint32_t> o = occurrences(nodes);
        for (size_t i = 0; i < nodes.size(); ++i)
            if (o[i] == occ && nodes[i].name == picked.name) {
                m_selectedNodes[w] = static_cast<int>(i);
                const int64_t arrival = arrivalOf(nodes[i]) + offsetOf(w), end = completionOf(nodes[i]) + offsetOf(w);
                if (arrival > lastArrival) {
                    lastArrival = arrival;
                    last = w;
                }
                firstArrival = std::min(firstArrival, arrival);
                firstEnd = std::min(firstEnd, end);
                lastEnd = std::max(lastEnd, end);
                ++present;
                break;
            }
    }
    const RankDistributed& lastRank = m_job->ranks[last];
    m_info = tr("%1 #%2 on %3 of %4 ranks · arrival skew %5 · last to arrive: rank %6 · ends within %7")
                 .arg(QString::fromStdString(picked.name))
                 .arg(occ + 1)
                 .arg(present)
                 .arg(W)
                 .arg(formatDuration(lastArrival - firstArrival))
                 .arg(lastRank.rank)
                 .arg(formatDuration(lastEnd - firstEnd));
    emit selectionChanged(m_info);
    viewport()->update();
    return true;
}

void JobTimelineView::selectLargestSkew() {
    if (!m_job || m_job->ranks.size() < 2 || m_job->ranks.front().nodes.empty())
        return;
    const size_t W = m_job->ranks.size();
    // (name, occurrence) -> arrival per worker, in one pass per worker.
    std::map<std::pair<std::string, uint32_t>, std::pair<int64_t, int64_t>> spans; // min, max arrival
    std::map<std::pair<std::string, uint32_t>, size_t> counts;
    for (size_t w = 0; w < W; ++w) {
        const auto& nodes = m_job->ranks[w].nodes;
        const std::vector<uint32_t> o = occurrences(nodes);
        for (size_t i = 0; i < nodes.size(); ++i) {
            const auto key = std::make_pair(nodes[i].name, o[i]);
            const int64_t a = arrivalOf(nodes[i]) + offsetOf(w);
            auto [it, fresh] = spans.try_emplace(key, a, a);
            it->second.first = std::min(it->second.first, a);
            it->second.second = std::max(it->second.second, a);
            ++counts[key];
        }
    }
    const auto& nodes0 = m_job->ranks.front().nodes;
    const std::vector<uint32_t> o0 = occurrences(nodes0);
    size_t best = nodes0.size();
    int64_t bestSkew = -1;
    for (size_t i = 0; i < nodes0.size(); ++i) {
        const auto key = std::make_pair(nodes0[i].name, o0[i]);
        if (counts[key] != W)
            continue;
        const int64_t skew = spans[key].second - spans[key].first;
        if (skew > bestSkew) {
            bestSkew = skew;
            best = i;
        }
    }
    if (best < nodes0.size())
        selectCollective(0, best);
}

void JobTimelineView::contextMenuEvent(QContextMenuEvent* event) {
    const int r = rowAt(event->pos().y());
    if (r < 0 || !m_job)
        return;
    const size_t w = m_rows[static_cast<size_t>(r)].worker;
    QMenu menu(this);
    if (m_showClockOffsets) { // a job's ranks (in the Compare tab the offsets only line two runs up)
        menu.addAction(tr("Set Clock Offset of Rank %1…").arg(m_job->ranks[w].rank), this, [this, w] {
            bool ok = false;
            const double us = QInputDialog::getDouble(this, tr("Clock Offset"),
                                                      tr("Shift rank %1 by (µs, added to its times):").arg(m_job->ranks[w].rank),
                                                      static_cast<double>(offsetOf(w)) / 1000.0, -1e12, 1e12, 3, &ok);
            if (ok)
                emit offsetEdited(w, static_cast<int64_t>(us * 1000.0));
        });
        menu.addAction(tr("Reset Clock Offsets to Automatic"), this, [this] { emit offsetsResetRequested(); });
        QMenu* compare = menu.addMenu(tr("Compare Rank %1 With").arg(m_job->ranks[w].rank));
        for (size_t other = 0; other < m_job->ranks.size(); ++other)
            if (other != w && other < m_job->sessions.size() && m_job->sessions[other] && w < m_job->sessions.size() &&
                m_job->sessions[w])
                compare->addAction(tr("Rank %1 (as the baseline)").arg(m_job->ranks[other].rank), this,
                                   [this, other, w] { emit compareRequested(other, w); });
        compare->setEnabled(!compare->isEmpty());
        menu.addSeparator();
    }
    menu.addAction(m_collapsed[w] ? tr("Expand") : tr("Collapse"), this, [this, w] { setGroupCollapsed(w, !m_collapsed[w]); });
    menu.addAction(tr("Collapse All Ranks"), this, [this] {
        std::fill(m_collapsed.begin(), m_collapsed.end(), true);
        relayout();
    });
    menu.addAction(tr("Expand All Ranks"), this, [this] {
        std::fill(m_collapsed.begin(), m_collapsed.end(), false);
        relayout();
    });
    menu.addAction(tr("Zoom to Fit"), this, [this] { fitAll(); });
    menu.exec(event->globalPos());
}

} // namespace ws
