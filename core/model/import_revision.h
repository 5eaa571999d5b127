#pragma once

namespace ws {

/*
 * Revision of what the importers derive from a source (argument texts, names, tracks). Stored in
 * each session; the session library reopens a stored copy only when it was made by the same
 * revision, so an importer improvement reaches traces imported before it. Raise it whenever an
 * importer changes its output. 2: nsys backtraces as `Call stack`, capture launch stacks. 3: PyTorch
 * operator NVTX ranges in captures are operators. 4: host samples (the `host` activity) are counters
 * of their process; stored sessions keep their source format. 5: AMD devices carry their vendor.
 * 6: Chrome JSON edge cases (issue #30, import/FORMAT_NOTES.md): trailing commas, quoted counter
 * values, E args merged into their slices, a missing tid read as the pid. 7: Chrome JSON keeps the
 * kernel launch and operator arguments as columns (model/arg_columns.h, issue #29). 8: captures'
 * CUDA graph nodes (graph_node slices and flows, replays' launches named by graph, issue #48), GPU
 * flow ends bound to the slice starting there, activities clipped to the recorded spans.
 */
inline constexpr int kImportRevision = 8;

} // namespace ws
