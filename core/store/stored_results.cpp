#include "store/stored_results.h"

#include "analysis/session_results.h"
#include "model/session.h"
#include "io/column_codec.h"
#include "store/session_store.h"
#include "io/sqlite_database.h"

#include <cstdlib>
#include <span>
#include <vector>

namespace ws {

namespace {

const char kName[] = "analyses";

} // namespace

std::string storedResultsBlobFor(const Session& session, SessionAnalyses* shared) {
    std::string encoded;
    if (!session.storedResults().empty() && decodeSessionResults(session.storedResults(), session))
        encoded = session.storedResults();
    else
        encoded = encodeSessionResults(computeSessionResults(session, shared));
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
    // One connection for the checks, the meta and the results: a job reads N of these at once.
    SqliteDatabase db;
    if (!db.open(path, SqliteDatabase::Mode::ReadOnly) || db.queryInt("PRAGMA application_id") != SessionStore::kApplicationId ||
        db.queryInt("PRAGMA user_version").value_or(0) > SessionStore::kSchemaVersion)
        return std::nullopt;
    ResultsModelIdentity model;
    SqliteStatement q(db, "SELECT key, value FROM meta WHERE key IN ('slice_count', 'start_ns', 'end_ns')");
    while (q.step()) {
        const std::string key(q.text(0)), value(q.text(1));
        const int64_t number = std::strtoll(value.c_str(), nullptr, 10);
        if (key == "slice_count")
            model.sliceCount = static_cast<uint64_t>(number);
        else if (key == "start_ns")
            model.startNs = number;
        else
            model.endNs = number;
    }
    if (!q.ok())
        return std::nullopt;
    return decodeSessionResults(readStoredResults(db), model);
}

} // namespace ws
