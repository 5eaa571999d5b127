#include "flame_bench.h"

#include "bench_stats.h"
#include "flame_graph_view.h"
#include "import/trace_import.h"
#include "model/event_kind.h"
#include "model/session.h"

#include <QElapsedTimer>
#include <QFile>
#include <QImage>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

namespace ws {

namespace {

bool hasPythonFunctions(const Session& session) {
    for (const Track& t : session.tracks())
        for (size_t i = 0; i < t.start.size(); ++i)
            if (session.kindOf(t, i) == EventKind::PythonFunction)
                return true;
    return false;
}

} // namespace

namespace {

/* One direction's figures: build (as the view's worker does it: the graph, and for a lazy bottom-up
 * graph the callers a 1920-pixel canvas shows at first), then the script's frames. Each frame's
 * paint (frame_*) and, apart, what its zoom and search change cost before it (layout_*: relayout,
 * which expands the callers of a bottom-up graph that come into view, and the search's match). */
void runDirection(const Session& session, FlameOptions options, int frames, const char* prefix) {
    QElapsedTimer timer;
    timer.start();
    auto graph = std::make_shared<const FlameGraph>(FlameGraph::build(session, options));
    graph->expandAtLeast(graph->root().total / 1920);
    const double buildMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;

    FlameGraphCanvas canvas;
    canvas.resize(1920, 1080);
    canvas.setAttribute(Qt::WA_DontShowOnScreen);
    canvas.show();
    timer.restart();
    canvas.setGraph(graph);
    const double firstLayoutMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    QImage image(1920, 1080, QImage::Format_ARGB32_Premultiplied);
    std::vector<double> frameMs, layoutMs;
    auto frame = [&](uint32_t zoom, const QString& search) {
        QElapsedTimer t;
        t.start();
        canvas.setZoomNode(zoom);
        canvas.setSearch(search);
        layoutMs.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        t.restart();
        canvas.render(&image);
        frameMs.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    };

    // The script: the whole graph; then down the heaviest path, zooming into each frame (and its
    // heaviest sibling's subtree beside it), with a search highlight on every other frame; then out.
    const std::vector<FlameFrame>& names = graph->frames();
    frame(0, {});
    while (static_cast<int>(frameMs.size()) < frames) {
        uint32_t node = 0;
        for (int step = 0; static_cast<int>(frameMs.size()) < frames; ++step) {
            const uint32_t frameOfNode = graph->nodes()[node].frame;
            frame(node, step % 2 && frameOfNode < names.size()
                            ? QString::fromStdString(names[frameOfNode].function).left(4)
                            : QString());
            const FlameNode& n = graph->nodes()[node]; // laid out above, so its children are made
            if (n.childCount == 0)
                break;
            node = n.firstChild + (step % 3 == 2 && n.childCount > 1 ? 1 : 0);
        }
        frame(0, {});
    }

    const double p50 = percentile(frameMs, 0.5), p95 = percentile(frameMs, 0.95);
    const double samples = static_cast<double>(graph->sampleCount());
    std::printf("%snodes: %zu\n", prefix, graph->nodes().size());
    std::printf("%sbuild_ms: %.1f\n", prefix, buildMs);
    std::printf("%sfirst_layout_ms: %.3f\n", prefix, firstLayoutMs);
    std::printf("%sframes: %zu\n", prefix, frameMs.size());
    std::printf("%sframe_p50_ms: %.3f\n", prefix, p50);
    std::printf("%sframe_p95_ms: %.3f\n", prefix, p95);
    std::printf("%sframe_max_ms: %.3f\n", prefix, *std::max_element(frameMs.begin(), frameMs.end()));
    std::printf("%slayout_p50_ms: %.3f\n", prefix, percentile(layoutMs, 0.5));
    std::printf("%slayout_p95_ms: %.3f\n", prefix, percentile(layoutMs, 0.95));
    std::printf("%slayout_max_ms: %.3f\n", prefix, *std::max_element(layoutMs.begin(), layoutMs.end()));
    // Build time scaled to 1 M samples against 500 ms; redraw p95 against 16 ms.
    std::printf("%sgoal_build_500ms_per_1M_ratio: %.2f\n", prefix, buildMs / 500.0 * 1e6 / std::max(1.0, samples));
    std::printf("%sgoal_frame_p95_16ms_ratio: %.2f\n", prefix, p95 / 16.0);
}

} // namespace

int runFlameBenchmark(const QString& path, int frames) {
    ImportResult result = importTraceFile(QFile::encodeName(path).toStdString());
    if (!result.session) {
        std::fprintf(stderr, "warpscope: %s: %s\n", qPrintable(path), result.error.c_str());
        return 1;
    }
    FlameOptions options;
    options.weight = hasPythonFunctions(*result.session) ? FlameWeight::Cpu : FlameWeight::Gpu;
    std::printf("file: %s\n", qPrintable(path));
    std::printf("weight: %s\n", flameWeightName(options.weight));
    std::printf("samples: %llu\n",
                static_cast<unsigned long long>(FlameGraph::build(*result.session, options).sampleCount()));
    runDirection(*result.session, options, frames, "");
    options.bottomUp = true;
    runDirection(*result.session, options, frames, "bottom_up_");
    return 0;
}

} // namespace ws
