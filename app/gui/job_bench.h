#pragma once

#include <QString>

namespace ws {

/*
 * `warpscope --bench-job DIR` / `warpscope --bench-job --summaries DIR`: opens a job offscreen, as File >
 * Open Job Folder does (DIR of rank traces) or File > Open Job Summaries does (DIR of `warpscope-cli
 * summary --json` files), builds its page (Distributed tab and job timeline) at 1920x1080, then sorts every
 * column of the workers and communication tables and switches steps, printing `key: value` lines:
 * load_s, page_ms, sort_p50_ms, sort_max_ms, step_switch_ms, timeline_frame_ms, and the goal ratio of
 * issue #12 (a table sort <= 100 ms at 1,024 workers). Returns the process exit status.
 */
int runJobBenchmark(const QString& path, bool summaries);

} // namespace ws
