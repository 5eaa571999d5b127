#pragma once

#include <atomic>
#include <functional>
#include <string>

namespace ws {

/*
 * Where Warpscope finds Nsight Systems' `nsys` and keeps what it exported. Plain options (core reads
 * no settings): the app passes the nsys set in its Settings, the CLI the environment's.
 */
struct NsysExportOptions {
    // An nsys chosen by the user (the app's Settings); "" = $WARPSCOPE_NSYS, then PATH, then the
    // newest install under /opt/nvidia/nsight-systems*/.
    std::string nsys;
    // False: only `nsys` above is used (tests, so a real install never answers for the fake).
    bool searchSystem = true;
    std::string cacheDir; // "" = defaultNsysExportCacheDir()
};

/*
 * The nsys to run, or "" with *why saying where it looked. A configured path that is not an
 * executable is an error of its own (the user asked for that one), not a reason to take another.
 */
std::string findNsys(const NsysExportOptions& options, std::string* why);
// The first executable `nsys` in a PATH-style list of directories; "" when none.
std::string nsysOnPath(const std::string& pathList);
// The newest nsys under `root` (e.g. /opt/nvidia): <root>/nsight-systems*/<version>/{bin,
// target-linux-x64}/nsys, and the same without the version folder. Versions compare numerically
// per dotted part (2025.1.1 > 2024.6.2 > 2024.10 is wrong as text, right here); "" when none.
std::string newestNsysUnder(const std::string& root);
// $WARPSCOPE_NSYS_CACHE, else $XDG_CACHE_HOME/warpscope/nsys-export, else ~/.cache/warpscope/nsys-export.
std::string defaultNsysExportCacheDir();

struct NsysExportResult {
    std::string sqlitePath; // the export in the cache; "" on failure
    std::string error;      // why not (nsys missing, nsys failed with its own words)
    bool cancelled = false;
    bool fromCache = false; // an earlier export of the unchanged report was reused
    std::string nsys;       // the nsys that ran (or would have)
};

/*
 * exportNsysReport: a .nsys-rep (or .qdrep) as an SQLite export, the input preparation that lets
 * the Nsight Systems SQLite importer read it; the same role fetchRemoteObject plays for a URL.
 *
 * The export lands in the cache as <cacheDir>/<hash of the report's path>-<hash of its size and
 * mtime>.sqlite, so reopening an unchanged report reuses it and a changed one replaces its old
 * export. nsys writes to a temp name that is renamed into place only after it succeeded: a failed,
 * killed or cancelled export leaves nothing that looks finished. nsys runs with an argument vector
 * (never a shell), stdin from /dev/null, and its stdout and stderr read together: its progress bar
 * ("...NN%") drives `progress` (fraction in [0, 1] of the export), its last lines are the error
 * when it fails. Setting *cancel stops nsys (SIGINT to its process group, SIGKILL after a grace).
 */
NsysExportResult exportNsysReport(const std::string& report, const NsysExportOptions& options,
                                  const std::function<void(double)>& progress = {},
                                  const std::atomic<bool>* cancel = nullptr);

// The sentence for a report that could not be converted. Without an nsys it keeps saying how to
// export by hand, and that Warpscope does it once nsys is installed or configured.
std::string nsysExportFailure(const NsysExportResult& result);

// The cached export of `report` if it is there and current (no nsys needed); "" otherwise.
std::string cachedNsysExport(const std::string& report, const NsysExportOptions& options);

} // namespace ws
