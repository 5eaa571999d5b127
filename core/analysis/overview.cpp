#include "analysis/overview.h"

#include "analysis/idle_gaps.h"
#include "model/saturating.h"

#include "analysis/kernel_table.h"
#include "analysis/pm_counters.h"
#include "model/session.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <thread>

namespace ws {

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

// Kernels that do matrix multiply or convolution: with fp16/bf16 (AMP) they would run on Tensor
// Cores. cuBLAS ("sgemm", "gemm"), cuBLASLt on Hopper/Blackwell ("nvjet"), cuDNN ("conv", "fprop",
// "dgrad", "wgrad"), Triton/Inductor ("mm", matmul), rocBLAS/Tensile ("Cijk_").
bool isGemmLike(const std::string& n) {
    for (const char* m : {"gemm", "conv", "matmul", "cijk_", "wgrad", "dgrad", "fprop", "nvjet"})
        if (n.find(m) != std::string::npos)
            return true;
    return false;
}

// A kernel working on 16- or 8-bit floats: mixed precision is already in use.
bool isLowPrecision(const std::string& n) {
    for (const char* m : {"half", "bfloat16", "bf16", "fp16", "e4m3", "e5m2", "fp8", "float8"})
        if (n.find(m) != std::string::npos)
            return true;
    return false;
}

} // namespace

bool isBlockingCall(std::string_view name) {
    if (const size_t v = name.rfind("_v"); v != std::string_view::npos && v + 2 < name.size() &&
                                           std::all_of(name.begin() + static_cast<std::ptrdiff_t>(v + 2), name.end(),
                                                       [](char c) { return c >= '0' && c <= '9'; }))
        name = name.substr(0, v);
    static const std::set<std::string_view> kNames = {
        "cudaMemcpy",          "cudaMemcpy2D",          "cudaMemcpy3D",          "cudaMemcpyToSymbol",
        "cudaMemcpyFromSymbol", "cudaMemcpyPeer",       "cudaStreamSynchronize", "cudaDeviceSynchronize",
        "cudaEventSynchronize", "cudaThreadSynchronize", "hipMemcpy",             "hipMemcpy2D",
        "hipMemcpyDtoH",        "hipMemcpyHtoD",         "hipStreamSynchronize",  "hipDeviceSynchronize",
        "hipEventSynchronize",  "cuMemcpy",              "cuMemcpyDtoH",          "cuMemcpyHtoD",
        "cuMemcpyDtoH_v2",      "cuMemcpyHtoD_v2",       "cuStreamSynchronize",   "cuCtxSynchronize",
        "cuEventSynchronize"};
    return kNames.count(name) > 0;
}

