#include "analysis/trace_summary.h"
#include "model/saturating.h"

#include "analysis/kernel_table.h"
#include "analysis/recorded_spans.h"
#include "analysis/step_ranges.h"
#include "model/session.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace ws {

namespace {

struct KernelRec {
    int64_t start;
    int64_t end;
    float bps;
    float occ;
    uint32_t track;
    uint32_t slice;
};

int64_t clippedLength(int64_t a, int64_t b, int64_t lo, int64_t hi) {
    return std::max<int64_t>(0, std::min(b, hi) - std::max(a, lo));
}

// |union of [start, end) intervals ∩ [lo, hi)|, intervals sorted by start.
int64_t unionWithin(const std::vector<KernelRec>& ks, int64_t lo, int64_t hi) {
    int64_t total = 0, curA = 0, curB = 0;
    bool open = false;
    for (const KernelRec& k : ks) {
        if (open && k.start <= curB) {
            curB = std::max(curB, k.end);
            continue;
        }
        if (open)
            total += clippedLength(curA, curB, lo, hi);
        curA = k.start;
        curB = k.end;
        open = true;
    }
    if (open)
        total += clippedLength(curA, curB, lo, hi);
    return total;
}

// Σ min(Σ blocks-per-SM of running kernels, 1) × time, within [lo, hi) (FORMATS.md 3.6).
std::optional<double> smEfficiency(const std::vector<KernelRec>& ks, int64_t lo, int64_t hi) {
    std::vector<std::pair<int64_t, double>> points;
    for (const KernelRec& k : ks)
        if (!std::isnan(k.bps) && k.bps > 0) {
            points.emplace_back(k.start, static_cast<double>(k.bps));
            points.emplace_back(k.end, -static_cast<double>(k.bps));
        }
    if (points.empty())
        return std::nullopt;
    std::stable_sort(points.begin(), points.end(), [](const auto& a, const auto& b) {
        if (a.first != b.first)
            return a.first < b.first;
        return a.second > b.second; // starts before ends
    });
    double sum = 0, weighted = 0;
    for (size_t i = 0; i + 1 < points.size(); ++i) {
        sum += points[i].second;
        if (sum > 1e-9)
            weighted += std::min(sum, 1.0) *
                        static_cast<double>(clippedLength(points[i].first, points[i + 1].first, lo, hi));
    }
    return weighted / static_cast<double>(hi - lo);
}

} // namespace

TraceSummary summarizeSession(const Session& s) {
    TraceSummary out;
    out.format = formatName(s.format());
    out.events = s.sourceEventCount();
    out.flows = s.flows().size();
    out.startNs = s.startNs();
    out.endNs = s.endNs();
    out.report = s.report();

    std::map<int, std::vector<KernelRec>> kernels;
    int64_t memcpyBytes = 0;
    bool anyMemcpyBytes = false;
    for (size_t ti = 0; ti < s.tracks().size(); ++ti) {
        const Track& t = s.tracks()[ti];
        const ProcessInfo& p = s.processes()[t.process];
        TrackSummary ts;
        ts.group = s.processLabel(p);
        ts.name = s.trackLabel(t);
        ts.gpu = t.gpu;
        ts.events = t.sliceCount() + t.instantTs.size();
        ts.startNs = INT64_MAX;
        ts.endNs = INT64_MIN;
        for (size_t i = 0; i < t.sliceCount(); ++i) {
            ts.startNs = std::min(ts.startNs, t.start[i]);
            ts.endNs = std::max(ts.endNs, t.end(i));
            switch (s.kindOf(t, i)) {
            case EventKind::Kernel: {
                ++out.kernelCount;
                addSaturating(out.kernelTotalNs, t.dur[i]);
                const int dev = p.deviceId >= 0 ? p.deviceId : -1;
                kernels[dev].push_back({t.start[i], t.end(i), t.blocksPerSm.empty() ? NAN : t.blocksPerSm[i],
                                        t.occupancy.empty() ? NAN : t.occupancy[i], static_cast<uint32_t>(ti),
                                        static_cast<uint32_t>(i)});
                break;
            }
            case EventKind::Memcpy:
                ++out.memcpyCount;
                addSaturating(out.memcpyTotalNs, t.dur[i]);
                if (!t.bytes.empty() && t.bytes[i] >= 0) {
                    addSaturating(memcpyBytes, t.bytes[i]);
                    anyMemcpyBytes = true;
                }
                break;
            case EventKind::Memset:
                ++out.memsetCount;
                addSaturating(out.memsetTotalNs, t.dur[i]);
                break;
            case EventKind::Runtime: ++out.runtimeCalls; break;
            default: break;
            }
        }
        if (!t.instantTs.empty()) {
            ts.startNs = std::min(ts.startNs, t.instantTs.front());
            ts.endNs = std::max(ts.endNs, t.instantTs.back());
        }
        if (ts.startNs > ts.endNs)
            ts.startNs = ts.endNs = 0;
        out.tracks.push_back(std::move(ts));
    }
    if (anyMemcpyBytes)
        out.memcpyBytes = memcpyBytes;

    const StepRanges steps = computeStepRanges(s);
    out.steps = steps.hostStepCount;

    std::map<int, DeviceSummary> devices;
    for (const DeviceInfo& d : s.devices()) {
        DeviceSummary& ds = devices[d.id];
        ds.id = d.id;
        ds.name = d.name;
        ds.amd = deviceVendor(d) == DeviceInfo::Vendor::Amd;
        ds.totalMemoryBytes = d.totalGlobalMem;
    }
    // Kernels without Kineto's occupancy get it from their launch arguments, as in the Overview, when
    // the session has them as columns (captures, imports, stored sessions). Otherwise (an Nsight
    // Systems import) that would read every kernel's source record while the session loads; the
    // Overview still computes it when opened.
    if (s.argColumns()) {
        std::vector<KernelSliceRef> refs;
        std::vector<int> onDevice;
        std::vector<KernelRec*> targets;
        for (auto& [dev, ks] : kernels)
            for (KernelRec& k : ks) {
                const Track& t = s.tracks()[k.track];
                if (dev >= 0 && std::isnan(k.occ) && k.slice < t.argRef.size() && t.argRef[k.slice] != Track::kNoArgs) {
                    refs.push_back({k.track, k.slice});
                    onDevice.push_back(dev);
                    targets.push_back(&k);
                }
            }
        forEachComputedOccupancy(s, refs, onDevice, [&](size_t i, float occupancy) { targets[i]->occ = occupancy; });
    }
    for (auto& [dev, ks] : kernels) {
        if (dev < 0)
            continue;
        DeviceSummary& ds = devices[dev];
        ds.id = dev;
        std::sort(ks.begin(), ks.end(), [](const KernelRec& a, const KernelRec& b) { return a.start < b.start; });
        if (!steps.valid())
            continue;
        // Over the steps' window, or, for a capture recorded only between cudaProfilerStart and
        // Stop, over the recorded pieces of it, as the Overview takes them (recorded_spans.h).
        const std::vector<RecordedSpan> window = recordedPieces(steps.recorded, steps.start(), steps.end());
        int64_t busy = 0, length = 0;
        double efficiency = 0, efficiencyLength = 0;
        for (const RecordedSpan& w : window) {
            busy += unionWithin(ks, w.start, w.end);
            length += w.end - w.start;
            if (const std::optional<double> e = smEfficiency(ks, w.start, w.end)) {
                efficiency += *e * static_cast<double>(w.end - w.start);
                efficiencyLength += static_cast<double>(w.end - w.start);
            }
        }
        if (length <= 0)
            continue;
        ds.gpuUtilization = static_cast<double>(busy) / static_cast<double>(length);
        if (efficiencyLength > 0)
            ds.estSmEfficiency = efficiency / efficiencyLength;
        double occSum = 0, durSum = 0;
        for (const KernelRec& k : ks) {
            if (std::isnan(k.occ) || k.occ < 0)
                continue;
            double d = 0;
            for (const RecordedSpan& w : window)
                d += static_cast<double>(clippedLength(k.start, k.end, w.start, w.end));
            occSum += static_cast<double>(k.occ) * d;
            durSum += d;
        }
        if (durSum > 0)
            ds.estAchievedOccupancy = occSum / durSum;
    }
    for (const MemoryEvent& m : s.memoryEvents()) {
        if (m.deviceType != 1 || m.deviceId < 0)
            continue;
        auto it = devices.find(m.deviceId);
        if (it == devices.end())
            continue;
        DeviceSummary& ds = it->second;
        if (m.totalAllocated != MemoryEvent::kUnknown)
            ds.peakAllocatedBytes = std::max(ds.peakAllocatedBytes.value_or(INT64_MIN), m.totalAllocated);
        if (m.totalReserved != MemoryEvent::kUnknown)
            ds.peakReservedBytes = std::max(ds.peakReservedBytes.value_or(INT64_MIN), m.totalReserved);
    }
    for (auto& [id, ds] : devices)
        out.devices.push_back(ds);
    return out;
}

