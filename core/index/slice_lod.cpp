#include "index/slice_lod.h"

#include <algorithm>
#include <cmath>

namespace ws {

namespace {

// Smallest index j in [from, n) with start[j] > limit, searching outward from `from` first: folds
// usually swallow a handful of slices, so galloping beats a full binary search on huge rows.
size_t gallopPast(std::span<const int64_t> start, size_t from, int64_t limit) {
    const size_t n = start.size();
    size_t lo = from, step = 1, hi = from;
    while (hi < n && start[hi] <= limit) {
        lo = hi + 1;
        hi = from + step;
        step *= 2;
    }
    hi = std::min(hi, n);
    return static_cast<size_t>(std::upper_bound(start.begin() + static_cast<ptrdiff_t>(lo),
                                                start.begin() + static_cast<ptrdiff_t>(hi), limit) -
                               start.begin());
}

} // namespace

size_t firstVisible(std::span<const int64_t> start, std::span<const int64_t> dur, int64_t t) {
    // Slices are sorted and non-overlapping, so at most the one just before the first start >= t
    // can still reach past t.
    size_t i = static_cast<size_t>(std::lower_bound(start.begin(), start.end(), t) - start.begin());
    if (i > 0 && start[i - 1] + dur[i - 1] > t)
        --i;
    return i;
}

void foldRow(std::span<const int64_t> start, std::span<const int64_t> dur, const LodWindow& w,
             std::vector<LodItem>& out) {
    const size_t n = start.size();
    const int64_t minWidthNs = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(w.minWidthPx * w.nsPerPx)));
    const int64_t onePxNs = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(w.nsPerPx)));
    const size_t rowStartItem = out.size();
    size_t i = firstVisible(start, dur, w.t0);
    while (i < n && start[i] < w.t1) {
        if (dur[i] >= minWidthNs) {
            out.push_back({start[i], start[i] + dur[i], static_cast<uint32_t>(i), 1, false});
            ++i;
            continue;
        }
        // Fold everything that starts within minWidth of this narrow slice.
        size_t j = gallopPast(start, i + 1, start[i] + minWidthNs);
        // A wide slice can only be the last one swallowed (the next one starts after its end);
        // it is drawn on its own.
        if (j - 1 > i && dur[j - 1] >= minWidthNs)
            --j;
        const int64_t foldStart = start[i];
        const int64_t foldEnd = start[j - 1] + dur[j - 1];
        const auto count = static_cast<uint32_t>(j - i);
        if (out.size() > rowStartItem && out.back().folded && foldStart - out.back().end < onePxNs) {
            LodItem& last = out.back();
            last.end = std::max(last.end, foldEnd);
            last.count += count;
        } else {
            out.push_back({foldStart, foldEnd, static_cast<uint32_t>(i), count, true});
        }
        i = j;
    }
}

} // namespace ws
