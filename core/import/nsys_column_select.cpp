#include "import/nsys_column_select.h"

#include "io/sqlite_database.h"

#include <algorithm>

namespace ws {

NsysColumnSelect::NsysColumnSelect(SqliteDatabase& db, std::string table, std::vector<std::string> wanted)
    : m_table(std::move(table)), m_wanted(std::move(wanted)) {
    const std::vector<std::string> cols = db.columns(m_table);
    m_exists = !cols.empty();
    m_present.reserve(m_wanted.size());
    for (const std::string& w : m_wanted)
        m_present.push_back(std::find(cols.begin(), cols.end(), w) != cols.end());
}

bool NsysColumnSelect::hasAll(std::initializer_list<size_t> wantedIndices) const {
    for (size_t i : wantedIndices)
        if (!has(i)) return false;
    return true;
}

std::string NsysColumnSelect::sql(std::string_view tail) const {
    std::string s = "SELECT rowid";
    for (size_t i = 0; i < m_wanted.size(); ++i) {
        s += ", ";
        if (m_present[i]) {
            s += '"';
            s += m_wanted[i];
            s += '"';
        } else {
            s += "NULL";
        }
    }
    s += " FROM \"";
    s += m_table;
    s += '"';
    s += tail;
    return s;
}

std::string NsysColumnSelect::column(size_t wantedIndex) const {
    return wantedIndex < m_wanted.size() ? '"' + m_wanted[wantedIndex] + '"' : std::string("NULL");
}

} // namespace ws
