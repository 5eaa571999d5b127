#include "analysis/session_analyses.h"
#include "analysis/session_diff.h"
#include "analysis/session_diff_text.h"
#include "analysis/session_results.h"
#include "analysis/operator_tree.h"
#include "analysis/overview.h"
#include "cli_args.h"
#include "commands.h"
#include "import/trace_import.h"
#include "model/session.h"
#include "store/stored_results.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace ws::cli {

namespace {

const char* const kUsage =
    "Usage: warpscope-cli diff A [B] [--csv | --json] [--by op|kernel|op-kernel|step|headline] [--group name|shape|stack]\n"
    "                          [--step-a STEP] [--step-b STEP] [--fail-if-slower PCT] [--bench]\n";

// Exit status when --fail-if-slower's threshold is crossed (distinct from failures and usage errors).
constexpr int kExitSlower = 3;

std::string us(int64_t ns) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(ns) / 1000.0);
    return buf;
}

std::string valueText(const DiffMetric& m, size_t side) {
    if (!m.value[side])
        return "n/a";
    char buf[48];
    const double v = *m.value[side];
    if (m.unit == "ns")
        std::snprintf(buf, sizeof buf, "%.3f ms", v / 1e6);
    else if (m.unit == "bytes")
        std::snprintf(buf, sizeof buf, "%.1f MiB", v / (1024.0 * 1024.0));
    else if (m.unit == "%")
        std::snprintf(buf, sizeof buf, "%.2f %%", v);
    else
        std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
}

void printText(const SessionDiff& d, OperatorGrouping asked, size_t top) {
    std::printf("%-30s %16s %16s %10s\n", "metric", "A", "B", "change");
    for (const DiffMetric& m : d.headline) {
        const auto change = m.percentChange();
        char pct[24] = "";
        if (change)
            std::snprintf(pct, sizeof pct, "%+.1f%%", *change);
        std::printf("%-30s %16s %16s %10s\n", m.name.c_str(), valueText(m, 0).c_str(), valueText(m, 1).c_str(), pct);
    }
    if (asked != d.operatorGrouping) // by call stack, but a run has none
        std::printf("\n%s: operators are matched by name.\n",
                    d.callStacks[0] || d.callStacks[1] ? (d.callStacks[0] ? "Run B has no call stacks" : "Run A has no call stacks")
                                                       : "Neither run has call stacks");
    std::printf("\nOperators by %s change (us; top %zu of %zu):\n", d.deviceTimes ? "device self time" : "host self time",
                std::min(top, d.operators.size()), d.operators.size());
    std::printf("%12s %12s %12s %8s %8s  %s\n", "A", "B", "delta", "calls A", "calls B", "operator");
    for (size_t i = 0; i < d.operators.size() && i < top; ++i) {
        const OperatorDiffRow& r = d.operators[i];
        const int64_t a = d.deviceTimes ? r.deviceSelfNs[0] : r.hostSelfNs[0], b = d.deviceTimes ? r.deviceSelfNs[1] : r.hostSelfNs[1];
        std::string key = r.name;
        if (!r.shapes.empty())
            key += " " + r.shapes;
        if (r.presence != DiffPresence::Both)
            key += std::string(" [") + diffPresenceName(r.presence) + "]";
        std::printf("%12s %12s %12s %8llu %8llu  %s\n", us(a).c_str(), us(b).c_str(), us(r.deltaNs).c_str(),
                    static_cast<unsigned long long>(r.calls[0]), static_cast<unsigned long long>(r.calls[1]), key.c_str());
    }
    std::printf("\nKernels by total time change (us; top %zu of %zu; names normalized):\n", std::min(top, d.kernels.size()),
                d.kernels.size());
    std::printf("%12s %12s %12s %8s %8s  %s\n", "A", "B", "delta", "calls A", "calls B", "kernel");
    for (size_t i = 0; i < d.kernels.size() && i < top; ++i) {
        const KernelDiffRow& r = d.kernels[i];
        std::string key = r.key.size() > 100 ? r.key.substr(0, 97) + "..." : r.key;
        if (r.presence != DiffPresence::Both)
            key += std::string(" [") + diffPresenceName(r.presence) + "]";
        std::printf("%12s %12s %12s %8llu %8llu  %s\n", us(r.totalNs[0]).c_str(), us(r.totalNs[1]).c_str(),
                    us(r.deltaNs).c_str(), static_cast<unsigned long long>(r.calls[0]),
                    static_cast<unsigned long long>(r.calls[1]), key.c_str());
    }
}

double msSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

/*
 * --bench: the comparison cold (nothing cached, as `diff` itself runs), then as the app runs it
 * once both sessions are open: a session tab computes its Overview when shown and its operator
 * tree when the Operators tab is, into the session's SessionAnalyses, which the Compare tab reuses.
 */
