#pragma once

#include "model/memory_snapshot.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ws {

/*
 * Questions asked of a MemorySnapshot (memory_snapshot.h) by the Memory tab and `warpscope-cli
 * memory`: what was live at a moment, the peak of live bytes, what each stack allocated, what was
 * live when an OOM happened.
 *
 * A SnapshotMoment is a time and a trace entry number on the device, so that entries within one
 * microsecond keep their order: "at the OOM" is after every entry before the oom entry and before
 * every entry after it. A moment from a time alone (fromTime) is after every entry at that time.
 * "Live" is memory_viz's active memory: from the alloc entry to the free_completed entry.
 */
struct SnapshotMoment {
    int64_t us = 0;
    uint32_t seq = UINT32_MAX;
    static SnapshotMoment fromTime(int64_t us) { return {us, UINT32_MAX}; }
    static SnapshotMoment atOom(const SnapshotOom& o) { return {o.timeUs, o.seq}; }
};

bool snapshotLiveAt(const SnapshotAllocation& a, SnapshotMoment m);
// Whether the caller had asked to free it by then, but the allocator had not yet reused it.
bool snapshotPendingAt(const SnapshotAllocation& a, SnapshotMoment m);

// Live allocations of `device` at `m` (indices into allocations, in storage order) and their bytes.
struct SnapshotLiveSet {
    std::vector<uint32_t> allocations;
    int64_t bytes = 0;
};
SnapshotLiveSet snapshotLiveAt(const MemorySnapshot& s, int16_t device, SnapshotMoment m);

// The highest live bytes of `device` over the trace (the state before the first entry counts)
// and the moment it was first reached. O(n log n).
struct SnapshotPeak {
    int64_t bytes = 0;
    SnapshotMoment at;
};
SnapshotPeak snapshotPeak(const MemorySnapshot& s, int16_t device);

// Bytes of the segments of `device` at `m`: the segments at the end, less those the trace created
// after m, plus those it released after m.
int64_t snapshotReservedAt(const MemorySnapshot& s, int16_t device, SnapshotMoment m);

/*
 * Per stack (one row per distinct frame list): allocations made in the trace and their bytes, and
 * what of it is live at `liveAt` (all devices, or one). Rows by live bytes, then allocated bytes,
 * descending; stacks with nothing are left out.
 */
struct SnapshotStackRow {
    uint32_t stack = 0;
    uint64_t allocations = 0;  // alloc entries in the trace
    int64_t allocatedBytes = 0;
    uint64_t liveCount = 0;
    int64_t liveBytes = 0;
};
std::vector<SnapshotStackRow> snapshotStacks(const MemorySnapshot& s, std::optional<int16_t> device,
                                             std::optional<SnapshotMoment> liveAt);
// Groups a set of allocations by stack (the OOM's "what was live"), by bytes descending.
std::vector<SnapshotStackRow> snapshotGroupByStack(const MemorySnapshot& s, const std::vector<uint32_t>& allocations);

/* An OOM with what was live then. */
struct SnapshotOomReport {
    uint32_t oom = 0; // index into ooms
    int64_t liveBytes = 0;
    uint64_t liveCount = 0;
    int64_t reservedBytes = 0;
    std::vector<SnapshotStackRow> byStack;
};
std::vector<SnapshotOomReport> snapshotOoms(const MemorySnapshot& s);

} // namespace ws
