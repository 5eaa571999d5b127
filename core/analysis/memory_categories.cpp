#include "analysis/memory_categories.h"

#include "model/memory_timeline_categories.h"
#include "model/session.h"

#include <algorithm>

namespace ws {

std::vector<std::string> forEachMemoryTimelineState(
    const Session& s, const std::function<void(int64_t ts, const std::vector<int64_t>& bytes)>& fn) {
    // The category series, in the exporter's order; each holds samples where it changed.
    std::vector<const CounterSeries*> series;
    std::vector<std::string> names;
    for (int c = 0; c < kMemoryTimelineCategories; ++c) {
        const std::string_view name = memoryTimelineCategoryName(c);
        for (const CounterSeries& cs : s.counters())
            if (s.str(cs.name) == kMemoryTimelineCounter && s.str(cs.series) == name) {
                series.push_back(&cs);
                names.emplace_back(name);
            }
    }
    // Every sample time in order, each series holding its current value (a step function).
    std::vector<size_t> next(series.size(), 0);
    std::vector<int64_t> value(series.size(), 0);
    while (!series.empty()) {
        int64_t ts = INT64_MAX;
        for (size_t k = 0; k < series.size(); ++k)
            if (next[k] < series[k]->ts.size())
                ts = std::min(ts, series[k]->ts[next[k]]);
        if (ts == INT64_MAX)
            break;
        for (size_t k = 0; k < series.size(); ++k)
            while (next[k] < series[k]->ts.size() && series[k]->ts[next[k]] == ts)
                value[k] = static_cast<int64_t>(series[k]->value[next[k]++]);
        fn(ts, value);
    }
    return names;
}

MemoryCategories MemoryCategories::build(const Session& s) {
    MemoryCategories out;
    bool first = true;
    const std::vector<std::string> names = forEachMemoryTimelineState(s, [&](int64_t ts, const std::vector<int64_t>& v) {
        if (out.categories.empty())
            out.categories.resize(v.size());
        int64_t total = 0;
        for (size_t k = 0; k < v.size(); ++k) {
            total += v[k];
            out.categories[k].peakBytes = std::max(out.categories[k].peakBytes, v[k]);
            out.categories[k].finalBytes = v[k];
        }
        if (first || total > out.peakTotalBytes) {
            out.peakTotalBytes = total;
            out.peakTs = ts;
            for (size_t k = 0; k < v.size(); ++k)
                out.categories[k].atTotalPeakBytes = v[k];
        }
        first = false;
    });
    if (names.empty())
        return out;
    out.present = true;
    out.categories.resize(names.size());
    for (size_t k = 0; k < names.size(); ++k)
        out.categories[k].name = names[k];
    return out;
}

} // namespace ws
