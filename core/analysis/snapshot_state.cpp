#include "analysis/snapshot_state.h"

#include <algorithm>
#include <map>

namespace ws {

namespace {

// Fills the totals and each segment's largest free run from its blocks.
void summarize(SnapshotState& st) {
    st.reserved = st.allocated = st.pending = st.requested = st.inactive = st.fragmented = st.largestFree = 0;
    for (SnapshotStateSegment& seg : st.segments) {
        seg.allocated = seg.pending = seg.requested = seg.largestFree = 0;
        for (const SnapshotStateBlock& b : seg.blocks) {
            if (b.state == SnapshotBlockState::Inactive)
                seg.largestFree = std::max(seg.largestFree, b.size);
            else if (b.state == SnapshotBlockState::ActivePending)
                seg.pending += b.size;
            else
                seg.allocated += b.size;
            seg.requested += b.requested;
        }
        const int64_t free = seg.inactive();
        st.reserved += seg.size;
        st.allocated += seg.allocated;
        st.pending += seg.pending;
        st.requested += seg.requested;
        st.inactive += free;
        if (seg.allocated + seg.pending > 0)
            st.fragmented += free;
        st.largestFree = std::max(st.largestFree, seg.largestFree);
    }
}

} // namespace

int64_t snapshotRoundedSize(int64_t requested) {
    constexpr int64_t kMinBlock = 512; // CUDACachingAllocator's kMinBlockSize
    return requested < kMinBlock ? kMinBlock : (requested + kMinBlock - 1) / kMinBlock * kMinBlock;
}

SnapshotState snapshotFinalState(const MemorySnapshot& s, int16_t device) {
    SnapshotState st;
    st.device = device;
    st.at = SnapshotMoment::fromTime(s.lastUs);
    st.exact = true;
    for (const SnapshotSegment& seg : s.segments) {
        if (seg.device != device)
            continue;
        SnapshotStateSegment out;
        out.addr = seg.addr;
        out.size = seg.totalSize;
        out.stream = seg.stream;
        out.segmentType = seg.segmentType;
        for (uint32_t b = seg.firstBlock; b < seg.firstBlock + seg.blockCount; ++b) {
            const SnapshotBlock& block = s.blocks[b];
            SnapshotStateBlock sb;
            sb.addr = block.addr;
            sb.size = block.size; // the block as the allocator holds it, rounding included (as PyTorch counts it)
            sb.requested = block.state == SnapshotBlockState::Inactive ? 0 : block.requestedSize;
            sb.stack = block.stack;
            sb.state = block.state;
            out.blocks.push_back(sb);
        }
        st.segments.push_back(std::move(out));
    }
    std::sort(st.segments.begin(), st.segments.end(),
              [](const SnapshotStateSegment& a, const SnapshotStateSegment& b) { return a.addr < b.addr; });
    summarize(st);
    return st;
}

SnapshotState snapshotStateAt(const MemorySnapshot& s, int16_t device, SnapshotMoment m) {
    if (m.us >= s.lastUs && m.seq == UINT32_MAX)
        return snapshotFinalState(s, device);
    SnapshotState st;
    st.device = device;
    st.at = m;
    // Segments by address: the final ones, with later segment entries undone, newest first.
    std::map<int64_t, SnapshotStateSegment> segs;
    for (const SnapshotSegment& seg : s.segments)
        if (seg.device == device) {
            SnapshotStateSegment out;
            out.addr = seg.addr;
            out.size = seg.totalSize;
            out.stream = seg.stream;
            out.segmentType = seg.segmentType;
            segs[seg.addr] = out;
        }
    for (auto it = s.segmentEvents.rbegin(); it != s.segmentEvents.rend(); ++it) {
        const SnapshotSegmentEvent& e = *it;
        if (e.device != device || e.timeUs < m.us || (e.timeUs == m.us && e.seq <= m.seq))
            continue;
        switch (e.action) {
        case SnapshotSegmentAction::Alloc: segs.erase(e.addr); break;
        case SnapshotSegmentAction::Free: {
            SnapshotStateSegment out;
            out.addr = e.addr;
            out.size = e.size;
            out.stream = e.stream;
            segs[e.addr] = out;
            break;
        }
        case SnapshotSegmentAction::Map:
        case SnapshotSegmentAction::Unmap: {
            // Expandable segments grow and shrink at their end: the segment holding addr.
            auto at = segs.upper_bound(e.addr);
            if (at != segs.begin()) {
                --at;
                at->second.size += e.action == SnapshotSegmentAction::Map ? -e.size : e.size;
                at->second.size = std::max<int64_t>(at->second.size, 0);
            }
            break;
        }
        }
    }
    // Live allocations into their segments, then the gaps as free blocks.
    const SnapshotLiveSet live = snapshotLiveAt(s, device, m);
    for (uint32_t i : live.allocations) {
        const SnapshotAllocation& a = s.allocations[i];
        auto at = segs.upper_bound(a.addr);
        if (at == segs.begin() || (--at, a.addr >= at->second.addr + at->second.size)) {
            ++st.unplaced;
            continue;
        }
        SnapshotStateBlock b;
        b.addr = a.addr;
        // The trace gives the request; the block is rounded (never past its segment's end).
        b.size = std::min(snapshotRoundedSize(a.size), at->second.addr + at->second.size - a.addr);
        b.requested = a.size;
        b.allocation = i;
        b.stack = a.stack;
        b.state = snapshotPendingAt(a, m) ? SnapshotBlockState::ActivePending : SnapshotBlockState::ActiveAllocated;
        at->second.blocks.push_back(b);
    }
    for (auto& [addr, seg] : segs) {
        std::sort(seg.blocks.begin(), seg.blocks.end(),
                  [](const SnapshotStateBlock& x, const SnapshotStateBlock& y) { return x.addr < y.addr; });
        std::vector<SnapshotStateBlock> laid;
        int64_t cursor = seg.addr;
        for (const SnapshotStateBlock& b : seg.blocks) {
            if (b.addr > cursor) {
                SnapshotStateBlock gap;
                gap.addr = cursor;
                gap.size = b.addr - cursor;
                laid.push_back(gap);
            }
            laid.push_back(b);
            cursor = std::max(cursor, b.addr + b.size);
        }
        if (cursor < seg.addr + seg.size) {
            SnapshotStateBlock gap;
            gap.addr = cursor;
            gap.size = seg.addr + seg.size - cursor;
            laid.push_back(gap);
        }
        seg.blocks = std::move(laid);
        st.segments.push_back(std::move(seg));
    }
    summarize(st);
    return st;
}

} // namespace ws
