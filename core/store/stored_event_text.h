#pragma once

#include "model/event_text_source.h"
#include "store/sqlite_database.h"

#include <mutex>
#include <string>
#include <vector>

namespace ws {

/*
 * StoredEventText: the arguments of a stored session, read lazily from its event_args table. An
 * argRef is the event's rank; one chunk of SessionStore::kArgsPerChunk events is decompressed per
 * miss and kept, so stepping through neighbouring events costs one decompression. Thread-safe: the
 * details pane and analyses may ask from different threads.
 */
class StoredEventText : public EventTextSource {
public:
    explicit StoredEventText(std::string path);
    std::string eventJson(uint64_t argRef) const override;

private:
    bool loadChunk(int64_t chunk) const;

    std::string m_path;
    mutable std::mutex m_mutex;
    mutable SqliteDatabase m_db;
    mutable int64_t m_chunk = -1;
    mutable std::string m_text;
    mutable std::vector<size_t> m_offsets; // kArgsPerChunk + 1 boundaries into m_text
};

} // namespace ws
