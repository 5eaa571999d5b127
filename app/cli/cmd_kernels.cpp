#include "analysis/kernel_csv.h"
#include "analysis/kernel_groups.h"
#include "analysis/session_reports.h"
#include "analysis/kernel_table.h"
#include "analysis/session_results.h"
#include "cli_args.h"
#include "commands.h"
#include "import/trace_import.h"
#include "model/session.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>

namespace ws::cli {

namespace {

const char* const kUsage =
    "Usage: warpscope-cli kernels FILE [--csv] [--group name|op] [--no-args] [--bench]\n";

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Build, sort by every column both ways and filter by name, timing each against issue #6's goals
// (sort 1 M rows <= 150 ms, filter <= 50 ms).
void runBench(const Session& session, const KernelTableOptions& options) {
    auto t0 = std::chrono::steady_clock::now();
    const KernelTable table = KernelTable::build(session, options);
    const double buildMs = msSince(t0);
    std::vector<double> sortMs;
    size_t checksum = 0;
    for (size_t c = 0; c < kKernelColumnCount; ++c) {
        for (bool descending : {false, true}) {
            t0 = std::chrono::steady_clock::now();
            const std::vector<uint32_t> order = table.sortedOrder(static_cast<KernelColumn>(c), descending);
            sortMs.push_back(msSince(t0));
            checksum += order.empty() ? 0 : order.front();
        }
    }
    std::sort(sortMs.begin(), sortMs.end());
    const double sortP95 = sortMs[std::min(sortMs.size() - 1, (sortMs.size() * 95 + 99) / 100 - 1)];
    const std::vector<uint32_t> byStart = table.sortedOrder(KernelColumn::Start);
    double filterMs = 0;
    for (const char* needle : {"gemm", "Elementwise", "xyz_no_match", "a"}) {
        t0 = std::chrono::steady_clock::now();
        checksum += table.filterByName(byStart, needle).size();
        filterMs = std::max(filterMs, msSince(t0));
    }
    const double rows = static_cast<double>(table.size());
    const double perM = rows > 0 ? 1e6 / rows : 0;
    std::printf("rows: %zu\n", table.size());
    std::printf("args_loaded: %s\n", table.argsLoaded() ? "yes" : "no");
    std::printf("build_ms: %.1f\n", buildMs);
    std::printf("sort_ms_p95: %.1f (max %.1f, %zu sorts)\n", sortP95, sortMs.back(), sortMs.size());
    std::printf("sort_ms_p95_per_1m_rows: %.1f (goal 150, ratio %.2f)\n", sortP95 * perM, sortP95 * perM / 150.0);
    std::printf("filter_ms: %.1f (max of 4 needles)\n", filterMs);
    std::printf("filter_ms_per_1m_rows: %.1f (goal 50, ratio %.2f)\n", filterMs * perM, filterMs * perM / 50.0);
    std::printf("checksum: %zu\n", checksum);
}

} // namespace

int runKernels(const std::vector<std::string>& argv) {
    CliArgs args(argv, {"group"});
    const std::vector<std::string> known = {"csv", "group", "bench", "no-args"};
    if (args.flag("help") || args.flag("h")) {
        std::printf("%sThe kernel table as CSV: one row per kernel call in time order, or one row per group\n"
                    "(--group name: kernel name; --group op: kernel, operator, grid, block).\n"
                    "Unknown values are empty fields. Grid, block, registers, shared memory and the operators'\n"
                    "input shapes come from the columns a JSON import keeps, or are read back from the trace\n"
                    "(other formats, sessions stored before); --no-args leaves them out.\n"
                    "--bench times build, sort and filter instead.\n",
                    kUsage);
        return kExitOk;
    }
    const std::optional<std::string> group = args.value("group");
    if (!args.ok() || !args.unknown(known).empty() || args.positional().size() != 1 ||
        (group && *group != "name" && *group != "op")) {
        std::fprintf(stderr, "%s", kUsage);
        return kExitUsage;
    }
    const std::string& path = args.positional()[0];
    ImportResult result;
    if (!importForCli(path, result))
        return kExitFailure;
    KernelTableOptions options;
    options.readArgs = !args.flag("no-args");
    // A stored session carries its kernels grouped by name (session_results.h): the first view.
    auto t0 = std::chrono::steady_clock::now();
    const std::optional<SessionResults> stored = decodeSessionResults(result.session->storedResults(), *result.session);
    const double storedMs = msSince(t0);
    const bool storedGroups = stored && stored->kernelArgsLoaded == options.readArgs;
    if (args.flag("bench")) {
        runBench(*result.session, options);
        if (storedGroups)
            std::printf("stored_first_view_ms: %.1f (%zu kernel groups by name the session file carries)\n", storedMs,
                        stored->kernelGroups.size());
        return kExitOk;
    }
    if (storedGroups && group && *group != "op") {
        std::ios::sync_with_stdio(false);
        writeKernelGroupCsv(std::cout, *result.session, stored->kernelGroups, KernelGrouping::Name);
        std::cout.flush();
        return std::cout ? kExitOk : kExitFailure;
    }
    std::ios::sync_with_stdio(false);
    if (group) {
        const KernelTable table = KernelTable::build(*result.session, options);
        const KernelGrouping grouping = *group == "op" ? KernelGrouping::NameOpGridBlock : KernelGrouping::Name;
        writeKernelGroupCsv(std::cout, *result.session, groupKernels(table, grouping), grouping);
    } else {
        writeKernelsReport(std::cout, *result.session, options);
    }
    std::cout.flush();
    return std::cout ? kExitOk : kExitFailure;
}

} // namespace ws::cli
