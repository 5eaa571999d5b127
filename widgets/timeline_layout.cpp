#include "timeline_layout.h"

#include "model/session.h"

#include <algorithm>
#include <tuple>

namespace ws {

namespace {

// Sort key of a process: GPU devices first (where the time that matters is), then host processes,
// then string pids ("Spans").
std::tuple<int, int64_t, int64_t> processOrder(const ProcessInfo& p) {
    const int64_t index = p.hasSortIndex ? p.sortIndex : p.pid.number;
    if (p.pid.isString)
        return {2, index, 0};
    if (p.deviceId >= 0)
        return {0, p.deviceId, index};
    return {1, index, p.pid.number};
}

} // namespace

void TimelineLayout::build(const Session& session, const std::vector<uint32_t>& counterProcesses) {
    m_session = &session;
    m_groups.clear();
    const auto& processes = session.processes();
    std::vector<std::vector<uint32_t>> tracksOf(processes.size());
    std::vector<std::vector<uint32_t>> countersOf(processes.size());
    for (uint32_t t = 0; t < session.tracks().size(); ++t) {
        const Track& track = session.tracks()[t];
        if (track.sliceCount() || !track.instantTs.empty())
            tracksOf[track.process].push_back(t);
    }
    for (uint32_t c = 0; c < counterProcesses.size(); ++c)
        if (counterProcesses[c] < processes.size())
            countersOf[counterProcesses[c]].push_back(c);

    std::vector<uint32_t> order(processes.size());
    for (uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return processOrder(processes[a]) < processOrder(processes[b]); });
    for (uint32_t p : order) {
        if (tracksOf[p].empty() && countersOf[p].empty())
            continue;
        Group g;
        g.process = p;
        g.label = QString::fromStdString(session.processLabel(processes[p]));
        g.tracks = std::move(tracksOf[p]);
        g.counters = std::move(countersOf[p]);
        std::stable_sort(g.tracks.begin(), g.tracks.end(), [&](uint32_t a, uint32_t b) {
            const Track& ta = session.tracks()[a];
            const Track& tb = session.tracks()[b];
            const int64_t ka = ta.hasSortIndex ? ta.sortIndex : ta.tid.number;
            const int64_t kb = tb.hasSortIndex ? tb.sortIndex : tb.tid.number;
            return std::tie(ka, ta.tid.number) < std::tie(kb, tb.tid.number);
        });
        for (uint32_t t : g.tracks)
            g.gpu = g.gpu || session.tracks()[t].gpu;
        m_groups.push_back(std::move(g));
    }
    m_order.resize(m_groups.size());
    for (size_t i = 0; i < m_order.size(); ++i)
        m_order[i] = static_cast<int>(i);
    relayout();
}

void TimelineLayout::setPinned(int group, bool pinned) {
    if (group < 0 || group >= static_cast<int>(m_groups.size()))
        return;
    m_groups[static_cast<size_t>(group)].pinned = pinned;
    relayout();
}

void TimelineLayout::moveGroup(int group, int delta) {
    auto it = std::find(m_order.begin(), m_order.end(), group);
    if (it == m_order.end() || delta == 0)
        return;
    const bool pinned = m_groups[static_cast<size_t>(group)].pinned;
    // Step over groups of the other band: the order only matters within a band.
    auto pos = it - m_order.begin();
    auto target = pos;
    for (int step = delta > 0 ? 1 : -1, left = std::abs(delta); left > 0;) {
        target += step;
        if (target < 0 || target >= static_cast<ptrdiff_t>(m_order.size()))
            return;
        if (m_groups[static_cast<size_t>(m_order[static_cast<size_t>(target)])].pinned == pinned)
            --left;
    }
    m_order.erase(m_order.begin() + pos);
    m_order.insert(m_order.begin() + target, group);
    relayout();
}

void TimelineLayout::setCollapsed(int group, bool collapsed) {
    if (group < 0 || group >= static_cast<int>(m_groups.size()))
        return;
    m_groups[static_cast<size_t>(group)].collapsed = collapsed;
    relayout();
}

void TimelineLayout::setAllCollapsed(bool collapsed) {
    for (Group& g : m_groups)
        g.collapsed = collapsed;
    relayout();
}

void TimelineLayout::setQueryTracks(std::vector<uint32_t> laneCounts) {
    m_queryLanes = std::move(laneCounts);
    relayout();
}

void TimelineLayout::relayout() {
    m_rows.clear();
    m_trackFirstRow.assign(m_session ? m_session->tracks().size() : 0, -1);
    int y = 0;
    m_pinnedHeight = 0;
    auto add = [&](Row row, int height) {
        row.y = y;
        row.height = height;
        y += height;
        m_rows.push_back(row);
    };
    for (uint32_t q = 0; q < m_queryLanes.size(); ++q)
        for (uint32_t lane = 0; lane < m_queryLanes[q]; ++lane)
            add(Row{RowKind::Query, -1, 0, lane, q, 0, 0, lane == 0}, kSliceHeight);
    std::vector<int> order;
    for (bool pinnedBand : {true, false})
        for (int gi : m_order)
            if (m_groups[static_cast<size_t>(gi)].pinned == pinnedBand)
                order.push_back(gi);
    bool inPinnedBand = true;
    for (int gi : order) {
        const Group& g = m_groups[static_cast<size_t>(gi)];
        if (!g.pinned && inPinnedBand) {
            m_pinnedHeight = y;
            inPinnedBand = false;
        }
        add(Row{RowKind::GroupHeader, gi, 0, 0, 0, 0, 0, false}, kHeaderHeight);
        if (g.collapsed)
            continue;
        for (uint32_t t : g.tracks) {
            const Track& track = m_session->tracks()[t];
            bool first = true;
            m_trackFirstRow[t] = static_cast<int>(m_rows.size());
            for (uint32_t r = 0; r < track.rowCount(); ++r) {
                add(Row{RowKind::Slices, gi, t, r, 0, 0, 0, first}, kSliceHeight);
                first = false;
            }
            if (!track.instantTs.empty())
                add(Row{RowKind::Instants, gi, t, 0, 0, 0, 0, first}, kInstantHeight);
        }
        for (uint32_t c : g.counters)
            add(Row{RowKind::Counter, gi, 0, 0, c, 0, 0, true}, kCounterHeight);
    }
    m_totalHeight = y;
    if (inPinnedBand)
        m_pinnedHeight = y;
}

int TimelineLayout::rowAt(int y) const {
    if (y < 0 || y >= m_totalHeight)
        return -1;
    auto it = std::upper_bound(m_rows.begin(), m_rows.end(), y, [](int v, const Row& r) { return v < r.y; });
    return static_cast<int>(it - m_rows.begin()) - 1;
}

int TimelineLayout::firstRowOfTrack(uint32_t track) const {
    return track < m_trackFirstRow.size() ? m_trackFirstRow[track] : -1;
}

int TimelineLayout::rowOfSlice(const Session& session, uint32_t track, uint32_t slice) const {
    const int first = firstRowOfTrack(track);
    if (first < 0)
        return -1;
    return first + static_cast<int>(session.tracks()[track].rowOf(slice));
}

} // namespace ws
