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
 * as PyTorch defines them (issue #51: what torch.cuda.memory_allocated() and memory_stats() say):
 *   reserved    bytes of the segments;
 *   allocated   bytes of the active_allocated blocks (block sizes: a request rounded up by the
 *               allocator, at least 512 B), the segments' allocated_size;
 *   pending     bytes of the active_pending_free blocks: freed by the caller, held for a stream use;
 *   requested   what the callers asked for, of both (the segments' requested_size);
 *   inactive    reserved - allocated - pending: the inactive blocks, cached and free to reuse;
 *   fragmented  the inactive bytes of segments that also hold an active block: empty_cache()
 *               cannot release them, and a request larger than largestFree cannot use them.
 *
 * At or after the last trace entry (`exact`), the snapshot's own segments and blocks are used, and
 * the figures are the sums of their blocks. Earlier, the segments are the final ones with the
 * trace's later segment entries undone (a segment released after the moment has no block list: its
 * live allocations are placed by address) and the blocks are the allocations live then, whose
 * trace entries give the requested size: a block's size is that request rounded as the allocator
 * rounds (up to a multiple of 512 B), which a split block of the large pool can exceed by under
 * 1 MiB; the gaps between blocks are inactive.
 * Allocations whose address is in no segment are counted in `unplaced`. O(allocations + segments
 * log segments).
 */
struct SnapshotStateBlock {
    int64_t addr = 0;
    int64_t size = 0;      // the block's bytes (for an active block, the allocator's rounded size)
    int64_t requested = 0; // an active block's requested bytes; 0 for an inactive one
    uint32_t allocation = UINT32_MAX; // index into allocations, UINT32_MAX for a free gap / snapshot block
    uint32_t stack = 0;
    SnapshotBlockState state = SnapshotBlockState::Inactive;
};

struct SnapshotStateSegment {
    int64_t addr = 0;
    int64_t size = 0;
    int64_t allocated = 0; // active_allocated blocks
    int64_t pending = 0;   // active_pending_free blocks
    int64_t requested = 0; // requested bytes of both
    int64_t inactive() const { return size - allocated - pending; }
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
    int64_t requested = 0;
    int64_t inactive = 0;
    int64_t fragmented = 0;
    int64_t largestFree = 0;
    uint64_t unplaced = 0;
};

SnapshotState snapshotStateAt(const MemorySnapshot& s, int16_t device, SnapshotMoment m);
// The caching allocator's size for a request with default settings: at least 512 B, a multiple of 512.
int64_t snapshotRoundedSize(int64_t requested);
// The state when the snapshot was taken (the snapshot's own segments and blocks).
SnapshotState snapshotFinalState(const MemorySnapshot& s, int16_t device);

} // namespace ws
