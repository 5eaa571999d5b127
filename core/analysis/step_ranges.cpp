#include "analysis/step_ranges.h"

#include "model/session.h"

#include <algorithm>
#include <unordered_map>

namespace ws {

namespace {

struct DeviceSpan {
    int64_t start = INT64_MAX;
    int64_t end = INT64_MIN;
    uint64_t count = 0;
    bool matched = false;
};

} // namespace

StepRanges computeStepRanges(const Session& s) {
    StepRanges out;
    std::vector<StepRange> host;
    int64_t opMin = INT64_MAX, opMax = INT64_MIN, allMin = INT64_MAX, allMax = INT64_MIN;
    std::unordered_map<uint32_t, DeviceSpan> device; // by correlation
    std::vector<std::pair<int64_t, int64_t>> uncorrelated;
    for (const Track& t : s.tracks()) {
        for (size_t i = 0; i < t.sliceCount(); ++i) {
            const EventKind k = s.kindOf(t, i);
            const int64_t a = t.start[i], b = t.end(i);
            allMin = std::min(allMin, a);
            allMax = std::max(allMax, b);
            if (!t.gpu && (k == EventKind::UserAnnotation || k == EventKind::CpuOp) &&
                s.str(t.names[i]).rfind("ProfilerStep#", 0) == 0) {
                host.push_back({a, b});
            }
            if (k == EventKind::CpuOp || k == EventKind::PythonFunction ||
                (k == EventKind::UserAnnotation && s.str(t.names[i]).rfind("ProfilerStep#", 0) == 0)) {
                opMin = std::min(opMin, a);
                opMax = std::max(opMax, b);
            }
            if (isGpuActivity(k)) {
                const uint32_t corr = t.correlation.empty() ? Track::kNoId : t.correlation[i];
                if (corr == Track::kNoId) {
                    uncorrelated.emplace_back(a, b);
                    continue;
                }
                DeviceSpan& d = device[corr];
                d.start = std::min(d.start, a);
                d.end = std::max(d.end, b);
                ++d.count;
            }
        }
    }
    out.hostStepCount = host.size();
    std::sort(host.begin(), host.end(), [](const StepRange& a, const StepRange& b) { return a.start < b.start; });
    if (host.empty()) {
        if (opMin <= opMax)
            host.push_back({opMin, opMax});
        else if (allMin <= allMax)
            host.push_back({allMin, allMax});
        else
            return out;
    }
    // Device work per step: runtimes lying entirely inside a host step.
    const size_t n = host.size();
    std::vector<int64_t> devMin(n, INT64_MAX), devMax(n, INT64_MIN);
    std::vector<uint64_t> matched(n, 0);
    for (const Track& t : s.tracks()) {
        if (t.gpu || t.correlation.empty())
            continue;
        for (size_t i = 0; i < t.sliceCount(); ++i) {
            if (s.kindOf(t, i) != EventKind::Runtime || t.correlation[i] == Track::kNoId)
                continue;
            auto it = device.find(t.correlation[i]);
            if (it == device.end())
                continue;
            const int64_t a = t.start[i], b = t.end(i);
            auto st = std::upper_bound(host.begin(), host.end(), a,
                                       [](int64_t v, const StepRange& r) { return v < r.start; });
            if (st == host.begin())
                continue;
            const auto k = static_cast<size_t>(st - host.begin() - 1);
            if (b > host[k].end)
                continue;
            DeviceSpan& d = it->second;
            d.matched = true;
            devMin[k] = std::min(devMin[k], d.start);
            devMax[k] = std::max(devMax[k], d.end);
            matched[k] += d.count;
        }
    }
    int64_t prevEnd = host[0].start;
    if (matched[0] > 0) {
        const int64_t firstDevStart = devMin[0];
        for (const auto& [corr, d] : device)
            if (!d.matched && d.end < firstDevStart)
                prevEnd = std::max(prevEnd, d.end);
        for (const auto& [a, b] : uncorrelated)
            if (b < firstDevStart)
                prevEnd = std::max(prevEnd, b);
    }
    std::vector<StepRange> steps(n);
    for (size_t k = 0; k < n; ++k) {
        const int64_t start = std::max(prevEnd, host[k].start);
        const int64_t end = matched[k] > 0 ? std::max(host[k].end, devMax[k]) : std::max(host[k].end, start);
        steps[k] = {start, end};
        prevEnd = end;
    }
    // Tail trimming: keep up to the last step with device work; drop it too if it looks cut.
    size_t last = n;
    for (size_t k = n; k-- > 0;)
        if (matched[k] > 0) {
            last = k;
            break;
        }
    if (last < n) {
        size_t keep = last + 1;
        if (last > 0 && static_cast<double>(matched[last]) < 0.8 * static_cast<double>(matched[last - 1]))
            keep = last;
        steps.resize(keep);
    }
    out.steps = std::move(steps);
    return out;
}

} // namespace ws
