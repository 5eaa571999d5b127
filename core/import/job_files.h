#pragma once

#include "import/nsys_report_export.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ws {

/*
 * The files of a distributed job. A job is given as trace files, directories, or both: a directory
 * stands for the traces directly inside it (recognised by content, as File > Open does: Kineto /
 * Chrome JSON, Nsight Systems and nvprof SQLite, Warpscope sessions and capture streams, so a
 * tensorboard_trace_handler folder and a capture folder with one stream per rank both work);
 * other files there (logs, READMEs, summaries) are skipped. A URL (remote_url.h) is fetched into the
 * download cache; a remote folder (s3://bucket/run/) is listed and the traces of its one run are
 * fetched, so a job opens from its bucket folder. Files are ordered by the rank in their
 * name, then by name; duplicates are dropped. Empty with *error set when nothing usable is found.
 * Downloads stop when *cancel turns true (nothing half-written stays in the cache), and report
 * (URL without secrets, bytes so far, total or -1) to `progress`.
 */
using JobDownloadProgress = std::function<void(const std::string& url, uint64_t done, int64_t total)>;
std::vector<std::string> expandJobInputs(const std::vector<std::string>& paths, std::string* error,
                                         const std::atomic<bool>* cancel = nullptr,
                                         const JobDownloadProgress& progress = {});

/*
 * One rank of a job: a trace file, or one process of an Nsight Systems export that holds several
 * (nsys_processes.h: one nsys over mpirun or torchrun). jobRankSources turns the files of a job
 * into its ranks: a multi-process export (or a report, converted by nsys first, with `progress`
 * and `cancel`) becomes one source per GPU process with the rank the export gives it; every other
 * file is one source, ranked by its name as before. A report that cannot be converted is a source
 * carrying the error, so the job says why that rank is missing.
 */
struct JobRankSource {
    std::string file;       // as given: shown, and the rank/worker of single-file ranks
    std::string importPath; // what is imported: the file, or a report's cached SQLite export
    int64_t process = -1;   // the pid to import from a multi-process export; -1: the whole file
    int rank = -1;          // the export's rank for the process; -1: from the file (name or content)
    std::string worker;     // "" = from the file name
    std::string error;      // the file could not be prepared (a report nsys failed on)
};
std::vector<JobRankSource> jobRankSources(const std::vector<std::string>& files, const NsysExportOptions& nsys,
                                          const std::atomic<bool>* cancel = nullptr,
                                          const std::function<void(double fraction, const std::string& file)>& progress = {});

// Whether `file` opens as a job of its processes: an Nsight Systems SQLite export with two or more
// GPU processes. Reads only small tables (cheap enough for an Open on the GUI thread).
bool isMultiProcessExport(const std::string& file);

} // namespace ws
