#pragma once

#include "import/sqlite_row_event_text.h"

#include <string>

namespace ws {

/*
 * NsysEventText: the arguments of an Nsight Systems slice, read back on demand from the export by
 * its argRef (table id, rowid; see nsys_table_id.h). The row becomes {"args": {...}} with Kineto's
 * key names where one exists (device, stream, correlation, grid, block, registers per thread,
 * shared memory, bytes, memory bandwidth (GB/s)), string ids resolved, enum values labelled, and
 * the remaining columns as they are. O(columns) per call.
 */
class NsysEventText : public SqliteRowEventText {
public:
    using SqliteRowEventText::SqliteRowEventText;

protected:
    std::string argsJson(SqliteDatabase& db, uint64_t argRef) const override;
};

} // namespace ws
