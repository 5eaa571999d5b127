#include "analysis/recommendations.h"
#include "model/saturating.h"

#include "analysis/idle_gaps.h"
#include "analysis/inference_steps.h"
#include "analysis/overview.h"
#include "model/session.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace ws {

namespace {

std::string duration(int64_t ns) {
    char buf[64];
    const double v = static_cast<double>(ns);
    if (ns < 1000)
        std::snprintf(buf, sizeof buf, "%lld ns", static_cast<long long>(ns));
    else if (ns < 1'000'000)
        std::snprintf(buf, sizeof buf, "%.1f us", v / 1e3);
    else if (ns < 1'000'000'000)
        std::snprintf(buf, sizeof buf, "%.2f ms", v / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.3f s", v / 1e9);
    return buf;
}

std::string percent(double fraction) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f %%", fraction * 100.0);
    return buf;
}

std::string gib(int64_t bytes) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
    return buf;
}

std::string megabytes(int64_t bytes) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / 1e6);
    return buf;
}

std::string deviceText(int device) { return device >= 0 ? "GPU " + std::to_string(device) : std::string("the GPU"); }

// The step with the largest cost of a role, as a range to select.
std::optional<RecommendationRange> stepWithMost(const StepBreakdown& b, StepRole role) {
    const StepCosts* best = nullptr;
    for (const StepCosts& st : b.steps)
        if (!best || st.cost[size_t(role)] > best->cost[size_t(role)])
            best = &st;
    if (!best)
        return std::nullopt;
    return RecommendationRange{best->start, best->end};
}

// What the host did during a long idle gap (issue #51): the Why-the-GPU-waits classification of that
// one gap (its largest piece on the device when it crosses a step boundary), so the advice names the
// cause instead of asking the user to look. Cheap: the analysis runs over the gap's range only.
void nameIdleGapCause(const Session& s, const OverviewData& d, Recommendation& r) {
    IdleGapOptions options;
    options.range = OverviewRange{r.range->start, r.range->end};
    options.thresholdNs = 1;
    const IdleGapReport gaps = computeIdleGaps(s, d, options);
    const IdleGap* best = nullptr;
    for (const IdleGap& g : gaps.gaps)
        if (g.device == r.device && (!best || g.duration() > best->duration()))
            best = &g;
    if (!best)
        return;
    r.count = static_cast<uint64_t>(best->category) + 1;
    if (best->cause < gaps.lines.size())
        r.name = gapLineText(gaps.lines[best->cause]);
    if (best->drainedBy < gaps.lines.size())
        r.detail = gaps.lines[best->drainedBy].what;
}

} // namespace

const char* recommendationId(RecommendationKind kind) {
    switch (kind) {
    case RecommendationKind::DataLoader: return "dataloader";
    case RecommendationKind::LowGpuUtilization: return "low_gpu_utilization";
    case RecommendationKind::EnableAmp: return "enable_amp";
    case RecommendationKind::MemoryNearCapacity: return "memory_near_capacity";
    case RecommendationKind::Communication: return "communication";
    case RecommendationKind::LaunchBoundKernels: return "launch_bound_kernels";
    case RecommendationKind::SynchronousCalls: return "synchronous_calls";
    case RecommendationKind::PageableCopies: return "pageable_copies";
    case RecommendationKind::LongIdleGap: return "long_gpu_idle_gap";
    case RecommendationKind::BusyDataLoaderWorkers: return "busy_dataloader_workers";
    case RecommendationKind::HostBoundDecode: return "host_bound_decode";
    }
    return "";
}

