#include "store/stored_event_text.h"

#include "io/column_codec.h"
#include "store/session_store.h"

#include <cstdint>

namespace ws {

StoredEventText::StoredEventText(std::string path) : m_path(std::move(path)) {}

bool StoredEventText::loadChunkOf(uint64_t rank) const {
    if (!m_offsets.empty() && rank >= m_first && rank - m_first + 1 < m_offsets.size())
        return true;
    if (!m_db.isOpen()) {
        if (!m_db.open(m_path, SqliteDatabase::Mode::ReadOnly))
            return false;
        m_rowsByChunk = m_db.queryInt("PRAGMA user_version").value_or(0) < 2;
    }
    if (rank > static_cast<uint64_t>(INT64_MAX)) // no rank; a negative key would find a row
        return false;
    SqliteStatement q(m_db, m_rowsByChunk
                                ? "SELECT chunk * 4096, lengths, text FROM event_args WHERE chunk = ?1 / 4096"
                                : "SELECT first_rank, lengths, text FROM event_args WHERE first_rank <= ?1 "
                                  "ORDER BY first_rank DESC LIMIT 1");
    static_assert(SessionStore::kArgsPerChunk == 4096, "version 1 files have rows of 4096 ranks");
    q.bind(1, static_cast<int64_t>(rank));
    if (!q.step())
        return false;
    std::vector<int64_t> lengths;
    std::vector<uint8_t> bytes;
    size_t count = 0;
    m_offsets.clear();
    if (!ColumnCodec::decodeInt64(q.blob(1), lengths) || !ColumnCodec::decodeFixed(q.blob(2), 1, bytes, count))
        return false;
    m_first = static_cast<uint64_t>(q.int64(0));
    m_text.assign(bytes.begin(), bytes.end());
    m_offsets.assign(1, 0);
    for (int64_t n : lengths) {
        if (n < 0 || m_offsets.back() + static_cast<size_t>(n) > m_text.size()) {
            m_offsets.clear();
            return false;
        }
        m_offsets.push_back(m_offsets.back() + static_cast<size_t>(n));
    }
    return rank >= m_first && rank - m_first + 1 < m_offsets.size();
}

std::string StoredEventText::eventJson(uint64_t argRef) const {
    std::lock_guard lock(m_mutex);
    if (!loadChunkOf(argRef))
        return {};
    const size_t index = static_cast<size_t>(argRef - m_first);
    return m_text.substr(m_offsets[index], m_offsets[index + 1] - m_offsets[index]);
}

} // namespace ws