void printBench(const Session& a, const Session& b, const SessionDiffOptions& options, const SessionDiff& diff, double coldMs) {
    auto again0 = std::chrono::steady_clock::now();
    (void)computeSessionDiff(a, b, options); // the sessions' columns are decoded by now
    const double coldAgainMs = msSince(again0);
    std::printf("slices_a: %llu\nslices_b: %llu\noperators: %zu\nkernels: %zu\noperator_kernels: %zu\n",
                static_cast<unsigned long long>(a.sliceCount()), static_cast<unsigned long long>(b.sliceCount()),
                diff.operators.size(), diff.kernels.size(), diff.operatorKernels.size());
    std::printf("diff_cold_ms: %.1f (first use: stored columns decoded)\ndiff_cold_again_ms: %.1f\n", coldMs, coldAgainMs);
    auto alias = [](const Session& s) { return std::shared_ptr<const Session>(std::shared_ptr<const Session>(), &s); };
    const bool withArgs = options.operatorGrouping != OperatorGrouping::Name;
    // Overview shown in both tabs, Operators not: the trees are built by the comparison.
    double overviewOnly = 1e30, open = 1e30;
    for (int repeat = 0; repeat < 3; ++repeat) {
        SessionAnalyses ca(alias(a)), cb(alias(b));
        (void)ca.overviewData();
        (void)cb.overviewData();
        auto t = std::chrono::steady_clock::now();
        (void)computeSessionDiff(ca, cb, options);
        overviewOnly = std::min(overviewOnly, msSince(t));
        // Now both tabs have shown Overview and Operators (the trees were kept by the pass above).
        (void)ca.operatorTree(withArgs);
        (void)cb.operatorTree(withArgs);
        t = std::chrono::steady_clock::now();
        (void)computeSessionDiff(ca, cb, options);
        open = std::min(open, msSince(t));
    }
    std::printf("diff_overview_shown_ms: %.1f (best of 3; operator trees built by the comparison)\n", overviewOnly);
    std::printf("diff_after_open_ms: %.1f (best of 3; goal 1000, ratio %.2f)\n", open, open / 1000.0);
    // The tables' sorts, as the Compare tab's models do them: every column, both directions.
    double worstSort = 0;
    auto sortBy = [&](auto key) {
        for (bool descending : {false, true}) {
            std::vector<const OperatorDiffRow*> rows;
            rows.reserve(diff.operators.size());
            for (const OperatorDiffRow& r : diff.operators)
                rows.push_back(&r);
            const auto t = std::chrono::steady_clock::now();
            std::stable_sort(rows.begin(), rows.end(), [&](const OperatorDiffRow* x, const OperatorDiffRow* y) {
                return descending ? key(*y) < key(*x) : key(*x) < key(*y);
            });
            worstSort = std::max(worstSort, msSince(t));
        }
    };
    sortBy([](const OperatorDiffRow& r) { return r.name; });
    sortBy([](const OperatorDiffRow& r) { return r.calls[1]; });
    sortBy([](const OperatorDiffRow& r) { return r.deviceSelfNs[1]; });
    sortBy([](const OperatorDiffRow& r) { return r.deltaNs; });
    std::printf("operator_rows_sort_ms_max: %.2f (goal 100, ratio %.4f)\n", worstSort, worstSort / 100.0);
}

// The comparison of two session files from their stored results alone (stored_results.h); nullopt
// when either is not a session or has none that answer `options` (then the models are read).
std::optional<SessionDiff> diffStoredSessions(const std::string& pathA, const std::string& pathB, const SessionDiffOptions& options) {
    if (detectFormat(pathA) != TraceFormat::WarpscopeSession || detectFormat(pathB) != TraceFormat::WarpscopeSession)
        return std::nullopt;
    std::optional<SessionResults> a, b;
    std::thread other([&] { b = readStoredResultsOnly(pathB); });
    a = readStoredResultsOnly(pathA);
    other.join();
    if (!a || !b)
        return std::nullopt;
    std::optional<RunDigest> da = storedDigestFor(*a, options, 0), db = storedDigestFor(*b, options, 1);
    if (!da || !db)
        return std::nullopt;
    return diffRunDigests(*da, *db, options);
}

int printDiff(const SessionDiff& diff, const CliArgs& args, const SessionDiffOptions& options,
              const std::optional<std::string>& by, const std::optional<double>& slower) {
    if (args.flag("json")) {
        std::fputs(sessionDiffJson(diff).c_str(), stdout);
    } else if (args.flag("csv")) {
        const DiffTable table = !by || *by == "op" ? DiffTable::Operators
                                : *by == "kernel" ? DiffTable::Kernels
                                : *by == "op-kernel" ? DiffTable::OperatorKernels
                                : *by == "step"   ? DiffTable::Steps
                                                  : DiffTable::Headline;
        std::fputs(sessionDiffCsv(diff, table).c_str(), stdout);
    } else {
        printText(diff, options.operatorGrouping, 15);
    }
    if (slower && diff.stepTimeChangePercent && *diff.stepTimeChangePercent > *slower) {
        std::fprintf(stderr, "warpscope-cli: B is %.1f%% slower per step than A (threshold %.1f%%)\n",
                     *diff.stepTimeChangePercent, *slower);
        return kExitSlower;
    }
    return kExitOk;
}

} // namespace

