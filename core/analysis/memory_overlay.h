#pragma once

#include "analysis/memory_curve.h"
#include "analysis/session_diff.h"

#include <optional>
#include <string>
#include <vector>

namespace ws {

class Session;

/*
 * The allocated-memory curve of one run for laying two runs over each other (the Compare tab,
 * issue #15): the GPU with the highest allocation peak (none when no GPU has records: host memory
 * next to device memory would mislead), in a
 * window (a step) or the whole run, decimated to maxPoints keeping every peak exactly
 * (decimateMemoryCurve), with times relative to the window's start so both runs start at 0.
 */
struct MemoryOverlayCurve {
    MemoryDevice device;
    bool found = false; // the run has GPU allocator records
    std::vector<MemoryPoint> points; // ts: ns since the window's start
    MemoryPeak peak;                 // in the window, ts relative as well
};

MemoryOverlayCurve memoryOverlayCurve(const Session& session, const std::optional<DiffWindow>& window,
                                      size_t maxPoints = 2000);

} // namespace ws
