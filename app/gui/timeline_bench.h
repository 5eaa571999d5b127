#pragma once

#include <QString>

namespace ws {

/*
 * `warpscope --bench-timeline FILE`: imports FILE, renders a scripted pan/zoom sequence of the
 * timeline offscreen at 1920x1080 and prints frame and hit-test percentiles as `key: value` lines:
 * frame_p50_ms, frame_p95_ms, frame_max_ms, hit_test_p95_ms, and the goal ratios of issue #5
 * (p95 frame <= 8 ms, hit test <= 1 ms). Returns the process exit status.
 */
int runTimelineBenchmark(const QString& path, int frames);

} // namespace ws
