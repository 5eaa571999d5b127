#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace ws {

/*
 * The first index i >= from of the ascending `v` with v[i] >= value, for lookups that come in
 * ascending order, each starting where the previous one ended (every element before `from` must be
 * below value): steps of 1, 2, 4, ... from `from`, then one binary search within the last step. The
 * answer is usually a few elements on, where a binary search over all of `v` would miss the cache
 * on every level.
 */
template <typename T> size_t gallopLowerBound(const std::vector<T>& v, size_t from, const T& value) {
    size_t lo = from, step = 1;
    while (lo + step < v.size() && v[lo + step] < value) {
        lo += step;
        step *= 2;
    }
    const auto end = v.begin() + static_cast<std::ptrdiff_t>(std::min(v.size(), lo + step + 1));
    return static_cast<size_t>(std::lower_bound(v.begin() + static_cast<std::ptrdiff_t>(lo), end, value) - v.begin());
}

} // namespace ws
