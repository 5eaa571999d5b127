#include "analysis/snapshot_stats.h"

#include <algorithm>
#include <unordered_map>

namespace ws {

namespace {

// Whether an entry at (us, seq) happened at or before moment m.
bool atOrBefore(int64_t us, uint32_t seq, SnapshotMoment m) {
    return us < m.us || (us == m.us && seq <= m.seq);
}

} // namespace

bool snapshotLiveAt(const SnapshotAllocation& a, SnapshotMoment m) {
    const bool started = a.allocUs == SnapshotAllocation::kBeforeTrace || atOrBefore(a.allocUs, a.allocSeq, m);
    const bool ended = a.freeUs != SnapshotAllocation::kNeverFreed && atOrBefore(a.freeUs, a.freeSeq, m);
    return started && !ended;
}

bool snapshotPendingAt(const SnapshotAllocation& a, SnapshotMoment m) {
    return snapshotLiveAt(a, m) && a.freeRequestedUs != SnapshotAllocation::kNeverFreed && a.freeRequestedUs <= m.us;
}

SnapshotLiveSet snapshotLiveAt(const MemorySnapshot& s, int16_t device, SnapshotMoment m) {
    SnapshotLiveSet live;
    for (uint32_t i = 0; i < s.allocations.size(); ++i) {
        const SnapshotAllocation& a = s.allocations[i];
        if (a.device == device && snapshotLiveAt(a, m)) {
            live.allocations.push_back(i);
            live.bytes += a.size;
        }
    }
    return live;
}

SnapshotPeak snapshotPeak(const MemorySnapshot& s, int16_t device) {
    struct Change {
        int64_t us;
        uint32_t seq;
        int64_t delta;
    };
    std::vector<Change> changes;
    int64_t live = 0;
    for (const SnapshotAllocation& a : s.allocations) {
        if (a.device != device)
            continue;
        if (a.allocUs == SnapshotAllocation::kBeforeTrace)
            live += a.size;
        else
            changes.push_back({a.allocUs, a.allocSeq, a.size});
        if (a.freeUs != SnapshotAllocation::kNeverFreed)
            changes.push_back({a.freeUs, a.freeSeq, -a.size});
    }
    // Trace order: entry numbers are unique per device.
    std::sort(changes.begin(), changes.end(), [](const Change& x, const Change& y) { return x.seq < y.seq; });
    SnapshotPeak peak;
    peak.bytes = live;
    peak.at = {changes.empty() ? s.firstUs : changes.front().us, 0};
    for (const Change& c : changes) {
        live += c.delta;
        if (live > peak.bytes) {
            peak.bytes = live;
            peak.at = {c.us, c.seq};
        }
    }
    return peak;
}

int64_t snapshotReservedAt(const MemorySnapshot& s, int16_t device, SnapshotMoment m) {
    int64_t reserved = 0;
    for (const SnapshotSegment& seg : s.segments)
        if (seg.device == device)
            reserved += seg.totalSize;
    for (const SnapshotSegmentEvent& e : s.segmentEvents) {
        if (e.device != device || atOrBefore(e.timeUs, e.seq, m))
            continue;
        const bool grows = e.action == SnapshotSegmentAction::Alloc || e.action == SnapshotSegmentAction::Map;
        reserved += grows ? -e.size : e.size; // undone: it happened after m
    }
    return reserved;
}

std::vector<SnapshotStackRow> snapshotGroupByStack(const MemorySnapshot& s, const std::vector<uint32_t>& allocations) {
    std::unordered_map<uint32_t, SnapshotStackRow> rows;
    for (uint32_t i : allocations) {
        const SnapshotAllocation& a = s.allocations[i];
        SnapshotStackRow& r = rows[a.stack];
        r.stack = a.stack;
        ++r.liveCount;
        r.liveBytes += a.size;
    }
    std::vector<SnapshotStackRow> out;
    out.reserve(rows.size());
    for (auto& [stack, row] : rows)
        out.push_back(row);
    std::sort(out.begin(), out.end(), [](const SnapshotStackRow& x, const SnapshotStackRow& y) {
        return x.liveBytes != y.liveBytes ? x.liveBytes > y.liveBytes : x.stack < y.stack;
    });
    return out;
}

std::vector<SnapshotStackRow> snapshotStacks(const MemorySnapshot& s, std::optional<int16_t> device,
                                             std::optional<SnapshotMoment> liveAt) {
    std::vector<SnapshotStackRow> byStack(s.stackCount());
    for (const SnapshotAllocation& a : s.allocations) {
        if (device && a.device != *device)
            continue;
        SnapshotStackRow& r = byStack[a.stack];
        r.stack = a.stack;
        if (a.allocUs != SnapshotAllocation::kBeforeTrace) {
            ++r.allocations;
            r.allocatedBytes += a.size;
        }
        if (liveAt && snapshotLiveAt(a, *liveAt)) {
            ++r.liveCount;
            r.liveBytes += a.size;
        }
    }
    std::vector<SnapshotStackRow> out;
    for (uint32_t i = 0; i < byStack.size(); ++i)
        if (byStack[i].allocations || byStack[i].liveCount) {
            byStack[i].stack = i;
            out.push_back(byStack[i]);
        }
    std::sort(out.begin(), out.end(), [](const SnapshotStackRow& x, const SnapshotStackRow& y) {
        if (x.liveBytes != y.liveBytes)
            return x.liveBytes > y.liveBytes;
        return x.allocatedBytes != y.allocatedBytes ? x.allocatedBytes > y.allocatedBytes : x.stack < y.stack;
    });
    return out;
}

std::vector<SnapshotOomReport> snapshotOoms(const MemorySnapshot& s) {
    std::vector<SnapshotOomReport> out;
    for (uint32_t i = 0; i < s.ooms.size(); ++i) {
        const SnapshotOom& o = s.ooms[i];
        const SnapshotMoment m = SnapshotMoment::atOom(o);
        const SnapshotLiveSet live = snapshotLiveAt(s, o.device, m);
        SnapshotOomReport r;
        r.oom = i;
        r.liveBytes = live.bytes;
        r.liveCount = live.allocations.size();
        r.reservedBytes = snapshotReservedAt(s, o.device, m);
        r.byStack = snapshotGroupByStack(s, live.allocations);
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace ws
