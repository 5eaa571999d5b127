#include "cli_args.h"
#include "commands.h"
#include "import/trace_import.h"
#include "model/session.h"

#include <sys/resource.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

namespace ws::cli {

namespace {

// Peak resident set size of this process in bytes (VmHWM, else ru_maxrss).
uint64_t peakRssBytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stoull(line.substr(6)) * 1024;
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<uint64_t>(ru.ru_maxrss) * 1024;
}

} // namespace

int runBenchImport(const std::vector<std::string>& argv) {
    CliArgs args(argv, {"repeat", "threads"});
    const char* usage = "Usage: warpscope-cli bench-import FILE [--repeat N] [--threads N]\n";
    if (args.flag("help") || args.flag("h")) {
        std::printf("%sImport FILE N times and print wall time, MB/s, peak RSS and model bytes per event.\n", usage);
        return kExitOk;
    }
    if (!args.ok() || !args.unknown({"repeat", "threads"}).empty() || args.positional().size() != 1) {
        std::fprintf(stderr, "%s", usage);
        return kExitUsage;
    }
    int repeat = 1;
    unsigned threads = 0;
    try {
        if (auto v = args.value("repeat"))
            repeat = std::max(1, std::stoi(*v));
        if (auto v = args.value("threads"))
            threads = static_cast<unsigned>(std::max(0, std::stoi(*v)));
    } catch (const std::exception&) {
        std::fprintf(stderr, "%s", usage);
        return kExitUsage;
    }
    const std::string& path = args.positional()[0];
    struct stat st {};
    const double fileBytes = ::stat(path.c_str(), &st) == 0 ? static_cast<double>(st.st_size) : 0.0;
    double best = 1e300, total = 0;
    std::shared_ptr<const Session> session;
    for (int i = 0; i < repeat; ++i) {
        session.reset();
        ImportControl control;
        control.threads = threads;
        const auto t0 = std::chrono::steady_clock::now();
        ImportResult r = importTraceFile(path, control);
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!r.session) {
            std::fprintf(stderr, "warpscope-cli: %s: %s\n", path.c_str(), r.error.c_str());
            return kExitFailure;
        }
        session = r.session;
        best = std::min(best, secs);
        total += secs;
    }
    const double events = static_cast<double>(session->sourceEventCount());
    const double modelBytes = static_cast<double>(session->memoryBytes());
    const double rss = static_cast<double>(peakRssBytes());
    const double mb = fileBytes / 1e6;
    std::printf("file: %s\n", path.c_str());
    std::printf("file_bytes: %.0f\n", fileBytes);
    std::printf("format: %s\n", formatName(session->format()));
    std::printf("repeat: %d\n", repeat);
    std::printf("wall_s_best: %.3f\n", best);
    std::printf("wall_s_mean: %.3f\n", total / repeat);
    std::printf("mb_per_s: %.1f\n", best > 0 ? mb / best : 0.0);
    std::printf("events: %.0f\n", events);
    std::printf("slices: %llu\n", static_cast<unsigned long long>(session->sliceCount()));
    std::printf("peak_rss_bytes: %.0f\n", rss);
    std::printf("peak_rss_over_file: %.3f\n", fileBytes > 0 ? rss / fileBytes : 0.0);
    std::printf("model_bytes: %.0f\n", modelBytes);
    std::printf("model_bytes_per_event: %.1f\n", events > 0 ? modelBytes / events : 0.0);
    // Goals of issue #3, scaled linearly from 1 GB in 2.5 s (100 MB in 0.3 s).
    const double goalSecs = fileBytes <= 150e6 ? 0.3 * fileBytes / 100e6 : 2.5 * fileBytes / 1e9;
    std::printf("goal_time_s: %.3f\n", goalSecs);
    std::printf("goal_time_ratio: %.2f\n", goalSecs > 0 ? best / goalSecs : 0.0);
    std::printf("goal_1GB_2.5s_ratio: %.2f\n", fileBytes > 0 ? (best * 1e9 / fileBytes) / 2.5 : 0.0);
    std::printf("goal_rss_0.5x_ratio: %.2f\n", fileBytes > 0 ? (rss / fileBytes) / 0.5 : 0.0);
    std::printf("goal_40B_per_event_ratio: %.2f\n", events > 0 ? (modelBytes / events) / 40.0 : 0.0);
    return kExitOk;
}

} // namespace ws::cli
