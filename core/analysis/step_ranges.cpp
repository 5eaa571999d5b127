#include "analysis/step_ranges.h"

#include "analysis/launch_pattern_steps.h"
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

struct HostStep {
    StepRange range;
    std::string label;
};

bool isDigit(char c) { return c >= '0' && c <= '9'; }

} // namespace

std::string_view stepNumberOfRangeName(std::string_view name) {
    static constexpr std::string_view kWords[] = {"training_step", "train_step", "iteration", "step", "iter", "batch"};
    for (std::string_view w : kWords) {
        if (name.size() <= w.size())
            continue;
        bool same = true;
        for (size_t i = 0; i < w.size() && same; ++i)
            same = (name[i] | 0x20) == w[i];
        if (!same)
            continue;
        std::string_view rest = name.substr(w.size());
        if (!rest.empty() && (rest.front() == ' ' || rest.front() == '#' || rest.front() == '_' || rest.front() == ':' ||
                              rest.front() == '-'))
            rest.remove_prefix(1);
        if (rest.empty() || !std::all_of(rest.begin(), rest.end(), isDigit))
            return {};
        return rest;
    }
    return {};
}

StepRanges computeStepRanges(const Session& s) {
    StepRanges out;
    std::vector<HostStep> host;
    // Marked step ranges (`step N`) per track, used only when there is no ProfilerStep#N.
    std::unordered_map<uint32_t, std::vector<HostStep>> named;
    int64_t opMin = INT64_MAX, opMax = INT64_MIN, allMin = INT64_MAX, allMax = INT64_MIN;
    std::unordered_map<uint32_t, DeviceSpan> device; // by correlation
    std::vector<std::pair<int64_t, int64_t>> uncorrelated;
    for (const Track& t : s.tracks()) {
        for (size_t i = 0; i < t.sliceCount(); ++i) {
            const EventKind k = s.kindOf(t, i);
            const int64_t a = t.start[i], b = t.end(i);
            allMin = std::min(allMin, a);
            allMax = std::max(allMax, b);
            if (!t.gpu && (k == EventKind::UserAnnotation || k == EventKind::CpuOp)) {
                const std::string_view n = s.str(t.names[i]);
                if (n.rfind("ProfilerStep#", 0) == 0)
                    host.push_back({{a, b}, std::string(n.substr(13))});
                else if (const std::string_view number = stepNumberOfRangeName(n); !number.empty())
                    named[static_cast<uint32_t>(&t - s.tracks().data())].push_back({{a, b}, std::string(number)});
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
    if (host.empty() && !named.empty()) {
        // The thread with the most marked steps (lowest track on ties), outermost ranges only.
        uint32_t bestTrack = 0;
        size_t bestCount = 0;
        for (const auto& [track, marks] : named)
            if (marks.size() > bestCount || (marks.size() == bestCount && track < bestTrack)) {
                bestTrack = track;
                bestCount = marks.size();
            }
        if (bestCount >= 2) {
            std::vector<HostStep> marked = std::move(named[bestTrack]);
            std::sort(marked.begin(), marked.end(), [](const HostStep& x, const HostStep& y) { return x.range.start < y.range.start; });
            for (HostStep& m : marked)
                if (host.empty() || m.range.start >= host.back().range.end)
                    host.push_back(std::move(m));
            out.namedSteps = true;
        }
    }
    // A capture of a program that marks nothing: the repeating launch pattern (issue #13). Only for
    // captures: a profiler trace without steps is one profiled region by choice (tb-profiler's rule).
    if (host.empty() && s.sourceFormat() == TraceFormat::WarpscopeCapture) {
        const LaunchPatternSteps pattern = findLaunchPatternSteps(s);
        for (size_t k = 0; k < pattern.steps.size(); ++k)
            host.push_back({pattern.steps[k], std::to_string(k)});
        out.patternSteps = !host.empty();
    }
    out.hostStepCount = host.size();
    std::stable_sort(host.begin(), host.end(), [](const HostStep& x, const HostStep& y) { return x.range.start < y.range.start; });
    // A capture's first step that is unlike the others is start-up, not a step (issue #25): the
    // first iteration of a PyTorch program loads CUDA modules, creates cuBLAS/cuDNN handles and
    // autotunes, so it lasts seconds where the others last milliseconds, and kept as a step it
    // sinks every per-step number. torch.profiler leaves it out by its schedule's warm-up; a
    // capture records from the start. Left out when it lasts more than twice the median of the
    // others and at least two remain.
    if (s.sourceFormat() == TraceFormat::WarpscopeCapture && (out.patternSteps || out.namedSteps) && host.size() >= 3) {
        std::vector<int64_t> rest;
        for (size_t k = 1; k < host.size(); ++k)
            rest.push_back(host[k].range.end - host[k].range.start);
        std::nth_element(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(rest.size() / 2), rest.end());
        if (host[0].range.end - host[0].range.start > 2 * rest[rest.size() / 2]) {
            out.startup = host[0].range;
            host.erase(host.begin());
        }
    }
    if (host.empty()) {
        if (opMin <= opMax)
            host.push_back({{opMin, opMax}, {}});
        else if (allMin <= allMax)
            host.push_back({{allMin, allMax}, {}});
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
                                       [](int64_t v, const HostStep& r) { return v < r.range.start; });
            if (st == host.begin())
                continue;
            const auto k = static_cast<size_t>(st - host.begin() - 1);
            if (b > host[k].range.end)
                continue;
            DeviceSpan& d = it->second;
            d.matched = true;
            devMin[k] = std::min(devMin[k], d.start);
            devMax[k] = std::max(devMax[k], d.end);
            matched[k] += d.count;
        }
    }
    int64_t prevEnd = host[0].range.start;
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
        const int64_t start = std::max(prevEnd, host[k].range.start);
        const int64_t end = matched[k] > 0 ? std::max(host[k].range.end, devMax[k]) : std::max(host[k].range.end, start);
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
    out.labels.resize(steps.size());
    for (size_t k = 0; k < steps.size(); ++k)
        out.labels[k] = std::move(host[k].label);
    out.steps = std::move(steps);
    return out;
}

} // namespace ws
