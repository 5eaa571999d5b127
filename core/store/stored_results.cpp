#include "store/stored_results.h"

#include "analysis/session_results.h"
#include "model/session.h"
#include "store/column_codec.h"
#include "store/session_store.h"
#include "store/sqlite_database.h"

#include <span>
#include <vector>

namespace ws {

namespace {

const char kName[] = "analyses";

} // namespace

std::string storedResultsBlobFor(const Session& session) {
    std::string encoded;
    if (!session.storedResults().empty() && decodeSessionResults(session.storedResults(), session))
        encoded = session.storedResults();
    else
        encoded = encodeSessionResults(computeSessionResults(session));
    return ColumnCodec::encode<char>(std::span<const char>(encoded.data(), encoded.size()));
}

bool writeStoredResults(SqliteDatabase& db, const std::string& compressedBlob) {
    if (!db.exec("CREATE TABLE IF NOT EXISTS results(name TEXT PRIMARY KEY, data BLOB NOT NULL)"))
        return false;
    SqliteStatement q(db, "INSERT OR REPLACE INTO results(name, data) VALUES (?1, ?2)");
    q.bind(1, std::string_view(kName));
    q.bindBlob(2, compressedBlob.data(), compressedBlob.size());
    q.step();
    return q.ok();
}

std::string readStoredResults(SqliteDatabase& db) {
    if (!db.tableExists("results"))
        return {};
    SqliteStatement q(db, "SELECT data FROM results WHERE name = ?1");
    q.bind(1, std::string_view(kName));
    if (!q.step() || !q.ok())
        return {};
    std::vector<char> bytes;
    if (!ColumnCodec::decode(q.blob(0), bytes))
        return {};
    return std::string(bytes.begin(), bytes.end());
}

std::optional<SessionResults> readStoredResultsOnly(const std::string& path) {
    std::string error;
    const auto meta = SessionStore::readMeta(path, &error); // checks that it is a session we can read
    if (!meta)
        return std::nullopt;
    auto number = [&](const char* key) -> int64_t {
        const auto it = meta->find(key);
        try {
            return it == meta->end() ? 0 : std::stoll(it->second);
        } catch (...) {
            return 0;
        }
    };
    SqliteDatabase db;
    if (!db.open(path, SqliteDatabase::Mode::ReadOnly))
        return std::nullopt;
    return decodeSessionResults(readStoredResults(db), ResultsModelIdentity{static_cast<uint64_t>(number("slice_count")),
                                                                            number("start_ns"), number("end_ns")});
}

} // namespace ws
