#pragma once

#include "model/event_text_source.h"
#include "io/sqlite_database.h"

#include <mutex>
#include <string>
#include <vector>

namespace ws {

/*
 * StoredEventText: the arguments of a stored session, read lazily from its event_args table. An
 * argRef is the event's rank; the row holding it (the last whose first rank is not after it) is
 * decompressed per miss and kept, so stepping through neighbouring events costs one decompression.
 * Reads version 1 files too, whose rows are kArgsPerChunk ranks each. Thread-safe: the details
 * pane and analyses may ask from different threads.
 */
class StoredEventText : public EventTextSource {
public:
    explicit StoredEventText(std::string path);
    std::string eventJson(uint64_t argRef) const override;

private:
    bool loadChunkOf(uint64_t rank) const;

    std::string m_path;
    mutable std::mutex m_mutex;
    mutable SqliteDatabase m_db;
    mutable bool m_rowsByChunk = false; // a version 1 file: rows keyed by rank / kArgsPerChunk
    mutable uint64_t m_first = 0;        // the loaded row's first rank
    mutable std::string m_text;
    mutable std::vector<size_t> m_offsets; // the loaded row's ranks' boundaries into m_text; empty: none loaded
};

} // namespace ws
