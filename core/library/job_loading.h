#pragma once

#include "analysis/distributed.h"
#include "import/job_files.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ws {

class Session;

/*
 * Loading the ranks of a distributed job, shared by the app's JobLoader and `warpscope-cli dist`.
 *
 * With a library directory each rank goes through the session library: ranks stored before are
 * reopened in parallel (one thread per core: reading a stored session is decompression, not an
 * import that already uses every core), the others are imported one after the other. Each rank's
 * distributed block comes from its session file's stored results (stored_results.h); for a file
 * stored without them it is computed once and kept beside the library (`<library>/blocks/<session
 * file>.json`, the summary form of distributed_json.h), so reopening an unchanged job costs what
 * reopening its ranks costs, or, with deferSessions, what reading their blocks costs. Without a library directory every rank is
 * imported and summarized. A rank that fails carries its error and no session; the others load.
 */
struct JobRankLoad {
    std::string file;                        // the trace, as given
    JobRankSource source;                    // what the rank is made of (one process of a file, ...)
    std::shared_ptr<const Session> session;  // null when it failed or was cancelled
    RankDistributed block;                   // path/worker/rank filled from the file when missing
    std::string error;
    bool fromLibrary = false;  // reopened a stored session
    bool blockCached = false;  // the block came from the library's cache
    std::string sessionPath;   // the stored session, once there is one
};

struct JobLoadOptions {
    std::string libraryDir; // empty: import only
    const std::atomic<bool>* cancel = nullptr;
    // Fraction of the whole job in [0, 1] and the file being read; called on the loading thread
    // (or one of its helpers, serialized).
    std::function<void(double fraction, const std::string& file)> progress;
    NsysExportOptions nsysExport; // converting Nsight Systems reports (.nsys-rep)
    // Ranks reopened from the library come with their blocks only (session null, sessionPath set)
    // when their session files carry them: the job's tables show at once, without reading N models;
    // openJobRankSessions reads the models afterwards (for the job timeline).
    bool deferSessions = false;
};

std::vector<JobRankLoad> loadJobRanks(const std::vector<std::string>& files, const JobLoadOptions& options);

// Reads, in parallel, the models of the ranks loaded with deferSessions; a rank that fails keeps
// its block and gets the error.
void openJobRankSessions(std::vector<JobRankLoad>& ranks, const JobLoadOptions& options);

// Stores the ranks that were imported (not reopened) in the library with their blocks, so the next
// open is fast. Run it after the job is shown; it stops early when options.cancel is set.
void storeJobRanks(std::vector<JobRankLoad>& ranks, const JobLoadOptions& options);

} // namespace ws
