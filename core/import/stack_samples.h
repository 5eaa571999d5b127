#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace ws {

/*
 * StackSamples: sampled call stacks of threads (a capture's Python samples, format 1.4 "pysample";
 * an Nsight Systems export's CPU samples, COMPOSITE_EVENTS) as the call-stack slices that
 * torch.profiler's with_stack writes (python_function), so the timeline, the flame graph's CPU
 * weight, the operator views and "why the GPU waits" read sampled stacks as they read traced ones
 * (issue #27).
 *
 * Per thread, in time order, each frame of a sample's stack (outermost first) continues the slice of
 * the same frame at the same depth of the previous sample (same frame under the same parents), else
 * opens one; slices the new stack no longer has end at this sample. Each sample stands for the time
 * halfway to its neighbours (the usual estimate of a sampling profiler): a slice spans the samples
 * that saw its frame, from halfway between the sample before and the first of them to halfway
 * between the last and the sample after, so its duration is what the samples measured and a call
 * that starts between two samples is enclosed half the time rather than never. Where a thread
 * missed more than kMissedPeriods periods (the sampler could not keep up, the thread was off the CPU
 * for an on-CPU sampler, or it ran no Python), and at the ends, a sample stands for half a period
 * on that side. A sample's period is the sampler's when it says so, else the thread's median
 * spacing of samples.
 *
 * A sampler that records every thread at each of its rounds (a capture's PySampler, which also
 * records threads without Python, with an empty stack; setEveryThreadEachRound) tells the two kinds
 * of miss apart: a thread missing from rounds that happened was not there, but a stretch without
 * any round is the sampler falling behind (its thread was not run: a CPU saturated by the program's
 * own threads, say), while the sampled threads ran on. Such a stall is bridged rather than cut: the
 * two samples around it share it halfway, as neighbours do, except where a traced CUDA call of the
 * thread (addCall) says more. A sample taken inside a call is a sample of that call, whose ends the
 * trace knows exactly: it stands no later than the call's end (the thread left the call there; the
 * next known place of the thread is the sample after the stall), and the sample after the stall
 * taken inside a call stands from the call's start. Without this, a host that returned from a
 * synchronization and went on loading data while the sampler was starved showed the stall as
 * unrecorded time, which "why the GPU waits" charges to the synchronization.
 *
 * Frames and stacks are the caller's keys: slices() asks for a stack's frames (innermost first, the
 * order both formats store) and returns frame keys, which the caller names.
 * Cost: O(samples x depth) after a sort; memory: 32 bytes a sample until slices() runs.
 */
class StackSamples {
public:
    static constexpr int64_t kMissedPeriods = 3;

    struct Slice {
        int64_t thread = 0;
        int64_t start = 0;
        int64_t end = 0;
        uint64_t frame = 0; // the caller's frame key
        uint64_t tag = 0;   // of the sample that opened it (a record offset, a row id)
    };
    // Frames of a stack key, innermost first; nullptr or empty: a sample of no code.
    using FramesOf = std::function<const std::vector<uint64_t>*(uint32_t stack)>;

    // periodNs 0: the thread's median spacing.
    void add(int64_t thread, int64_t ts, uint32_t stack, uint32_t periodNs, uint64_t tag);
    // A traced CUDA call (runtime or driver API) of a thread, [start, end].
    void addCall(int64_t thread, int64_t start, int64_t end);
    // The sampler records every thread at each round (see above); off by default (an on-CPU sampler
    // records only the threads on a CPU: a stretch without samples is then an idle process).
    void setEveryThreadEachRound(bool on) { m_everyThreadEachRound = on; }
    bool empty() const { return m_samples.empty(); }
    size_t samples() const { return m_samples.size(); }
    void slices(const FramesOf& framesOf, const std::function<void(const Slice&)>& emit) const;

private:
    struct Sample {
        int64_t thread;
        int64_t ts;
        uint64_t tag;
        uint32_t stack;
        uint32_t periodNs;
    };
    struct Call {
        int64_t thread;
        int64_t start;
        int64_t end;
    };
    std::vector<Sample> m_samples;
    std::vector<Call> m_calls;
    bool m_everyThreadEachRound = false;
};

} // namespace ws
