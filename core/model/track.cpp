#include "model/track.h"
#include "model/vector_slack.h"

#include <algorithm>

namespace ws {

uint32_t Track::rowOf(size_t i) const {
    auto it = std::upper_bound(rowBegin.begin(), rowBegin.end(), static_cast<uint32_t>(i));
    return static_cast<uint32_t>(it - rowBegin.begin() - 1);
}

uint32_t Track::enclosingSlice(int64_t ts) const {
    uint32_t best = kNoId;
    uint32_t bestDepth = 0;
    for (size_t r = 0; r + 1 < rowBegin.size(); ++r) {
        auto first = start.begin() + rowBegin[r];
        auto last = start.begin() + rowBegin[r + 1];
        auto it = std::upper_bound(first, last, ts);
        if (it == first)
            continue;
        const auto i = static_cast<uint32_t>(it - start.begin() - 1);
        const bool contains = start[i] == ts || ts < start[i] + dur[i];
        if (contains && (best == kNoId || rowDepth[r] >= bestDepth)) {
            best = i;
            bestDepth = rowDepth[r];
        }
    }
    return best;
}

void EnclosingSliceFinder::use(const Track& t) {
    if (&t != m_track) {
        m_track = &t;
        m_hint.assign(t.rowBegin.begin(), t.rowBegin.end() - (t.rowBegin.empty() ? 0 : 1));
    }
}

uint32_t EnclosingSliceFinder::lastStartingBy(size_t r, int64_t ts) {
    const Track& t = *m_track;
    const uint32_t first = t.rowBegin[r], last = t.rowBegin[r + 1];
    if (first == last)
        return Track::kNoId;
    const uint32_t h = m_hint[r];
    auto upper = [&](uint32_t lo, uint32_t hi) {
        return static_cast<uint32_t>(std::upper_bound(t.start.begin() + lo, t.start.begin() + hi, ts) - t.start.begin());
    };
    uint32_t after; // first slice of the row starting after ts
    if (t.start[h] <= ts) {
        uint32_t lo = h, step = 1;
        while (lo + step < last && t.start[lo + step] <= ts) {
            lo += step;
            step *= 2;
        }
        after = upper(lo + 1, std::min<uint32_t>(last, lo + step));
    } else {
        after = upper(first, h);
    }
    if (after == first)
        return Track::kNoId;
    m_hint[r] = after - 1;
    return after - 1;
}

uint32_t EnclosingSliceFinder::find(const Track& t, int64_t ts) {
    use(t);
    uint32_t best = Track::kNoId;
    uint32_t bestDepth = 0;
    bool laneOver = false; // a shallower row of this lane had nothing around ts
    for (size_t r = 0; r < t.rowCount(); ++r) {
        if (r > 0 && t.rowLane[r] != t.rowLane[r - 1])
            laneOver = false;
        if (laneOver || t.rowBegin[r] == t.rowBegin[r + 1])
            continue;
        const uint32_t i = lastStartingBy(r, ts);
        if (i == Track::kNoId || !(t.start[i] == ts || ts < t.start[i] + t.dur[i])) {
            laneOver = true;
            continue;
        }
        if (best == Track::kNoId || t.rowDepth[r] >= bestDepth) {
            best = i;
            bestDepth = t.rowDepth[r];
        }
    }
    return best;
}

void EnclosingSliceFinder::ancestors(const Track& t, uint32_t slice, std::vector<uint32_t>& out) {
    out.clear();
    if (slice >= t.sliceCount())
        return;
    use(t);
    const uint32_t row = t.rowOf(slice);
    const int64_t ts = t.start[slice];
    const int64_t end = t.end(slice);
    // As Session::ancestors: rows of one lane are consecutive; walk up from depth-1 to 0.
    for (uint32_t r = row; r-- > 0 && t.rowLane[r] == t.rowLane[row];) {
        const uint32_t p = lastStartingBy(r, ts);
        if (p == Track::kNoId || t.end(p) < end)
            break;
        out.push_back(p);
    }
    std::reverse(out.begin(), out.end());
}

uint32_t Track::nextSliceStartingAt(int64_t ts) const {
    uint32_t best = kNoId;
    for (size_t r = 0; r + 1 < rowBegin.size(); ++r) {
        auto first = start.begin() + rowBegin[r];
        auto last = start.begin() + rowBegin[r + 1];
        auto it = std::lower_bound(first, last, ts);
        if (it == last)
            continue;
        const auto i = static_cast<uint32_t>(it - start.begin());
        if (best == kNoId || start[i] < start[best])
            best = i;
    }
    return best;
}

size_t Track::memoryBytes() const {
    auto cap = [](const auto& v) { return residentBytes(v); }; // vector_slack.h
    return sizeof(Track) + cap(start) + cap(dur) + cap(names) + cap(category) + cap(argRef) +
           cap(correlation) + cap(externalId) + cap(bytes) + cap(blocksPerSm) + cap(occupancy) +
           cap(launchArgs) + cap(opArgs) +
           cap(rowBegin) + cap(rowDepth) + cap(rowLane) + cap(instantTs) + cap(instantNames) +
           cap(instantCategory) + cap(instantArgRef);
}

} // namespace ws