std::string recommendationTitle(const Recommendation& r) {
    switch (r.kind) {
    case RecommendationKind::DataLoader: return "Data loading takes a large share of each step";
    case RecommendationKind::LowGpuUtilization: return "Low GPU utilization on " + deviceText(r.device);
    case RecommendationKind::EnableAmp: return "Tensor Cores are idle on " + deviceText(r.device) + ": try AMP";
    case RecommendationKind::MemoryNearCapacity: return "Memory use is near capacity on " + deviceText(r.device);
    case RecommendationKind::Communication: return "Communication takes a large share of each step";
    case RecommendationKind::LaunchBoundKernels: return "Many short kernels are launch-bound on " + deviceText(r.device);
    case RecommendationKind::SynchronousCalls: return "The CPU waits in synchronous copies and synchronization";
    case RecommendationKind::PageableCopies: return "Copies use pageable host memory";
    case RecommendationKind::LongIdleGap: return "Long GPU idle gap on " + deviceText(r.device);
    case RecommendationKind::BusyDataLoaderWorkers: return "DataLoader workers are busy while the GPU waits";
    case RecommendationKind::HostBoundDecode: return "Decode is host-bound on " + deviceText(r.device);
    }
    return {};
}

std::string recommendationEvidence(const Recommendation& r) {
    switch (r.kind) {
    case RecommendationKind::DataLoader:
        return "DataLoader takes " + duration(r.ns) + " of the average step (" + percent(r.share) + ", threshold " +
               percent(r.threshold) +
               "). Use DataLoader(num_workers > 0, pin_memory=True) or prefetch so loading overlaps compute.";
    case RecommendationKind::LowGpuUtilization:
        return "GPU utilization is " + percent(r.share) + " (threshold " + percent(r.threshold) +
               "): kernels run only that share of the steps. Increase the batch size, overlap data loading, or "
               "reduce CPU-side work between kernels.";
    case RecommendationKind::EnableAmp:
        return std::to_string(r.count) + " GEMM/convolution kernels take " + duration(r.ns) + " (" +
               percent(r.share) + " of kernel time) and no kernel uses Tensor Cores. Automatic mixed precision "
               "(torch.autocast with float16/bfloat16) runs them on Tensor Cores. Longest: " + r.name;
    case RecommendationKind::MemoryNearCapacity:
        return "Peak allocated memory is " + gib(r.bytes) + " of " + gib(r.capacityBytes) + " (" + percent(r.share) +
               ", threshold " + percent(r.threshold) +
               "). Reduce the batch size, use activation checkpointing, or free unused tensors.";
    case RecommendationKind::Communication:
        return "Communication takes " + duration(r.ns) + " of the average step (" + percent(r.share) +
               ", threshold " + percent(r.threshold) +
               "). Overlap it with compute (gradient bucketing), compress gradients, or check the interconnect.";
    case RecommendationKind::LaunchBoundKernels:
        return std::to_string(r.count) + " of " + std::to_string(r.total) + " kernels are shorter than " +
               duration(kShortKernelNs) + " (mean " + duration(r.meanKernelNs) +
               ") and start after the GPU went idle for at most " + duration(kLaunchGapMaxNs) + "; the GPU waits " +
               duration(r.ns) + " for them (" +
               percent(r.share) + " of the time). Fuse them (torch.compile) or use CUDA Graphs.";
    case RecommendationKind::SynchronousCalls:
        return std::to_string(r.count) + " blocking calls take " + duration(r.ns) + " (" + percent(r.share) +
               " of the time, threshold " + percent(r.threshold) + "), most in " + r.name +
               ". Use async copies (non_blocking=True) and avoid .item()/.cpu() inside the step.";
    case RecommendationKind::PageableCopies:
        return std::to_string(r.count) + " copies from or to pageable host memory take " + duration(r.ns) +
               (r.bytes > 0 ? " for " + megabytes(r.bytes) : std::string()) +
               ". Pinned memory (pin_memory=True) makes them faster and asynchronous.";
    case RecommendationKind::LongIdleGap:
        return "The GPU is idle for " + duration(r.ns) + " at once (" + percent(r.share) +
               " of the average step); in all it is idle " + duration(static_cast<int64_t>(r.total)) +
               " between its operations. " + longIdleGapCauseText(r);
    case RecommendationKind::BusyDataLoaderWorkers:
        return "The program's worker processes use " + std::to_string(static_cast<int>(r.cpuPercent + 0.5)) +
               " % of a core on average (threshold " + std::to_string(static_cast<int>(r.threshold)) +
               " %) while GPU utilization is " + percent(r.share) +
               ": preparing the input likely limits the step. Add DataLoader workers (num_workers), move "
               "augmentation to the GPU, or cache decoded samples.";
    case RecommendationKind::HostBoundDecode:
        return std::to_string(r.count) + " decode forwards keep the GPU busy " + percent(r.share) + " of their time (threshold " +
               percent(r.threshold) + "): a token takes " + duration(r.ns) + " (p50) and its kernels " +
               duration(r.meanKernelNs) + ". The host sets the pace: " +
               (r.total ? std::string("the decode already replays CUDA graphs, so the Python between the replays "
                                      "(sampling, the generate loop) is the cost; decode more sequences per step or "
                                      "move the sampling into the graph.")
                        : std::string("capture the decode step in CUDA graphs (torch.compile(mode=\"reduce-overhead\"), "
                                      "transformers' cache_implementation=\"static\", vLLM or SGLang's graphs), or "
                                      "decode more sequences per step."));
    }
    return {};
}

