#pragma once

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

} // namespace ws
