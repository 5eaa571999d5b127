#pragma once

#include "import/trace_import.h"
#include "model/memory_timeline_categories.h"

#include <string>
#include <string_view>

namespace ws {

/*
 * PyTorch memory timeline import (torch.profiler's `export_memory_timeline`), both JSON layouts:
 *
 *   raw (`*.raw.json.gz`, export_memory_timeline_raw): rows [ts ns, action, delta bytes, category],
 *     action 1 pre-existing (ts -1), 2 create, 3 increment version (two rows: -old +new category),
 *     4 destroy;
 *   coalesced (`*.json`, `*.json.gz`): [times µs, sizes], each sizes row 9 ints: 0, then the live
 *     bytes of each category at that time.
 *
 * Categories by index: parameter, optimizer state, input, temporary, activation, gradient,
 * autograd detail, unknown (_memory_profiler.py's _CATEGORY_TO_INDEX). The HTML export holds only
 * a picture and is refused with that reason.
 *
 * The session gets one counter series per category ("Memory by category", bytes, the timeline's
 * counter rows; analysis/memory_categories sums them), and the Memory tab draws their sum as the
 * device's curve (memory_curve.h). Streamed (JsonRecordScanner); the export does not name its
 * device: cuda:0, torch's default, is assumed and the import report says so.
 */
ImportResult importTorchMemoryTimeline(const std::string& path, const ImportControl& control);
// Whether a file's first bytes (decompressed) are a memory timeline: a JSON array of arrays.
bool looksLikeTorchMemoryTimeline(std::string_view head);

} // namespace ws
