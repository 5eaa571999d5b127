#pragma once

#include "analysis/step_ranges.h"

#include <cstdint>
#include <vector>

namespace ws {

class Session;

/*
 * Training iterations found from the repeating launch pattern (issue #13), for captures of programs
 * that mark nothing: no ProfilerStep#N, no NVTX `step N`.
 *
 * The launch sequence is every host runtime/driver call that launched a kernel (through the
 * session's flows), in call order, each named by its kernel. A training loop of N iterations
 * launches its once-per-iteration kernels (loss, optimizer, the first layer's) exactly N times and
 * a layer's kernels a multiple of N times; warm-up and set-up add kernels that occur once. So N is
 * the smallest occurrence count >= 3 shared by at least 3 distinct kernels, and the iteration
 * starts where the earliest of those kernels is launched (its calls must be spread over the
 * sequence, not bunched). Steps run from one such launch to the next; the last ends with the last
 * launch of a once-per-iteration kernel. Returns no steps when there is no such pattern.
 * O(launches log launches).
 */
struct LaunchPatternSteps {
    std::vector<StepRange> steps; // host-side iteration ranges, by start
    uint32_t iterations = 0;
    uint32_t anchorName = 0;      // StringId of the kernel whose launches start each iteration
    uint32_t periodicKernels = 0; // distinct kernels launched exactly once per iteration
};

LaunchPatternSteps findLaunchPatternSteps(const Session& session);

} // namespace ws
