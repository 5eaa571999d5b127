#pragma once

#include <QString>

namespace ws {

/*
 * `warpscope --bench-reopen FILE`: opens FILE (a stored session, or any trace) as the app does and
 * shows the analysis tabs that have a first view one after the other (Overview, Kernels,
 * Operators), each as the app builds it. Prints `key: value` lines: read_ms (the model), then per
 * tab <tab>_first_view_ms (from show() to the first view being filled, events processed),
 * <tab>_stored (1 when that view is the session file's stored result) and <tab>_computed_ms (until
 * the tab's own computation has replaced it), and reopen_first_views_ms = read + the first views,
 * with its ratio to issue #29's goal (every tab's first view of the 10 GB session <= 2 s).
 * Returns the process exit status.
 */
int runReopenBenchmark(const QString& path);

} // namespace ws
