#pragma once

#include "query/query_engine.h"

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

/* How queryLibrary runs. Plain values. */
struct LibraryQueryOptions {
    unsigned threads = 0;                      // 0: every usable core
    const std::atomic<bool>* cancel = nullptr; // set: sessions not started are skipped
};

/* One session's part of a library query, in the library's order (newest first). */
struct LibrarySessionResult {
    std::string name; // the `session` column: the library's display name
    std::string path; // the .warpscope file
    QueryResult result;
};

/*
 * queryLibrary: one SQL statement over every stored session of a library directory, each session
 * read and queried on its own thread (up to `threads` at once), results kept per session. A
 * statement that does not compile fails before any session is read (the error of an empty
 * session's engine). Sessions that cannot be read or whose query fails keep their error in
 * their result; the others are unaffected.
 */
struct LibraryQueryResult {
    std::string error; // the statement's own error (syntax, unknown column): nothing was read
    std::vector<std::string> tablesRead;
    std::vector<LibrarySessionResult> sessions;
};

LibraryQueryResult queryLibrary(const std::string& directory, std::string_view sql, const LibraryQueryOptions& options = {});

// Where the app keeps its library: $XDG_DATA_HOME/Warpscope/Warpscope/sessions (~/.local/share/...).
std::string defaultSessionLibraryDirectory();

} // namespace ws
