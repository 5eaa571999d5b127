#include "analysis/operator_csv.h"
#include "analysis/operator_table.h"
#include "analysis/operator_tree.h"
#include "analysis/session_results.h"
#include "analysis/session_reports.h"
#include "cli_args.h"
#include "commands.h"
#include "import/trace_import.h"
#include "model/session.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <cstdio>
#include <iostream>
#include <numeric>
#include <string>

namespace ws::cli {

namespace {

const char* const kUsage = "Usage: warpscope-cli ops FILE [--csv] [--group name|shape|stack] [--bench]\n";

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Times the tree (with and without the argument pass), each grouping, every sort and the name filter.
// The trees are built in the Operators tab's order: with argument columns its one build is the tree
// with arguments; without them the tree without arguments comes first (OperatorTableView).
void runBench(const Session& session) {
    OperatorTreeOptions noArgs;
    noArgs.readArgs = false;
    std::optional<OperatorTree> bareTree, fullTree;
    double treeMs = 0, treeArgsMs = 0;
    auto buildBare = [&] {
        const auto t0 = std::chrono::steady_clock::now();
        bareTree = OperatorTree::build(session, noArgs);
        treeMs = msSince(t0);
    };
    auto buildFull = [&] {
        const auto t0 = std::chrono::steady_clock::now();
        fullTree = OperatorTree::build(session);
        treeArgsMs = msSince(t0);
    };
    if (session.argColumns()) {
        buildFull();
        buildBare();
    } else {
        buildBare();
        buildFull();
    }
    std::printf("tree order: %s\n", session.argColumns() ? "with args first (argument columns: the tab's one build)"
                                                         : "without args first (the tab's first stage)");
    const OperatorTree& bare = *bareTree;
    const OperatorTree& tree = *fullTree;
    auto t0 = std::chrono::steady_clock::now();
    size_t counted = 0;
    for (const OperatorNode& n : tree.nodes())
        counted += n.counted();
    const double perM = tree.size() > 0 ? 1e6 / static_cast<double>(tree.size()) : 0;
    std::printf("slices: %llu\n", static_cast<unsigned long long>(session.sliceCount()));
    std::printf("nodes: %zu (operators counted: %zu)\n", tree.size(), counted);
    std::printf("tree_ms: %.1f (%.1f per 1M nodes)\n", treeMs, treeMs * perM);
    std::printf("tree_with_args_ms: %.1f (%.1f per 1M nodes)\n", treeArgsMs, treeArgsMs * perM);
    size_t checksum = bare.size();
    const char* const names[] = {"name", "shape", "stack"};
    for (int g = 0; g < 3; ++g) {
        t0 = std::chrono::steady_clock::now();
        const OperatorTable table = OperatorTable::build(session, tree, static_cast<OperatorGrouping>(g));
        const double buildMs = msSince(t0);
        double sortMax = 0;
        for (size_t c = 0; c < kOperatorColumnCount; ++c)
            for (bool descending : {false, true}) {
                t0 = std::chrono::steady_clock::now();
                const std::vector<uint32_t> order = table.sortedOrder(static_cast<OperatorColumn>(c), descending);
                sortMax = std::max(sortMax, msSince(t0));
                checksum += order.empty() ? 0 : order.front();
            }
        std::vector<uint32_t> all(table.size());
        std::iota(all.begin(), all.end(), 0u);
        t0 = std::chrono::steady_clock::now();
        checksum += table.filterByName(all, "mm").size();
        const double filterMs = msSince(t0);
        std::printf("group_%s: rows %zu, build_ms %.1f (%.1f per 1M nodes), sort_ms_max %.2f, filter_ms %.2f\n",
                    names[g], table.size(), buildMs, buildMs * perM, sortMax, filterMs);
    }
    const int64_t mid = session.startNs() + (session.endNs() - session.startNs()) / 2;
    t0 = std::chrono::steady_clock::now();
    const OperatorTable half = OperatorTable::build(session, tree, OperatorGrouping::Name,
                                                    OperatorTimeRange{session.startNs(), mid});
    std::printf("group_name_first_half: rows %zu, calls %llu, build_ms %.1f\n", half.size(),
                static_cast<unsigned long long>(half.totalCalls()), msSince(t0));
    std::printf("checksum: %zu\n", checksum);
}

} // namespace

int runOps(const std::vector<std::string>& argv) {
    CliArgs args(argv, {"group"});
    const std::vector<std::string> known = {"csv", "group", "bench"};
    if (args.flag("help") || args.flag("h")) {
        std::printf("%sThe operator table (torch-tb-profiler's operator view): calls, host total/self and device\n"
                    "total/self time per operator, Tensor Core eligibility and Tensor Core share of device time.\n"
                    "--group name (default), shape (name + input shapes and dtypes) or stack (name + call stack).\n"
                    "Plain text with durations in us, or --csv with durations in ns; values a trace cannot give\n"
                    "are empty fields. --bench times building, grouping, sorting and filtering instead.\n",
                    kUsage);
        return kExitOk;
    }
    const std::optional<std::string> group = args.value("group");
    if (!args.ok() || !args.unknown(known).empty() || args.positional().size() != 1 ||
        (group && *group != "name" && *group != "shape" && *group != "stack")) {
        std::fprintf(stderr, "%s", kUsage);
        return kExitUsage;
    }
    const std::string& path = args.positional()[0];
    ImportResult result;
    if (!importForCli(path, result))
        return kExitFailure;
    const Session& session = *result.session;
    if (args.flag("bench")) {
        runBench(session);
        // What a stored session carries instead (session_results.h): the operator rows of every grouping.
        const auto t0 = std::chrono::steady_clock::now();
        const std::optional<SessionResults> stored = decodeSessionResults(session.storedResults(), session);
        if (stored)
            std::printf("stored_first_view_ms: %.1f (%zu operator rows by name, %zu by shape, %zu by stack the session file carries)\n",
                        msSince(t0), stored->run.operators[0].rows.size(), stored->run.operators[1].rows.size(),
                        stored->run.operators[2].rows.size());
        return kExitOk;
    }
    const OperatorGrouping grouping = !group || *group == "name" ? OperatorGrouping::Name
                                      : *group == "shape"        ? OperatorGrouping::NameAndInputShape
                                                                 : OperatorGrouping::NameAndCallStack;
    std::ios::sync_with_stdio(false);
    if (args.flag("csv")) {
        writeOperatorsReport(std::cout, session, grouping);
    } else {
        OperatorTreeOptions options;
        options.readArgs = grouping != OperatorGrouping::Name;
        const OperatorTree tree = OperatorTree::build(session, options);
        const OperatorTable table = OperatorTable::build(session, tree, grouping);
        std::vector<uint32_t> order(table.size());
        std::iota(order.begin(), order.end(), 0u); // rows come in the default order
        writeOperatorText(std::cout, session, tree, table, order);
    }
    std::cout.flush();
    return std::cout ? kExitOk : kExitFailure;
}

} // namespace ws::cli
