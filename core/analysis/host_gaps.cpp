#include "analysis/host_gaps.h"

#include "model/session.h"

#include <algorithm>
#include <climits>

namespace ws {

bool isWarpscopeCapture(const Session& session) { return session.metadata().count("warpscopeCapture") > 0; }

std::vector<HostCall> hostCalls(const Session& s, const Track& t) {
    std::vector<uint32_t> calls;
    for (uint32_t i = 0; i < t.sliceCount(); ++i)
        if (s.kindOf(t, i) == EventKind::Runtime)
            calls.push_back(i);
    // The columns are in (row, start) order: calls nested in others sit in deeper rows.
    std::sort(calls.begin(), calls.end(), [&](uint32_t a, uint32_t b) {
        return t.start[a] != t.start[b] ? t.start[a] < t.start[b] : t.dur[a] > t.dur[b];
    });
    std::vector<HostCall> out;
    int64_t reach = INT64_MIN; // the latest end so far
    for (uint32_t i : calls) {
        if (t.end(i) <= reach)
            continue; // inside an earlier call
        HostCall c;
        c.slice = i;
        if (reach != INT64_MIN && t.start[i] > reach) {
            c.gapStart = reach;
            if (t.start[i] - reach <= kHostGapNs)
                c.gapNs = t.start[i] - reach;
        }
        out.push_back(c);
        reach = std::max(reach, t.end(i));
    }
    return out;
}

} // namespace ws
