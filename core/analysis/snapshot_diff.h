#pragma once

#include "model/memory_snapshot.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ws {

/*
 * SnapshotDiff: two memory snapshots of the same program (A before a change, B after), compared
 * the way an OOM hunt asks "what grew": the peak of live bytes of each on one device, and per
 * allocating line (MemorySnapshot::stackLabel; the whole frame list for stacks without one, since
 * two runs' C++ frames and stack modes differ where the line does not) the bytes live at each one's
 * peak and the bytes allocated over each trace. Rows by the growth of live bytes at the peak, largest first.
 * O(allocations + stacks log stacks).
 */
struct SnapshotDiffRow {
    std::string label; // MemorySnapshot::stackLabel of the stack
    std::string key;   // what matches A's rows with B's: the label, or the stackKey without one
    int64_t liveAtPeak[2] = {0, 0};
    int64_t allocated[2] = {0, 0};
    uint64_t allocations[2] = {0, 0};
    int64_t growth() const { return liveAtPeak[1] - liveAtPeak[0]; }
};

struct SnapshotDiff {
    int16_t device = 0;
    int64_t peak[2] = {0, 0};
    int64_t peakUs[2] = {0, 0};
    std::vector<SnapshotDiffRow> rows;
};

SnapshotDiff diffSnapshots(const MemorySnapshot& a, const MemorySnapshot& b, int16_t device);

} // namespace ws
