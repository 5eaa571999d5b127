#pragma once

#include <cstdint>
#include <vector>

namespace ws {

class Session;
struct Track;

/*
 * The host time between a thread's CUDA calls (issue #49: a host-bound decode loop explained). An
 * eager PyTorch model is Python that launches kernels: between two launches on a thread runs the
 * code that led to the second. A Warpscope capture records operators in windows (--torch-ops) or not
 * at all, so outside them no slice covers that time; its Python stacks (--py-stacks) are recorded at
 * the calls. A gap under kHostGapNs is taken as that code running; a longer one (a sleep, a wait on
 * input, a tokenizer's whole batch) is not claimed.
 */
inline constexpr int64_t kHostGapNs = 1'000'000;

struct HostCall {
    uint32_t slice = 0;   // the CUDA call (an outermost one: a runtime call holding its driver call is one)
    int64_t gapStart = 0; // the end of the call before it on the thread
    int64_t gapNs = 0;    // the time from there to its start when under kHostGapNs, else 0
};

// The track's CUDA calls (EventKind::Runtime) in start order, each with the gap before it.
std::vector<HostCall> hostCalls(const Session& session, const Track& track);

// Whether the session is a Warpscope capture (its `warpscopeCapture` metadata): where the gaps apply.
bool isWarpscopeCapture(const Session& session);

} // namespace ws