namespace {

int64_t clipped(int64_t a, int64_t b, int64_t lo, int64_t hi) { return std::max<int64_t>(0, std::min(b, hi) - std::max(a, lo)); }

// Kernels without Kineto's occupancy (captures, Nsight Systems) get it from their launch arguments
// and their device (forEachComputedOccupancy), in one pass over those kernels' arguments.
void fillMissingOccupancy(const Session& s, OverviewData& d) {
    std::vector<KernelSliceRef> refs;
    std::vector<int> devices;
    std::vector<std::pair<OverviewKernel*, OverviewDevice*>> targets;
    for (auto& [id, dev] : d.devices)
        for (OverviewKernel& k : dev.kernels) {
            const Track& t = s.tracks()[k.track];
            if (!(k.occupancy >= 0) && k.slice < t.argRef.size() && t.argRef[k.slice] != Track::kNoArgs) {
                refs.push_back({k.track, k.slice});
                devices.push_back(id);
                targets.emplace_back(&k, &dev);
            }
        }
    forEachComputedOccupancy(s, refs, devices, [&](size_t i, float occupancy) {
        targets[i].first->occupancy = occupancy;
        targets[i].second->occupancyComputed = true;
    });
}

// The measured counters of each device (MeasuredCounter, in PmCounter order): PM sampling series of a capture.
void collectMeasuredCounters(const Session& s, OverviewData& d) {
    static_assert(kMeasuredCounterCount == kPmCounterCount);
    for (size_t ci = 0; ci < s.counters().size(); ++ci) {
        const CounterSeries& c = s.counters()[ci];
        const int device = s.processes()[c.process].deviceId;
        if (device < 0 || c.ts.empty() || s.str(c.category) != "pm_sampling")
            continue;
        for (size_t m = 0; m < kMeasuredCounterCount; ++m)
            if (s.str(c.name) == kPmCounterNames[m])
                d.devices[device].measured[m] = static_cast<int32_t>(ci);
    }
}

void collectDeviceData(const Session& s, OverviewData& d) {
    const size_t nStrings = s.strings().size();
    std::vector<uint8_t> kernelFlags(nStrings, 0xff); // bit 0 tensor cores, bit 1 gemm-like
    std::vector<uint8_t> pageable(nStrings, 2), blocking(nStrings, 2);
    // Exact room first: growing vectors of millions of kernels by doubling touches twice their
    // memory, and fresh pages are a large share of this pass on a 10 GB trace.
    {
        std::map<int, std::pair<size_t, size_t>> counts; // device -> (GPU activities, kernels)
        for (const Track& t : s.tracks()) {
            if (!t.gpu)
                continue;
            auto& [activities, kernels] = counts[s.processes()[t.process].deviceId];
            for (uint32_t i = 0; i < t.sliceCount(); ++i) {
                const EventKind k = s.kindOf(t, i);
                activities += isGpuActivity(k);
                kernels += k == EventKind::Kernel;
            }
        }
        for (const auto& [device, n] : counts) {
            if (n.first == 0)
                continue;
            OverviewDevice& dev = d.devices[device];
            dev.gpuBusy.reserve(n.first);
            dev.kernels.reserve(n.second);
            dev.kernelBusy.reserve(n.second);
        }
    }
    for (uint32_t ti = 0; ti < s.tracks().size(); ++ti) {
        const Track& t = s.tracks()[ti];
        if (t.gpu) {
            const int device = s.processes()[t.process].deviceId;
            for (uint32_t i = 0; i < t.sliceCount(); ++i) {
                const EventKind k = s.kindOf(t, i);
                if (k == EventKind::GpuGraph) { // busy, in no kernel we can see
                    OverviewDevice& dev = d.devices[device];
                    dev.gpuBusy.push_back({t.start[i], t.end(i)});
                    dev.graphSpans.push_back({t.start[i], t.end(i)});
                    continue;
                }
                if (!isGpuActivity(k))
                    continue;
                OverviewDevice& dev = d.devices[device];
                dev.gpuBusy.push_back({t.start[i], t.end(i)});
                if (k == EventKind::Kernel) {
                    uint8_t& f = kernelFlags[t.names[i]];
                    if (f == 0xff) {
                        const std::string_view n = s.str(t.names[i]);
                        const std::string l = lower(n);
                        f = static_cast<uint8_t>((kernelUsesTensorCores(n) ? 1 : 0) | (isGemmLike(l) ? 2 : 0) |
                                                 (isLowPrecision(l) ? 4 : 0));
                    }
                    OverviewKernel kr;
                    kr.start = t.start[i];
                    kr.end = t.end(i);
                    kr.blocksPerSm = t.blocksPerSm.empty() ? NAN : t.blocksPerSm[i];
                    kr.occupancy = t.occupancy.empty() ? NAN : t.occupancy[i];
                    kr.track = ti;
                    kr.slice = i;
                    kr.tensorCores = (f & 1) != 0;
                    kr.gemmLike = (f & 2) != 0;
                    kr.lowPrecision = (f & 4) != 0;
                    dev.kernels.push_back(kr);
                    dev.kernelBusy.push_back({kr.start, kr.end});
                    dev.maxKernelNs = std::max(dev.maxKernelNs, kr.end - kr.start);

                } else if (k == EventKind::Memcpy) {
                    uint8_t& p = pageable[t.names[i]];
                    if (p == 2)
                        p = s.str(t.names[i]).find("Pageable") != std::string_view::npos ? 1 : 0;
                    if (p == 1)
                        d.pageableCopies.push_back(
                            {t.start[i], t.end(i), ti, i, t.names[i], t.bytes.empty() ? -1 : t.bytes[i]});
                }
            }
        } else {
            for (uint32_t i = 0; i < t.sliceCount(); ++i) {
                const EventKind k = s.kindOf(t, i);
                if (k != EventKind::Runtime && k != EventKind::Driver)
                    continue;
                uint8_t& b = blocking[t.names[i]];
                if (b == 2)
                    b = isBlockingCall(s.str(t.names[i])) ? 1 : 0;
                if (b == 1)
                    d.syncCalls.push_back({t.start[i], t.end(i), ti, i, t.names[i], -1});
            }
        }
    }
    fillMissingOccupancy(s, d);
    collectMeasuredCounters(s, d);
    auto byStart = [](const auto& a, const auto& b) { return a.start < b.start; };
    for (auto& [id, dev] : d.devices) {
        sortRuns(dev.kernels, byStart); // streams are sorted already: merging them is cheap
        mergeIntervals(dev.kernelBusy);
        mergeIntervals(dev.gpuBusy);
        mergeIntervals(dev.graphSpans);
        // Blocks-per-SM edges: the starts come sorted with the kernels, the ends nearly so; merged,
        // with starts before ends at equal times (FORMATS.md 3.6).
        std::vector<SmEdge> starts, ends;
        starts.reserve(dev.kernels.size());
        ends.reserve(dev.kernels.size());
        for (const OverviewKernel& k : dev.kernels)
            if (k.blocksPerSm > 0) { // also skips NaN
                starts.push_back({k.start, static_cast<double>(k.blocksPerSm)});
                ends.push_back({k.end, -static_cast<double>(k.blocksPerSm)});
            }
        auto byTs = [](const SmEdge& a, const SmEdge& b) { return a.ts < b.ts; };
        sortRuns(ends, byTs);
        dev.smEdges.resize(starts.size() + ends.size());
        // std::merge takes from the first range on ties: starts before ends.
        std::merge(starts.begin(), starts.end(), ends.begin(), ends.end(), dev.smEdges.begin(), byTs);
    }
    std::sort(d.syncCalls.begin(), d.syncCalls.end(), byStart);
    std::sort(d.pageableCopies.begin(), d.pageableCopies.end(), byStart);
}

// Σ min(Σ blocks-per-SM of running kernels, 1) × time within [lo, hi) / (hi - lo) (FORMATS.md 3.6).
std::optional<double> smEfficiency(const std::vector<SmEdge>& edges, int64_t lo, int64_t hi) {
    if (edges.empty())
        return std::nullopt;
    double sum = 0, weighted = 0;
    for (size_t i = 0; i + 1 < edges.size() && edges[i].ts < hi; ++i) {
        sum += edges[i].delta;
        if (sum > 1e-9 && edges[i + 1].ts > lo)
            weighted += std::min(sum, 1.0) * static_cast<double>(clipped(edges[i].ts, edges[i + 1].ts, lo, hi));
    }
    return weighted / static_cast<double>(hi - lo);
}

// First kernel that can overlap [lo, ...): kernels start in order and last at most maxKernelNs.
std::vector<OverviewKernel>::const_iterator firstOverlapping(const OverviewDevice& dev, int64_t lo) {
    return std::lower_bound(dev.kernels.begin(), dev.kernels.end(), lo - dev.maxKernelNs,
                            [](const OverviewKernel& k, int64_t v) { return k.start < v; });
}

DeviceOverview deviceOverview(const Session& s, const OverviewData& d, int id, int64_t lo, int64_t hi) {
    DeviceOverview out;
    out.id = id;
    for (const DeviceInfo& info : s.devices()) {
        if (info.id != id)
            continue;
        out.name = info.name;
        out.amd = deviceVendor(info) == DeviceInfo::Vendor::Amd;
        out.smCount = info.numSms;
        out.memoryBytes = info.totalGlobalMem;
        out.computeMajor = info.computeMajor;
        out.computeMinor = info.computeMinor;
    }
    const auto dit = d.devices.find(id);
    if (dit != d.devices.end() && !dit->second.kernels.empty() && hi > lo) {
        const OverviewDevice& dev = dit->second;
        int64_t tcNs = 0;
        double occSum = 0, occDur = 0;
        for (auto it = firstOverlapping(dev, lo); it != dev.kernels.end() && it->start < hi; ++it) {
            const OverviewKernel& k = *it;
            const int64_t c = clipped(k.start, k.end, lo, hi);
            if (c == 0 && !(k.start >= lo && k.end == k.start))
                continue; // ends before the window (zero-length kernels inside it still count)
            ++out.kernelCount;
            addSaturating(out.kernelNs, c);
            if (k.tensorCores)
                addSaturating(tcNs, c);
            if (k.occupancy >= 0) { // false for NaN
                occSum += static_cast<double>(k.occupancy) * static_cast<double>(c);
                occDur += static_cast<double>(c);
            }
        }
        // Graph replays recorded as spans hide what the GPU did inside them: utilization is the
        // kernels' share of the rest of the window, not the spans counted as one long kernel.
        out.graphSpanNs = lengthWithin(dev.graphSpans, lo, hi);
        if (hi - lo > out.graphSpanNs)
            out.gpuUtilization = static_cast<double>(lengthWithin(dev.kernelBusy, lo, hi)) /
                                 static_cast<double>(hi - lo - out.graphSpanNs);
        out.smEfficiency = smEfficiency(dev.smEdges, lo, hi);
        if (occDur > 0)
            out.achievedOccupancy = occSum / occDur;
        if (out.kernelNs > 0)
            out.tensorCoreShare = static_cast<double>(tcNs) / static_cast<double>(out.kernelNs);
        out.occupancyComputed = dev.occupancyComputed;
    }
    if (dit != d.devices.end() && hi > lo)
        for (size_t m = 0; m < kMeasuredCounterCount; ++m)
            if (dit->second.measured[m] >= 0)
                out.measured[m] = sampledMean(s.counters()[static_cast<size_t>(dit->second.measured[m])], lo, hi);
    // Peak of the allocator's total inside the window, counting the level it entered the window with.
    std::optional<int64_t> before;
    for (const MemoryEvent& m : s.memoryEvents()) {
        if (m.deviceType != 1 || m.deviceId != id || m.totalAllocated == MemoryEvent::kUnknown)
            continue;
        if (m.ts < lo) {
            before = m.totalAllocated;
        } else if (m.ts <= hi) {
            out.peakAllocatedBytes = std::max(out.peakAllocatedBytes.value_or(INT64_MIN), m.totalAllocated);
        }
    }
    if (before && (out.peakAllocatedBytes || hi > lo))
        out.peakAllocatedBytes = std::max(out.peakAllocatedBytes.value_or(INT64_MIN), *before);
    return out;
}

// The device's numbers over the pieces of the window (recordedPieces: the window itself, or a
// capture's recorded spans in it): counts and times summed, ratios weighted by the time they are
// of, the memory peak the highest.
DeviceOverview deviceOverviewOver(const Session& s, const OverviewData& d, int id, const std::vector<RecordedSpan>& pieces) {
    if (pieces.size() == 1)
        return deviceOverview(s, d, id, pieces[0].start, pieces[0].end);
    DeviceOverview out = deviceOverview(s, d, id, 0, 0); // the device's own fields
    struct Weighted {
        double sum = 0, weight = 0;
        void add(const std::optional<double>& v, double w) {
            if (v) {
                sum += *v * w;
                weight += w;
            }
        }
        std::optional<double> value() const { return weight > 0 ? std::optional<double>(sum / weight) : std::nullopt; }
    } utilization, efficiency, occupancy, tensorCores;
    std::array<Weighted, kMeasuredCounterCount> measured;
    for (const RecordedSpan& p : pieces) {
        const DeviceOverview one = deviceOverview(s, d, id, p.start, p.end);
        const double length = static_cast<double>(p.end - p.start), kernelNs = static_cast<double>(one.kernelNs);
        out.kernelCount += one.kernelCount;
        addSaturating(out.kernelNs, one.kernelNs);
        utilization.add(one.gpuUtilization, length);
        efficiency.add(one.smEfficiency, length);
        occupancy.add(one.achievedOccupancy, kernelNs);
        tensorCores.add(one.tensorCoreShare, kernelNs);
        for (size_t m = 0; m < kMeasuredCounterCount; ++m)
            measured[m].add(one.measured[m], length);
        if (one.peakAllocatedBytes)
            out.peakAllocatedBytes = std::max(out.peakAllocatedBytes.value_or(INT64_MIN), *one.peakAllocatedBytes);
        out.occupancyComputed = out.occupancyComputed || one.occupancyComputed;
        addSaturating(out.graphSpanNs, one.graphSpanNs);
    }
    out.gpuUtilization = utilization.value();
    out.smEfficiency = efficiency.value();
    out.achievedOccupancy = occupancy.value();
    out.tensorCoreShare = tensorCores.value();
    for (size_t m = 0; m < kMeasuredCounterCount; ++m)
        out.measured[m] = measured[m].value();
    return out;
}

} // namespace

