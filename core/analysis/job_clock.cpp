#include "analysis/job_clock.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace ws {

namespace {

// End of a node's last GPU activity (the collective's completion); its CPU end without any.
int64_t completion(const CommNode& n) {
    int64_t end = n.ranges.front().end;
    if (n.ranges.size() > 1) {
        end = n.ranges[1].end;
        for (size_t j = 2; j < n.ranges.size(); ++j)
            end = std::max(end, n.ranges[j].end);
    }
    return end;
}

} // namespace

ClockAlignment alignJobClocks(const std::vector<RankDistributed>& workers, int64_t toleranceNs) {
    ClockAlignment a;
    const size_t W = workers.size();
    a.offsetNs.assign(W, 0);
    if (W < 2)
        return a;
    // Reference times per worker: the first collective (by worker 0's order) every worker has. The
    // first candidate is nearly always common, so each worker is scanned from its start for that
    // (name, occurrence) instead of indexing every node of every worker.
    std::vector<int64_t> ref(W, 0);
    bool found = false;
    {
        std::unordered_map<std::string_view, uint32_t> occ0;
        for (const CommNode& n : workers[0].nodes) {
            const uint32_t want = occ0[n.name]++;
            bool everywhere = true;
            for (size_t w = 0; w < W && everywhere; ++w) {
                uint32_t seen = 0;
                everywhere = false;
                for (const CommNode& m : workers[w].nodes)
                    if (m.name == n.name && seen++ == want) {
                        ref[w] = completion(m);
                        everywhere = true;
                        break;
                    }
            }
            if (everywhere) {
                found = true;
                a.reference = n.name;
                break;
            }
        }
    }
    ClockAlignment::Method method = ClockAlignment::Method::FirstCollective;
    if (!found) {
        method = ClockAlignment::Method::FirstStep;
        for (const RankStep& s : workers[0].steps) {
            if (s.label.empty())
                continue; // a trace without profiler steps: its one "step" is just its extent
            bool everywhere = true;
            for (size_t w = 0; w < W && everywhere; ++w) {
                auto it = std::find_if(workers[w].steps.begin(), workers[w].steps.end(),
                                       [&](const RankStep& o) { return o.label == s.label; });
                everywhere = it != workers[w].steps.end();
                if (everywhere)
                    ref[w] = it->start;
            }
            if (everywhere) {
                found = true;
                a.reference = s.label;
                break;
            }
        }
    }
    if (!found)
        return a;
    const auto [lo, hi] = std::minmax_element(ref.begin(), ref.end());
    a.spreadNs = *hi - *lo;
    if (a.spreadNs <= toleranceNs)
        return a;
    a.method = method;
    for (size_t w = 0; w < W; ++w)
        a.offsetNs[w] = ref[0] - ref[w];
    return a;
}

} // namespace ws
