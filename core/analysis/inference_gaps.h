#pragma once

#include "analysis/idle_gaps.h"
#include "analysis/inference_steps.h"

#include <vector>

namespace ws {

class Session;

/*
 * Why the GPU idles in each inference phase (issue #49): the idle-gap analysis (idle_gaps.h) run
 * over the phase's forwards as its steps, so each gap of at least the threshold in a prefill or a
 * decode is classified (host synchronization, CPU work with its Python line, nothing recorded) and
 * charged to lines. The rest of the phase's idle time lies in gaps under the threshold between
 * kernels: the launch overhead of a launch-bound loop.
 */
struct PhaseIdleCauses {
    InferencePhase phase = InferencePhase::Decode;
    uint32_t forwards = 0;
    int64_t spanNs = 0;
    int64_t busyNs = 0;
    int64_t shortGapNs = 0; // idle in gaps under gaps.thresholdNs
    IdleGapReport gaps;     // the gaps at or over it, by category and line

    int64_t idleNs() const { return spanNs - busyNs; }
};

// Prefill, then decode; a phase without forwards is left out.
std::vector<PhaseIdleCauses> inferenceIdleCauses(const Session& session, const InferenceSteps& steps,
                                                 IdleGapOptions options = {});

} // namespace ws
