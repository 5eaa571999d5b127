#pragma once

#include "import/sqlite_row_event_text.h"

#include <string>

namespace ws {

/*
 * NvprofEventText: the arguments of an nvprof slice, read back on demand by its argRef (table id,
 * rowid; see nsys_table_id.h) as {"args": {...}}: Kineto's key names where they exist, string
 * ids resolved through StringTable, API callback ids named, enum values labelled, the other columns
 * as they are. O(columns).
 */
class NvprofEventText : public SqliteRowEventText {
public:
    using SqliteRowEventText::SqliteRowEventText;

protected:
    std::string argsJson(SqliteDatabase& db, uint64_t argRef) const override;
};

} // namespace ws
