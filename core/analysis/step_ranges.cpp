#include "analysis/step_ranges.h"

#include "analysis/launch_pattern_steps.h"
#include "analysis/recorded_spans.h"
#include "model/session.h"

#include <algorithm>
#include <unordered_map>

namespace ws {

namespace {

struct DeviceSpan {
    int64_t start = INT64_MAX;
    int64_t end = INT64_MIN;
    int64_t busy = 0;   // summed durations of the activities
    uint32_t count = 0; // 0: no activity has this correlation
    bool matched = false;
};

/*
 * DeviceSpans: the device work of each correlation id. Kineto and captures number launches
 * 1, 2, 3..., so the spans are a plain array by id where the ids are that dense; a hash map only
 * for sparse ids. A 10 GB trace has millions of them, and the hash map's nodes were most of the
 * step finding's time and memory.
 */
class DeviceSpans {
public:
    explicit DeviceSpans(const Session& s) {
        uint32_t maxId = 0;
        size_t ids = 0;
        for (const Track& t : s.tracks())
            if (t.gpu && !t.correlation.empty())
                for (uint32_t c : t.correlation)
                    if (c != Track::kNoId) {
                        maxId = std::max(maxId, c);
                        ++ids;
                    }
        if (ids > 0 && size_t(maxId) < 4 * ids + 1024)
            m_dense.resize(size_t(maxId) + 1);
    }
    DeviceSpan& at(uint32_t id) { return m_dense.empty() ? m_sparse[id] : m_dense[id]; }
    DeviceSpan* find(uint32_t id) {
        if (m_dense.empty()) {
            auto it = m_sparse.find(id);
            return it == m_sparse.end() ? nullptr : &it->second;
        }
        return id < m_dense.size() && m_dense[id].count > 0 ? &m_dense[id] : nullptr;
    }
    template <typename F> void forEach(const F& f) const {
        for (const DeviceSpan& d : m_dense)
            if (d.count > 0)
                f(d);
        for (const auto& [id, d] : m_sparse)
            f(d);
    }

private:
    std::vector<DeviceSpan> m_dense;
    std::unordered_map<uint32_t, DeviceSpan> m_sparse;
};

// What a host op's name says for step finding, decided once per name.
enum class StepName : uint8_t { Unknown, Other, ProfilerStep, Named, OptimizerStep, ZeroGrad };

struct HostStep {
    StepRange range;
    std::string label;
};

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// The upper median of a non-empty list.
template <class T> T upperMedian(std::vector<T> v) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
}

// The outermost of `ranges` (sorted by start), dropping the ones nested in a kept one.
std::vector<StepRange> outermost(std::vector<StepRange> ranges) {
    std::sort(ranges.begin(), ranges.end(), [](const StepRange& x, const StepRange& y) { return x.start < y.start; });
    std::vector<StepRange> out;
    for (const StepRange& r : ranges)
        if (out.empty() || r.start >= out.back().end)
            out.push_back(r);
    return out;
}

/*
 * Iterations from PyTorch's annotation of every optimizer.step() (`Optimizer.step#AdamW.step`) and
 * optimizer.zero_grad() (`Optimizer.zero_grad#AdamW.zero_grad`) on one thread, outermost ranges by
 * start. A step runs from the end of one optimizer step to the end of the next, as ProfilerStep#N
 * wraps a whole iteration that ends with its optimizer step. Where the first one starts is not
 * marked: at the earliest zero_grad before the first optimizer step when the loop calls zero_grad
 * (the usual `zero_grad(); forward; backward; step()`), else it is no step (the first optimizer
 * step's end only opens the second). When the loop calls zero_grad once per iteration and an
 * interval holds more, an optimizer.step() was skipped (GradScaler does after an overflow, commonly
 * in the first iterations of fp16 training): the interval is split at the extra zero_grads, where
 * both sides last at least half the typical step. `leading` counts the steps before the first
 * optimizer step's end (0 to a few).
 */
struct OptimizerIterations {
    std::vector<StepRange> steps;
    size_t leading = 0;
};

OptimizerIterations optimizerIterations(const std::vector<StepRange>& steps, const std::vector<StepRange>& zeroGrads) {
    OptimizerIterations out;
    const size_t n = steps.size();
    // The zero_grads between the end of optimizer step i-1 and the start of step i (i = 0: all
    // before it); one inside an optimizer step (a closure's) is not counted.
    std::vector<std::vector<int64_t>> between(n);
    size_t i = 0;
    for (const StepRange& z : zeroGrads) {
        while (i < n && z.start >= steps[i].start)
            ++i;
        if (i == n)
            break;
        if (i == 0 || z.start >= steps[i - 1].end)
            between[i].push_back(z.start);
    }
    std::vector<size_t> counts;
    std::vector<int64_t> periods;
    for (size_t k = 1; k < n; ++k) {
        counts.push_back(between[k].size());
        periods.push_back(steps[k].end - steps[k - 1].end);
    }
    const size_t perIteration = upperMedian(counts);
    const int64_t halfPeriod = upperMedian(periods) / 2;
    auto add = [&](int64_t from, int64_t to, const std::vector<int64_t>& zs) {
        for (size_t k = 1; perIteration == 1 && k < zs.size(); ++k)
            if (zs[k] - from >= halfPeriod && to - zs[k] >= halfPeriod) {
                out.steps.push_back({from, zs[k]});
                from = zs[k];
            }
        out.steps.push_back({from, to});
    };
    if (perIteration >= 1 && !between[0].empty()) {
        // From the zero_grad of the first iteration: the earliest one, or with several per
        // iteration the first of the last group.
        std::vector<int64_t>& zs = between[0];
        if (perIteration > 1)
            zs.erase(zs.begin(), zs.end() - static_cast<std::ptrdiff_t>(std::min(zs.size(), perIteration)));
        add(zs.front(), steps[0].end, zs);
        out.leading = out.steps.size();
    }
    for (size_t k = 1; k < n; ++k)
        add(steps[k - 1].end, steps[k].end, between[k]);
    return out;
}

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
    out.recorded = recordedSpans(s);
    std::vector<HostStep> host;
    // Marked step ranges (`step N`) per track, used only when there is no ProfilerStep#N.
    std::unordered_map<uint32_t, std::vector<HostStep>> named;
    // PyTorch's optimizer.step() and zero_grad() ranges per track, for sessions without marked steps.
    std::unordered_map<uint32_t, std::vector<StepRange>> optimizerSteps, zeroGrads;
    int64_t opMin = INT64_MAX, opMax = INT64_MIN, allMin = INT64_MAX, allMax = INT64_MIN;
    DeviceSpans device(s);
    std::vector<StepName> nameKind(s.strings().size(), StepName::Unknown);
    auto kindOfName = [&](StringId id) {
        StepName& k = nameKind[id];
        if (k == StepName::Unknown) {
            const std::string_view n = s.str(id);
            k = n.rfind("ProfilerStep#", 0) == 0              ? StepName::ProfilerStep
                : !stepNumberOfRangeName(n).empty()           ? StepName::Named
                : n.rfind("Optimizer.step#", 0) == 0          ? StepName::OptimizerStep
                : n.rfind("Optimizer.zero_grad#", 0) == 0     ? StepName::ZeroGrad
                                                              : StepName::Other;
        }
        return k;
    };
    std::vector<std::pair<int64_t, int64_t>> uncorrelated;
    for (const Track& t : s.tracks()) {
        for (size_t i = 0; i < t.sliceCount(); ++i) {
            const EventKind k = s.kindOf(t, i);
            const int64_t a = t.start[i], b = t.end(i);
            allMin = std::min(allMin, a);
            allMax = std::max(allMax, b);
            const bool hostOp = !t.gpu && (k == EventKind::UserAnnotation || k == EventKind::CpuOp);
            const StepName nk = hostOp || k == EventKind::UserAnnotation ? kindOfName(t.names[i]) : StepName::Other;
            if (hostOp) {
                const uint32_t track = static_cast<uint32_t>(&t - s.tracks().data());
                switch (nk) {
                case StepName::ProfilerStep: host.push_back({{a, b}, std::string(s.str(t.names[i]).substr(13))}); break;
                case StepName::Named: named[track].push_back({{a, b}, std::string(stepNumberOfRangeName(s.str(t.names[i])))}); break;
                case StepName::OptimizerStep: optimizerSteps[track].push_back({a, b}); break;
                case StepName::ZeroGrad: zeroGrads[track].push_back({a, b}); break;
                default: break;
                }
            }
            if (k == EventKind::CpuOp || k == EventKind::PythonFunction ||
                (k == EventKind::UserAnnotation && nk == StepName::ProfilerStep)) {
                opMin = std::min(opMin, a);
                opMax = std::max(opMax, b);
            }
            if (isGpuActivity(k)) {
                const uint32_t corr = t.correlation.empty() ? Track::kNoId : t.correlation[i];
                if (corr == Track::kNoId) {
                    uncorrelated.emplace_back(a, b);
                    continue;
                }
                DeviceSpan& d = device.at(corr);
                d.start = std::min(d.start, a);
                d.end = std::max(d.end, b);
                d.busy += b - a;
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
    // Without marked steps, the iterations between PyTorch's optimizer steps (issue #25: a
    // torch.compile loop, whose Inductor autotuning and compilation launches hide the launch
    // pattern), from the thread with the most of them (lowest track on ties). Not when more device
    // work is launched after the last optimizer step than between the first and the last: then they
    // mark only part of the run (the eager warm-up before a CUDA graph replays the whole step). Not
    // in a torch.profiler (Chrome JSON) trace: without ProfilerStep#N its profiled region is its one
    // step, as torch-tb-profiler has it.
    size_t optimizerLeading = 0;
    if (host.empty() && !optimizerSteps.empty() && s.sourceFormat() != TraceFormat::ChromeJson) {
        uint32_t bestTrack = 0;
        size_t bestCount = 0;
        for (auto& [track, ranges] : optimizerSteps) {
            ranges = outermost(std::move(ranges));
            if (ranges.size() > bestCount || (ranges.size() == bestCount && track < bestTrack)) {
                bestTrack = track;
                bestCount = ranges.size();
            }
        }
        if (bestCount >= 2) {
            const OptimizerIterations found =
                optimizerIterations(optimizerSteps[bestTrack], outermost(std::move(zeroGrads[bestTrack])));
            const int64_t from = found.steps.front().start, to = found.steps.back().end;
            int64_t inside = 0, after = 0;
            for (const Track& t : s.tracks()) {
                if (t.gpu || t.correlation.empty())
                    continue;
                for (size_t i = 0; i < t.sliceCount(); ++i) {
                    if (t.start[i] < from || t.correlation[i] == Track::kNoId || s.kindOf(t, i) != EventKind::Runtime)
                        continue;
                    if (const DeviceSpan* d = device.find(t.correlation[i]))
                        (t.start[i] < to ? inside : after) += d->busy;
                }
            }
            if (after <= inside) {
                for (size_t k = 0; k < found.steps.size(); ++k)
                    host.push_back({found.steps[k], std::to_string(found.leading > 0 ? k : k + 1)});
                optimizerLeading = found.leading;
                out.namedSteps = out.optimizerSteps = true;
            }
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
    // A capture that recorded only between cudaProfilerStart and Stop: a step that reaches outside one
    // recorded span holds unseen time (its pause), so it is no step (recorded_spans.h).
    if (!out.recorded.empty()) {
        const size_t before = host.size();
        std::erase_if(host, [&](const HostStep& h) { return !insideOneSpan(out.recorded, h.range.start, h.range.end); });
        out.unrecordedSteps = before - host.size();
    }
    // A capture's first step that is unlike the others is start-up, not a step (issue #25): the
    // first iteration of a PyTorch program loads CUDA modules, creates cuBLAS/cuDNN handles and
    // autotunes, so it lasts seconds where the others last milliseconds, and kept as a step it
    // sinks every per-step number. torch.profiler leaves it out by its schedule's warm-up; a
    // capture records from the start. Left out when it lasts more than twice the median of the
    // others and at least two remain.
    // Optimizer steps: the steps before the first optimizer step's end that are this long are all
    // start-up (a zero_grad before the loop and the first iteration).
    for (size_t dropped = 0; s.sourceFormat() == TraceFormat::WarpscopeCapture && (out.patternSteps || out.namedSteps) &&
                             host.size() >= 3 && (dropped == 0 || dropped < optimizerLeading);
         ++dropped) {
        std::vector<int64_t> rest;
        for (size_t k = 1; k < host.size(); ++k)
            rest.push_back(host[k].range.end - host[k].range.start);
        if (host[0].range.end - host[0].range.start <= 2 * upperMedian(std::move(rest)))
            break;
        out.startup = StepRange{out.startup ? out.startup->start : host[0].range.start, host[0].range.end};
        host.erase(host.begin());
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
            DeviceSpan* found = device.find(t.correlation[i]);
            if (!found)
                continue;
            const int64_t a = t.start[i], b = t.end(i);
            auto st = std::upper_bound(host.begin(), host.end(), a,
                                       [](int64_t v, const HostStep& r) { return v < r.range.start; });
            if (st == host.begin())
                continue;
            const auto k = static_cast<size_t>(st - host.begin() - 1);
            if (b > host[k].range.end)
                continue;
            DeviceSpan& d = *found;
            d.matched = true;
            devMin[k] = std::min(devMin[k], d.start);
            devMax[k] = std::max(devMax[k], d.end);
            matched[k] += d.count;
        }
    }
    int64_t prevEnd = host[0].range.start;
    if (matched[0] > 0) {
        const int64_t firstDevStart = devMin[0];
        device.forEach([&](const DeviceSpan& d) {
            if (!d.matched && d.end < firstDevStart)
                prevEnd = std::max(prevEnd, d.end);
        });
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
