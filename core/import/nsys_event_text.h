#pragma once

#include "import/sqlite_row_event_text.h"

#include <map>
#include <optional>
#include <string>
#include <utility>

namespace ws {

/*
 * NsysEventText: the arguments of an Nsight Systems slice, read back on demand from the export by
 * its argRef (table id, rowid; see nsys_table_id.h). The row becomes {"args": {...}} with Kineto's
 * key names where one exists (device, stream, correlation, grid, block, registers per thread,
 * shared memory, bytes, memory bandwidth (GB/s)), string ids resolved, enum values labelled, and
 * the remaining columns as they are, and nsys backtraces (CUDA_CALLCHAINS / OSRT_CALLCHAINS) as a
 * `Call stack`. O(columns + stack depth) per call.
 */
class NsysEventText : public SqliteRowEventText {
public:
    using SqliteRowEventText::SqliteRowEventText;

protected:
    std::string argsJson(SqliteDatabase& db, uint64_t argRef) const override;

private:
    // Older exports (nsys 2022) put a runtime call's backtrace on a duplicate row (eventClass 67)
    // with the same thread and correlation id; the importer keeps only the plain row. This maps
    // (globalTid, correlationId) to that callchain id, read once on first use (argsJson runs
    // under the base class's lock).
    int64_t backtraceOf(SqliteDatabase& db, int64_t globalTid, int64_t correlationId) const;
    mutable std::optional<std::map<std::pair<int64_t, int64_t>, int64_t>> m_backtraces;
};

} // namespace ws
