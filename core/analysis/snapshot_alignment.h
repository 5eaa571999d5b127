#pragma once

#include "model/memory_snapshot.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ws {

class Session;

/*
 * A PyTorch memory snapshot beside a trace or capture of the same run (issue #28): the offset that
 * puts the snapshot's device_traces times on the trace's clock, so an allocation band of the
 * Memory tab leads to the operator that made it.
 *
 * Allocations: the trace's own allocator records (Kineto's [memory] events, a capture's memory
 * records) carry an address and a size, as the snapshot's alloc and segment_alloc entries do.
 * Every (address, size) seen in both gives candidate offsets trace time − snapshot time; the right
 * offset is the one most of them agree on within kWindowNs (the same block reused later gives
 * offsets a step or more away). Its value is the median of the agreeing candidates. Accepted when at
 * least kMinPairs candidates and a fifth of the snapshot entries paired at all agree.
 *
 * Same clock: without agreeing pairs (a trace without memory records, a capture that recorded no
 * memory activity), both clocks are still the host's epoch time when the trace's times are epoch
 * ns (Kineto with baseTimeNanoseconds, a capture's CUPTI clock) and the spans overlap: offset 0.
 *
 * Otherwise none: the snapshot cannot be placed on this trace's axis (another run, another host).
 */
struct SnapshotAlignment {
    enum class Method : uint8_t { None, Allocations, SameClock };
    static constexpr int64_t kWindowNs = 200'000; // candidates within 200 µs of each other agree
    static constexpr size_t kMinPairs = 3;

    Method method = Method::None;
    int64_t offsetNs = 0; // trace time = snapshot time_us * 1000 + offsetNs
    size_t pairs = 0;     // snapshot entries whose (address, size) met a trace record at the offset
    size_t paired = 0;    // snapshot entries whose (address, size) the trace has at all
    std::string why;      // Method::None: why not, one sentence
};

SnapshotAlignment alignSnapshot(const MemorySnapshot& snapshot, const Session& trace);

// The snapshot with every time moved by offsetNs (rounded to µs, the snapshot's unit): what a trace
// session keeps beside its own memory records, so the Memory tab's views use the trace's clock.
MemorySnapshot shiftedSnapshot(const MemorySnapshot& snapshot, int64_t offsetNs);

/*
 * The operator that made each allocation of a snapshot already on the trace's clock: the innermost
 * operator (cpu_op or user annotation) around the trace's own record of the same block (address and
 * size within kWindowNs of the allocation's time) on that record's thread, else the innermost
 * operator on any thread around the allocation's time. Allocation-only operators (aten::empty*)
 * give way to the operator around them: it says what the memory was for. {track, slice} per allocation, or
 * {kNone, kNone} where none encloses it.
 */
struct SnapshotOperator {
    static constexpr uint32_t kNone = UINT32_MAX;
    uint32_t track = kNone;
    uint32_t slice = kNone;
    bool found() const { return track != kNone; }
};
SnapshotOperator snapshotAllocationOperator(const Session& trace, const SnapshotAllocation& allocation);
std::vector<SnapshotOperator> snapshotAllocationOperators(const Session& trace, const MemorySnapshot& snapshot);

} // namespace ws
