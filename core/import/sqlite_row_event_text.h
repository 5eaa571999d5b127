#pragma once

#include "model/event_text_source.h"
#include "io/sqlite_database.h"

#include <mutex>
#include <string>

namespace ws {

/*
 * SqliteRowEventText: the shared half of the SQLite importers' argument views (Nsight Systems,
 * nvprof). Each event's arguments are one database row, read back on demand by its argRef. This
 * base owns the read-only connection, opened on first use, and the mutex that serialises callers
 * on any thread; subclasses only turn a row into {"args": {...}} in argsJson(), which runs with the
 * lock held and the database open.
 */
class SqliteRowEventText : public EventTextSource {
public:
    explicit SqliteRowEventText(std::string path) : m_path(std::move(path)) {}
    std::string eventJson(uint64_t argRef) const final;

protected:
    virtual std::string argsJson(SqliteDatabase& db, uint64_t argRef) const = 0;

private:
    std::string m_path;
    mutable std::mutex m_mutex;
    mutable SqliteDatabase m_db;
    mutable bool m_tried = false;
};

} // namespace ws
