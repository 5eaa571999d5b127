#include "import/job_files.h"

#include "analysis/distributed.h"
#include "import/nsys_processes.h"
#include "import/trace_import.h"
#include "remote/remote_fetch.h"
#include "remote/remote_listing.h"
#include "remote/remote_request.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace ws {

namespace fs = std::filesystem;

namespace {

// A remote object is fetched into the cache; a remote folder is listed and its one run's traces
// fetched (torch-tb-profiler's run: the trace files of one folder). False with *error on failure.
bool addRemote(const std::string& url, std::vector<std::string>& files, std::string* error,
               const std::atomic<bool>* cancel, const JobDownloadProgress& progress) {
    std::vector<std::string> objects;
    std::string why;
    const auto parsed = parseRemoteUrl(url, remoteEndpointsFromEnvironment(), &why);
    if (parsed && parsed->isPrefix()) {
        const RemoteListing listing = listRemoteFolder(url);
        if (!listing.error.empty()) {
            if (error)
                *error = listing.error;
            return false;
        }
        if (listing.runs.size() != 1) {
            if (error) {
                *error = listing.runs.empty() ? "no trace files under " + redactUrl(url)
                                              : std::to_string(listing.runs.size()) + " runs (folders of traces) under " +
                                                    redactUrl(url) + "; open one of them:";
                for (size_t i = 0; i < listing.runs.size() && i < 8; ++i)
                    *error += " " + listing.runs[i].prefix;
            }
            return false;
        }
        for (const RemoteObject& o : listing.runs.front().workers)
            objects.push_back(o.url);
    } else {
        objects.push_back(url);
    }
    for (const std::string& o : objects) {
        RemoteFetchOptions options;
        const std::string shown = redactUrl(o);
        options.progress = [&](uint64_t done, int64_t total) {
            if (progress)
                progress(shown, done, total);
            return !(cancel && cancel->load());
        };
        const RemoteFetchResult fetched = fetchRemoteObject(o, options);
        if (fetched.localPath.empty()) {
            if (error)
                *error = fetched.error;
            return false;
        }
        files.push_back(fetched.localPath);
    }
    return true;
}

} // namespace

std::vector<std::string> expandJobInputs(const std::vector<std::string>& paths, std::string* error,
                                         const std::atomic<bool>* cancel, const JobDownloadProgress& progress) {
    std::vector<std::string> files;
    for (const std::string& p : paths) {
        if (isRemoteUrl(p)) {
            if (!addRemote(p, files, error, cancel, progress))
                return {};
            continue;
        }
        std::error_code ec;
        if (!fs::is_directory(p, ec)) {
            files.push_back(p);
            continue;
        }
        std::vector<std::string> inside;
        for (fs::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec)) {
            std::error_code fec;
            if (!it->is_regular_file(fec))
                continue;
            const TraceFormat f = detectFormat(it->path().string());
            if (f != TraceFormat::Unknown && f != TraceFormat::NsightReport)
                inside.push_back(it->path().string());
        }
        if (inside.empty() && error)
            *error = p + ": no trace files in this directory";
        files.insert(files.end(), inside.begin(), inside.end());
    }
    std::set<std::string> seen;
    files.erase(std::remove_if(files.begin(), files.end(), [&](const std::string& f) { return !seen.insert(f).second; }),
                files.end());
    std::stable_sort(files.begin(), files.end(), [](const std::string& a, const std::string& b) {
        const int ra = rankFromFileName(a), rb = rankFromFileName(b);
        if (ra != rb)
            return (ra < 0) != (rb < 0) ? ra >= 0 : ra < rb;
        return a < b;
    });
    if (files.empty() && error && error->empty())
        *error = "no trace files given";
    return files;
}

bool isMultiProcessExport(const std::string& file) {
    return detectFormat(file) == TraceFormat::NsightSqlite && nsysRankProcesses(file).size() >= 2;
}

std::vector<JobRankSource> jobRankSources(const std::vector<std::string>& files, const NsysExportOptions& nsys,
                                          const std::atomic<bool>* cancel,
                                          const std::function<void(double, const std::string&)>& progress) {
    std::vector<JobRankSource> sources;
    for (const std::string& file : files) {
        JobRankSource one;
        one.file = one.importPath = file;
        const TraceFormat format = detectFormat(file);
        std::string sqlite = format == TraceFormat::NsightSqlite ? file : std::string();
        if (format == TraceFormat::NsightReport) {
            const NsysExportResult exported = exportNsysReport(
                file, nsys, [&](double f) { if (progress) progress(f, file); }, cancel);
            if (exported.cancelled)
                return {};
            if (exported.sqlitePath.empty())
                one.error = nsysExportFailure(exported);
            sqlite = one.importPath = exported.sqlitePath.empty() ? file : exported.sqlitePath;
        }
        const std::vector<NsysRankProcess> processes =
            sqlite.empty() || !one.error.empty() ? std::vector<NsysRankProcess>{} : nsysRankProcesses(sqlite);
        if (processes.size() < 2) { // one process: the file is the rank, exactly as before
            sources.push_back(std::move(one));
            continue;
        }
        for (const NsysRankProcess& p : processes) {
            JobRankSource rank = one;
            rank.process = p.pid;
            rank.rank = p.rank;
            // The processes share the file, so they are told apart by program and pid ("python[4711]").
            const std::string program = fs::path(p.name).filename().string();
            rank.worker = (program.empty() ? std::string("pid") : program) + "[" + std::to_string(p.pid) + "]";
            sources.push_back(std::move(rank));
        }
    }
    return sources;
}

} // namespace ws
