#pragma once

#include "model/event_text_source.h"
#include "store/sqlite_database.h"

#include <mutex>
#include <string>

namespace ws {

/*
 * NvprofEventText: the arguments of an nvprof slice, read back on demand by its argRef (table id,
 * rowid; see nsys_table_id.h) as {"args": {...}}: Kineto's key names where they exist, string
 * ids resolved through StringTable, API callback ids named, enum values labelled, the other columns
 * as they are. Own read-only connection, opened on first use, guarded by a mutex. O(columns).
 */
class NvprofEventText : public EventTextSource {
public:
    explicit NvprofEventText(std::string path) : m_path(std::move(path)) {}
    std::string eventJson(uint64_t argRef) const override;

private:
    std::string m_path;
    mutable std::mutex m_mutex;
    mutable SqliteDatabase m_db;
    mutable bool m_tried = false;
};

} // namespace ws
