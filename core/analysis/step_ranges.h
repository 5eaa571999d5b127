#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

class Session;

/*
 * Profiler steps of a session as torch-tb-profiler defines them (FORMATS.md 3.3): host
 * ProfilerStep#N ranges widened by the device work their runtime calls launched, trimmed at the
 * tail, or one step spanning the CPU ops when the trace has no steps. `hostStepCount` counts the
 * host-side step slices before any trimming (GPU-side copies are not steps).
 *
 * Without ProfilerStep#N, ranges a program or framework marks as steps count as its steps (issue
 * #13: a capture has no torch.profiler, but NVTX ranges such as `step 12` or `iteration_3` are
 * common): host user annotations or ops named step/iteration/iter/train_step/training_step/batch
 * followed by a number (`step 3`, `Step#3`, `iteration_12`), at least two of them, taken from the
 * thread that has the most, nested ones dropped. `labels` holds the number of each step (empty
 * strings when the session has no marked steps). A capture with neither gets the iterations of its
 * repeating launch pattern (launch_pattern_steps.h), numbered from 0. In a capture, a first marked
 * or found step much longer than the others is start-up and is left out (`startup`).
 */
struct StepRange {
    int64_t start = 0;
    int64_t end = 0;
};

struct StepRanges {
    std::vector<StepRange> steps;
    std::vector<std::string> labels; // per step
    uint64_t hostStepCount = 0;
    bool namedSteps = false;   // the steps are marked ranges (NVTX `step N`), not ProfilerStep#N
    bool patternSteps = false; // found from the repeating launch pattern (launch_pattern_steps.h)
    // A capture's first marked or found step when it was left out as start-up (CUDA loading,
    // library handles, autotuning: more than twice the median step); not in `steps`.
    std::optional<StepRange> startup;
    bool valid() const { return !steps.empty() && steps.back().end > steps.front().start; }
    int64_t start() const { return steps.front().start; }
    int64_t end() const { return steps.back().end; }
};

StepRanges computeStepRanges(const Session& session);

// The number of a range named like a step (`step 3`, `Step#3`, `iteration_12`, `train_step 5`), or
// empty when the name is not one. ProfilerStep#N is not matched here (it is handled first).
std::string_view stepNumberOfRangeName(std::string_view name);

} // namespace ws
