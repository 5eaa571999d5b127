#include "analysis/flame_graph.h"
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

const char* const kUsage =
    "Usage: warpscope-cli flame FILE [--weight cpu|gpu|alloc] [--folded] [--bottom-up] "
    "[--from NS --to NS] [--top N] [--min-pct P] [--all-frames | --fold PATTERNS] [--bench]\n";

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string amount(FlameWeight w, int64_t v) {
    char buf[48];
    if (w == FlameWeight::Alloc)
        std::snprintf(buf, sizeof buf, "%.3f MiB", static_cast<double>(v) / (1024.0 * 1024.0));
    else
        std::snprintf(buf, sizeof buf, "%.3f ms", static_cast<double>(v) / 1e6);
    return buf;
}

double percent(int64_t v, int64_t total) {
    return total > 0 ? 100.0 * static_cast<double>(v) / static_cast<double>(total) : 0.0;
}

/* The indented tree: per node its `top` heaviest children at or above minPct of the root, then one
 * "... N more" line for the rest. Depth-first with an explicit stack (Python stacks can be deep). */
void printTree(const FlameGraph& g, size_t top, double minPct) {
    const int64_t all = g.root().total;
    std::printf("%14s %14s %8s  %s\n", "total", "self", "%", "frame");
    struct Item {
        uint32_t node; // FlameNode::kNone: a "... more" line
        uint32_t depth;
        uint32_t more = 0;
        int64_t moreTotal = 0;
    };
    std::vector<Item> todo{{0, 0}};
    while (!todo.empty()) {
        const Item it = todo.back();
        todo.pop_back();
        const std::string indent(2 * it.depth, ' ');
        if (it.node == FlameNode::kNone) {
            std::printf("%14s %14s %7.2f%%  %s... %u more\n", amount(g.weight(), it.moreTotal).c_str(), "",
                        percent(it.moreTotal, all), indent.c_str(), it.more);
            continue;
        }
        g.expand(it.node); // a lazy (bottom-up) graph makes the callers it prints
        const FlameNode& n = g.nodes()[it.node];
        std::printf("%14s %14s %7.2f%%  %s%s\n", amount(g.weight(), n.total).c_str(),
                    amount(g.weight(), n.self).c_str(), percent(n.total, all), indent.c_str(),
                    it.node == 0 ? "(all)" : g.frameText(n.frame).c_str());
        std::vector<Item> kids;
        Item rest{FlameNode::kNone, it.depth + 1};
        for (uint32_t k = 0; k < n.childCount; ++k) {
            const FlameNode& c = g.nodes()[n.firstChild + k];
            if (k < top && percent(c.total, all) >= minPct) {
                kids.push_back({n.firstChild + k, it.depth + 1});
            } else {
                ++rest.more;
                rest.moreTotal += c.total;
            }
        }
        if (rest.more) kids.push_back(rest);
        for (auto k = kids.rbegin(); k != kids.rend(); ++k)
            todo.push_back(*k);
    }
}

/* Top-down build, then the bottom-up graph three ways: lazily from the top-down graph (its roots),
 * plus what a 1920-pixel view first expands (every node of at least 1/1920 of the total), and
 * eagerly (every node, the reference). Best of 3 each. */
