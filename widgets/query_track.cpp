#include "query_track.h"

#include <algorithm>
#include <numeric>

namespace ws {

QueryTrack QueryTrack::build(QString name, std::vector<Interval> intervals) {
    QueryTrack t;
    t.name = std::move(name);
    std::erase_if(intervals, [](const Interval& i) { return i.dur < 0; });
    std::stable_sort(intervals.begin(), intervals.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
    t.intervals = std::move(intervals);
    std::vector<int64_t> laneEnd;
    for (uint32_t i = 0; i < t.intervals.size(); ++i) {
        const Interval& v = t.intervals[i];
        size_t lane = 0;
        while (lane < laneEnd.size() && laneEnd[lane] > v.start)
            ++lane;
        if (lane == kMaxLanes) {
            // Deeper than the lanes: the last lane keeps it where it does not overlap, else it is
            // cut to start where that lane's last interval ends (drawn, never lost from the list).
            lane = kMaxLanes - 1;
        }
        if (lane == laneEnd.size()) {
            laneEnd.push_back(INT64_MIN);
            t.lanes.emplace_back();
        }
        Lane& l = t.lanes[lane];
        const int64_t start = std::max(v.start, laneEnd[lane]);
        const int64_t end = std::max(start, v.start + v.dur);
        l.start.push_back(start);
        l.dur.push_back(end - start);
        l.interval.push_back(i);
        laneEnd[lane] = end;
    }
    return t;
}

const QueryTrack::Interval* QueryTrack::at(size_t lane, int64_t t, int64_t slack) const {
    if (lane >= lanes.size())
        return nullptr;
    const Lane& l = lanes[lane];
    auto it = std::upper_bound(l.start.begin(), l.start.end(), t + slack);
    const Interval* best = nullptr;
    int64_t bestDistance = INT64_MAX;
    for (int k = 0; k < 2 && it != l.start.begin(); ++k) {
        --it;
        const size_t i = size_t(it - l.start.begin());
        const int64_t end = l.start[i] + l.dur[i];
        const int64_t distance = t < l.start[i] ? l.start[i] - t : std::max<int64_t>(0, t - end);
        if (distance <= slack && distance < bestDistance) {
            best = &intervals[l.interval[i]];
            bestDistance = distance;
        }
    }
    return best;
}

} // namespace ws
