#pragma once

#include "model/id_value.h"

#include <cstdint>
#include <vector>

namespace ws {

/*
 * Track: one timeline row group (a CPU thread, a GPU stream, an async group, a process-level or
 * global instant row) holding its slices and instants as columns.
 *
 * Slice columns (start, dur, name, category, argRef) have one entry per slice. Optional columns
 * (correlation, externalId, bytes, blocksPerSm, occupancy, launchArgs, opArgs) are either empty or
 * full-length; an empty column means no slice on this track carried the value, and the per-slice
 * "absent" value is kNoId / -1 / NaN / kEmptyString. launchArgs and opArgs are the argument
 * columns of arg_columns.h (a kernel's grid, block, registers and shared memory; an operator's
 * input shapes, types, concrete inputs and call stack), filled where Session::argColumns().
 *
 * Rows: finalize() assigns every slice a lane and a depth: depth is its nesting level; a slice that
 * partially overlaps the open slice of lane 0 (which proper nesting forbids) spills into lane 1,
 * 2, ... so nothing is dropped. Row r = laneRowBase[lane] + depth. The columns are then ordered by
 * (row, start): the slices of row r are the index range [rowBegin[r], rowBegin[r+1]), sorted by
 * start and non-overlapping (lanes from the 33rd on are flat overflow rows for pathological
 * overlap), so the timeline finds the visible window of a row with two
 * lower_bound calls (O(log n)) and the parent of a slice is the last slice of row r-1 (same lane)
 * starting at or before it. rowDepth/rowLane give each row's depth and lane.
 *
 * Instants (thread-scoped `i`/`I`/`R`, and process/global instants on their own tracks) are kept
 * in separate columns sorted by time.
 *
 * argRef is the byte offset of the event object in the decompressed source text: arguments are
 * decoded lazily from the source (Session::eventJson) instead of being held in memory.
 */
struct Track {
    static constexpr uint32_t kNoId = 0xffffffffu;
    static constexpr uint64_t kNoArgs = ~uint64_t(0);

    enum class Kind : uint8_t { Thread, GpuStream, Async, ProcessInstants, GlobalInstants };

    Kind kind = Kind::Thread;
    uint32_t process = 0; // index into Session::processes()
    IdValue tid;
    StringId name = kEmptyString; // thread_name metadata, or a generated label
    int64_t sortIndex = 0;
    bool hasSortIndex = false;
    bool gpu = false;

    // slices
    std::vector<int64_t> start;
    std::vector<int64_t> dur;
    std::vector<StringId> names;
    std::vector<uint16_t> category; // index into Session::categories()
    std::vector<uint64_t> argRef;
    std::vector<uint32_t> correlation;
    std::vector<uint32_t> externalId;
    std::vector<int64_t> bytes;
    std::vector<float> blocksPerSm;
    std::vector<float> occupancy;
    std::vector<StringId> launchArgs; // arg_columns.h: kLaunchArgKeys of kernels
    std::vector<StringId> opArgs;     // arg_columns.h: kOpArgKeys of operators

    // rows (valid after finalize)
    std::vector<uint32_t> rowBegin; // rows + 1 entries
    std::vector<uint32_t> rowDepth;
    std::vector<uint32_t> rowLane;
    uint32_t laneCount = 0;

    // instants
    std::vector<int64_t> instantTs;
    std::vector<StringId> instantNames;
    std::vector<uint16_t> instantCategory;
    std::vector<uint64_t> instantArgRef;

    size_t sliceCount() const { return start.size(); }
    size_t rowCount() const { return rowBegin.empty() ? 0 : rowBegin.size() - 1; }
    int64_t end(size_t i) const { return start[i] + dur[i]; }
    // Row of slice i: O(log rows).
    uint32_t rowOf(size_t i) const;
    // Deepest slice containing ts (start <= ts < end, or start == ts for zero-length), any lane;
    // kNoId if none. O(rows * log n).
    uint32_t enclosingSlice(int64_t ts) const;
    // First slice (lowest row first, then earliest) starting at or after ts; kNoId if none.
    uint32_t nextSliceStartingAt(int64_t ts) const;
    size_t memoryBytes() const;
};

/*
 * EnclosingSliceFinder: Track::enclosingSlice for many lookups at mostly ascending times (flow ends
 * sorted by correlation id bind to host slices: millions on a 10 GB trace, where a binary search in
 * every row for each was most of the import's flow phase). Each row's search gallops forward from
 * where the previous lookup ended, and once a depth of a lane has no slice around ts its deeper
 * rows are skipped: a slice lies inside one slice at every depth above it in its lane. Same answers
 * as Track::enclosingSlice, in any order of lookups. One finder serves one track at a time.
 */
class EnclosingSliceFinder {
public:
    uint32_t find(const Track& track, int64_t ts);
    // Session::ancestors (the enclosing slices of `slice` in its lane, outermost first) the same
    // way: for the kernel table, whose kernels' launches ascend in time per thread.
    void ancestors(const Track& track, uint32_t slice, std::vector<uint32_t>& out);

private:
    void use(const Track& track);
    // The last slice of row r starting at or before ts, searched from the row's hint; kNoId if none.
    uint32_t lastStartingBy(size_t r, int64_t ts);

    const Track* m_track = nullptr;
    std::vector<uint32_t> m_hint; // per row: the slice the previous lookup found (or the row's first)
};

} // namespace ws
