#include "analysis/pm_counters.h"

#include "model/session.h"

#include <algorithm>

namespace ws {

int32_t pmCounterIndex(const Session& s, int device, PmCounter counter) {
    const std::string_view name = kPmCounterNames[static_cast<size_t>(counter)];
    for (size_t ci = 0; ci < s.counters().size(); ++ci) {
        const CounterSeries& c = s.counters()[ci];
        if (!c.ts.empty() && s.processes()[c.process].deviceId == device && s.str(c.category) == "pm_sampling" &&
            s.str(c.name) == name)
            return static_cast<int32_t>(ci);
    }
    return -1;
}

std::optional<double> sampledMean(const CounterSeries& c, int64_t lo, int64_t hi) {
    const size_t n = c.ts.size();
    if (n < 2 || hi <= lo)
        return std::nullopt;
    auto it = std::upper_bound(c.ts.begin(), c.ts.end(), lo);
    size_t i = it == c.ts.begin() ? 0 : static_cast<size_t>(it - c.ts.begin()) - 1;
    double weighted = 0, covered = 0;
    for (; i < n && c.ts[i] < hi; ++i) {
        const int64_t end = i + 1 < n ? c.ts[i + 1] : c.ts[i] + (c.ts[i] - c.ts[i - 1]);
        const auto len = static_cast<double>(std::max<int64_t>(0, std::min(end, hi) - std::max(c.ts[i], lo)));
        weighted += c.value[i] * len;
        covered += len;
    }
    if (covered <= 0)
        return std::nullopt;
    return weighted / covered;
}

} // namespace ws
