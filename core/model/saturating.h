#pragma once

#include <cstdint>

namespace ws {

// total += v, stopping at INT64_MAX / INT64_MIN instead of overflowing (undefined behaviour): sums
// of durations or bytes over a damaged trace's events (each within the importers' limits) can pass
// int64; a real trace's never come near.
inline void addSaturating(int64_t& total, int64_t v) {
    if (__builtin_add_overflow(total, v, &total))
        total = v > 0 ? INT64_MAX : INT64_MIN;
}

} // namespace ws
