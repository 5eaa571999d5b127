#pragma once

#include "import/trace_import.h"

#include <string>

namespace ws {

/*
 * A trace or capture opened with a PyTorch memory snapshot of the same run beside it (issue #28):
 * the trace is imported as usual, the snapshot as well, and the snapshot is placed on the trace's
 * clock (alignSnapshot: by the blocks both recorded, else by the shared epoch clock) and kept in the
 * trace's session. Its Memory tab then shows memory_viz's views on the trace's time axis, and an
 * allocation leads to the operator that made it (snapshotAllocationOperator).
 *
 * The trace always opens: a snapshot that cannot be read or placed is a problem in the session's
 * import report, saying why, and the session is the trace alone.
 */
ImportResult importTraceWithSnapshot(const std::string& tracePath, const std::string& snapshotPath,
                                     const ImportControl& control = {});

} // namespace ws
