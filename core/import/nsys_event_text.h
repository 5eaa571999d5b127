#pragma once

#include "model/event_text_source.h"
#include "store/sqlite_database.h"

#include <mutex>
#include <string>

namespace ws {

/*
 * NsysEventText: the arguments of an Nsight Systems slice, read back on demand from the export by
 * its argRef (table id, rowid; see nsys_table_id.h). The row becomes {"args": {...}} with Kineto's
 * key names where one exists (device, stream, correlation, grid, block, registers per thread,
 * shared memory, bytes, memory bandwidth (GB/s)), string ids resolved, enum values labelled, and
 * the remaining columns as they are. Its own read-only connection is opened on first use and
 * guarded by a mutex (callers may be on any thread). O(columns) per call.
 */
class NsysEventText : public EventTextSource {
public:
    explicit NsysEventText(std::string path) : m_path(std::move(path)) {}
    std::string eventJson(uint64_t argRef) const override;

private:
    std::string m_path;
    mutable std::mutex m_mutex;
    mutable SqliteDatabase m_db;
    mutable bool m_tried = false;
};

} // namespace ws
