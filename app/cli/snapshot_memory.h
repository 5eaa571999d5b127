#pragma once

#include "model/session.h"

#include <cstdint>
#include <optional>
#include <string>

namespace ws::cli {

// `warpscope-cli memory` on a PyTorch memory snapshot (import/FORMAT_NOTES.md "PyTorch memory snapshot"): a
// summary per device (peak of live bytes, the state at the end or at --at, each OOM with what was
// live then by stack), or CSV of the allocations, stacks or segments. atUs: --at, in the trace's
// time_us. Returns the exit status.
int runSnapshotMemory(const Session& session, const std::optional<std::string>& csv, std::optional<int16_t> device,
                      std::optional<int64_t> atUs);

// `warpscope-cli memory SNAPSHOT --bench-bands`: the Memory tab's active-memory bands rasterized at
// 1600x400 px over the whole trace and zoomed around its peak, by time and by order; prints the
// raster times' percentiles against issue #28's 16 ms redraw goal.
int runSnapshotBandsBench(const Session& session, std::optional<int16_t> device);

} // namespace ws::cli
