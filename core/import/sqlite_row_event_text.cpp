#include "import/sqlite_row_event_text.h"

namespace ws {

std::string SqliteRowEventText::eventJson(uint64_t argRef) const {
    std::lock_guard lock(m_mutex);
    if (!m_tried) {
        m_tried = true; // a file that cannot be opened is not retried on every click
        m_db.open(m_path, SqliteDatabase::Mode::ReadOnly);
    }
    if (!m_db.isOpen())
        return {};
    return argsJson(m_db, argRef);
}

} // namespace ws
