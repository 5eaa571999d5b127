#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ws {

/*
 * OperatorInference: the operators of the launches a capture made while PyTorch's operator ranges
 * were off (`--torch-ops` records them while the launches are new: capture/inject/operatorwindows.h,
 * issue #25).
 *
 * A training loop launches the same kernels from the same places in the same order every step. So
 * each launch inside an operator range teaches its launch context -> (operator, whether the launch
 * continues that operator's call), and a launch without an operator takes the answer of its
 * context. Contexts, from the most to the least specific: the launching call's stack key (native
 * and Python stack, 0 without) and the GPU activity's name, with the names of the thread's two
 * launches before it, with one, with none; then without the stack, the activity with two launches
 * before it, with one. The most specific context seen inside a range decides; it answers only when
 * one answer has at least 90 % of its observations, so a context shared by different operators
 * stays unattributed rather than wrong.
 *
 * Launches continuing the same inferred operator (not the first launch of their call, the same
 * operator as the launch before on the thread) share one inferred call, so an operator with three
 * kernels is one call. Qt-free and independent of the capture format: the converter fills Launch
 * rows (tests too).
 */
class OperatorInference {
public:
    struct Launch {
        uint32_t thread = 0;   // any id that tells threads apart
        int64_t ts = 0;        // time order within a thread
        uint64_t stackKey = 0; // equal stacks, equal keys; 0: no stack
        uint32_t activity = 0; // the GPU activity's name (kernel, memcpy) as an id; 0: none
        uint32_t op = 0;       // the innermost recorded operator's name id; 0: none recorded
        uint32_t position = 0; // with op: this launch's index among that operator call's launches
    };
    // One inferred operator call: launches [first, last] (indices into the input, same thread).
    struct Call {
        uint32_t op = 0;
        size_t first = 0;
        size_t last = 0;
    };

    // Launches of all threads, each thread's in time order (threads may interleave).
    static std::vector<Call> infer(const std::vector<Launch>& launches);
};

} // namespace ws
