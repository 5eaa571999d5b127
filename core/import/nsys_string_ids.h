#pragma once

#include "import/nsys_chunk_writer.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ws {

class SqliteDatabase;

/*
 * NsysStringIds: the StringIds table of an Nsight Systems export (or nvprof's StringTable), read once
 * and shared read-only by the parallel readers (shareValues). Values are kept by id: a vector when
 * ids are dense, as exporters write them, else a hash map, so a hostile id of 2^60 costs nothing.
 * Each reader interns an id into its own chunk only when a row uses it (a per-reader cache of local
 * ids), so strings of skipped tables never reach the session. O(1) per lookup.
 */
class NsysStringIds {
public:
    // Reads `SELECT idColumn, valueColumn FROM table`; false (and a report entry) when unreadable.
    bool load(SqliteDatabase& db, std::string_view table, std::string_view idColumn,
              std::string_view valueColumn, ImportReport& report);
    // Uses the values another instance loaded (no copy); this instance keeps its own local ids.
    void shareValues(const NsysStringIds& other);
    bool loaded() const { return m_values != nullptr; }

    std::string_view value(int64_t id) const;
    bool contains(int64_t id) const;
    // Local chunk string id of StringIds[id] (the empty string when the id is unknown).
    uint32_t local(int64_t id, NsysChunkWriter& w);

private:
    struct Values {
        std::vector<std::string> dense;
        std::vector<bool> present;
        std::unordered_map<int64_t, std::string> sparse;
    };
    const std::string* find(int64_t id) const;

    std::shared_ptr<const Values> m_values;
    std::vector<uint32_t> m_denseLocal; // UINT32_MAX: not interned yet
    std::unordered_map<int64_t, uint32_t> m_sparseLocal;
};

} // namespace ws