std::optional<GapCategory> longIdleGapCategory(const Recommendation& r) {
    if (r.kind != RecommendationKind::LongIdleGap || r.count == 0 || r.count > kGapCategoryCount)
        return std::nullopt;
    return static_cast<GapCategory>(r.count - 1);
}

std::string longIdleGapCauseText(const Recommendation& r) {
    const std::optional<GapCategory> category = longIdleGapCategory(r);
    if (!category || *category == GapCategory::Nothing)
        return "Nothing was recorded on the host then (a capture records what the host runs with Python sampling, "
               "warpscope-capture --py-sample); select the gap to see the timeline around it.";
    std::string advice;
    switch (*category) {
    case GapCategory::Sync:
        advice = "Avoid .item(), .cpu() and synchronize() inside the step, or move them after the next launches.";
        break;
    case GapCategory::Collective:
        advice = "Overlap the communication with compute (gradient bucketing, async collectives).";
        break;
    case GapCategory::DataLoading:
        advice = "Overlap data loading with compute: DataLoader(num_workers > 0, pin_memory=True) or prefetching.";
        break;
    case GapCategory::CpuWork:
        advice = "The host's work there delays the next launch: move it out of the step, or queue more GPU work "
                 "before it (CUDA graphs, torch.compile).";
        break;
    case GapCategory::Nothing: break;
    }
    std::string cause = gapCategoryName(*category);
    if (!r.name.empty())
        cause += " at " + r.name;
    if (!r.detail.empty())
        cause += ", after " + r.detail + " drained the GPU's queue";
    return "Meanwhile the host was in " + cause + ". " + advice;
}

