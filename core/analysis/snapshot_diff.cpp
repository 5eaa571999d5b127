#include "analysis/snapshot_diff.h"

#include "analysis/snapshot_stats.h"

#include <algorithm>
#include <unordered_map>

namespace ws {

SnapshotDiff diffSnapshots(const MemorySnapshot& a, const MemorySnapshot& b, int16_t device) {
    SnapshotDiff d;
    d.device = device;
    std::unordered_map<std::string, size_t> rowOf;
    const MemorySnapshot* runs[2] = {&a, &b};
    for (int r = 0; r < 2; ++r) {
        const MemorySnapshot& s = *runs[r];
        const SnapshotPeak peak = snapshotPeak(s, device);
        d.peak[r] = peak.bytes;
        d.peakUs[r] = peak.at.us;
        for (const SnapshotStackRow& row : snapshotStacks(s, device, peak.at)) {
            // Matched by the allocating line: two runs' C++ frames (or stack modes) differ where the
            // line that allocated does not; stacks without one are matched whole.
            std::string label = s.stackLabel(row.stack);
            std::string key = label.empty() ? s.stackKey(row.stack) : label;
            auto [it, added] = rowOf.try_emplace(key, d.rows.size());
            if (added) {
                d.rows.emplace_back();
                d.rows.back().key = std::move(key);
                d.rows.back().label = std::move(label);
            }
            SnapshotDiffRow& out = d.rows[it->second];
            out.liveAtPeak[r] += row.liveBytes;
            out.allocated[r] += row.allocatedBytes;
            out.allocations[r] += row.allocations;
        }
    }
    std::sort(d.rows.begin(), d.rows.end(), [](const SnapshotDiffRow& x, const SnapshotDiffRow& y) {
        if (x.growth() != y.growth())
            return x.growth() > y.growth();
        return x.key < y.key;
    });
    return d;
}

} // namespace ws
