#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ws {

class Session;
class SqliteDatabase;

/*
 * SourceArchive: copies of the source files a session's stack frames name, kept in the session
 * file (table `sources`) so the source pane can show them after the files are gone or on another
 * machine. Files are taken when the session is stored, from the paths as recorded (so this works
 * when importing on the machine that ran the workload); files that do not exist there, are not
 * regular files, or exceed kMaxFileBytes are skipped, and the archive stops at kMaxTotalBytes.
 * Each file is zstd-compressed on its own and read back only when asked for.
 *
 * The table was added to schema version 1 without a version bump: older readers ignore tables
 * they do not know, and readers of older files find no table and no sources.
 */
namespace SourceArchive {

inline constexpr int64_t kMaxFileBytes = 2 << 20;
inline constexpr int64_t kMaxTotalBytes = 64 << 20;

struct Entry {
    std::string recordedPath;
    int64_t mtimeNs = 0; // modification time of the copied file
    std::string text;
};

// The files named by the session's frames (python_function names and native frames of `Call
// stack` arguments are both frames) that can be read here, in path order, within the limits.
std::vector<Entry> collect(const Session& session);

// Creates the table and writes the entries; false on a database error.
bool write(SqliteDatabase& db, const std::vector<Entry>& entries, int zstdLevel);

// The stored copy of a recorded path from a session file; nullopt if there is none.
std::optional<Entry> read(const std::string& sessionFile, const std::string& recordedPath);

} // namespace SourceArchive

} // namespace ws
