#include "store/stored_event_text.h"

#include "store/column_codec.h"
#include "store/session_store.h"

namespace ws {

StoredEventText::StoredEventText(std::string path) : m_path(std::move(path)) {}

bool StoredEventText::loadChunk(int64_t chunk) const {
    if (chunk == m_chunk)
        return true;
    if (!m_db.isOpen() && !m_db.open(m_path, SqliteDatabase::Mode::ReadOnly))
        return false;
    SqliteStatement q(m_db, "SELECT lengths, text FROM event_args WHERE chunk = ?1");
    q.bind(1, chunk);
    if (!q.step())
        return false;
    std::vector<int64_t> lengths;
    std::vector<uint8_t> bytes;
    size_t count = 0;
    if (!ColumnCodec::decodeInt64(q.blob(0), lengths) || !ColumnCodec::decodeFixed(q.blob(1), 1, bytes, count))
        return false;
    m_text.assign(bytes.begin(), bytes.end());
    m_offsets.assign(1, 0);
    for (int64_t n : lengths) {
        if (n < 0 || m_offsets.back() + static_cast<size_t>(n) > m_text.size())
            return false;
        m_offsets.push_back(m_offsets.back() + static_cast<size_t>(n));
    }
    m_chunk = chunk;
    return true;
}

std::string StoredEventText::eventJson(uint64_t argRef) const {
    std::lock_guard lock(m_mutex);
    const auto chunk = static_cast<int64_t>(argRef / SessionStore::kArgsPerChunk);
    const size_t index = argRef % SessionStore::kArgsPerChunk;
    if (!loadChunk(chunk) || index + 1 >= m_offsets.size())
        return {};
    return m_text.substr(m_offsets[index], m_offsets[index + 1] - m_offsets[index]);
}

} // namespace ws
