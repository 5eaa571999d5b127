#include "analysis/memory_curve.h"

#include "analysis/memory_categories.h"

#include "model/session.h"

#include <algorithm>
#include <map>

namespace ws {

std::string memoryDeviceLabel(MemoryDevice device) {
    if (device.type == 0)
        return "CPU";
    return "GPU" + std::to_string(device.id);
}

std::optional<MemoryDevice> memoryDeviceOf(const MemoryEvent& event) {
    if (event.deviceType == 0)
        return MemoryDevice{0, -1}; // Kineto writes Device Id -1 for CPU; one CPU device either way
    if (event.deviceType == 1 && event.deviceId >= 0)
        return MemoryDevice{1, event.deviceId};
    return std::nullopt;
}

MemoryPeak MemoryCurve::peakIn(const std::vector<int64_t>& values, int64_t from, int64_t to) const {
    MemoryPeak peak;
    if (values.empty() || from >= to)
        return peak;
    // The point holding at `from` is the last one at or before it.
    auto first = std::upper_bound(ts.begin(), ts.end(), from);
    if (first != ts.begin())
        --first;
    const auto last = std::lower_bound(ts.begin(), ts.end(), to);
    for (auto it = first; it < last; ++it) {
        const size_t i = static_cast<size_t>(it - ts.begin());
        if (!peak.known() || values[i] > peak.value) {
            peak.value = values[i];
            peak.ts = std::max(ts[i], from);
        }
    }
    return peak;
}

std::vector<MemoryPoint> decimateMemoryCurve(const MemoryCurve& curve, const std::vector<int64_t>& values,
                                             int64_t from, int64_t to, size_t maxPoints) {
    std::vector<MemoryPoint> out;
    const std::vector<int64_t>& ts = curve.ts;
    if (values.empty() || from >= to)
        return out;
    maxPoints = std::max<size_t>(maxPoints, 4);
    size_t begin = static_cast<size_t>(std::upper_bound(ts.begin(), ts.end(), from) - ts.begin());
    const size_t end = static_cast<size_t>(std::lower_bound(ts.begin(), ts.end(), to) - ts.begin());
    if (begin > 0) {
        // The level at `from`, then everything after it.
        out.push_back({from, values[begin - 1]});
    } else if (begin == end) {
        return out; // the window ends before the first record
    }
    if (end - begin + out.size() <= maxPoints) {
        for (size_t i = begin; i < end; ++i)
            out.push_back({ts[i], values[i]});
        return out;
    }
    const size_t buckets = (maxPoints - out.size()) / 2;
    const double width = static_cast<double>(to - from) / static_cast<double>(buckets);
    size_t i = begin;
    for (size_t b = 0; b < buckets && i < end; ++b) {
        const int64_t bucketEnd = b + 1 == buckets ? to : from + static_cast<int64_t>(width * static_cast<double>(b + 1));
        const size_t first = i;
        size_t lo = i, hi = i;
        for (; i < end && ts[i] < bucketEnd; ++i) {
            if (values[i] < values[lo])
                lo = i;
            if (values[i] > values[hi])
                hi = i;
        }
        if (i == first)
            continue; // empty bucket
        const size_t a = std::min(lo, hi), c = std::max(lo, hi);
        out.push_back({ts[a], values[a]});
        if (c != a)
            out.push_back({ts[c], values[c]});
    }
    return out;
}

const MemoryCurve* MemoryCurves::find(MemoryDevice device) const {
    for (const MemoryCurve& c : m_devices)
        if (c.device == device)
            return &c;
    return nullptr;
}

MemoryCurves MemoryCurves::build(const Session& session) {
    // Per device and allocating process: the latest totals (or the running sum of Bytes when the
    // process's records have no totals), so a device's value is the sum over its processes.
    struct ProcessState {
        int64_t allocated = 0;
        int64_t reserved = 0;
        bool hasTotals = false;
    };
    struct DeviceState {
        MemoryCurve curve;
        std::map<uint32_t, ProcessState> processes;
        bool anyReserved = false;
    };
    std::map<MemoryDevice, DeviceState> devices;
    const auto& tracks = session.tracks();
    // Whether a (device, process) ever carries totals decides how all its records are read.
    std::map<std::pair<MemoryDevice, uint32_t>, bool> withTotals;
    for (const MemoryEvent& m : session.memoryEvents()) {
        const auto device = memoryDeviceOf(m);
        if (!device)
            continue;
        const uint32_t process = m.track < tracks.size() ? tracks[m.track].process : UINT32_MAX;
        bool& t = withTotals[{*device, process}];
        t = t || m.totalAllocated != MemoryEvent::kUnknown;
    }
    for (const MemoryEvent& m : session.memoryEvents()) {
        const auto device = memoryDeviceOf(m);
        if (!device)
            continue;
        const uint32_t process = m.track < tracks.size() ? tracks[m.track].process : UINT32_MAX;
        DeviceState& d = devices[*device];
        d.curve.device = *device;
        ++d.curve.records;
        ProcessState& p = d.processes[process];
        if (withTotals[{*device, process}]) {
            if (m.totalAllocated == MemoryEvent::kUnknown)
                continue; // e.g. an [OutOfMemory] record among records with totals
            p.allocated = m.totalAllocated;
            p.hasTotals = true;
        } else {
            if (m.bytes == MemoryEvent::kUnknown)
                continue;
            p.allocated += m.bytes;
            d.curve.allocatedFromTotals = false;
        }
        if (m.totalReserved != MemoryEvent::kUnknown) {
            p.reserved = m.totalReserved;
            d.anyReserved = true;
        }
        int64_t allocated = 0, reserved = 0;
        for (const auto& [id, state] : d.processes) {
            allocated += state.allocated;
            reserved += state.reserved;
        }
        d.curve.ts.push_back(m.ts);
        d.curve.allocated.push_back(allocated);
        d.curve.reserved.push_back(reserved);
    }
    if (devices.empty()) {
        // A PyTorch memory timeline has no allocator records: its curve is the sum of its
        // categories, on the device it was exported for (torch's default, cuda:0).
        const MemoryDevice gpu0{1, 0};
        DeviceState d;
        d.curve.device = gpu0;
        forEachMemoryTimelineState(session, [&d](int64_t ts, const std::vector<int64_t>& bytes) {
            int64_t total = 0;
            for (int64_t b : bytes)
                total += b;
            d.curve.ts.push_back(ts);
            d.curve.allocated.push_back(total);
            ++d.curve.records;
        });
        if (!d.curve.ts.empty())
            devices.emplace(gpu0, std::move(d));
    }
    MemoryCurves out;
    for (auto& [device, d] : devices) {
        MemoryCurve& c = d.curve;
        if (!d.anyReserved)
            c.reserved.clear();
        auto peakOf = [&c](const std::vector<int64_t>& values) {
            MemoryPeak peak;
            for (size_t i = 0; i < values.size(); ++i)
                if (!peak.known() || values[i] > peak.value)
                    peak = {values[i], c.ts[i]};
            return peak;
        };
        c.peakAllocated = peakOf(c.allocated);
        c.peakReserved = peakOf(c.reserved);
        if (device.type == 1)
            for (const DeviceInfo& info : session.devices())
                if (info.id == device.id && info.totalGlobalMem && *info.totalGlobalMem > 0)
                    c.capacity = info.totalGlobalMem;
        out.m_devices.push_back(std::move(c));
    }
    return out;
}

} // namespace ws
