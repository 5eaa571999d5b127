#include "analysis/launch_pattern_steps.h"

#include "model/session.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace ws {

namespace {

struct Launch {
    int64_t start = 0;
    int64_t end = 0;
    StringId kernel = kEmptyString;
    int64_t kernelEnd = 0;  // the end of the last kernel this call launched
    int64_t kernelTime = 0; // the kernels' summed duration
    uint32_t kernels = 1;   // how many kernels this call launched (a graph launch: many)
};

// A program that replays one CUDA graph per iteration (the whole step captured) has no repeating
// per-kernel pattern on the host: one call per iteration. Its replays are the iterations when one
// graph (named by its first kernel) is replayed at least 3 times and its replays hold most of the
// kernel time. Steps run from one replay to the next; the last ends with its last kernel.
LaunchPatternSteps graphReplaySteps(const std::vector<Launch>& calls) {
    LaunchPatternSteps out;
    std::unordered_map<StringId, std::pair<uint32_t, int64_t>> graphs; // first kernel -> replays, time
    int64_t total = 0;
    for (const Launch& l : calls) {
        total += l.kernelTime;
        if (l.kernels > 1) {
            auto& g = graphs[l.kernel];
            ++g.first;
            g.second += l.kernelTime;
        }
    }
    StringId best = kEmptyString;
    for (const auto& [name, g] : graphs)
        if (g.first >= 3 && 2 * g.second > total && (best == kEmptyString || g.first > graphs[best].first))
            best = name;
    if (best == kEmptyString)
        return out;
    std::vector<const Launch*> replays;
    for (const Launch& l : calls)
        if (l.kernels > 1 && l.kernel == best)
            replays.push_back(&l);
    for (size_t k = 0; k < replays.size(); ++k) {
        const int64_t end = k + 1 < replays.size() ? replays[k + 1]->start : replays[k]->kernelEnd;
        if (end > replays[k]->start)
            out.steps.push_back({replays[k]->start, end});
    }
    out.iterations = static_cast<uint32_t>(out.steps.size());
    out.anchorName = best;
    return out;
}

} // namespace

LaunchPatternSteps findLaunchPatternSteps(const Session& s) {
    LaunchPatternSteps out;
    std::vector<Launch> launches;
    for (const Flow& f : s.flows()) {
        const Track& from = s.tracks()[f.fromTrack];
        const Track& to = s.tracks()[f.toTrack];
        // A graph replay recorded as one span (--graph-trace=graph) is its launch's GPU work too.
        if (from.gpu || !to.gpu || (s.kindOf(to, f.toSlice) != EventKind::Kernel && s.kindOf(to, f.toSlice) != EventKind::GpuGraph))
            continue;
        const EventKind k = s.kindOf(from, f.fromSlice);
        if (k != EventKind::Runtime && k != EventKind::Driver)
            continue;
        const int64_t kernelStart = to.start[f.toSlice], kernelEnd = to.end(f.toSlice);
        launches.push_back({from.start[f.fromSlice], from.end(f.fromSlice), to.names[f.toSlice], kernelEnd,
                            kernelEnd - kernelStart, 1});
    }
    std::sort(launches.begin(), launches.end(), [](const Launch& a, const Launch& b) {
        return a.start != b.start ? a.start < b.start : a.kernelEnd - a.kernelTime < b.kernelEnd - b.kernelTime;
    });
    // A graph launch reaches many kernels from one call: one symbol per call (its first kernel) is
    // enough; the call keeps the count, the time and the end of all of them.
    std::vector<Launch> calls;
    for (const Launch& l : launches) {
        if (!calls.empty() && calls.back().start == l.start && calls.back().end == l.end) {
            Launch& c = calls.back();
            ++c.kernels;
            c.kernelTime += l.kernelTime;
            c.kernelEnd = std::max(c.kernelEnd, l.kernelEnd);
        } else {
            calls.push_back(l);
        }
    }
    launches = std::move(calls);
    if (LaunchPatternSteps replays = graphReplaySteps(launches); !replays.steps.empty())
        return replays;
    if (launches.size() < 9)
        return out;

    std::unordered_map<StringId, uint32_t> counts;
    for (const Launch& l : launches)
        ++counts[l.kernel];
    std::map<uint32_t, uint32_t> kernelsWithCount; // occurrence count -> distinct kernels
    for (const auto& [name, c] : counts)
        ++kernelsWithCount[c];
    uint32_t n = 0;
    for (const auto& [c, kernels] : kernelsWithCount)
        if (c >= 3 && kernels >= 3) {
            n = c;
            out.periodicKernels = kernels;
            break;
        }
    if (n == 0)
        return out;

    // The anchor: the once-per-iteration kernel launched first.
    size_t first = launches.size();
    for (size_t i = 0; i < launches.size() && first == launches.size(); ++i)
        if (counts[launches[i].kernel] == n)
            first = i;
    const StringId anchor = launches[first].kernel;
    std::vector<size_t> at;
    size_t lastPeriodic = first;
    for (size_t i = first; i < launches.size(); ++i) {
        if (launches[i].kernel == anchor)
            at.push_back(i);
        if (counts[launches[i].kernel] == n)
            lastPeriodic = i;
    }
    // Spread, not bunched: every iteration holds at least a quarter of an even share of the launches.
    const double share = static_cast<double>(lastPeriodic + 1 - first) / static_cast<double>(n);
    for (size_t k = 0; k + 1 < at.size(); ++k)
        if (static_cast<double>(at[k + 1] - at[k]) < 0.25 * share)
            return out;
    // An iteration begins before its anchor (the forward pass up to the first once-per-iteration
    // kernel): the launches that precede the first anchor and repeat before the second belong to
    // it. Set-up before the loop does not repeat there (the second iteration is preceded by the
    // first one's optimizer step), which ends the match; at most one period less one launch.
    size_t lead = 0;
    if (at.size() >= 2) {
        size_t period = at[1] - at[0];
        for (size_t k = 1; k + 1 < at.size(); ++k)
            period = std::min(period, at[k + 1] - at[k]);
        while (lead < at[0] && lead + 1 < period && launches[at[0] - lead - 1].kernel == launches[at[1] - lead - 1].kernel)
            ++lead;
    }
    // The last iteration ends with its last launch: one typical period after its start, or the
    // last launch of a once-per-iteration kernel if that comes later.
    size_t lastLaunch = lastPeriodic;
    if (at.size() >= 2) {
        std::vector<size_t> periods;
        for (size_t k = 0; k + 1 < at.size(); ++k)
            periods.push_back(at[k + 1] - at[k]);
        std::nth_element(periods.begin(), periods.begin() + static_cast<std::ptrdiff_t>(periods.size() / 2), periods.end());
        lastLaunch = std::max(lastLaunch, std::min(at.back() - lead + periods[periods.size() / 2] - 1, launches.size() - 1));
    }
    for (size_t k = 0; k < at.size(); ++k) {
        const int64_t start = launches[at[k] - lead].start;
        const int64_t end = k + 1 < at.size() ? launches[at[k + 1] - lead].start : launches[lastLaunch].end;
        if (end > start)
            out.steps.push_back({start, end});
    }
    out.leadLaunches = static_cast<uint32_t>(lead);
    out.iterations = static_cast<uint32_t>(out.steps.size());
    out.anchorName = anchor;
    return out;
}

} // namespace ws