void runBench(const Session& session, FlameOptions options, double importMs) {
    double buildMs = 1e300, bottomUpMs = 1e300, visibleMs = 1e300, eagerMs = 1e300, foldedMs = 1e300,
           allFramesMs = 1e300;
    uint32_t foldedFrames = 0;
    size_t nodes = 0, lazyNodes = 0, visibleNodes = 0, invertedNodes = 0, bytes = 0;
    uint64_t samples = 0;
    for (int round = 0; round < 3; ++round) {
        options.bottomUp = false;
        auto t0 = std::chrono::steady_clock::now();
        const FlameGraph g = FlameGraph::build(session, options);
        buildMs = std::min(buildMs, msSince(t0));
        foldedFrames = g.foldedFrameCount();
        {
            // The same graph with every frame: what folding the dispatch frames costs.
            FlameOptions all = options;
            all.fold = FrameFolding::none();
            t0 = std::chrono::steady_clock::now();
            const FlameGraph unfolded = FlameGraph::build(session, all);
            allFramesMs = std::min(allFramesMs, msSince(t0));
        }
        t0 = std::chrono::steady_clock::now();
        const FlameGraph lazy = g.invertedLazily();
        bottomUpMs = std::min(bottomUpMs, msSince(t0));
        lazyNodes = lazy.nodes().size();
        t0 = std::chrono::steady_clock::now();
        lazy.expandAtLeast(lazy.root().total / 1920);
        visibleMs = std::min(visibleMs, msSince(t0));
        visibleNodes = lazy.nodes().size();
        t0 = std::chrono::steady_clock::now();
        const FlameGraph inverted = g.inverted();
        eagerMs = std::min(eagerMs, msSince(t0));
        t0 = std::chrono::steady_clock::now();
        bytes = g.folded().size();
        foldedMs = std::min(foldedMs, msSince(t0));
        nodes = g.nodes().size();
        invertedNodes = inverted.nodes().size();
        samples = g.sampleCount();
    }
    std::printf("slices: %llu\n", static_cast<unsigned long long>(session.sliceCount()));
    std::printf("weight: %s\n", flameWeightName(options.weight));
    std::printf("samples: %llu\n", static_cast<unsigned long long>(samples));
    std::printf("nodes: %zu (bottom-up: %zu; made lazily: %zu, with what 1920 px show: %zu)\n", nodes,
                invertedNodes, lazyNodes, visibleNodes);
    std::printf("import_ms: %.1f\n", importMs);
    // Per million samples only where there are enough for the fixed costs not to dominate.
    const double perMillion = samples >= 100000 ? 1e6 / static_cast<double>(samples) : 0.0;
    if (perMillion > 0)
        std::printf("build_ms: %.1f (best of 3; %.1f per 1M samples, goal 500)\n", buildMs, buildMs * perMillion);
    else
        std::printf("build_ms: %.1f (best of 3)\n", buildMs);
    std::printf("build_all_frames_ms: %.1f (best of 3; the build above folds %u frame(s) with %s patterns: %+.1f ms)\n",
                allFramesMs, foldedFrames, options.fold.empty() ? "no" : std::to_string(options.fold.patterns.size()).c_str(),
                buildMs - allFramesMs);
    std::printf("bottom_up_ms: %.1f (lazy: the roots; build + this: %.1f", bottomUpMs, buildMs + bottomUpMs);
    if (perMillion > 0) std::printf(", %.1f per 1M samples, goal 500", (buildMs + bottomUpMs) * perMillion);
    std::printf(")\n");
    std::printf("bottom_up_visible_ms: %.1f (expanding every node of >= 1/1920 of the total)\n", visibleMs);
    std::printf("bottom_up_eager_ms: %.1f (every node)\n", eagerMs);
    std::printf("folded_ms: %.1f (%zu bytes)\n", foldedMs, bytes);
}

} // namespace

