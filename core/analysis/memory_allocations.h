#pragma once

#include "analysis/memory_curve.h"
#include "model/string_table.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ws {

class Session;
struct Track;

/*
 * The operator slices (EventKind::CpuOp or UserAnnotation) of track `t` that contain ts
 * (start <= ts < end), outermost first, by interval containment over every row and lane: an op
 * that the track moved to an overflow lane (it partially overlapped a Python frame) still counts,
 * as in torch-tb-profiler's operator tree (FORMATS.md 3.2), which holds no Python frames.
 * O(rows * log n).
 */
std::vector<uint32_t> operatorStackAt(const Session& session, const Track& t, int64_t ts);

/*
 * For every record of Session::memoryEvents(), the innermost operator slice on the record's own
 * track that encloses its time (the last of operatorStackAt), or Track::kNoId: torch-tb-profiler's
 * "walk the records down the thread's operator tree" (FORMATS.md 3.10). Shared by the allocation
 * table and the per-operator statistics. O(records * rows * log n).
 */
std::vector<uint32_t> memoryRecordOps(const Session& session);

/*
 * MemoryAllocation: one row of the allocation table: an allocation matched with the next free of
 * the same address on the same device and process, in time order. A row with allocRecord ==
 * kNone is a free whose allocation happened before the trace (an "unmatched free"); a row
 * with freeRecord == kNone was still live at the end of the trace (a leak in the trace window).
 */
struct MemoryAllocation {
    static constexpr uint32_t kNone = 0xffffffffu;
    MemoryDevice device;
    int64_t addr = 0;
    int64_t bytes = 0;                               // size of the block, > 0
    int64_t allocatedAt = MemoryEvent::kUnknown;     // session ns
    int64_t freedAt = MemoryEvent::kUnknown;         // session ns
    uint32_t allocRecord = kNone;                    // indices into Session::memoryEvents()
    uint32_t freeRecord = kNone;
    // The allocating operator (Track::kNoId if none): track and slice of the innermost op, and for
    // `aten::empty*` ops the name of the enclosing op, shown as "<parent> (aten::empty...)".
    uint32_t opTrack = 0xffffffffu;
    uint32_t opSlice = 0xffffffffu;
    StringId opName = kEmptyString;
    StringId parentOpName = kEmptyString;

    bool leaked() const { return allocRecord != kNone && freeRecord == kNone; }
    bool unmatchedFree() const { return allocRecord == kNone; }
    // freedAt - allocatedAt; kUnknown unless both are known.
    int64_t lifetime() const {
        return allocRecord != kNone && freeRecord != kNone ? freedAt - allocatedAt : MemoryEvent::kUnknown;
    }
};

/*
 * MemoryAllocations: the allocation table of a session, rows sorted by (allocation or, for
 * unmatched frees, free time). Records without an address (old traces, [OutOfMemory]) cannot be
 * matched and are counted in recordsWithoutAddr only, as torch-tb-profiler ignores them.
 */
class MemoryAllocations {
public:
    // `recordOps` from memoryRecordOps(session), or empty to compute it here.
    static MemoryAllocations build(const Session& session, const std::vector<uint32_t>& recordOps = {});

    const std::vector<MemoryAllocation>& rows() const { return m_rows; }
    size_t size() const { return m_rows.size(); }
    size_t recordsWithoutAddr() const { return m_withoutAddr; }

    // Indices of rows of `device` (all devices if nullopt) that overlap [from, to): allocated or
    // freed inside it. Unbounded when from >= to is not given (use INT64_MIN/INT64_MAX).
    std::vector<uint32_t> select(std::optional<MemoryDevice> device, int64_t from, int64_t to) const;

    // Operator text of a row: "aten::add", "aten::linear (aten::empty_strided)", or "" if none.
    static std::string opText(const Session& session, const MemoryAllocation& row);

    struct Counts {
        size_t allocations = 0;    // rows with an allocation (matched or leaked)
        size_t frees = 0;          // rows with a free (matched or unmatched)
        size_t leaks = 0;
        size_t unmatchedFrees = 0;
    };
    Counts counts(std::optional<MemoryDevice> device, int64_t from = INT64_MIN, int64_t to = INT64_MAX) const;

private:
    std::vector<MemoryAllocation> m_rows;
    size_t m_withoutAddr = 0;
};

} // namespace ws
