#pragma once

#include "model/event_args_pack.h"
#include "model/trace_format.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace ws {

class Session;
class SessionAnalyses;

/* What a caller adds to a stored session beyond the model: a display name and how it was made. */
struct SessionWriteOptions {
    std::string name;
    std::string captureCommand;
    // Numeric columns. Level 1 rather than 3: on the 1 GB benchmark trace the columns grow from 12.6
    // to 16.7 MB (the file by 1 %) and the store takes 0.07 s less CPU of about 1.2 s.
    int zstdLevel = 1;
    // Event arguments: most of the bytes (event_args_pack.h says why level 1). A JSON import that
    // is going to be stored packs them at that level already: at another, the store packs again.
    int argsZstdLevel = kArgsZstdLevel;
    const std::atomic<bool>* cancel = nullptr; // set: the write stops and leaves no file
    // Compute the analyses' results and keep them in the file (stored_results.h), so a reopen or a
    // Compare reads them instead of recomputing; false leaves them out (the file opens as before).
    bool cacheResults = true;
    // The session's analyses as the app's views hold them: the results are computed through them
    // (computeSessionResults), so what the views computed already is not computed again.
    std::shared_ptr<SessionAnalyses> analyses = nullptr;
    // Never replace a file at the path: when one is there at the moment of the final move (another
    // process stored a session under the same name), this one takes PATH-2, PATH-3, ... instead.
    // The library stores with it, so two processes storing at once lose nothing.
    bool keepExisting = false;
    std::string* writtenPath = nullptr; // set: receives where the session went
};

/*
 * What SessionStore::read reads. All by default (the app, the CLI). A reader that knows it needs less
 * (a library-wide query that reads no counters) leaves the other parts out: they are then empty in
 * the session, as if the trace had none, and their stored columns are not decoded.
 */
struct SessionReadParts {
    bool counters = true;
    bool memoryEvents = true;
    bool instants = true;       // the tracks' instant columns
    bool memorySnapshot = true; // a PyTorch memory snapshot's tables
};

/*
 * SessionStore: Warpscope's session file (`*.warpscope`), one SQLite database.
 *
 * Layout (schema version kSchemaVersion, PRAGMA user_version; PRAGMA application_id kApplicationId):
 *   meta(key, value)                         source file (path, size, mtime, content hash), format,
 *                                            times, devices, report, metadata, name, versions; the
 *                                            hash is "source_hash2" (ContentHasher), in files
 *                                            stored before it "source_hash" (file_fingerprint.h)
 *   processes / categories / tracks / counters / frames   one row per item, plain columns
 *   columns(owner, idx, name, chunk, data)   model columns in 64 Ki-row chunks encoded by
 *                                            ColumnCodec (delta+zstd ints, shuffled+zstd fixed);
 *                                            a PyTorch memory snapshot's tables under owner
 *                                            "snapshot", its scalars in meta "memory_snapshot"
 *                                            (store/snapshot_columns.h)
 *   event_args(first_rank, lengths, text)    event arguments as JSON text (event_args_pack.h), a
 *                                            zstd blob per row of the ranks from first_rank on; a
 *                                            stored slice's argRef is its rank, read back lazily.
 *                                            Rows hold what an import's parse block packed, or
 *                                            kArgsPerChunk ranks; in version 1 files, the row's
 *                                            key is `chunk` and each holds kArgsPerChunk ranks
 *   sources(path, mtime, data)               copies of the source files the frames name
 *                                            (SourceArchive), zstd, read one at a time
 *   results(name, data)                      the analyses' results (stored_results.h); files
 *                                            stored before it have no such table
 *
 * write() builds the file under a temporary name in one transaction, syncs it and renames it into
 * place, so a reader (or a crash) sees the old file or the new one, never half. read() opens the
 * file read-only and defensively, refuses newer schema versions with a clear message and reads
 * every older one.
 */
class SessionStore {
public:
    // 2: event_args rows keyed by their first rank, of any number of ranks (was 4096 per `chunk`).
    static constexpr int kSchemaVersion = 2;
    static constexpr int32_t kApplicationId = kSessionApplicationId; // "WSs1"
    static constexpr uint32_t kRowsPerChunk = 65536;
    static constexpr uint32_t kArgsPerChunk = 4096; // a row of args the store packs itself

    static bool write(const Session& session, const std::string& path, const SessionWriteOptions& options,
                      std::string* error);
    static std::shared_ptr<Session> read(const std::string& path, std::string* error, const SessionReadParts& parts = {});
    // The meta table alone (for the session library's listing); nullopt and *error when unreadable.
    static std::optional<std::map<std::string, std::string>> readMeta(const std::string& path, std::string* error);
    // Sets one meta value of an existing session file (the library's "source_verified_ns").
    static bool writeMetaValue(const std::string& path, const std::string& key, const std::string& value);
    // Whether the file is a SQLite database with Warpscope's application id.
    static bool isSessionFile(const std::string& path);
    // Moves a finished file (written under a temp name) to `path` or, when a file is there, to the
    // next free name PATH-2, ... (atomically: renameat2 RENAME_NOREPLACE); *written gets the name.
    static bool publish(const std::string& temp, const std::string& path, std::string* written, std::string* error);
};

} // namespace ws
