#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ws {

using StringId = uint32_t;
inline constexpr StringId kEmptyString = 0;

/*
 * StringTable: interned strings of one session (event names, categories, labels).
 *
 * Invariants: id 0 is the empty string; an id never changes and its string_view stays valid for the
 * table's lifetime (strings live in a deque, which never moves its elements). Each distinct string
 * is stored once. intern() is amortised O(length) (one hash); str() is O(1). Not thread-safe for
 * writers: parallel parsers intern into their own tables and the importer remaps ids on merge.
 */
class StringTable {
public:
    StringTable();
    StringTable(const StringTable&) = delete;
    StringTable& operator=(const StringTable&) = delete;

    StringId intern(std::string_view s);
    // Returns the id of s if it is interned, else nullopt-like kNotFound.
    static constexpr StringId kNotFound = UINT32_MAX;
    StringId find(std::string_view s) const;
    std::string_view str(StringId id) const { return m_strings[id]; }
    size_t size() const { return m_strings.size(); }
    size_t memoryBytes() const;

private:
    std::deque<std::string> m_strings;
    std::unordered_map<std::string_view, StringId> m_index;
};

} // namespace ws
