#pragma once

#include "analysis/memory_curve.h"
#include "model/string_table.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ws {

class Session;

/*
 * MemoryOpStat: torch-tb-profiler's memory statistics row (FORMATS.md 3.10) for one device and
 * operator name. "Self" columns count the records whose innermost enclosing operator is a call of
 * this name; the others also count records inside its descendants (each call on the stack gets
 * the record, so a name nested in itself counts it twice, as in tb_plugin). Size increase is the
 * signed sum of Bytes (allocations minus frees, frees counted where they happen); allocation
 * count/size only count allocations (Bytes > 0). calls = operator calls of this name with at least
 * one record of the device inside them (self or descendants).
 */
struct MemoryOpStat {
    MemoryDevice device;
    StringId name = kEmptyString;
    uint64_t calls = 0;
    int64_t sizeIncrease = 0;
    int64_t selfSizeIncrease = 0;
    uint64_t allocationCount = 0;
    uint64_t selfAllocationCount = 0;
    int64_t allocationSize = 0;
    int64_t selfAllocationSize = 0;
};

/*
 * MemoryOpStats: the per-operator memory statistics over records with ts in [from, to) (the whole
 * trace by default), rows sorted by device, then allocation size descending, then name. Records
 * outside any operator are not in any row. O(records * stack depth) plus memoryRecordOps().
 */
class MemoryOpStats {
public:
    // `recordOps` from memoryRecordOps(session), or empty to compute it here.
    static MemoryOpStats build(const Session& session, const std::vector<uint32_t>& recordOps = {},
                               int64_t from = INT64_MIN, int64_t to = INT64_MAX);

    const std::vector<MemoryOpStat>& rows() const { return m_rows; }
    size_t size() const { return m_rows.size(); }
    // Indices of the rows of one device (all if nullopt), in row order.
    std::vector<uint32_t> select(std::optional<MemoryDevice> device) const;

private:
    std::vector<MemoryOpStat> m_rows;
};

} // namespace ws
