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
 * the smallest occurrence count >= 3 shared by at least 3 distinct kernels; the anchor is the
 * earliest of those kernels (its calls must be spread over the sequence, not bunched). An iteration
 * starts at its own first launch, not at the anchor: the launches before the first anchor that
 * repeat, in the same order, before the second one (the forward pass up to the anchor) belong to
 * the iteration, and the set-up before the loop, which does not repeat, stays out (issue #25).
 * Steps run from one iteration's first launch to the next one's; the last ends with its last
 * launch (one typical period on). The first iteration is reported like the others: it is
 * computeStepRanges that leaves a start-up iteration out. Returns no steps when there is no such
 * pattern. O(launches log launches).
 *
 * A loop that replays one CUDA graph per iteration launches one call per iteration: when a graph
 * (named by its first kernel) is replayed at least 3 times and its replays hold most of the kernel
 * time, its replays are the iterations (issue #25's CUDA-graphed step).
 */
struct LaunchPatternSteps {
    std::vector<StepRange> steps; // host-side iteration ranges, by start
    uint32_t iterations = 0;
    uint32_t anchorName = 0;      // StringId of the kernel whose launches start each iteration
    uint32_t periodicKernels = 0; // distinct kernels launched exactly once per iteration
    uint32_t leadLaunches = 0;    // launches of an iteration before its anchor
};

LaunchPatternSteps findLaunchPatternSteps(const Session& session);

} // namespace ws