int runFlame(const std::vector<std::string>& argv) {
    CliArgs args(argv, {"weight", "from", "to", "top", "min-pct", "fold"});
    const std::vector<std::string> known = {"weight", "folded",  "bottom-up", "from",       "to",
                                            "top",    "min-pct", "bench",     "all-frames", "fold"};
    if (args.flag("help") || args.flag("h")) {
        std::printf(
            "%sA flame graph of the trace: the call stacks merged into a tree with total and self weight.\n"
            "--weight gpu (default): kernel time by the Python stack that launched the kernel "
            "(torch.profiler\n"
            "with_stack=True, or a capture with --py-stacks); cpu: self time of torch.profiler's "
            "python_function\n"
            "events by their stack; alloc: bytes allocated by stack (else by enclosing operators).\n"
            "--folded prints 'frame1;frame2;...;frameN weight' lines (outermost first; flamegraph.pl, "
            "speedscope\n"
            "and Hotspot read them); --bottom-up inverts the tree (innermost frames first); --from/--to "
            "(session\n"
            "ns) keep what starts inside. The tree shows the --top N (20) heaviest children of each node at "
            "or\n"
            "above --min-pct P (0.5) %% of the total. --bench prints the time to build the graph.\n"
            "Dispatch and decorator frames are folded into their callers (nn.Module's _call_impl and\n"
            "_wrapped_call_impl, *.<locals>.wrapper, wrapped_func, decorate_context, __call__): --all-frames keeps every\n"
            "frame, --fold 'P1,P2' folds these patterns instead (a bare name matches a function's last\n"
            "dotted part, else a glob with * over the whole name).\n",
            kUsage);
        return kExitOk;
    }
    const auto from = args.value("from"), to = args.value("to");
    if (!args.ok() || !args.unknown(known).empty() || args.positional().size() != 1 ||
        from.has_value() != to.has_value()) {
        std::fprintf(stderr, "%s", kUsage);
        return kExitUsage;
    }
    if (args.flag("all-frames") && args.value("fold")) {
        std::fprintf(stderr, "warpscope-cli: flame: --all-frames and --fold exclude each other\n%s", kUsage);
        return kExitUsage;
    }
    FlameOptions options;
    options.bottomUp = args.flag("bottom-up");
    if (const auto f = args.value("fold"))
        options.fold = FrameFolding::parse(*f);
    else if (!args.flag("all-frames"))
        options.fold = FrameFolding::defaults();
    if (const auto w = args.value("weight")) {
        const auto weight = flameWeightFromName(*w);
        if (!weight) {
            std::fprintf(stderr, "warpscope-cli: flame: unknown weight '%s' (cpu, gpu or alloc)\n%s",
                         w->c_str(), kUsage);
            return kExitUsage;
        }
        options.weight = *weight;
    }
    size_t top = 20;
    double minPct = 0.5;
    try {
        if (from) {
            options.from = std::stoll(*from);
            options.to = std::stoll(*to);
        }
        if (const auto t = args.value("top")) top = static_cast<size_t>(std::stoul(*t));
        if (const auto p = args.value("min-pct")) minPct = std::stod(*p);
    } catch (const std::exception&) {
        std::fprintf(stderr, "%s", kUsage);
        return kExitUsage;
    }
    if (options.from >= options.to) {
        std::fprintf(stderr, "warpscope-cli: flame: --from must be below --to\n%s", kUsage);
        return kExitUsage;
    }
    const std::string& path = args.positional()[0];
    const auto t0 = std::chrono::steady_clock::now();
    ImportResult result;
    if (!importForCli(path, result)) return kExitFailure;
    const double importMs = msSince(t0);
    const Session& session = *result.session;
    if (args.flag("bench")) {
        runBench(session, options, importMs);
        return kExitOk;
    }
    const FlameGraph g = FlameGraph::build(session, options);
    if (args.flag("folded")) {
        std::fputs(g.folded().c_str(), stdout);
        if (!g.emptyReason().empty())
            std::fprintf(stderr, "warpscope-cli: flame: empty: %s\n", g.emptyReason().c_str());
        return kExitOk;
    }
    std::printf("Flame graph: %s weight (%s), %s, %llu samples\n", flameWeightName(g.weight()),
                flameWeightUnit(g.weight()), g.bottomUp() ? "bottom-up" : "top-down",
                static_cast<unsigned long long>(g.sampleCount()));
    if (!g.emptyReason().empty()) {
        std::printf("Empty: %s\n", g.emptyReason().c_str());
        return kExitOk;
    }
    if (g.withoutAnyStack())
        std::printf("No event has a call stack: %s\n",
                    session.sourceFormat() == TraceFormat::WarpscopeCapture
                        ? "record the capture with warpscope-capture --py-stacks"
                        : "record with with_stack=True");
    if (g.foldedFrameCount() > 0)
        std::printf("%u dispatch/decorator frame(s) folded into their callers (--all-frames shows them)\n",
                    g.foldedFrameCount());
    printTree(g, top, minPct);
    return kExitOk;
}

} // namespace ws::cli
