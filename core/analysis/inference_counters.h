#pragma once

#include "analysis/gpu_counters.h"

#include <vector>

namespace ws {

class InferenceSteps;
class Session;

/*
 * The inference phases as timeline rows under the GPU (issue #49): "Inference Phase" (2 in a
 * prefill, 1 in a decode, 0 between forwards) and "Time per Output Token (ms)" (each decode's
 * latency over its forward; a prefill's own forward time over it). Steps of DerivedCounter
 * series; empty when the run has no inference forwards.
 */
std::vector<DerivedCounter> inferenceCounters(const Session& session, const InferenceSteps& steps);

} // namespace ws