std::vector<Recommendation> computeRecommendations(const Session& s, const OverviewData& d, const OverviewReport& rep) {
    std::vector<Recommendation> out;
    const int64_t lo = rep.windowStart, hi = rep.windowEnd;
    const double window = static_cast<double>(hi - lo);
    if (hi <= lo)
        return out;
    const StepBreakdown& b = rep.breakdown;
    const RecommendationRange whole{lo, hi};

    if (b.averageShare(StepRole::DataLoader) > kDataLoaderShareThreshold) {
        Recommendation r;
        r.kind = RecommendationKind::DataLoader;
        r.severity = RecommendationSeverity::Warning;
        r.share = b.averageShare(StepRole::DataLoader);
        r.threshold = kDataLoaderShareThreshold;
        r.ns = static_cast<int64_t>(b.average[size_t(StepRole::DataLoader)]);
        r.range = stepWithMost(b, StepRole::DataLoader);
        out.push_back(r);
    }
    // Busy DataLoader workers (captures with the `host` activity): their mean CPU use in the window.
    for (const CounterSeries& c : s.counters()) {
        if (s.str(c.category) != "host" || s.str(c.name) != "host_cpu_children")
            continue;
        double sum = 0;
        size_t n = 0;
        for (size_t i = 0; i < c.ts.size(); ++i)
            if (c.ts[i] >= lo && c.ts[i] <= hi) {
                sum += c.value[i];
                ++n;
            }
        double util = 0;
        for (const DeviceOverview& dev : rep.devices)
            util = std::max(util, dev.gpuUtilization.value_or(0.0));
        if (n >= 3 && sum / static_cast<double>(n) >= kBusyWorkersCpuPercent && util < kLowGpuUtilizationThreshold) {
            Recommendation r;
            r.kind = RecommendationKind::BusyDataLoaderWorkers;
            r.severity = RecommendationSeverity::Warning;
            r.cpuPercent = sum / static_cast<double>(n);
            r.threshold = kBusyWorkersCpuPercent;
            r.share = util;
            r.range = whole;
            out.push_back(r);
        }
        break;
    }
    if (b.averageShare(StepRole::Communication) > kCommunicationShareThreshold) {
        Recommendation r;
        r.kind = RecommendationKind::Communication;
        r.severity = RecommendationSeverity::Warning;
        r.share = b.averageShare(StepRole::Communication);
        r.threshold = kCommunicationShareThreshold;
        r.ns = static_cast<int64_t>(b.average[size_t(StepRole::Communication)]);
        r.range = stepWithMost(b, StepRole::Communication);
        out.push_back(r);
    }

    for (const DeviceOverview& dev : rep.devices) {
        if (dev.gpuUtilization && *dev.gpuUtilization < kLowGpuUtilizationThreshold) {
            Recommendation r;
            r.kind = RecommendationKind::LowGpuUtilization;
            r.severity = RecommendationSeverity::Warning;
            r.device = dev.id;
            r.share = *dev.gpuUtilization;
            r.threshold = kLowGpuUtilizationThreshold;
            r.range = whole;
            out.push_back(r);
        }
        if (dev.peakAllocatedBytes && dev.memoryBytes && *dev.memoryBytes > 0 &&
            static_cast<double>(*dev.peakAllocatedBytes) > kMemoryCapacityThreshold * static_cast<double>(*dev.memoryBytes)) {
            Recommendation r;
            r.kind = RecommendationKind::MemoryNearCapacity;
            r.severity = RecommendationSeverity::Warning;
            r.device = dev.id;
            r.bytes = *dev.peakAllocatedBytes;
            r.capacityBytes = *dev.memoryBytes;
            r.share = static_cast<double>(r.bytes) / static_cast<double>(r.capacityBytes);
            r.threshold = kMemoryCapacityThreshold;
            r.range = whole;
            for (const MemoryEvent& m : s.memoryEvents())
                if (m.deviceType == 1 && m.deviceId == dev.id && m.totalAllocated == r.bytes && m.ts >= lo && m.ts <= hi) {
                    for (const StepCosts& st : b.steps)
                        if (m.ts >= st.start && m.ts <= st.end)
                            r.range = RecommendationRange{st.start, st.end};
                    break;
                }
            out.push_back(r);
        }
        const auto dit = d.devices.find(dev.id);
        if (dit == d.devices.end())
            continue;
        const std::vector<OverviewKernel>& ks = dit->second.kernels;

        // AMP: Tensor-Core capable device, no Tensor Core kernel time, GEMM/conv work present. NVIDIA
        // only: ROCm reports gfx major versions (9 for MI200/MI300) as compute capability, and its
        // matrix-core kernels carry no name the Tensor Core heuristic knows.
        const bool amd = dev.name.rfind("AMD", 0) == 0;
        if (!amd && dev.computeMajor && *dev.computeMajor >= kAmpMinComputeMajor && dev.tensorCoreShare &&
            *dev.tensorCoreShare == 0.0) {
            Recommendation r;
            r.kind = RecommendationKind::EnableAmp;
            r.severity = RecommendationSeverity::Warning;
            r.device = dev.id;
            const OverviewKernel* longest = nullptr;
            bool lowPrecision = false;
            for (const OverviewKernel& k : ks) {
                if (k.start >= hi)
                    break;
                if (k.end <= lo)
                    continue;
                lowPrecision |= k.lowPrecision;
                if (!k.gemmLike)
                    continue;
                ++r.count;
                r.ns += std::min(k.end, hi) - std::max(k.start, lo);
                if (!longest || k.end - k.start > longest->end - longest->start)
                    longest = &k;
            }
            // Kernels on 16/8-bit types mean AMP is on and the Tensor Core kernels have names the
            // heuristic does not know: no advice then.
            if (longest && !lowPrecision && dev.kernelNs > 0) {
                r.share = static_cast<double>(r.ns) / static_cast<double>(dev.kernelNs);
                r.slice = RecommendationSlice{longest->track, longest->slice};
                r.name = std::string(s.str(s.tracks()[longest->track].names[longest->slice]));
                out.push_back(r);
            }
        }

        // Launch-bound short kernels: a short kernel that starts while the GPU is idle waited for its
        // launch; many of them with much idle time before them mean the CPU cannot keep up.
        {
            Recommendation r;
            r.kind = RecommendationKind::LaunchBoundKernels;
            r.device = dev.id;
            int64_t busyEnd = INT64_MIN, shortNs = 0;
            size_t run = 0, bestRun = 0, runFirst = 0, bestFirst = 0, bestLast = 0;
            for (size_t i = 0; i < ks.size(); ++i) {
                const OverviewKernel& k = ks[i];
                if (k.start >= hi)
                    break;
                if (k.end <= lo) {
                    busyEnd = std::max(busyEnd, k.end);
                    continue;
                }
                ++r.total;
                const bool isShort = k.end - k.start < kShortKernelNs;
                if (isShort) {
                    if (busyEnd != INT64_MIN && k.start > busyEnd && k.start - busyEnd <= kLaunchGapMaxNs) {
                        ++r.count;
                        shortNs += k.end - k.start;
                        r.ns += k.start - std::max(busyEnd, lo);
                    }
                    if (run++ == 0)
                        runFirst = i;
                    if (run > bestRun) {
                        bestRun = run;
                        bestFirst = runFirst;
                        bestLast = i;
                    }
                } else {
                    run = 0;
                }
                busyEnd = std::max(busyEnd, k.end);
            }
            r.share = static_cast<double>(r.ns) / window;
            r.threshold = kLaunchBoundIdleShareThreshold;
            if (r.count >= kLaunchBoundMinKernels && r.share >= kLaunchBoundIdleShareThreshold) {
                r.severity = r.share >= 0.25 ? RecommendationSeverity::Warning : RecommendationSeverity::Info;
                r.meanKernelNs = shortNs / static_cast<int64_t>(r.count);
                r.range = RecommendationRange{ks[bestFirst].start, ks[bestLast].end};
                out.push_back(r);
            }
        }

        // Longest idle gap between two GPU activities inside the window.
        {
            const IntervalList& busy = dit->second.gpuBusy;
            Recommendation r;
            r.kind = RecommendationKind::LongIdleGap;
            r.severity = RecommendationSeverity::Info;
            r.device = dev.id;
            auto it = std::upper_bound(busy.begin(), busy.end(), lo, [](int64_t v, const Interval& iv) { return v < iv.end; });
            for (; it != busy.end() && std::next(it) != busy.end() && std::next(it)->start < hi; ++it) {
                const int64_t a = std::max(it->end, lo), e = std::min(std::next(it)->start, hi);
                if (e <= a)
                    continue;
                r.total += static_cast<uint64_t>(e - a);
                if (e - a > r.ns) {
                    r.ns = e - a;
                    r.range = RecommendationRange{a, e};
                }
            }
            r.share = b.averageTotal > 0 ? static_cast<double>(r.ns) / b.averageTotal : 0.0;
            r.threshold = kLongIdleGapShareThreshold;
            if (r.ns >= kLongIdleGapMinNs && r.share >= kLongIdleGapShareThreshold) {
                nameIdleGapCause(s, d, r);
                out.push_back(r);
            }
        }
    }

    // Blocking runtime calls on any host thread (their union, so nested driver calls count once).
    {
        Recommendation r;
        r.kind = RecommendationKind::SynchronousCalls;
        IntervalList spans;
        std::map<std::string_view, int64_t> byName;
        int64_t longest = -1;
        for (const OverviewSpan& c : d.syncCalls) {
            if (c.start >= hi)
                break;
            if (c.end <= lo)
                continue;
            ++r.count;
            spans.push_back({std::max(c.start, lo), std::min(c.end, hi)});
            byName[s.str(c.name)] += std::min(c.end, hi) - std::max(c.start, lo);
            if (c.end - c.start > longest) {
                longest = c.end - c.start;
                r.slice = RecommendationSlice{c.track, c.slice};
            }
        }
        mergeIntervals(spans);
        r.ns = totalLength(spans);
        r.share = static_cast<double>(r.ns) / window;
        r.threshold = kSyncShareThreshold;
        if (r.count > 0 && r.share >= kSyncShareThreshold) {
            r.severity = RecommendationSeverity::Warning;
            r.name = std::string(std::max_element(byName.begin(), byName.end(), [](const auto& x, const auto& y) {
                                     return x.second < y.second;
                                 })->first);
            out.push_back(r);
        }
    }

    // Pageable copies: always worth knowing, rarely the bottleneck alone.
    {
        Recommendation r;
        r.kind = RecommendationKind::PageableCopies;
        r.severity = RecommendationSeverity::Info;
        int64_t longest = -1;
        for (const OverviewSpan& c : d.pageableCopies) {
            if (c.start >= hi)
                break;
            if (c.end <= lo && c.start < lo)
                continue;
            ++r.count;
            addSaturating(r.ns, std::min(c.end, hi) - std::max(c.start, lo));
            if (c.bytes > 0)
                addSaturating(r.bytes, c.bytes);
            if (c.end - c.start > longest) {
                longest = c.end - c.start;
                r.slice = RecommendationSlice{c.track, c.slice};
            }
        }
        r.share = static_cast<double>(r.ns) / window;
        if (r.count > 0)
            out.push_back(r);
    }

    std::stable_sort(out.begin(), out.end(), [](const Recommendation& a, const Recommendation& b2) {
        return a.severity > b2.severity;
    });
    return out;
}

