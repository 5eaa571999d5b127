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

int runFlameBenchmark(const QString& path, int frames) {
    ImportResult result = importTraceFile(QFile::encodeName(path).toStdString());
    if (!result.session) {
        std::fprintf(stderr, "warpscope: %s: %s\n", qPrintable(path), result.error.c_str());
        return 1;
    }
    FlameOptions options;
    options.weight = hasPythonFunctions(*result.session) ? FlameWeight::Cpu : FlameWeight::Gpu;
    QElapsedTimer timer;
    timer.start();
    auto graph = std::make_shared<const FlameGraph>(FlameGraph::build(*result.session, options));
    const double buildMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;

    FlameGraphCanvas canvas;
    canvas.resize(1920, 1080);
    canvas.setAttribute(Qt::WA_DontShowOnScreen);
    canvas.show();
    canvas.setGraph(graph);
    QImage image(1920, 1080, QImage::Format_ARGB32_Premultiplied);
    std::vector<double> frameMs;
    auto frame = [&] {
        QElapsedTimer t;
        t.start();
        canvas.render(&image);
        frameMs.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    };

    // The script: the whole graph; then down the heaviest path, zooming into each frame (and its
    // heaviest sibling's subtree beside it), with a search highlight on every other frame; then out.
    const std::vector<FlameNode>& nodes = graph->nodes();
    const std::vector<FlameFrame>& names = graph->frames();
    frame();
    while (static_cast<int>(frameMs.size()) < frames) {
        uint32_t node = 0;
        for (int step = 0; static_cast<int>(frameMs.size()) < frames; ++step) {
            canvas.setZoomNode(node);
            canvas.setSearch(step % 2 && nodes[node].frame < names.size()
                                 ? QString::fromStdString(names[nodes[node].frame].function).left(4)
                                 : QString());
            frame();
            if (nodes[node].childCount == 0)
                break;
            node = nodes[node].firstChild + (step % 3 == 2 && nodes[node].childCount > 1 ? 1 : 0);
        }
        canvas.setZoomNode(0);
        canvas.setSearch(QString());
        frame();
    }

    const double p50 = percentile(frameMs, 0.5), p95 = percentile(frameMs, 0.95);
    const double samples = static_cast<double>(graph->sampleCount());
    std::printf("file: %s\n", qPrintable(path));
    std::printf("weight: %s\n", flameWeightName(graph->weight()));
    std::printf("samples: %llu\n", static_cast<unsigned long long>(graph->sampleCount()));
    std::printf("nodes: %zu\n", nodes.size());
    std::printf("build_ms: %.1f\n", buildMs);
    std::printf("frames: %zu\n", frameMs.size());
    std::printf("frame_p50_ms: %.3f\n", p50);
    std::printf("frame_p95_ms: %.3f\n", p95);
    std::printf("frame_max_ms: %.3f\n", *std::max_element(frameMs.begin(), frameMs.end()));
    // Build time scaled to 1 M samples against 500 ms; redraw p95 against 16 ms.
    std::printf("goal_build_500ms_per_1M_ratio: %.2f\n", buildMs / 500.0 * 1e6 / std::max(1.0, samples));
    std::printf("goal_frame_p95_16ms_ratio: %.2f\n", p95 / 16.0);
    return 0;
}

} // namespace ws
