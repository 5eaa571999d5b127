#include "cli_args.h"
#include "commands.h"
#include "import/trace_import.h"
#include "model/session.h"
#include "remote/remote_fetch.h"
#include "remote/remote_url.h"
#include "library/session_library.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace ws::cli {

namespace {

const char* const kUsage = "Usage: warpscope-cli bench-remote URL LOCAL_FILE [--repeat N]\n";

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

/*
 * Issue #14's goals, measured as the app opens a URL (SessionLibrary::openRemote, the Open URL
 * path): the first open of an object (download and import overlapped) against importing the same
 * file from local disk (goal <= 1.3x), and the reopen of the unchanged object (one HEAD request,
 * then the stored session; goal <= 0.3 s). The download alone and download-then-import are printed
 * too, to show what the overlap saves. Cache and library are fresh folders under the temp dir.
 */
int runBenchRemote(const std::vector<std::string>& argv) {
    CliArgs args(argv, {"repeat"});
    if (args.flag("help") || args.flag("h")) {
        std::printf("%sOpen URL as the app does (fresh cache and library each round) and LOCAL_FILE (the same\n"
                    "object on disk); print the times, their ratio and the reopen time against the goals.\n",
                    kUsage);
        return kExitOk;
    }
    if (!args.ok() || !args.unknown({"repeat"}).empty() || args.positional().size() != 2) {
        std::fprintf(stderr, "%s", kUsage);
        return kExitUsage;
    }
    const int repeat = std::max(1, std::atoi(args.value("repeat").value_or("3").c_str()));
    const std::string& url = args.positional()[0];
    const std::string& local = args.positional()[1];
    if (!isRemoteUrl(url)) {
        std::fprintf(stderr, "warpscope-cli: not a URL: %s\n", url.c_str());
        return kExitUsage;
    }
    namespace fs = std::filesystem;
    const fs::path work = fs::temp_directory_path() / ("warpscope-bench-remote-" + std::to_string(::getpid()));
    const std::string cache = (work / "cache").string(), library = (work / "library").string();
    ::setenv("WARPSCOPE_REMOTE_CACHE", cache.c_str(), 1);
    auto fresh = [&] {
        std::error_code ec;
        fs::remove_all(work, ec);
        fs::create_directories(cache, ec);
        fs::create_directories(library, ec);
    };

    double localBest = 1e300, downloadBest = 1e300, openBest = 1e300, reopenBest = 1e300, reopenTotal = 0;
    uint64_t bytes = 0, slices = 0;
    for (int i = 0; i < repeat; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        const ImportResult imported = importTraceFile(local);
        localBest = std::min(localBest, secondsSince(t0));
        if (!imported.session) {
            reportImportError(local, imported.error);
            return kExitFailure;
        }
        slices = imported.session->sliceCount();

        fresh();
        t0 = std::chrono::steady_clock::now();
        const RemoteFetchResult fetched = fetchRemoteObject(url);
        downloadBest = std::min(downloadBest, secondsSince(t0));
        if (fetched.localPath.empty()) {
            reportImportError(url, fetched.error);
            return kExitFailure;
        }
        bytes = fetched.bytes;

        fresh();
        const SessionLibrary lib(library);
        t0 = std::chrono::steady_clock::now();
        SessionLibrary::OpenResult opened = lib.openRemote(url);
        openBest = std::min(openBest, secondsSince(t0));
        if (!opened.session || opened.session->sliceCount() != slices) {
            reportImportError(url, opened.session ? "the remote object differs from LOCAL_FILE" : opened.error);
            return kExitFailure;
        }
        std::string error;
        if (!lib.store(*opened.session, opened.sourcePath, &error)) {
            std::fprintf(stderr, "warpscope-cli: cannot store the session: %s\n", error.c_str());
            return kExitFailure;
        }
        opened = {};
        t0 = std::chrono::steady_clock::now();
        const SessionLibrary::OpenResult again = lib.openRemote(url);
        const double reopen = secondsSince(t0);
        if (!again.session || !again.fromLibrary) {
            reportImportError(url, again.session ? "the reopen did not use the stored session" : again.error);
            return kExitFailure;
        }
        reopenBest = std::min(reopenBest, reopen);
        reopenTotal += reopen;
    }
    std::error_code ec;
    fs::remove_all(work, ec);
    const double ratio = openBest / localBest;
    std::printf("url: %s\n", redactUrl(url).c_str());
    std::printf("object_bytes: %llu\n", static_cast<unsigned long long>(bytes));
    std::printf("slices: %llu\n", static_cast<unsigned long long>(slices));
    std::printf("repeat: %d\n", repeat);
    std::printf("local_import_s_best: %.3f\n", localBest);
    std::printf("download_only_s_best: %.3f (%.0f MB/s)\n", downloadBest, bytes / 1e6 / downloadBest);
    std::printf("download_then_import_s: %.3f (sequential, for comparison)\n", downloadBest + localBest);
    std::printf("remote_open_s_best: %.3f (download and import overlapped)\n", openBest);
    std::printf("remote_over_local: %.2f (goal <= 1.30: %s)\n", ratio, ratio <= 1.3 ? "met" : "NOT MET");
    std::printf("reopen_s_best: %.3f (goal <= 0.30: %s)\n", reopenBest, reopenBest <= 0.3 ? "met" : "NOT MET");
    std::printf("reopen_s_mean: %.3f\n", reopenTotal / repeat);
    return kExitOk;
}

} // namespace ws::cli
