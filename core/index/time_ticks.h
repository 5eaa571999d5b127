#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ws {

/*
 * Ruler ticks for a time axis: the step is the smallest 1, 2 or 5 x 10^k ns that keeps labelled
 * ticks at least `minSpacingPx` apart, so labels never collide at any zoom. Tick times are
 * multiples of the step counted from `origin` (the session start), which is what labels show.
 */
struct TimeTicks {
    int64_t step = 1;
    std::vector<int64_t> times; // absolute ns, ascending, inside [t0, t1]
};

TimeTicks computeTicks(int64_t origin, int64_t t0, int64_t t1, double nsPerPx, double minSpacingPx);

// Label of a tick at `offsetNs` from the origin, in the unit the step calls for ("1.25 ms",
// "300 µs", "2 s"), with just enough decimals to tell neighbouring ticks apart.
std::string formatTickLabel(int64_t offsetNs, int64_t step);

} // namespace ws