std::string summaryToJson(const TraceSummary& s, bool withTracks) {
    using J = nlohmann::ordered_json;
    auto opt = [](const auto& o) -> J { return o ? J(*o) : J(nullptr); };
    J j;
    j["format"] = s.format;
    j["events"] = s.events;
    j["kernels"] = {{"count", s.kernelCount}, {"total_ns", s.kernelTotalNs}};
    j["memcpy"] = {{"count", s.memcpyCount}, {"total_ns", s.memcpyTotalNs}, {"bytes", opt(s.memcpyBytes)}};
    j["memset"] = {{"count", s.memsetCount}, {"total_ns", s.memsetTotalNs}};
    j["runtime_calls"] = s.runtimeCalls;
    j["flows"] = s.flows;
    j["steps"] = s.steps;
    j["start_ns"] = s.startNs;
    j["end_ns"] = s.endNs;
    J devices = J::array();
    for (const DeviceSummary& d : s.devices) {
        J dj;
        dj["id"] = d.id;
        dj["name"] = d.name.empty() ? J(nullptr) : J(d.name);
        dj["gpu_utilization"] = opt(d.gpuUtilization);
        dj["est_sm_efficiency"] = opt(d.estSmEfficiency);
        dj["est_achieved_occupancy"] = opt(d.estAchievedOccupancy);
        dj["peak_allocated_bytes"] = opt(d.peakAllocatedBytes);
        dj["peak_reserved_bytes"] = opt(d.peakReservedBytes);
        dj["total_memory_bytes"] = opt(d.totalMemoryBytes);
        devices.push_back(std::move(dj));
    }
    j["devices"] = std::move(devices);
    J problems = J::array();
    for (const ImportReport::Problem& p : s.report.problems())
        problems.push_back({{"kind", p.kind}, {"count", p.count}, {"examples", p.examples}, {"note", p.note}});
    j["import_report"] = {{"truncated", s.report.truncated()}, {"problems", std::move(problems)}};
    if (withTracks) {
        J tracks = J::array();
        for (const TrackSummary& t : s.tracks)
            tracks.push_back({{"group", t.group},
                              {"name", t.name},
                              {"gpu", t.gpu},
                              {"events", t.events},
                              {"start_ns", t.startNs},
                              {"end_ns", t.endNs}});
        j["tracks"] = std::move(tracks);
    }
    return j.dump(2, ' ', false, J::error_handler_t::replace);
}

} // namespace ws
