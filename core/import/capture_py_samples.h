#pragma once

#include "format/wscapformat.h"

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace ws {

class CaptureStacks;

/*
 * CapturePySamples: a capture stream's Python stack samples (format 1.4, "pysample", issue #27) as
 * the python_function slices that torch.profiler's with_stack writes, so the timeline, the flame
 * graph's CPU weight, the operator views and "why the GPU waits" read sampled stacks as they read
 * traced ones.
 *
 * Per thread, in time order, each frame of a sample's stack (outermost first) continues the slice of
 * the same frame at the same depth of the previous sample (same frame id under the same parents),
 * else opens one; slices the new stack no longer has end at this sample. So a slice spans the samples
 * that saw its frame, from the first of them to the sample after the last: its duration is what the
 * samples measured, within one period. Where a thread missed more than kMissedPeriods periods (the
 * sampler could not keep up, or the thread ran no Python), its slices end one period after its last
 * sample. A frame is one (function, file, line): a function whose line changes between samples gives
 * consecutive slices, one per line, as a sampling profiler's line view.
 *
 * Cost: O(samples x depth); memory: the samples (24 bytes each) until slices() runs.
 */
class CapturePySamples {
public:
    static constexpr uint64_t kMissedPeriods = 3;

    struct Slice {
        uint32_t threadId = 0;
        uint64_t start = 0;
        uint64_t end = 0;
        uint32_t frameId = 0;  // PyFrame id
        uint64_t offset = 0;   // the PySample record that opened it
    };

    void add(const wscap::PySampleRecord& r, uint64_t offset);
    bool empty() const { return m_samples.empty(); }
    size_t samples() const { return m_samples.size(); }
    // Calls emit for every slice; stacks resolves sample stacks to frames (after its finish()).
    void slices(const CaptureStacks& stacks, const std::function<void(const Slice&)>& emit) const;

private:
    struct Sample {
        uint64_t ts;
        uint64_t offset;
        uint32_t threadId;
        uint32_t stackId;
        uint32_t periodNs;
    };
    std::vector<Sample> m_samples;
};

} // namespace ws
