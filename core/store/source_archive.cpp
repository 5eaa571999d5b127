#include "store/source_archive.h"

#include "model/session.h"
#include "io/column_codec.h"
#include "io/sqlite_database.h"

#include <filesystem>
#include <fstream>
#include <set>

namespace ws::SourceArchive {

std::vector<Entry> collect(const Session& session) {
    std::set<std::string> paths;
    for (const auto& [name, frame] : session.frames())
        if (frame.file != kEmptyString)
            paths.emplace(session.str(frame.file));
    std::vector<Entry> out;
    int64_t total = 0;
    for (const std::string& path : paths) {
        std::error_code ec;
        const std::filesystem::path p(path);
        if (!p.is_absolute() || !std::filesystem::is_regular_file(p, ec))
            continue; // relative names ("transformers/...") have no known base here
        const auto size = std::filesystem::file_size(p, ec);
        if (ec || static_cast<int64_t>(size) > kMaxFileBytes || total + static_cast<int64_t>(size) > kMaxTotalBytes)
            continue;
        std::ifstream in(p, std::ios::binary);
        std::string text(static_cast<size_t>(size), '\0');
        if (!in.read(text.data(), static_cast<std::streamsize>(text.size())))
            continue;
        const auto mtime = std::filesystem::last_write_time(p, ec);
        Entry e;
        e.recordedPath = path;
        if (!ec)
            e.mtimeNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::file_clock::to_sys(mtime).time_since_epoch())
                            .count();
        total += static_cast<int64_t>(text.size());
        e.text = std::move(text);
        out.push_back(std::move(e));
    }
    return out;
}

bool write(SqliteDatabase& db, const std::vector<Entry>& entries, int zstdLevel) {
    if (!db.exec("CREATE TABLE IF NOT EXISTS sources(path TEXT PRIMARY KEY, mtime INTEGER, data BLOB NOT NULL)"))
        return false;
    SqliteStatement q(db, "INSERT OR REPLACE INTO sources VALUES (?1, ?2, ?3)");
    for (const Entry& e : entries) {
        const std::string blob = ColumnCodec::encodeFixed(e.text.data(), e.text.size(), 1, zstdLevel);
        q.reset();
        q.bind(1, std::string_view(e.recordedPath));
        q.bind(2, e.mtimeNs);
        q.bindBlob(3, blob.data(), blob.size());
        q.step();
    }
    return q.ok();
}

std::optional<Entry> read(const std::string& sessionFile, const std::string& recordedPath) {
    SqliteDatabase db;
    if (!db.open(sessionFile, SqliteDatabase::Mode::ReadOnly) || !db.tableExists("sources"))
        return std::nullopt;
    SqliteStatement q(db, "SELECT mtime, data FROM sources WHERE path = ?1");
    q.bind(1, std::string_view(recordedPath));
    if (!q.step())
        return std::nullopt;
    std::vector<uint8_t> bytes;
    size_t count = 0;
    if (!ColumnCodec::decodeFixed(q.blob(1), 1, bytes, count))
        return std::nullopt;
    Entry e;
    e.recordedPath = recordedPath;
    e.mtimeNs = q.int64(0);
    e.text.assign(reinterpret_cast<const char*>(bytes.data()), count);
    return e;
}

} // namespace ws::SourceArchive
