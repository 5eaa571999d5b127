#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

class SqliteDatabase;

/*
 * NsysColumnSelect: schema introspection for one table of an Nsight Systems or nvprof export.
 * Columns come and go between exporter versions, so a reader names the columns it would like and
 * this builds `SELECT rowid, c1, c2, ... FROM "table"` with NULL in place of each missing one:
 * column i of the wanted list is result column i + 1 (0 is the rowid) whether or not it exists, and
 * readers test has(i) only where a missing column changes their logic. Built once per table: O(columns).
 */
class NsysColumnSelect {
public:
    NsysColumnSelect(SqliteDatabase& db, std::string table, std::vector<std::string> wanted);

    bool tableExists() const { return m_exists; }
    bool has(size_t wantedIndex) const { return wantedIndex < m_present.size() && m_present[wantedIndex]; }
    bool hasAll(std::initializer_list<size_t> wantedIndices) const;
    // The SELECT statement; `tail` is appended verbatim (e.g. " WHERE rowid = ?1").
    std::string sql(std::string_view tail = {}) const;
    const std::string& table() const { return m_table; }
    // The quoted name of wanted column i (for conditions on it).
    std::string column(size_t wantedIndex) const;

private:
    std::string m_table;
    std::vector<std::string> m_wanted;
    std::vector<bool> m_present;
    bool m_exists = false;
};

} // namespace ws
