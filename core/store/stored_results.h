#pragma once

#include "analysis/session_results.h"

#include <optional>
#include <string>

namespace ws {

class Session;
class SessionAnalyses;
class SqliteDatabase;

/*
 * The session file's cache of analysis results (analysis/session_results.h): one row of the table
 *   results(name TEXT PRIMARY KEY, data BLOB)   name 'analyses': encodeSessionResults, zstd
 * added beside the model's tables. A file without the table (stored before it existed) reads as
 * "no results", which the analyses answer by computing, so the schema version stays the same and
 * older Warpscope versions, which ignore the table, still read the file.
 */

// The compressed results of `session`: its own stored ones when it was read from a session file
// with valid results (re-storing copies them), else computed now (computeSessionResults).
std::string storedResultsBlobFor(const Session& session, SessionAnalyses* shared = nullptr);
// Creates the table and writes the blob into it; false with db.error() on failure.
bool writeStoredResults(SqliteDatabase& db, const std::string& compressedBlob);
// The encoded (decompressed) results, empty when the file has none or they are unreadable.
std::string readStoredResults(SqliteDatabase& db);
// A session file's results without reading its model (its meta identifies the model): for what
// needs only texts and numbers (a comparison's digest, a rank's distributed block). nullopt when
// the file is not a session or has no valid results.
std::optional<SessionResults> readStoredResultsOnly(const std::string& path);

} // namespace ws
