#include "library/job_loading.h"

#include "analysis/distributed_json.h"
#include "import/trace_import.h"
#include "io/usable_cores.h"
#include "library/open_trace.h"
#include "model/run_on_threads.h"
#include "library/session_library.h"
#include "store/session_store.h"
#include "store/stored_results.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

namespace ws {

namespace fs = std::filesystem;

namespace {

// Runs work(i) for each item on up to one thread per core, this one included.
template <typename Work> void forEachItem(size_t items, const Work& work) {
    forEachIndexOnThreads(items, usableCores(), work);
}

std::string blockCachePath(const std::string& libraryDir, const std::string& sessionPath) {
    return (fs::path(libraryDir) / "blocks" / (fs::path(sessionPath).filename().string() + ".json")).string();
}

std::optional<RankDistributed> readCachedBlock(const std::string& libraryDir, const std::string& sessionPath) {
    std::ifstream in(blockCachePath(libraryDir, sessionPath), std::ios::binary);
    if (!in)
        return std::nullopt;
    std::stringstream text;
    text << in.rdbuf();
    return rankDistributedFromJson(text.str(), nullptr); // unreadable or old: computed again
}

// Written to a temp file renamed into place, so a reader never sees half a block.
void writeCachedBlock(const std::string& libraryDir, const std::string& sessionPath, const RankDistributed& block) {
    const std::string path = blockCachePath(libraryDir, sessionPath);
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << "{\"distributed\": " << rankDistributedToJson(block) << "}\n";
        if (!out)
            return;
    }
    fs::rename(tmp, path, ec);
}

void fillIdentity(JobRankLoad& r) {
    r.block.path = r.file;
    if (r.source.rank >= 0) // one process of a multi-process export: the export says which rank
        r.block.rank = r.source.rank;
    if (r.block.rank < 0)
        r.block.rank = rankFromFileName(r.file);
    r.block.worker = r.source.worker.empty() ? workerName(r.file) : r.source.worker;
}

bool cancelled(const JobLoadOptions& o) { return o.cancel && o.cancel->load(); }

// The rank's stored session, if the library has one: its block (the session file's stored results,
// else the library's block cache, else computed from the model) and, unless deferred, its model.
bool openStoredRank(JobRankLoad& r, const JobLoadOptions& options, const std::vector<SessionLibrary::Entry>& entries) {
    const TraceFormat format = detectFormat(r.source.importPath);
    if (format == TraceFormat::TorchMemorySnapshot)
        return false; // imported again (SessionLibrary::openStored says why)
    const bool isSession = format == TraceFormat::WarpscopeSession;
    const std::optional<std::string> stored =
        isSession ? std::optional<std::string>(r.source.importPath) : SessionLibrary::findFor(r.source.importPath, entries);
    if (!stored)
        return false;
    std::optional<RankDistributed> block;
    if (const std::optional<SessionResults> results = readStoredResultsOnly(*stored))
        block = rankDistributedFromJson(results->distributed, nullptr);
    if (!block)
        block = readCachedBlock(options.libraryDir, *stored);
    if (!block || !options.deferSessions) {
        std::string error;
        r.session = SessionStore::read(*stored, &error);
        if (!r.session) {
            if (isSession)
                r.error = error; // a damaged library copy is not an error: the trace is imported again
            return false;
        }
    }
    r.fromLibrary = !isSession;
    r.sessionPath = *stored;
    r.blockCached = block.has_value();
    if (block) {
        r.block = std::move(*block);
    } else {
        r.block = summarizeRank(*r.session);
        writeCachedBlock(options.libraryDir, r.sessionPath, r.block);
    }
    return true;
}

} // namespace

std::vector<JobRankLoad> loadJobRanks(const std::vector<std::string>& files, const JobLoadOptions& options) {
    const double fileCount = static_cast<double>(std::max<size_t>(files.size(), 1));
    const std::vector<JobRankSource> sources = jobRankSources(
        files, options.nsysExport, options.cancel, [&](double f, const std::string& file) {
            if (options.progress) // converting a report: its share of the job's files
                options.progress(std::min(1.0, f / fileCount), file);
        });
    std::vector<JobRankLoad> ranks(sources.size());
    for (size_t i = 0; i < sources.size(); ++i) {
        ranks[i].file = sources[i].file;
        ranks[i].source = sources[i];
        ranks[i].error = sources[i].error;
    }
    const double n = static_cast<double>(std::max<size_t>(ranks.size(), 1));
    std::mutex progressMutex;
    size_t done = 0;
    auto report = [&](double fraction, const std::string& file) {
        if (!options.progress)
            return;
        std::lock_guard<std::mutex> lock(progressMutex);
        options.progress(std::min(1.0, fraction), file);
    };

    // 1. Stored ranks, in parallel: one listing of the library for all of them; each rank's block
    // from its session file's stored results (else the library's block cache, else computed); the
    // model read unless options.deferSessions.
    if (!options.libraryDir.empty()) {
        const SessionLibrary library(options.libraryDir);
        const std::vector<SessionLibrary::Entry> entries = library.list();
        forEachItem(ranks.size(), [&](size_t i) {
            JobRankLoad& r = ranks[i];
            if (cancelled(options) || r.source.process >= 0 || !r.error.empty())
                return; // one process of a file: not in the library (see job_loading.h)
            if (!openStoredRank(r, options, entries))
                return;
            fillIdentity(r);
            std::lock_guard<std::mutex> lock(progressMutex);
            ++done;
            if (options.progress)
                options.progress(static_cast<double>(done) / n, r.file);
        });
    }

    // 2. The rest, imported one after the other (each import uses every core).
    for (JobRankLoad& r : ranks) {
        if (r.session || !r.sessionPath.empty() || !r.error.empty() || cancelled(options))
            continue;
        ImportControl control;
        control.cancel = options.cancel;
        control.nsysExport = options.nsysExport;
        control.process = r.source.process;
        const double base = static_cast<double>(done);
        control.progress = [&](double f) { report((base + f) / n, r.file); };
        ImportResult imported = openTraceFile(r.source.importPath, control);
        if (!imported.session) {
            r.error = imported.cancelled ? std::string("cancelled") : imported.error;
            continue;
        }
        r.session = std::move(imported.session);
        r.block = summarizeRank(*r.session);
        fillIdentity(r);
        ++done;
    }
    return ranks;
}

void openJobRankSessions(std::vector<JobRankLoad>& ranks, const JobLoadOptions& options) {
    forEachItem(ranks.size(), [&](size_t i) {
        JobRankLoad& r = ranks[i];
        if (cancelled(options) || r.session || r.sessionPath.empty())
            return;
        std::string error;
        r.session = SessionStore::read(r.sessionPath, &error);
        if (!r.session)
            r.error = error;
    });
}

void storeJobRanks(std::vector<JobRankLoad>& ranks, const JobLoadOptions& options) {
    if (options.libraryDir.empty())
        return;
    const SessionLibrary library(options.libraryDir);
    for (JobRankLoad& r : ranks) {
        if (cancelled(options))
            return;
        if (!r.session || r.fromLibrary || !r.sessionPath.empty() || r.source.process >= 0)
            continue;
        std::string error;
        if (auto stored = library.store(*r.session, r.file, &error, options.cancel)) {
            r.sessionPath = *stored;
            writeCachedBlock(options.libraryDir, r.sessionPath, r.block);
        }
    }
}

} // namespace ws
