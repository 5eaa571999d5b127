#include "import/nsys_string_ids.h"

#include "io/sqlite_database.h"

namespace ws {

bool NsysStringIds::load(SqliteDatabase& db, std::string_view table, std::string_view idColumn,
                         std::string_view valueColumn, ImportReport& report) {
    const std::string sql = "SELECT \"" + std::string(idColumn) + "\", \"" + std::string(valueColumn) +
                            "\" FROM \"" + std::string(table) + "\"";
    std::vector<std::pair<int64_t, std::string>> rows;
    int64_t maxId = -1;
    SqliteStatement q(db, sql);
    while (q.step()) {
        if (q.isNull(0)) continue;
        const int64_t id = q.int64(0);
        rows.emplace_back(id, std::string(q.text(1)));
        maxId = std::max(maxId, id);
    }
    if (!q.ok()) report.add("string table unreadable (names missing)", std::string(table) + ": " + q.error());
    auto values = std::make_shared<Values>();
    const bool dense = maxId >= 0 && static_cast<uint64_t>(maxId) < 4 * rows.size() + 4096;
    if (dense) {
        values->dense.resize(static_cast<size_t>(maxId) + 1);
        values->present.resize(static_cast<size_t>(maxId) + 1, false);
    }
    for (auto& [id, value] : rows) {
        if (dense && id >= 0) {
            values->dense[static_cast<size_t>(id)] = std::move(value);
            values->present[static_cast<size_t>(id)] = true;
        } else {
            values->sparse[id] = std::move(value);
        }
    }
    m_values = std::move(values);
    m_denseLocal.assign(m_values->dense.size(), UINT32_MAX);
    m_sparseLocal.clear();
    return q.ok();
}

void NsysStringIds::shareValues(const NsysStringIds& other) {
    m_values = other.m_values;
    m_denseLocal.assign(m_values ? m_values->dense.size() : 0, UINT32_MAX);
    m_sparseLocal.clear();
}

const std::string* NsysStringIds::find(int64_t id) const {
    if (!m_values) return nullptr;
    if (id >= 0 && static_cast<uint64_t>(id) < m_values->dense.size())
        return m_values->present[static_cast<size_t>(id)] ? &m_values->dense[static_cast<size_t>(id)]
                                                          : nullptr;
    if (m_values->sparse.empty()) return nullptr;
    auto it = m_values->sparse.find(id);
    return it == m_values->sparse.end() ? nullptr : &it->second;
}

std::string_view NsysStringIds::value(int64_t id) const {
    const std::string* v = find(id);
    return v ? std::string_view(*v) : std::string_view();
}

bool NsysStringIds::contains(int64_t id) const {
    return find(id) != nullptr;
}

uint32_t NsysStringIds::local(int64_t id, NsysChunkWriter& w) {
    const std::string* v = find(id);
    if (!v) return 0;
    if (id >= 0 && static_cast<uint64_t>(id) < m_denseLocal.size()) {
        uint32_t& l = m_denseLocal[static_cast<size_t>(id)];
        if (l == UINT32_MAX) l = w.string(*v);
        return l;
    }
    auto it = m_sparseLocal.find(id);
    if (it == m_sparseLocal.end()) it = m_sparseLocal.emplace(id, w.string(*v)).first;
    return it->second;
}

} // namespace ws