OverviewData prepareOverview(const Session& s) {
    OverviewData d;
    // Three independent passes over the slices; on a 1 GB trace each is a few hundred ms, so they
    // run side by side.
    std::thread steps([&] {
        d.steps = computeStepRanges(s);
        d.stepLabels = stepLabels(s, d.steps);
    });
    std::thread roles([&] { d.roles = collectStepRoleRanges(s); });
    collectDeviceData(s, d);
    steps.join();
    roles.join();
    return d;
}

OverviewReport computeOverview(const Session& s, const OverviewData& d, const std::optional<OverviewRange>& range) {
    OverviewReport rep;
    rep.selection = range.has_value();
    std::vector<StepCosts> steps;
    for (size_t i = 0; i < d.steps.steps.size(); ++i) {
        StepCosts c;
        c.label = i < d.stepLabels.size() ? d.stepLabels[i] : std::string();
        c.start = d.steps.steps[i].start;
        c.end = d.steps.steps[i].end;
        if (range) {
            if (c.end <= range->start || c.start >= range->end)
                continue;
            c.start = std::max(c.start, range->start);
            c.end = std::min(c.end, range->end);
        }
        steps.push_back(std::move(c));
    }
    rep.profilerSteps = d.steps.hostStepCount > 0 && !steps.empty();
    rep.startup = d.steps.startup;
    if (rep.profilerSteps)
        rep.stepSource = d.steps.patternSteps     ? OverviewReport::StepSource::LaunchPattern
                         : d.steps.optimizerSteps ? OverviewReport::StepSource::Optimizer
                         : d.steps.namedSteps     ? OverviewReport::StepSource::Named
                                              : OverviewReport::StepSource::Profiler;
    if (range && steps.empty() && range->end > range->start) {
        StepCosts c;
        c.start = range->start;
        c.end = range->end;
        steps.push_back(std::move(c));
    }
    if (!steps.empty()) {
        rep.windowStart = steps.front().start;
        rep.windowEnd = steps.back().end;
    }
    rep.valid = rep.windowEnd > rep.windowStart;
    rep.breakdown = computeStepBreakdown(d.roles, std::move(steps));
    rep.unrecordedSteps = d.steps.unrecordedSteps;
    const std::vector<RecordedSpan> pieces = recordedPieces(d.steps.recorded, rep.windowStart, rep.windowEnd);
    if (!d.steps.recorded.empty()) {
        rep.recordedPieces = pieces.size();
        rep.unrecordedNs = rep.windowEnd - rep.windowStart;
        for (const RecordedSpan& p : pieces)
            rep.unrecordedNs -= p.end - p.start;
    }

    // Devices: those with GPU work; a trace without any lists its deviceProperties.
    std::set<int> ids;
    for (const auto& [id, dev] : d.devices)
        if (id >= 0)
            ids.insert(id);
    if (ids.empty())
        for (const DeviceInfo& info : s.devices())
            ids.insert(info.id);
    for (int id : ids)
        rep.devices.push_back(pieces.empty() ? deviceOverview(s, d, id, rep.windowStart, rep.windowEnd)
                                             : deviceOverviewOver(s, d, id, pieces));
    if (rep.valid)
        rep.recommendations = computeRecommendations(s, d, rep);
    return rep;
}

