#pragma once

#include <cstdint>
#include <vector>

namespace ws {

class Session;

/*
 * Profiler steps of a session as torch-tb-profiler defines them (FORMATS.md 3.3): host
 * ProfilerStep#N ranges widened by the device work their runtime calls launched, trimmed at the
 * tail, or one step spanning the CPU ops when the trace has no steps. `hostStepCount` counts the
 * host-side ProfilerStep#N slices before any trimming (GPU-side copies are not steps).
 */
struct StepRange {
    int64_t start = 0;
    int64_t end = 0;
};

struct StepRanges {
    std::vector<StepRange> steps;
    uint64_t hostStepCount = 0;
    bool valid() const { return !steps.empty() && steps.back().end > steps.front().start; }
    int64_t start() const { return steps.front().start; }
    int64_t end() const { return steps.back().end; }
};

StepRanges computeStepRanges(const Session& session);

} // namespace ws
