#include "analysis/idle_gaps.h"
#include "analysis/idle_gaps_text.h"
#include "cli_args.h"
#include "commands.h"
#include "import/trace_import.h"
#include "model/session.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace ws::cli {

namespace {

const char* const kUsage = "Usage: warpscope-cli gaps FILE [--threshold-us N] [--csv|--lines-csv] [--top N] "
                           "[--from NS --to NS] [--wake-us N] [--drain-us N] [--bench]\n";

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string csvField(const std::string& v) {
    if (v.find_first_of(",\"\n") == std::string::npos)
        return v;
    std::string out = "\"";
    for (char c : v) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

void printLinesCsv(const IdleGapReport& r) {
    std::printf("category,what,file,line,function,ns,gaps\n");
    for (size_t k = 0; k < kGapCategoryCount; ++k)
        for (uint32_t i : r.categories[k].lines) {
            const GapLine& l = r.lines[i];
            std::printf("%s,%s,%s,%d,%s,%lld,%llu\n", gapCategoryId(l.category), csvField(l.what).c_str(),
                        csvField(l.file).c_str(), l.line, csvField(l.function).c_str(), static_cast<long long>(l.ns),
                        static_cast<unsigned long long>(l.gaps));
        }
}

void runBench(const Session& session, const IdleGapOptions& options, double importMs) {
    double prepareMs = 1e300, gapsMs = 1e300;
    IdleGapReport r;
    for (int round = 0; round < 3; ++round) {
        auto t0 = std::chrono::steady_clock::now();
        const OverviewData d = prepareOverview(session);
        prepareMs = std::min(prepareMs, msSince(t0));
        t0 = std::chrono::steady_clock::now();
        r = computeIdleGaps(session, d, options);
        gapsMs = std::min(gapsMs, msSince(t0));
    }
    std::printf("slices: %llu\n", static_cast<unsigned long long>(session.sliceCount()));
    std::printf("steps: %zu\n", r.steps.size());
    std::printf("gaps: %zu (threshold %lld ns)\n", r.gaps.size(), static_cast<long long>(options.thresholdNs));
    std::printf("call stacks read: %s\n", r.callStacksRead ? "yes" : "no");
    std::printf("import_ms: %.1f\n", importMs);
    std::printf("prepare_overview_ms: %.1f (best of 3; shared with the Overview)\n", prepareMs);
    std::printf("gaps_ms: %.1f (best of 3%s)\n", gapsMs,
                r.gaps.empty() ? "" : (", " + std::to_string(gapsMs * 1000.0 / static_cast<double>(r.gaps.size())).substr(0, 6) + " us per gap").c_str());
}

} // namespace

int runGaps(const std::vector<std::string>& argv) {
    CliArgs args(argv, {"threshold-us", "top", "from", "to", "wake-us", "drain-us"});
    const std::vector<std::string> known = {"wake-us", "drain-us", "threshold-us", "csv", "lines-csv", "top", "from", "to", "bench"};
    if (args.flag("help") || args.flag("h")) {
        std::printf("%s"
                    "Why the GPU waits: every GPU idle gap of at least --threshold-us (50) inside the steps, classified\n"
                    "by what the thread that launched the next GPU work did meanwhile: host synchronization (which\n"
                    "call, which line), collective wait, data loading (DataLoader ranges, torch/utils/data frames\n"
                    "or stacks), Python / CPU work (its lines), or nothing recorded. Prints the time per category\n"
                    "(per step, share of the gap time) and the top lines (--top N, 5). --csv prints one row per gap,\n"
                    "--lines-csv one row per line; --from/--to (session ns) analyse the steps of a range as the\n"
                    "Overview does. A synchronization explains the host's work for --drain-us (10000) after it ends,\n"
                    "and the gaps that open before the GPU has worked --wake-us (300, 0: off) since; see\n"
                    "core/analysis/idle_gaps.h. --bench prints the time to compute it.\n",
                    kUsage);
        return kExitOk;
    }
    const auto from = args.value("from"), to = args.value("to");
    if (!args.ok() || !args.unknown(known).empty() || args.positional().size() != 1 || from.has_value() != to.has_value() ||
        (args.flag("csv") && args.flag("lines-csv"))) {
        std::fprintf(stderr, "%s", kUsage);
        return kExitUsage;
    }
    IdleGapOptions options;
    size_t top = 5;
    try {
        if (const auto t = args.value("threshold-us")) {
            const double us = std::stod(*t);
            if (!(us >= 0) || us > 1e12)
                throw std::invalid_argument("threshold");
            options.thresholdNs = static_cast<int64_t>(us * 1000.0 + 0.5);
        }
        if (const auto t = args.value("drain-us"))
            options.drainNs = static_cast<int64_t>(std::stod(*t) * 1000.0 + 0.5);
        if (const auto t = args.value("wake-us"))
            options.wakeNs = static_cast<int64_t>(std::stod(*t) * 1000.0 + 0.5);
        if (const auto t = args.value("top"))
            top = static_cast<size_t>(std::stoul(*t));
        if (from) {
            options.range = OverviewRange{std::stoll(*from), std::stoll(*to)};
            if (options.range->end <= options.range->start)
                throw std::invalid_argument("range");
        }
    } catch (const std::exception&) {
        std::fprintf(stderr, "%s", kUsage);
        return kExitUsage;
    }
    const auto t0 = std::chrono::steady_clock::now();
    ImportResult result;
    if (!importForCli(args.positional()[0], result))
        return kExitFailure;
    const double importMs = msSince(t0);
    const Session& session = *result.session;
    if (args.flag("bench")) {
        runBench(session, options, importMs);
        return kExitOk;
    }
    const IdleGapReport r = computeIdleGaps(session, options);
    if (args.flag("csv")) {
        std::fputs(idleGapsCsv(session, r).c_str(), stdout);
        return kExitOk;
    }
    if (args.flag("lines-csv")) {
        printLinesCsv(r);
        return kExitOk;
    }
    if (!r.valid) {
        std::printf("Nothing to analyse: %s\n", r.emptyReason.c_str());
        return kExitOk;
    }
    std::fputs(idleGapsText(r, top).c_str(), stdout);
    return kExitOk;
}

} // namespace ws::cli
