#include "analysis/graph_csv.h"
#include "analysis/graph_replays.h"
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
#include <vector>

namespace ws::cli {

namespace {

const char* const kUsage =
    "Usage: warpscope-cli graphs FILE [--csv|--nodes-csv] [--top N] [--from NS --to NS] [--bench]\n";

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double us(int64_t ns) { return static_cast<double>(ns) / 1e3; }

std::string cut(std::string text, size_t width) {
    if (text.size() > width)
        text = text.substr(0, width - 3) + "...";
    return text;
}

void printText(const Session& s, const GraphReplays& r, size_t top) {
    if (r.graphs().empty()) {
        std::printf("No CUDA graph replays in this trace.\n");
        return;
    }
    uint64_t replays = 0;
    for (const GraphRow& g : r.graphs())
        replays += g.replays;
    std::printf("CUDA graphs: %zu graph(s), %llu replay(s), %llu replayed kernels, copies and sets (%.3f ms of GPU time)\n",
                r.graphs().size(), static_cast<unsigned long long>(replays),
                static_cast<unsigned long long>(r.replayedActivities()), static_cast<double>(r.replayedNs()) / 1e6);
    std::printf("Attributed to the launch that captured them: %llu of %llu (%.1f %%)\n",
                static_cast<unsigned long long>(r.attributedActivities()),
                static_cast<unsigned long long>(r.replayedActivities()),
                r.replayedActivities() ? 100.0 * static_cast<double>(r.attributedActivities()) / r.replayedActivities() : 0.0);
    std::printf("\n%5s %-44s %8s %6s %14s %12s %12s\n", "graph", "captured at", "replays", "nodes", "mean replay us",
                "min us", "busy ms");
    for (const GraphRow& g : r.graphs())
        std::printf("%5u %-44s %8llu %6zu %14.1f %12.1f %12.3f\n", g.number, cut(g.label(), 44).c_str(),
                    static_cast<unsigned long long>(g.replays), g.nodes.size(), us(g.meanReplayNs()),
                    us(g.replays ? g.minReplayNs : 0), static_cast<double>(g.busyNs) / 1e6);
    // The slowest nodes of the graphs that cost the most GPU time.
    std::vector<size_t> order(r.graphs().size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return r.graphs()[a].busyNs > r.graphs()[b].busyNs; });
    order.resize(std::min<size_t>(order.size(), 3));
    for (size_t gi : order) {
        const GraphRow& g = r.graphs()[gi];
        std::printf("\nSlowest nodes of graph %u (%s):\n%5s %-40s %-24s %-28s %9s %10s %7s\n", g.number, g.label().c_str(),
                    "node", "name", "operator", "line", "calls", "mean us", "share");
        const std::vector<uint32_t> nodes = r.slowestNodes(gi);
        for (size_t k = 0; k < std::min(top, nodes.size()); ++k) {
            const GraphNodeRow& n = g.nodes[nodes[k]];
            const std::string line = n.line > 0 ? shortLocation(n.file, n.line) : std::string();
            std::printf("%5u %-40s %-24s %-28s %9llu %10.2f %6.2f%%\n", n.index + 1,
                        cut(std::string(s.str(n.name)), 40).c_str(), cut(std::string(s.str(n.op)), 24).c_str(),
                        cut(line, 28).c_str(), static_cast<unsigned long long>(n.calls),
                        n.calls ? us(n.totalNs) / static_cast<double>(n.calls) : 0.0,
                        g.busyNs > 0 ? 100.0 * static_cast<double>(n.totalNs) / static_cast<double>(g.busyNs) : 0.0);
        }
    }
}

void runBench(const Session& s, const GraphReplaysOptions& options, double importMs) {
    double bare = 1e300, described = 1e300;
    size_t graphs = 0;
    for (int i = 0; i < 3; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        GraphReplaysOptions o = options;
        o.describe = false;
        graphs = GraphReplays::build(s, o).graphs().size();
        bare = std::min(bare, msSince(t0));
        t0 = std::chrono::steady_clock::now();
        GraphReplays::build(s, options);
        described = std::min(described, msSince(t0));
    }
    std::printf("import_ms: %.1f\ngraphs: %zu\ngroup_ms: %.2f (best of 3, what the kernel table pays)\n"
                "describe_ms: %.2f (best of 3, with operators, lines and names)\n",
                importMs, graphs, bare, described);
}

} // namespace

int runGraphs(const std::vector<std::string>& argv) {
    CliArgs args(argv, {"top", "from", "to"});
    const std::vector<std::string> known = {"csv", "nodes-csv", "top", "from", "to", "bench"};
    if (args.flag("help") || args.flag("h")) {
        std::printf("%s"
                    "CUDA graph replays grouped by graph: replays, time per replay, and each graph's slowest nodes with\n"
                    "the operator and Python line that captured them (a capture records where every node was made;\n"
                    "for other traces the nodes are known by position). --csv prints one row per graph, --nodes-csv one\n"
                    "row per node; --from/--to (session ns) keep the replays launched in a range. --bench times it.\n",
                    kUsage);
        return kExitOk;
    }
    const auto from = args.value("from"), to = args.value("to");
    if (!args.ok() || !args.unknown(known).empty() || args.positional().size() != 1 || from.has_value() != to.has_value() ||
        (args.flag("csv") && args.flag("nodes-csv"))) {
        std::fprintf(stderr, "%s", kUsage);
        return kExitUsage;
    }
    GraphReplaysOptions options;
    size_t top = 10;
    try {
        if (const auto t = args.value("top"))
            top = static_cast<size_t>(std::stoul(*t));
        if (from) {
            options.from = std::stoll(*from);
            options.to = std::stoll(*to);
            if (options.to <= options.from)
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
    const Session& session = *result.session;
    if (args.flag("bench")) {
        runBench(session, options, msSince(t0));
        return kExitOk;
    }
    const GraphReplays replays = GraphReplays::build(session, options);
    if (args.flag("csv"))
        writeGraphCsv(std::cout, replays);
    else if (args.flag("nodes-csv"))
        writeGraphNodeCsv(std::cout, session, replays);
    else
        printText(session, replays, top);
    return kExitOk;
}

} // namespace ws::cli
