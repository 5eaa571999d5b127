#pragma once

#include "analysis/recorded_spans.h"

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
 * strings when the session has no marked steps).
 *
 * Without those, PyTorch's own annotation of optimizer.step() (`Optimizer.step#AdamW.step`: a
 * capture with --torch-ops, Nsight Systems with PyTorch's NVTX ranges; issue #25) gives the
 * iterations of the thread that has the most. A step runs from the end of one optimizer step to the
 * end of the next, as ProfilerStep#N ends with its optimizer step; the first starts at the
 * `Optimizer.zero_grad#` before it (else the first optimizer step only opens the second), and an
 * interval holding an extra zero_grad (an optimizer.step() that GradScaler skipped) is split there.
 * They are numbered from 0 by order and count as marked steps (`namedSteps` and `optimizerSteps`).
 * Not used when more device work is launched after the last optimizer step than between the first
 * and the last (the eager warm-up of a step that a CUDA graph then replays), nor in a torch.profiler
 * (Chrome JSON) trace: without ProfilerStep#N its profiled region is one step, as in tb-profiler.
 *
 * A capture with none of these gets the iterations of its repeating launch pattern
 * (launch_pattern_steps.h), numbered from 0. In a capture, a first marked or found step much longer
 * than the others is start-up and is left out (`startup`); with optimizer steps, so are all the
 * steps before the first optimizer step's end that are that long (set-up after an early zero_grad,
 * then the first iteration).
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
    bool optimizerSteps = false; // between PyTorch's Optimizer.step# ranges (namedSteps is set too)
    // A capture's first marked or found step when it was left out as start-up (CUDA loading,
    // library handles, autotuning: more than twice the median step); not in `steps`.
    std::optional<StepRange> startup;
    // Steps of a capture recorded only between cudaProfilerStart and Stop that reached outside one
    // recorded span (into a pause), left out (recorded_spans.h).
    size_t unrecordedSteps = 0;
    // The spans such a capture recorded (recordedSpans), read once here for the steps and for the
    // views that take their numbers over the recorded pieces; empty: recorded throughout.
    std::vector<RecordedSpan> recorded;
    bool valid() const { return !steps.empty() && steps.back().end > steps.front().start; }
    int64_t start() const { return steps.front().start; }
    int64_t end() const { return steps.back().end; }
};

StepRanges computeStepRanges(const Session& session);

// The number of a range named like a step (`step 3`, `Step#3`, `iteration_12`, `train_step 5`), or
// empty when the name is not one. ProfilerStep#N is not matched here (it is handled first).
std::string_view stepNumberOfRangeName(std::string_view name);

} // namespace ws
