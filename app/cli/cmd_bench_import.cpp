#include "cli_args.h"
#include "commands.h"
#include "import/trace_import.h"
#include "library/open_trace.h"
#include "model/session.h"
#include "peak_rss.h"

#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <string>

namespace ws::cli {


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
    std::vector<std::pair<std::string, double>> timings;
    double textBytes = 0;
    for (int i = 0; i < repeat; ++i) {
        session.reset();
        ImportControl control;
        control.threads = threads;
        const auto t0 = std::chrono::steady_clock::now();
        ImportResult r = openTraceFile(path, control);
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!r.session) {
            reportImportError(path, r.error);
            return kExitFailure;
        }
        session = r.session;
        if (secs < best)
            timings = r.timings;
        textBytes = static_cast<double>(r.textBytes);
        best = std::min(best, secs);
        total += secs;
    }
    const double events = static_cast<double>(session->sourceEventCount());
    const double modelBytes = static_cast<double>(session->memoryBytes());
    const double rss = static_cast<double>(peakRssBytes());
    // Rates and ratios are against the JSON text (the decompressed size for .gz/.zst inputs).
    const double json = textBytes > 0 ? textBytes : fileBytes;
    std::printf("file: %s\n", path.c_str());
    std::printf("file_bytes: %.0f\n", fileBytes);
    std::printf("json_bytes: %.0f\n", json);
    std::printf("format: %s\n", formatName(session->format()));
    std::printf("threads: %u\n", threads);
    std::printf("repeat: %d\n", repeat);
    std::printf("wall_s_best: %.3f\n", best);
    std::printf("wall_s_mean: %.3f\n", total / repeat);
    std::printf("mb_per_s: %.1f\n", best > 0 ? json / 1e6 / best : 0.0);
    std::printf("events: %.0f\n", events);
    std::printf("slices: %llu\n", static_cast<unsigned long long>(session->sliceCount()));
    std::printf("peak_rss_bytes: %.0f\n", rss);
    std::printf("peak_rss_over_json: %.3f\n", json > 0 ? rss / json : 0.0);
    std::printf("model_bytes: %.0f\n", modelBytes);
    std::printf("model_bytes_per_event: %.1f\n", events > 0 ? modelBytes / events : 0.0);
    for (const auto& [phase, secs] : timings)
        std::printf("phase_s[%s]: %.3f\n", phase.c_str(), secs);
    // Goals of issue #3 (plain JSON): 100 MB in 0.3 s, 1 GB in 2.5 s, scaled linearly by size;
    // peak RSS <= 0.5x the JSON; model <= 40 bytes/event. Ratios <= 1 meet the goal.
    const double goalSecs = json <= 150e6 ? 0.3 * json / 100e6 : 2.5 * json / 1e9;
    std::printf("goal_time_s: %.3f\n", goalSecs);
    std::printf("goal_time_ratio: %.2f\n", goalSecs > 0 ? best / goalSecs : 0.0);
    std::printf("goal_1GB_2.5s_ratio: %.2f\n", json > 0 ? (best * 1e9 / json) / 2.5 : 0.0);
    std::printf("goal_rss_0.5x_ratio: %.2f\n", json > 0 ? (rss / json) / 0.5 : 0.0);
    std::printf("goal_40B_per_event_ratio: %.2f\n", events > 0 ? (modelBytes / events) / 40.0 : 0.0);
    return kExitOk;
}

} // namespace ws::cli
