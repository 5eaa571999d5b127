#include "index/time_ticks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ws {

TimeTicks computeTicks(int64_t origin, int64_t t0, int64_t t1, double nsPerPx, double minSpacingPx) {
    TimeTicks ticks;
    const double minStep = std::max(1.0, nsPerPx * minSpacingPx);
    int64_t decade = 1;
    while (static_cast<double>(decade) * 10 <= minStep && decade < INT64_MAX / 100)
        decade *= 10;
    for (int64_t m : {1, 2, 5, 10}) {
        if (static_cast<double>(decade * m) >= minStep) {
            ticks.step = decade * m;
            break;
        }
    }
    // First multiple of step (from origin) at or after t0; floor division for negatives.
    const int64_t rel = t0 - origin;
    int64_t k = rel / ticks.step;
    if (k * ticks.step < rel)
        ++k;
    for (int64_t t = origin + k * ticks.step; t <= t1 && ticks.times.size() < 10000; t += ticks.step)
        ticks.times.push_back(t);
    return ticks;
}

std::string formatTickLabel(int64_t offsetNs, int64_t step) {
    struct Unit {
        int64_t ns;
        const char* name;
    };
    static const Unit units[] = {{1'000'000'000, "s"}, {1'000'000, "ms"}, {1'000, "µs"}, {1, "ns"}};
    // The largest unit not above the label's magnitude (or the step, for the origin).
    const int64_t magnitude = std::max<int64_t>(std::llabs(offsetNs), step);
    const Unit* unit = &units[3];
    for (const Unit& u : units) {
        if (magnitude >= u.ns) {
            unit = &u;
            break;
        }
    }
    // Enough decimals to show the step in this unit (a 250 µs step in ms needs 2).
    int decimals = 0;
    for (int64_t s = step; decimals < 9 && s % unit->ns != 0; s *= 10)
        ++decimals;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f %s", decimals, static_cast<double>(offsetNs) / static_cast<double>(unit->ns),
                  unit->name);
    return buf;
}

} // namespace ws
