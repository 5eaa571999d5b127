#include "store/bookmarks.h"

#include "store/session_store.h"
#include "io/sqlite_database.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace ws::Bookmarks {

std::string toJson(const std::vector<Bookmark>& bookmarks) {
    nlohmann::json out = nlohmann::json::array();
    for (const Bookmark& b : bookmarks)
        out.push_back({{"ts", b.ts}, {"note", b.note}});
    return out.dump();
}

std::vector<Bookmark> fromJson(const std::string& text) {
    std::vector<Bookmark> out;
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_array())
        return out;
    for (const auto& b : j)
        if (b.is_object() && b.contains("ts") && b["ts"].is_number_integer())
            out.push_back({b["ts"].get<int64_t>(), b.value("note", "")});
    std::sort(out.begin(), out.end(), [](const Bookmark& a, const Bookmark& b) { return a.ts < b.ts; });
    return out;
}

std::vector<Bookmark> read(const std::string& sessionPath) {
    std::string error;
    const auto meta = SessionStore::readMeta(sessionPath, &error);
    if (!meta)
        return {};
    const auto it = meta->find("bookmarks");
    return it == meta->end() ? std::vector<Bookmark>() : fromJson(it->second);
}

bool write(const std::string& sessionPath, const std::vector<Bookmark>& bookmarks, std::string* error) {
    if (!SessionStore::isSessionFile(sessionPath)) {
        *error = "not a Warpscope session";
        return false;
    }
    SqliteDatabase db;
    if (!db.open(sessionPath, SqliteDatabase::Mode::ReadWriteCreate)) {
        *error = db.error();
        return false;
    }
    SqliteStatement q(db, "INSERT OR REPLACE INTO meta(key, value) VALUES ('bookmarks', ?1)");
    q.bind(1, std::string_view(toJson(bookmarks)));
    q.step();
    if (!q.ok()) {
        *error = q.error();
        return false;
    }
    return true;
}

} // namespace ws::Bookmarks
