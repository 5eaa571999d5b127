#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ws {

/*
 * MemorySnapshot: what a PyTorch CUDA caching-allocator snapshot holds (torch.cuda.memory
 * _dump_snapshot / _snapshot(), import/FORMAT_NOTES.md "PyTorch memory snapshot"), in compact columns:
 *
 *   allocations  every block's life as the active-memory timeline shows it: from its `alloc` trace
 *                entry (or from before the trace, kBeforeTrace) to its `free_completed` entry (or past
 *                the end, kNeverFreed); sizes are the requested bytes the trace records;
 *   segmentEvents segment_alloc/free/map/unmap entries of the trace;
 *   ooms         the `oom` entries (requested size, device_free);
 *   segments/blocks the allocator's state when the snapshot was taken;
 *   stacks       frame lists interned by content (stack 0 is the empty stack), frames by
 *                (function, file, line), strings once each.
 *
 * Times are the trace's `time_us` (epoch microseconds); the Session built from a snapshot uses them
 * times 1000 as its clock. Immutable once built (MemorySnapshotBuilder, import side); shared by
 * the Session with the analyses (analysis/snapshot_*.h).
 */
struct SnapshotFrame {
    uint32_t function = 0; // MemorySnapshot::strings index
    uint32_t file = 0;
    int32_t line = 0;
};

struct SnapshotAllocation {
    static constexpr int64_t kBeforeTrace = INT64_MIN;
    static constexpr int64_t kNeverFreed = INT64_MAX;
    int64_t addr = 0;
    int64_t size = 0;
    int64_t allocUs = kBeforeTrace;
    int64_t freeRequestedUs = kNeverFreed; // free_requested: the caller let go (stream use may hold it)
    int64_t freeUs = kNeverFreed;          // free_completed: the block is back in the cache
    // Trace entry numbers (per device) of the alloc and free_completed entries: the order of
    // entries within one microsecond. 0 before the trace, UINT32_MAX when never freed.
    uint32_t allocSeq = 0;
    uint32_t freeSeq = UINT32_MAX;
    uint32_t stack = 0;
    int32_t stream = 0;
    int16_t device = 0;
    bool liveAt(int64_t us) const { return allocUs <= us && us < freeUs; }
};

enum class SnapshotSegmentAction : uint8_t { Alloc, Free, Map, Unmap };

struct SnapshotSegmentEvent {
    int64_t timeUs = 0;
    uint32_t seq = 0; // trace entry number on its device
    int64_t addr = 0;
    int64_t size = 0;
    int32_t stream = 0;
    int16_t device = 0;
    SnapshotSegmentAction action = SnapshotSegmentAction::Alloc;
};

struct SnapshotOom {
    int64_t timeUs = 0;
    uint32_t seq = 0;       // trace entry number on its device
    int64_t size = 0;       // the request that failed
    int64_t deviceFree = -1; // free bytes the driver reported, -1 if absent
    uint32_t stack = 0;
    int32_t stream = 0;
    int16_t device = 0;
};

enum class SnapshotBlockState : uint8_t { ActiveAllocated, ActivePending, Inactive, Unknown };

struct SnapshotBlock {
    int64_t addr = 0;
    int64_t size = 0;
    int64_t requestedSize = 0;
    uint32_t stack = 0;
    SnapshotBlockState state = SnapshotBlockState::Unknown;
};

struct SnapshotSegment {
    int64_t addr = 0;
    int64_t totalSize = 0;
    int64_t allocatedSize = 0;
    int64_t activeSize = 0;
    int64_t requestedSize = 0;
    uint32_t firstBlock = 0; // MemorySnapshot::blocks index
    uint32_t blockCount = 0;
    uint32_t segmentType = 0; // strings index ("large", "small")
    uint32_t stack = 0;
    int32_t stream = 0;
    int16_t device = 0;
    bool expandable = false;
};

class MemorySnapshot {
public:
    // 0 is "". A deque: its strings never move, so the importer's index of them can hold views.
    std::deque<std::string> strings{std::string()};
    std::vector<SnapshotFrame> frames;
    std::vector<uint32_t> stackStart{0, 0};          // stack i's frames: stackFrames[stackStart[i], stackStart[i+1])
    std::vector<uint32_t> stackFrames;                // frame indices, innermost first
    // In the order they were read: each device trace's allocations in trace order (those alive
    // before it among them, created at their first free), then the blocks alive before the trace and
    // still at the end. A deque: millions of them grow without a growing vector's copy.
    std::deque<SnapshotAllocation> allocations;
    std::vector<SnapshotSegmentEvent> segmentEvents;  // trace order
    std::vector<SnapshotOom> ooms;
    std::vector<SnapshotSegment> segments;
    std::vector<SnapshotBlock> blocks;
    std::vector<std::pair<std::string, std::string>> allocatorSettings; // key, value as text
    std::vector<int16_t> devices;                     // devices with segments or trace entries, sorted
    uint64_t traceEntries = 0;
    int64_t firstUs = 0; // first and last trace time (0 when the trace is empty)
    int64_t lastUs = 0;

    size_t stackCount() const { return stackStart.size() - 1; }
    size_t stackSize(uint32_t stack) const { return stackStart[stack + 1] - stackStart[stack]; }
    const SnapshotFrame& frame(uint32_t stack, size_t i) const { return frames[stackFrames[stackStart[stack] + i]]; }
    std::string_view str(uint32_t id) const { return strings[id]; }
    // The innermost frame worth showing for a stack: the first Python frame outside PyTorch's own
    // sources, else the first Python frame; for a C++-only stack (autograd's engine thread) the
    // backward node, else the outermost operator call, else the first frame past the allocator's
    // own; -1 for an empty stack.
    int userFrame(uint32_t stack) const;
    // "function (file:line)" of userFrame (C++ functions without their argument lists), or "".
    std::string stackLabel(uint32_t stack) const;
    // The stack as one line, innermost first: "file:line:function;..." (CSV, tests).
    std::string stackKey(uint32_t stack) const;
    size_t memoryBytes() const;
};

const char* snapshotBlockStateName(SnapshotBlockState state);

} // namespace ws
