#include "analysis/snapshot_alignment.h"

#include "analysis/memory_allocations.h"
#include "model/session.h"

#include <algorithm>
#include <unordered_map>

namespace ws {

namespace {

struct BlockKey {
    int64_t addr;
    int64_t size;
    bool operator==(const BlockKey&) const = default;
};
struct BlockKeyHash {
    size_t operator()(const BlockKey& k) const {
        return std::hash<int64_t>()(k.addr) * 0x9e3779b97f4a7c15ull ^ std::hash<int64_t>()(k.size);
    }
};

// The trace's allocation records (positive bytes, known address) by block, times ascending.
struct BlockRecord {
    int64_t ts;
    uint32_t track;
    bool operator<(const BlockRecord& o) const { return ts < o.ts; }
};
using BlockRecords = std::unordered_map<BlockKey, std::vector<BlockRecord>, BlockKeyHash>;

BlockRecords traceAllocations(const Session& trace) {
    BlockRecords byBlock;
    for (const MemoryEvent& m : trace.memoryEvents())
        if (m.addr != MemoryEvent::kUnknown && m.bytes != MemoryEvent::kUnknown && m.bytes > 0)
            byBlock[{m.addr, m.bytes}].push_back({m.ts, m.track});
    for (auto& [key, records] : byBlock)
        std::sort(records.begin(), records.end());
    return byBlock;
}

// A block reused thousands of times (a tiny scratch buffer) says little and would cost its square:
// each snapshot entry pairs with at most this many of the trace's records of its block, nearest
// first in order of the trace.
constexpr size_t kMaxCandidatesPerEntry = 64;

int64_t shiftUs(int64_t us, int64_t offsetUs) {
    if (us == SnapshotAllocation::kBeforeTrace || us == SnapshotAllocation::kNeverFreed)
        return us;
    return us + offsetUs;
}

// The innermost operator of an operator stack of track t (operatorStackAt, outermost first) that is
// more than an allocation (aten::empty, aten::empty_strided, ... say only that memory was taken, not
// for what), or Track::kNoId for an empty stack.
uint32_t innermostOperator(const Session& trace, const Track& t, const std::vector<uint32_t>& stack) {
    for (auto it = stack.rbegin(); it != stack.rend(); ++it)
        if (trace.str(t.names[*it]).substr(0, 11) != "aten::empty" || it + 1 == stack.rend())
            return *it;
    return Track::kNoId;
}

} // namespace

SnapshotAlignment alignSnapshot(const MemorySnapshot& snapshot, const Session& trace) {
    SnapshotAlignment a;
    const auto byBlock = traceAllocations(trace);
    std::vector<int64_t> candidates;
    auto pair = [&](int64_t addr, int64_t size, int64_t us) {
        if (us == SnapshotAllocation::kBeforeTrace)
            return;
        const auto it = byBlock.find({addr, size});
        if (it == byBlock.end())
            return;
        ++a.paired;
        const std::vector<BlockRecord>& records = it->second;
        for (size_t i = 0; i < records.size() && i < kMaxCandidatesPerEntry; ++i)
            candidates.push_back(records[i].ts - us * 1000);
    };
    for (const SnapshotAllocation& alloc : snapshot.allocations)
        pair(alloc.addr, alloc.size, alloc.allocUs);
    for (const SnapshotSegmentEvent& e : snapshot.segmentEvents)
        if (e.action == SnapshotSegmentAction::Alloc || e.action == SnapshotSegmentAction::Map)
            pair(e.addr, e.size, e.timeUs);

    // The densest kWindowNs of candidate offsets (two pointers over the sorted candidates).
    std::sort(candidates.begin(), candidates.end());
    size_t bestFrom = 0, bestCount = 0;
    for (size_t from = 0, to = 0; from < candidates.size(); ++from) {
        while (to < candidates.size() && candidates[to] - candidates[from] <= SnapshotAlignment::kWindowNs)
            ++to;
        if (to - from > bestCount) {
            bestCount = to - from;
            bestFrom = from;
        }
    }
    if (bestCount >= SnapshotAlignment::kMinPairs && bestCount * 5 >= a.paired) {
        a.method = SnapshotAlignment::Method::Allocations;
        a.pairs = bestCount;
        a.offsetNs = candidates[bestFrom + bestCount / 2];
        return a;
    }

    // No agreement on blocks: the same clock still places it if both are epoch times that overlap.
    const bool traceEpoch = trace.baseTimeNs().has_value() || trace.sourceFormat() == TraceFormat::WarpscopeCapture;
    const int64_t snapFrom = snapshot.firstUs * 1000, snapTo = snapshot.lastUs * 1000;
    const bool overlap = snapshot.traceEntries > 0 && snapFrom <= trace.endNs() && trace.startNs() <= snapTo;
    if (traceEpoch && overlap) {
        a.method = SnapshotAlignment::Method::SameClock;
        return a;
    }
    if (snapshot.traceEntries == 0)
        a.why = "the snapshot has no device trace (record it with torch.cuda.memory._record_memory_history)";
    else if (!traceEpoch)
        a.why = "the trace's times are not the host's clock and no allocation of the snapshot is among its memory records";
    else
        a.why = "the snapshot's allocations and the trace share no time: they come from different runs";
    return a;
}

MemorySnapshot shiftedSnapshot(const MemorySnapshot& snapshot, int64_t offsetNs) {
    MemorySnapshot s = snapshot;
    // Round to the nearest µs, also for negative offsets.
    const int64_t offsetUs = offsetNs >= 0 ? (offsetNs + 500) / 1000 : -((-offsetNs + 500) / 1000);
    if (offsetUs == 0)
        return s;
    for (SnapshotAllocation& a : s.allocations) {
        a.allocUs = shiftUs(a.allocUs, offsetUs);
        a.freeRequestedUs = shiftUs(a.freeRequestedUs, offsetUs);
        a.freeUs = shiftUs(a.freeUs, offsetUs);
    }
    for (SnapshotSegmentEvent& e : s.segmentEvents)
        e.timeUs += offsetUs;
    for (SnapshotOom& o : s.ooms)
        o.timeUs += offsetUs;
    if (s.traceEntries > 0) {
        s.firstUs += offsetUs;
        s.lastUs += offsetUs;
    }
    return s;
}

namespace {

SnapshotOperator operatorOf(const Session& trace, const BlockRecords& byBlock, const SnapshotAllocation& allocation) {
    SnapshotOperator out;
    if (allocation.allocUs == SnapshotAllocation::kBeforeTrace)
        return out;
    const int64_t ts = allocation.allocUs * 1000;
    // The trace's own record of the block nearest in time: its thread is the one that allocated.
    if (const auto it = byBlock.find({allocation.addr, allocation.size}); it != byBlock.end()) {
        const std::vector<BlockRecord>& records = it->second;
        const auto next = std::lower_bound(records.begin(), records.end(), BlockRecord{ts, 0});
        const BlockRecord* best = nullptr;
        int64_t bestDistance = SnapshotAlignment::kWindowNs + 1;
        for (auto r : {next, next == records.begin() ? records.end() : next - 1}) {
            if (r == records.end())
                continue;
            const int64_t d = r->ts > ts ? r->ts - ts : ts - r->ts;
            if (d < bestDistance && r->track < trace.tracks().size()) {
                bestDistance = d;
                best = &*r;
            }
        }
        if (best) {
            const Track& t = trace.tracks()[best->track];
            if (const uint32_t op = innermostOperator(trace, t, operatorStackAt(trace, t, best->ts)); op != Track::kNoId)
                return {best->track, op};
        }
    }
    // Else the deepest operator running anywhere at that time (ties: the shortest).
    size_t bestDepth = 0;
    int64_t bestDur = INT64_MAX;
    for (uint32_t t = 0; t < trace.tracks().size(); ++t) {
        const Track& track = trace.tracks()[t];
        const std::vector<uint32_t> stack = operatorStackAt(trace, track, ts);
        if (stack.empty())
            continue;
        const uint32_t op = innermostOperator(trace, track, stack);
        const int64_t dur = track.dur[op];
        if (stack.size() > bestDepth || (stack.size() == bestDepth && dur < bestDur)) {
            bestDepth = stack.size();
            bestDur = dur;
            out = {t, op};
        }
    }
    return out;
}

} // namespace

SnapshotOperator snapshotAllocationOperator(const Session& trace, const SnapshotAllocation& allocation) {
    // One allocation (a click): only its block's records, not the whole map.
    BlockRecords one;
    std::vector<BlockRecord>& records = one[{allocation.addr, allocation.size}];
    for (const MemoryEvent& m : trace.memoryEvents())
        if (m.addr == allocation.addr && m.bytes == allocation.size)
            records.push_back({m.ts, m.track});
    std::sort(records.begin(), records.end());
    return operatorOf(trace, one, allocation);
}

std::vector<SnapshotOperator> snapshotAllocationOperators(const Session& trace, const MemorySnapshot& snapshot) {
    const BlockRecords byBlock = traceAllocations(trace);
    std::vector<SnapshotOperator> out;
    out.reserve(snapshot.allocations.size());
    for (const SnapshotAllocation& a : snapshot.allocations)
        out.push_back(operatorOf(trace, byBlock, a));
    return out;
}

} // namespace ws
