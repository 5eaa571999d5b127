#include "library/library_query.h"

#include "io/usable_cores.h"
#include "library/session_library.h"
#include "model/run_on_threads.h"
#include "model/session.h"
#include "store/session_store.h"

#include <algorithm>
#include <cstdlib>

namespace ws {

LibraryQueryResult queryLibrary(const std::string& directory, std::string_view sql, const LibraryQueryOptions& options) {
    LibraryQueryResult out;
    {
        // Compiled once against no data: a typo costs nothing and reads nothing.
        QueryEngine probe(std::make_shared<const Session>());
        out.tablesRead = probe.tablesRead(sql, &out.error);
        if (!out.error.empty())
            return out;
    }
    // Only what the statement's tables read is decoded from each file: the analyses of kernels,
    // operators and steps read slices and flows; the idle gaps also a capture's host samples (its
    // counters); counters and memory events are tables of their own; no table reads instants or a
    // memory snapshot.
    SessionReadParts parts;
    auto reads = [&](const char* t) { return std::find(out.tablesRead.begin(), out.tablesRead.end(), t) != out.tablesRead.end(); };
    parts.counters = reads("counters") || reads("gaps");
    parts.memoryEvents = reads("memory_events");
    parts.instants = false;
    parts.memorySnapshot = false;
    const std::vector<SessionLibrary::Entry> entries = SessionLibrary(directory).list();
    out.sessions.resize(entries.size());
    const unsigned threads = options.threads ? options.threads : usableCores();
    forEachIndexOnThreads(entries.size(), threads, [&](size_t i) {
        LibrarySessionResult& r = out.sessions[i];
        r.name = entries[i].name;
        r.path = entries[i].path;
        if (options.cancel && *options.cancel) {
            r.result.cancelled = true;
            return;
        }
        std::string error;
        std::shared_ptr<const Session> session = SessionStore::read(entries[i].path, &error, parts);
        if (!session) {
            r.result.error = error.empty() ? "cannot read the session" : error;
            return;
        }
        QueryEngine engine(session);
        QueryOptions q;
        q.cancel = options.cancel;
        r.result = engine.run(sql, q);
    });
    return out;
}

std::string defaultSessionLibraryDirectory() {
    const char* data = std::getenv("XDG_DATA_HOME");
    std::string base = data && *data ? data : "";
    if (base.empty()) {
        const char* home = std::getenv("HOME");
        base = std::string(home ? home : ".") + "/.local/share";
    }
    return base + "/Warpscope/Warpscope/sessions";
}

} // namespace ws
