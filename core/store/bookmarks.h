#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ws {

/* A user's note at a point in time of a session (session clock, ns). */
struct Bookmark {
    int64_t ts = 0;
    std::string note;
    bool operator==(const Bookmark&) const = default;
};

/*
 * Bookmarks live in the session file's meta table (key "bookmarks", a JSON array), so they travel
 * with the session. Saving is one SQLite transaction on that row: readers see the old list or the
 * new one. Reading a session without bookmarks gives an empty list.
 */
namespace Bookmarks {

std::vector<Bookmark> read(const std::string& sessionPath);
bool write(const std::string& sessionPath, const std::vector<Bookmark>& bookmarks, std::string* error);
std::string toJson(const std::vector<Bookmark>& bookmarks);
std::vector<Bookmark> fromJson(const std::string& text);

} // namespace Bookmarks

} // namespace ws