int runDiff(const std::vector<std::string>& argv) {
    CliArgs args(argv, {"by", "group", "fail-if-slower", "step-a", "step-b"});
    if (args.flag("help") || args.flag("h")) {
        std::printf("%sCompares run B with run A (traces or sessions): headline deltas (step time, GPU utilization,\n"
                    "SM efficiency, occupancy, Tensor Core share, peak memory, kernel/memcpy/communication time per\n"
                    "step), operator deltas (--group name, shape or stack) and kernel deltas (names normalized so that\n"
                    "template arguments and cuBLAS/CUTLASS tile suffixes do not split a kernel), sorted by the size of\n"
                    "the change. Kernels are also matched by the operator that launched them (--by op-kernel). With\n"
                    "--group stack, a run without call stacks makes both runs' operators match by name.\n"
                    "--csv prints one table (--by op, kernel, op-kernel, step or headline), --json all of them.\n"
                    "--fail-if-slower PCT exits with status 3 when B's mean step time is more than PCT %% above A's.\n"
                    "--step-a / --step-b compare one step of each run (its number, as in ProfilerStep#N, or #K for\n"
                    "the K-th step); with one trace, its two steps are compared (B is A).\n"
                    "--bench times the comparison after both are open.\n",
                    kUsage);
        return kExitOk;
    }
    const auto by = args.value("by"), group = args.value("group"), slower = args.value("fail-if-slower");
    const bool byOk = !by || *by == "op" || *by == "kernel" || *by == "op-kernel" || *by == "step" || *by == "headline";
    const bool groupOk = !group || *group == "name" || *group == "shape" || *group == "stack";
    char* end = nullptr;
    const double threshold = slower ? std::strtod(slower->c_str(), &end) : 0;
    const auto stepA = args.value("step-a"), stepB = args.value("step-b");
    const size_t inputs = args.positional().size();
    if (!args.ok() || !args.unknown({"csv", "json", "by", "group", "fail-if-slower", "bench", "step-a", "step-b"}).empty() ||
        inputs < 1 || inputs > 2 || (inputs == 1 && !(stepA && stepB)) || !byOk || !groupOk || (slower && (end == slower->c_str() || *end)) ||
        (args.flag("csv") && args.flag("json"))) {
        std::fprintf(stderr, "%s", kUsage);
        return kExitUsage;
    }
    SessionDiffOptions options;
    options.operatorGrouping = !group || *group == "name" ? OperatorGrouping::Name
                               : *group == "shape"        ? OperatorGrouping::NameAndInputShape
                                                          : OperatorGrouping::NameAndCallStack;
    // Two stored sessions compared whole: their files' results are enough, the models stay unread.
    std::optional<SessionDiff> stored;
    double storedMs = 0;
    if (inputs == 2 && !stepA && !stepB) {
        const auto t0 = std::chrono::steady_clock::now();
        stored = diffStoredSessions(args.positional()[0], args.positional()[1], options);
        storedMs = msSince(t0);
    }
    if (stored && !args.flag("bench"))
        return printDiff(*stored, args, options, by, slower ? std::optional<double>(threshold) : std::nullopt);
    ImportResult a, b;
    if (!importForCli(args.positional()[0], a) || (inputs == 2 && !importForCli(args.positional()[1], b)))
        return kExitFailure;
    if (inputs == 1)
        b.session = a.session; // two steps of one run
    for (size_t side = 0; side < 2; ++side) {
        const auto& label = side == 0 ? stepA : stepB;
        if (!label)
            continue;
        const Session& run = side == 0 ? *a.session : *b.session;
        options.window[side] = stepWindow(run, *label);
        if (!options.window[side]) {
            std::fprintf(stderr, "warpscope-cli: run %c has no step %s\n", side == 0 ? 'A' : 'B', label->c_str());
            return kExitFailure;
        }
    }
    const auto t0 = std::chrono::steady_clock::now();
    const SessionDiff diff = computeSessionDiff(*a.session, *b.session, options);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (args.flag("bench")) {
        if (stored)
            std::printf("diff_stored_ms: %.1f (both files' stored results read and compared, models not read; goal 300, ratio %.3f)\n",
                        storedMs, storedMs / 300.0);
        printBench(*a.session, *b.session, options, diff, ms);
        return kExitOk;
    }
    return printDiff(diff, args, options, by, slower ? std::optional<double>(threshold) : std::nullopt);
}

} // namespace ws::cli
