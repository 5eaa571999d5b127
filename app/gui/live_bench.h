#pragma once

#include <QString>

namespace ws {

/*
 * `warpscope --bench-live FILE [--bench-live-reimport] [--bench-live-streams K] [--bench-live-speed X]`:
 * replays the capture stream FILE (plain or compressed) into a fresh folder at its recorded pace, as
 * the injection library flushed it (one write up to each Flush record, then the recorded time to
 * the next one, divided by X), K copies side by side (K processes' worth of records), while a Live
 * tab (LiveCapture, 1920x1080 offscreen) follows the folder as the New Capture dialog makes it
 * (follow() every 250 ms) and a 60 Hz loop handles the GUI's events and paints the tab's timeline
 * (TimelineView::renderTo at 1920x1080, as --bench-timeline paints).
 *
 * Prints `key: value` lines: the replay (bytes, records' span, flushes), the updates and their
 * times (the slowest one's phases as slowest_update_phase_ms[...]: reading what arrived, the
 * finished copies, the merge and finish), latency_p50/p95/max_ms (from a flush's write to the first
 * painted frame whose model holds that flush's bytes, for every flush) and frame_p50/p95/max_ms
 * (events handled plus the paint, per frame, while the capture grows), with the ratios to issue
 * #26's goals (<= 1 s, <= 8 ms).
 * --bench-live-reimport follows with a whole re-import and a new page per update (the way before
 * the incremental live import) for comparison. Returns the process exit status.
 */
int runLiveBenchmark(const QString& path, bool reimport, int streams, double speed);

} // namespace ws
