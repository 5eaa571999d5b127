#pragma once

#include <QString>

namespace ws {

/*
 * `warpscope --bench-flame FILE`: imports FILE, builds its flame graph (CPU weight when it has
 * python_function slices, else GPU) and renders it offscreen at 1920x1080: the whole graph, zoomed
 * into the heaviest frames at each depth and back, with and without a search highlight; top-down,
 * then bottom-up (keys prefixed bottom_up_). Prints `key: value` lines: samples, nodes, build_ms,
 * first_layout_ms, frames, frame_p50_ms, frame_p95_ms, frame_max_ms (the paint), layout_p50/p95/max_ms
 * (the zoom/search change before each frame: relayout, lazy expansion, search match) and the ratios to issue #27's goals (1 M samples built in
 * <= 500 ms, each redraw <= 16 ms).
 * Returns the process exit status.
 */
int runFlameBenchmark(const QString& path, int frames);

} // namespace ws