void addInferenceRecommendations(std::vector<Recommendation>& recs, const InferenceSteps& steps) {
    const PhaseTotals decode = steps.totals(InferencePhase::Decode);
    if (decode.steps == 0 || decode.spanNs <= 0)
        return;
    const double busy = static_cast<double>(decode.busyNs) / static_cast<double>(decode.spanNs);
    if (busy >= kHostBoundDecodeThreshold)
        return;
    Recommendation r;
    r.kind = RecommendationKind::HostBoundDecode;
    r.severity = RecommendationSeverity::Warning;
    r.device = steps.device();
    r.share = busy;
    r.threshold = kHostBoundDecodeThreshold;
    r.count = decode.steps;
    r.ns = steps.timePerToken().p50;
    r.meanKernelNs = decode.busyNs / decode.steps;
    // Graphed: most kernels inside the decodes were replayed from CUDA graphs.
    uint64_t kernels = 0, graphed = 0;
    const InferenceStep* slowest = nullptr;
    for (const InferenceStep& st : steps.steps()) {
        if (st.phase != InferencePhase::Decode)
            continue;
        if (!slowest || st.latencyNs > slowest->latencyNs)
            slowest = &st;
        kernels += st.kernels;
        graphed += st.graphKernels;
    }
    r.total = kernels > 0 && static_cast<double>(graphed) >= kGraphedDecodeShare * static_cast<double>(kernels) ? 1 : 0;
    if (slowest)
        r.range = RecommendationRange{slowest->start, slowest->end};
    std::erase_if(recs, [](const Recommendation& x) { return x.kind == RecommendationKind::LowGpuUtilization; });
    // Warnings first, as computeRecommendations orders them.
    const auto at = std::find_if(recs.begin(), recs.end(),
                                 [](const Recommendation& x) { return x.severity != RecommendationSeverity::Warning; });
    recs.insert(at, std::move(r));
}

} // namespace ws
