#include "timeline_bench.h"

#include "bench_stats.h"
#include "analysis/slice_search.h"
#include "import/trace_import.h"
#include "model/session.h"
#include "time_viewport.h"
#include "timeline_view.h"

#include <QElapsedTimer>
#include <QFile>
#include <QImage>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

namespace ws {

int runTimelineBenchmark(const QString& path, int frames) {
    QElapsedTimer timer;
    timer.start();
    ImportResult result = importTraceFile(QFile::encodeName(path).toStdString());
    if (!result.session) {
        std::fprintf(stderr, "warpscope: %s: %s\n", qPrintable(path), result.error.c_str());
        return 1;
    }
    const double importMs = static_cast<double>(timer.elapsed());
    const Session& session = *result.session;

    TimeViewport time;
    TimelineView view(&time);
    view.resize(1920, 1080);
    // Laid out like a real window (viewport geometry, scroll ranges) without appearing on screen.
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.show();
    view.setSession(result.session);
    QImage image(1920, 1080, QImage::Format_ARGB32_Premultiplied);

    // The script: whole session, then zoom towards a few anchors down to ~1 µs wide windows, pan at
    // each depth, scroll through the rows, and zoom back out. Every step renders one frame.
    std::mt19937 rng(42);
    std::vector<double> frameMs;
    auto frame = [&] {
        QElapsedTimer t;
        t.start();
        view.renderTo(image);
        frameMs.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    };
    QScrollBar* vbar = view.verticalScrollBar();
    time.fitAll();
    frame();
    while (static_cast<int>(frameMs.size()) < frames) {
        const double anchor = std::uniform_real_distribution<double>(100, 1700)(rng);
        for (int z = 0; z < 24 && static_cast<int>(frameMs.size()) < frames; ++z) {
            time.zoomAt(anchor, 1.6);
            frame();
            time.panPx(z % 2 ? 120 : -80);
            frame();
            vbar->setValue(static_cast<int>(rng() % static_cast<unsigned>(std::max(1, vbar->maximum() + 1))));
            frame();
        }
        time.fitAll();
        vbar->setValue(0);
        frame();
    }

    // Hover hit tests at random points of a mid-zoom view.
    time.fitAll();
    time.zoomAt(900, 8);
    vbar->setValue(0);
    std::vector<double> hitMs;
    size_t hits = 0;
    for (int i = 0; i < 20000; ++i) {
        const QPoint pos(TimelineView::kGutterWidth + static_cast<int>(rng() % 1600),
                         TimelineView::kTopHeight + static_cast<int>(rng() % 1000));
        QElapsedTimer t;
        t.start();
        hits += view.sliceAt(pos).has_value();
        hitMs.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }

    // Search over every slice: substring, then a regex.
    QElapsedTimer searchTimer;
    searchTimer.start();
    const size_t substringMatches = searchSlices(session, "gemm", false).matches.size();
    const double searchMs = static_cast<double>(searchTimer.nsecsElapsed()) / 1e6;
    searchTimer.restart();
    const size_t regexMatches = searchSlices(session, "^aten::(mm|addmm|bmm)$", true).matches.size();
    const double regexMs = static_cast<double>(searchTimer.nsecsElapsed()) / 1e6;

    const double p50 = percentile(frameMs, 0.5), p95 = percentile(frameMs, 0.95);
    const double hit95 = percentile(hitMs, 0.95);
    std::printf("file: %s\n", qPrintable(path));
    std::printf("slices: %llu\n", static_cast<unsigned long long>(session.sliceCount()));
    std::printf("import_ms: %.0f\n", importMs);
    std::printf("frames: %zu\n", frameMs.size());
    std::printf("frame_p50_ms: %.3f\n", p50);
    std::printf("frame_p95_ms: %.3f\n", p95);
    std::printf("frame_max_ms: %.3f\n", *std::max_element(frameMs.begin(), frameMs.end()));
    std::printf("hit_test_p95_ms: %.4f\n", hit95);
    std::printf("hit_test_hits: %zu/20000\n", hits);
    std::printf("search_ms: %.1f (%zu matches of 'gemm')\n", searchMs, substringMatches);
    std::printf("search_regex_ms: %.1f (%zu matches)\n", regexMs, regexMatches);
    std::printf("goal_frame_p95_8ms_ratio: %.2f\n", p95 / 8.0);
    std::printf("goal_hit_test_1ms_ratio: %.4f\n", hit95 / 1.0);
    // The goal is 150 ms for 10 M slices: scale linearly to compare.
    std::printf("goal_search_150ms_per_10M_ratio: %.2f\n",
                searchMs / 150.0 * 1e7 / std::max<double>(1, static_cast<double>(session.sliceCount())));
    return 0;
}

} // namespace ws
