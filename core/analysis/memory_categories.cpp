#include "analysis/memory_categories.h"

#include "import/torch_memory_timeline_importer.h"
#include "model/session.h"

#include <algorithm>

namespace ws {

MemoryCategories MemoryCategories::build(const Session& s) {
    MemoryCategories out;
    // The category series, in the exporter's order; each holds samples where it changed.
    std::vector<const CounterSeries*> series;
    for (int c = 0; c < 8; ++c) {
        const std::string_view name = memoryTimelineCategoryName(c);
        for (const CounterSeries& cs : s.counters())
            if (s.str(cs.name) == kMemoryTimelineCounter && s.str(cs.series) == name) {
                series.push_back(&cs);
                out.categories.push_back({std::string(name), 0, 0, 0});
            }
    }
    if (series.empty())
        return out;
    out.present = true;
    // Walk every sample time in order, holding each series' current value (a step function).
    std::vector<size_t> next(series.size(), 0);
    std::vector<int64_t> value(series.size(), 0);
    bool first = true;
    while (true) {
        int64_t ts = INT64_MAX;
        for (size_t k = 0; k < series.size(); ++k)
            if (next[k] < series[k]->ts.size())
                ts = std::min(ts, series[k]->ts[next[k]]);
        if (ts == INT64_MAX)
            break;
        int64_t total = 0;
        for (size_t k = 0; k < series.size(); ++k) {
            while (next[k] < series[k]->ts.size() && series[k]->ts[next[k]] == ts)
                value[k] = static_cast<int64_t>(series[k]->value[next[k]++]);
            total += value[k];
            out.categories[k].peakBytes = std::max(out.categories[k].peakBytes, value[k]);
        }
        if (first || total > out.peakTotalBytes) {
            out.peakTotalBytes = total;
            out.peakTs = ts;
            for (size_t k = 0; k < series.size(); ++k)
                out.categories[k].atTotalPeakBytes = value[k];
        }
        first = false;
    }
    for (size_t k = 0; k < series.size(); ++k)
        out.categories[k].finalBytes = value[k];
    return out;
}

} // namespace ws
