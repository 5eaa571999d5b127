#include "model/track.h"

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
    auto cap = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
    return sizeof(Track) + cap(start) + cap(dur) + cap(names) + cap(category) + cap(argRef) +
           cap(correlation) + cap(externalId) + cap(bytes) + cap(blocksPerSm) + cap(occupancy) +
           cap(launchArgs) + cap(opArgs) +
           cap(rowBegin) + cap(rowDepth) + cap(rowLane) + cap(instantTs) + cap(instantNames) +
           cap(instantCategory) + cap(instantArgRef);
}

} // namespace ws
