#pragma once

#include "model/memory_event.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ws {

class Session;

/*
 * MemoryDevice: where an allocator record's memory lives, as torch-tb-profiler names it
 * (FORMATS.md 3.10): CPU (c10::DeviceType 0) or GPU<id> (type 1). Records of other device types
 * are not part of the memory view.
 */
struct MemoryDevice {
    int16_t type = 0; // c10::DeviceType: 0 CPU, 1 CUDA
    int16_t id = -1;
    // Written out instead of a defaulted <=>: Qt's moc cannot parse <compare>, and widget headers
    // include this one.
    bool operator==(const MemoryDevice& o) const { return type == o.type && id == o.id; }
    bool operator!=(const MemoryDevice& o) const { return !(*this == o); }
    bool operator<(const MemoryDevice& o) const { return type != o.type ? type < o.type : id < o.id; }
};

// "CPU" or "GPU<id>" (e.g. "GPU0").
std::string memoryDeviceLabel(MemoryDevice device);
// The device of a record; nullopt for device types the memory view ignores.
std::optional<MemoryDevice> memoryDeviceOf(const MemoryEvent& event);

/* One point of a step curve: `value` holds from `ts` until the next point. */
struct MemoryPoint {
    int64_t ts = 0;
    int64_t value = 0;
    bool operator==(const MemoryPoint&) const = default;
};

/* The highest value of a curve and the first time it was reached; absent when nothing is known. */
struct MemoryPeak {
    int64_t value = MemoryEvent::kUnknown;
    int64_t ts = MemoryEvent::kUnknown;
    bool known() const { return value != MemoryEvent::kUnknown; }
};

/*
 * MemoryCurve: the allocated and reserved bytes of one device over time, as step curves with one
 * point per allocator record (session ns, sorted; equal times keep record order, the last one is
 * what holds afterwards).
 *
 * Values are device-wide: the sum over the processes allocating on the device of each process's
 * latest total. Kineto records carry the allocator's own totals; the nsys and capture importers
 * store running sums of the driver allocations per process/device as totalAllocated (no reserved).
 * When a process's records carry no totals at all (Kineto before ~2021), its running sum of Bytes
 * is used instead and `allocatedFromTotals` is false: that curve starts at 0 at the first record,
 * so it shows memory allocated since the trace began, not absolute usage. `reserved` is empty when
 * no record of the device carried Total Reserved (nsys, captures): "not in this trace", never 0.
 *
 * Queries over a window [from, to) include the value holding at `from` (set by the last point
 * before it), so a window inside a long flat stretch still has its level.
 */
struct MemoryCurve {
    MemoryDevice device;
    std::vector<int64_t> ts;
    std::vector<int64_t> allocated;
    std::vector<int64_t> reserved; // empty, or one entry per ts
    bool allocatedFromTotals = true;
    MemoryPeak peakAllocated;
    MemoryPeak peakReserved;
    std::optional<int64_t> capacity; // deviceProperties totalGlobalMem (GPU only)
    size_t records = 0;              // allocator records of the device (with or without Addr)

    bool hasReserved() const { return !reserved.empty(); }
    // Highest value of a curve in [from, to), including the value holding at `from`.
    MemoryPeak peakIn(const std::vector<int64_t>& values, int64_t from, int64_t to) const;
    MemoryPeak peakAllocatedIn(int64_t from, int64_t to) const { return peakIn(allocated, from, to); }
    MemoryPeak peakReservedIn(int64_t from, int64_t to) const { return peakIn(reserved, from, to); }
};

/*
 * Reduces the step curve `values` (over the curve's ts) in [from, to) to at most maxPoints points
 * for drawing. The first point is the value holding at `from` (time clamped to `from`); if more
 * points remain than fit, the window is cut into maxPoints/2 equal time buckets and each bucket
 * keeps its minimum and its maximum point in time order, so every peak and every trough of the
 * full-resolution curve survives exactly (the global maximum in the window is always among the
 * output). Cost: O(log n + points in the window). maxPoints < 4 is treated as 4.
 */
std::vector<MemoryPoint> decimateMemoryCurve(const MemoryCurve& curve, const std::vector<int64_t>& values,
                                             int64_t from, int64_t to, size_t maxPoints);

/*
 * MemoryCurves: the curves of every device with allocator records in a session, CPU first, then
 * GPUs by id. Built in one pass over Session::memoryEvents() (O(records log processes)).
 */
class MemoryCurves {
public:
    static MemoryCurves build(const Session& session);

    const std::vector<MemoryCurve>& devices() const { return m_devices; }
    const MemoryCurve* find(MemoryDevice device) const;
    bool empty() const { return m_devices.empty(); }

private:
    std::vector<MemoryCurve> m_devices;
};

} // namespace ws
