#include "model/string_table.h"

namespace ws {

StringTable::StringTable() {
    m_strings.emplace_back();
    m_index.emplace(std::string_view(m_strings.back()), kEmptyString);
}

StringId StringTable::intern(std::string_view s) {
    auto it = m_index.find(s);
    if (it != m_index.end())
        return it->second;
    const auto id = static_cast<StringId>(m_strings.size());
    m_strings.emplace_back(s);
    m_index.emplace(std::string_view(m_strings.back()), id);
    return id;
}

StringId StringTable::find(std::string_view s) const {
    auto it = m_index.find(s);
    return it == m_index.end() ? kNotFound : it->second;
}

size_t StringTable::memoryBytes() const {
    size_t bytes = m_strings.size() * (sizeof(std::string) + sizeof(std::string_view) + 16);
    for (const std::string& s : m_strings)
        if (s.size() > 15)
            bytes += s.capacity() + 1;
    return bytes;
}

} // namespace ws
