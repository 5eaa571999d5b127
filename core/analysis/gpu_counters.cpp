#include "analysis/gpu_counters.h"

#include "model/session.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ws {

namespace {

struct Interval {
    int64_t start, end;
    float blocksPerSm;
};

DerivedCounter utilization(uint32_t process, std::vector<Interval> kernels, int64_t lo, int64_t hi) {
    DerivedCounter c{process, "GPU Utilization", DerivedCounter::Unit::Fraction, {}, {}};
    const int64_t range = hi - lo;
    if (range <= 0)
        return c;
    int64_t bucket = 1000; // 1 µs in ns, then powers of ten until at most 100 buckets
    while (range / bucket > 100)
        bucket *= 10;
    const int64_t count = std::max<int64_t>(1, range / bucket);
    std::vector<int64_t> busy(static_cast<size_t>(count), 0);
    auto bucketEnd = [&](int64_t b) { return b + 1 == count ? hi : lo + (b + 1) * bucket; };
    // Union of kernel intervals first, so concurrent kernels are not counted twice.
    std::sort(kernels.begin(), kernels.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
    int64_t curStart = INT64_MIN, curEnd = INT64_MIN;
    auto flush = [&] {
        if (curEnd <= curStart)
            return;
        const int64_t a = std::max(curStart, lo), e = std::min(curEnd, hi);
        for (int64_t b = std::clamp<int64_t>((a - lo) / bucket, 0, count - 1); b < count && lo + b * bucket < e; ++b) {
            const int64_t bs = lo + b * bucket, be = bucketEnd(b);
            busy[static_cast<size_t>(b)] += std::max<int64_t>(0, std::min(e, be) - std::max(a, bs));
        }
    };
    for (const Interval& k : kernels) {
        if (k.start > curEnd) {
            flush();
            curStart = k.start;
            curEnd = k.end;
        } else {
            curEnd = std::max(curEnd, k.end);
        }
    }
    flush();
    for (int64_t b = 0; b < count; ++b) {
        c.ts.push_back(lo + b * bucket);
        c.value.push_back(static_cast<double>(busy[static_cast<size_t>(b)]) /
                          static_cast<double>(bucketEnd(b) - (lo + b * bucket)));
    }
    c.ts.push_back(hi);
    c.value.push_back(0);
    return c;
}

// On AMD GPUs the same formula runs over workgroups per compute unit, and says so.
DerivedCounter smEfficiency(uint32_t process, const std::vector<Interval>& kernels, bool amd) {
    DerivedCounter c{process, amd ? "Est. CU Efficiency" : "Est. SM Efficiency", DerivedCounter::Unit::Fraction, {}, {}};
    std::vector<std::pair<int64_t, double>> edges;
    for (const Interval& k : kernels) {
        if (!(k.blocksPerSm > 0)) // also skips NaN
            continue;
        edges.emplace_back(k.start, k.blocksPerSm);
        edges.emplace_back(k.end, -k.blocksPerSm);
    }
    if (edges.empty())
        return c;
    // Starts before ends at equal times (FORMATS.md 3.6).
    std::sort(edges.begin(), edges.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    double sum = 0;
    for (size_t i = 0; i < edges.size(); ++i) {
        sum += edges[i].second;
        if (i + 1 < edges.size() && edges[i + 1].first == edges[i].first)
            continue;
        const double v = std::clamp(sum, 0.0, 1.0);
        if (c.value.empty() || c.value.back() != v) {
            c.ts.push_back(edges[i].first);
            c.value.push_back(v < 1e-9 ? 0 : v);
        }
    }
    return c;
}

} // namespace

std::vector<DerivedCounter> deriveCounters(const Session& s) {
    std::vector<DerivedCounter> out;
    std::map<int, uint32_t> processOfDevice;
    for (uint32_t p = 0; p < s.processes().size(); ++p)
        if (s.processes()[p].deviceId >= 0)
            processOfDevice.emplace(s.processes()[p].deviceId, p);

    std::map<uint32_t, std::vector<Interval>> kernelsByProcess;
    for (const Track& t : s.tracks()) {
        if (!t.gpu)
            continue;
        for (size_t i = 0; i < t.sliceCount(); ++i)
            if (s.kindOf(t, i) == EventKind::Kernel)
                kernelsByProcess[t.process].push_back(
                    {t.start[i], t.end(i), t.blocksPerSm.empty() ? NAN : t.blocksPerSm[i]});
    }
    for (auto& [process, kernels] : kernelsByProcess) {
        out.push_back(utilization(process, kernels, s.startNs(), s.endNs()));
        const int device = s.processes()[process].deviceId;
        const bool amd = std::any_of(s.devices().begin(), s.devices().end(), [&](const DeviceInfo& d) {
            return d.id == device && deviceVendor(d) == DeviceInfo::Vendor::Amd;
        });
        DerivedCounter sm = smEfficiency(process, kernels, amd);
        if (!sm.ts.empty())
            out.push_back(std::move(sm));
    }

    // Allocator totals per device (GPU) or per allocating process (CPU).
    std::map<std::pair<uint32_t, int>, std::pair<DerivedCounter, DerivedCounter>> memory;
    // Old traces (2021) carry only each record's Bytes: their running sum is the memory allocated
    // since the trace began, which still shows where it peaks.
    std::map<std::pair<uint32_t, int>, DerivedCounter> net;
    for (const MemoryEvent& m : s.memoryEvents()) {
        uint32_t process;
        if (m.deviceType == 1 && processOfDevice.count(m.deviceId))
            process = processOfDevice[m.deviceId];
        else if (m.deviceType == 0 && m.track < s.tracks().size())
            process = s.tracks()[m.track].process;
        else
            continue;
        auto& [allocated, reserved] = memory[{process, m.deviceType}];
        if (m.totalAllocated == MemoryEvent::kUnknown && m.bytes != MemoryEvent::kUnknown) {
            DerivedCounter& n = net[{process, m.deviceType}];
            const double previous = n.value.empty() ? 0.0 : n.value.back();
            n.ts.push_back(m.ts);
            n.value.push_back(previous + static_cast<double>(m.bytes));
        }
        if (m.totalAllocated != MemoryEvent::kUnknown) {
            allocated.ts.push_back(m.ts);
            allocated.value.push_back(static_cast<double>(m.totalAllocated));
        }
        if (m.totalReserved != MemoryEvent::kUnknown) {
            reserved.ts.push_back(m.ts);
            reserved.value.push_back(static_cast<double>(m.totalReserved));
        }
    }
    for (auto& [key, pair] : memory) {
        const bool gpu = key.second == 1;
        for (DerivedCounter* c : {&pair.first, &pair.second}) {
            if (c->ts.empty())
                continue;
            c->process = key.first;
            c->unit = DerivedCounter::Unit::Bytes;
            c->name = std::string(gpu ? "GPU " : "CPU ") + (c == &pair.first ? "Memory Allocated" : "Memory Reserved");
            out.push_back(std::move(*c));
        }
    }
    for (auto& [key, n] : net) {
        n.process = key.first;
        n.unit = DerivedCounter::Unit::Bytes;
        n.name = key.second == 1 ? "GPU Memory (net allocations)" : "CPU Memory (net allocations)";
        out.push_back(std::move(n));
    }
    return out;
}

} // namespace ws
