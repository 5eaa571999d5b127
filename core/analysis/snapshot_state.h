#pragma once

#include "analysis/snapshot_stats.h"
#include "model/memory_snapshot.h"

#include <cstdint>
#include <vector>

namespace ws {

/*
 * SnapshotState: the caching allocator's segments of one device at a moment, each with its blocks
 * laid out by address, and the totals memory_viz's segment view shows:
 *
 *   reserved    bytes of the segments;
 *   allocated   bytes of the live allocations (requested sizes, as the trace records them);
 *   pending     of those, the ones whose free was requested but not completed (stream uses);
 *   inactive    reserved - allocated: cached, free to reuse;
 *   fragmented  the inactive bytes of segments that also hold a live allocation: empty_cache()
 *               cannot release them, and a request larger than largestFree cannot use them.
 *
 * At or after the last trace entry (`exact`), the snapshot's own segments and blocks are used.
 * Earlier, the segments are the final ones with the trace's later segment entries undone (a
 * segment released after the moment has no block list: its live allocations are placed by
 * address) and the blocks are the allocations live then; the gaps between them are inactive.
 * Allocations whose address is in no segment are counted in `unplaced`. O(allocations + segments
 * log segments).
 */
struct SnapshotStateBlock {
    int64_t addr = 0;
    int64_t size = 0;
    uint32_t allocation = UINT32_MAX; // index into allocations, UINT32_MAX for a free gap / snapshot block
    uint32_t stack = 0;
    SnapshotBlockState state = SnapshotBlockState::Inactive;
};

struct SnapshotStateSegment {
    int64_t addr = 0;
    int64_t size = 0;
    int64_t allocated = 0;
    int64_t largestFree = 0;
    int32_t stream = 0;
    uint32_t segmentType = 0; // strings index; 0 when unknown (released after the moment)
    std::vector<SnapshotStateBlock> blocks;
};

struct SnapshotState {
    int16_t device = 0;
    SnapshotMoment at;
    bool exact = false;
    std::vector<SnapshotStateSegment> segments; // by address
    int64_t reserved = 0;
    int64_t allocated = 0;
    int64_t pending = 0;
    int64_t inactive = 0;
    int64_t fragmented = 0;
    int64_t largestFree = 0;
    uint64_t unplaced = 0;
};

SnapshotState snapshotStateAt(const MemorySnapshot& s, int16_t device, SnapshotMoment m);
// The state when the snapshot was taken (the snapshot's own segments and blocks).
SnapshotState snapshotFinalState(const MemorySnapshot& s, int16_t device);

} // namespace ws