OverviewReport computeOverview(const Session& s) {
    const OverviewData d = prepareOverview(s);
    return computeOverview(s, d);
}

std::string overviewToJson(const Session& s, const OverviewReport& r,
                           const std::vector<std::pair<std::string, std::string>>& extra) {
    using J = nlohmann::ordered_json;
    auto opt = [](const auto& o) -> J { return o ? J(*o) : J(nullptr); };
    J j;
    j["valid"] = r.valid;
    j["selection"] = r.selection;
    j["window"] = {{"start_ns", r.windowStart}, {"end_ns", r.windowEnd}, {"duration_ns", r.windowEnd - r.windowStart}};
    j["profiler_steps"] = r.profilerSteps;
    static const char* const kSources[] = {"none", "profiler", "named", "launch_pattern", "optimizer"};
    j["step_source"] = kSources[static_cast<size_t>(r.stepSource)];
    j["startup_left_out"] =
        r.startup ? J{{"start_ns", r.startup->start}, {"end_ns", r.startup->end}} : J(nullptr);
    j["recorded_pieces"] = r.recordedPieces; // 0: recorded throughout
    j["unrecorded_ns"] = r.unrecordedNs;
    j["unrecorded_steps_left_out"] = r.unrecordedSteps;
    J devices = J::array();
    for (const DeviceOverview& d : r.devices) {
        J dj;
        dj["id"] = d.id;
        dj["name"] = d.name.empty() ? J(nullptr) : J(d.name);
        dj["vendor"] = d.amd ? "amd" : "other";
        dj["sm_count"] = opt(d.smCount);
        dj["memory_bytes"] = opt(d.memoryBytes);
        dj["compute_capability"] =
            d.computeMajor ? J(std::to_string(*d.computeMajor) + "." + std::to_string(d.computeMinor.value_or(0)))
                           : J(nullptr);
        dj["kernel_count"] = d.kernelCount;
        dj["kernel_ns"] = d.kernelNs;
        dj["gpu_utilization"] = opt(d.gpuUtilization);
        dj["est_sm_efficiency"] = opt(d.smEfficiency);
        dj["est_achieved_occupancy"] = opt(d.achievedOccupancy);
        dj["tensor_core_kernel_share"] = opt(d.tensorCoreShare);
        dj["occupancy_computed"] = d.occupancyComputed;
        if (d.graphSpanNs > 0)
            dj["graph_span_ns"] = d.graphSpanNs;
        dj["measured_sm_active_pct"] = opt(d.measuredValue(MeasuredCounter::SmActive));
        dj["measured_tensor_active_pct"] = opt(d.measuredValue(MeasuredCounter::TensorActive));
        dj["measured_dram_bandwidth_pct"] = opt(d.measuredValue(MeasuredCounter::DramBandwidth));
        dj["peak_allocated_bytes"] = opt(d.peakAllocatedBytes);
        devices.push_back(std::move(dj));
    }
    j["devices"] = std::move(devices);
    const StepBreakdown& b = r.breakdown;
    J steps = J::array();
    for (const StepCosts& st : b.steps) {
        J sj;
        sj["step"] = st.label.empty() ? J(nullptr) : J(st.label);
        sj["start_ns"] = st.start;
        sj["end_ns"] = st.end;
        for (size_t role = 0; role < kStepRoleCount; ++role)
            sj[stepRoleName(static_cast<StepRole>(role))] = st.cost[role];
        sj["Total"] = st.total();
        steps.push_back(std::move(sj));
    }
    J avg;
    for (size_t role = 0; role < kStepRoleCount; ++role)
        avg[stepRoleName(static_cast<StepRole>(role))] = b.average[role];
    avg["Total"] = b.averageTotal;
    j["breakdown"] = {{"steps", std::move(steps)},
                      {"average_ns", std::move(avg)},
                      {"has_device_activity", b.anyDeviceActivity},
                      {"has_communication", b.anyCommunication}};
    J recs = J::array();
    for (const Recommendation& rec : r.recommendations) {
        J rj;
        rj["id"] = recommendationId(rec.kind);
        rj["severity"] = rec.severity == RecommendationSeverity::Warning ? "warning" : "info";
        rj["device"] = rec.device >= 0 ? J(rec.device) : J(nullptr);
        rj["title"] = recommendationTitle(rec);
        rj["evidence"] = recommendationEvidence(rec);
        rj["value"] = rec.share;
        rj["threshold"] = rec.threshold;
        rj["range"] = rec.range ? J{{"start_ns", rec.range->start}, {"end_ns", rec.range->end}} : J(nullptr);
        if (rec.slice) {
            const Track& t = s.tracks()[rec.slice->track];
            rj["slice"] = {{"track", rec.slice->track},
                           {"slice", rec.slice->slice},
                           {"name", std::string(s.str(t.names[rec.slice->slice]))},
                           {"start_ns", t.start[rec.slice->slice]}};
        } else {
            rj["slice"] = nullptr;
        }
        if (const std::optional<GapCategory> cause = longIdleGapCategory(rec))
            rj["cause"] = {{"category", gapCategoryId(*cause)},
                           {"line", rec.name.empty() ? J(nullptr) : J(rec.name)},
                           {"drained_by", rec.detail.empty() ? J(nullptr) : J(rec.detail)}};
        recs.push_back(std::move(rj));
    }
    j["recommendations"] = std::move(recs);
    for (const auto& [key, json] : extra)
        j[key] = J::parse(json);
    return j.dump(2);
}

} // namespace ws
