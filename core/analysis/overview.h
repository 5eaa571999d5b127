#pragma once

#include "analysis/recommendations.h"
#include "analysis/recorded_spans.h"
#include "analysis/step_breakdown.h"
#include "analysis/step_ranges.h"
#include "model/string_table.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ws {

class Session;

/*
 * OverviewData: what the Overview needs from a session, gathered once in a few passes over the
 * slices (O(n log n) for the sorts): the steps, the role ranges of the step breakdown, every
 * kernel per device, the merged GPU busy time per device, blocking runtime calls and pageable
 * copies. computeOverview then answers for the whole trace or any selected range without
 * touching the slices again. Immutable once prepared; safe to share between threads.
 */
struct OverviewKernel {
    int64_t start = 0;
    int64_t end = 0;
    float blocksPerSm = 0; // NaN or <= 0: absent
    float occupancy = 0;   // percent; NaN or < 0: absent
    uint32_t track = 0;
    uint32_t slice = 0;
    bool tensorCores = false; // kernelUsesTensorCores(name)
    bool gemmLike = false;    // GEMM / convolution by name: what AMP would move to Tensor Cores
    bool lowPrecision = false; // fp16/bf16/fp8 in the name: mixed precision already in use
};

struct OverviewSpan {
    int64_t start = 0;
    int64_t end = 0;
    uint32_t track = 0;
    uint32_t slice = 0;
    StringId name = kEmptyString;
    int64_t bytes = -1;
};

// Running blocks-per-SM sum changes of a device's kernels, sorted by time, starts before ends.
struct SmEdge {
    int64_t ts = 0;
    double delta = 0;
};

// GPU counters measured by the hardware: a capture's `pm` activity (CUPTI PM sampling) records
// them as % of peak (capture/README.md: sm_active, tensor_active, dram_bandwidth).
enum class MeasuredCounter : uint8_t { SmActive, TensorActive, DramBandwidth };
inline constexpr size_t kMeasuredCounterCount = 3;

struct OverviewDevice {
    std::vector<OverviewKernel> kernels; // sorted by start
    int64_t maxKernelNs = 0;             // to find the kernels overlapping a window by binary search
    IntervalList kernelBusy;             // union of kernels (GPU utilization)
    IntervalList gpuBusy;                // union of kernels, copies, memsets and graph spans (idle gaps)
    IntervalList graphSpans;             // union of graph replays recorded as one span (--graph-trace=graph)
    std::vector<SmEdge> smEdges;         // empty: no kernel has "blocks per SM"
    bool occupancyComputed = false;      // some kernels' occupancy came from their launch geometry
    // Index into Session::counters() of each measured counter of the device, -1 when not recorded.
    std::array<int32_t, kMeasuredCounterCount> measured{-1, -1, -1};
};

struct OverviewData {
    StepRanges steps;
    std::vector<std::string> stepLabels; // per steps.steps
    StepRoleRanges roles;
    std::map<int, OverviewDevice> devices;    // by device id
    std::vector<OverviewSpan> syncCalls;      // blocking runtime calls, by start
    std::vector<OverviewSpan> pageableCopies; // by start
};

OverviewData prepareOverview(const Session& session);

// Runtime/driver calls that block the calling thread until the GPU is done: synchronous copies and
// explicit synchronization (cudaStreamSynchronize, cudaMemcpy, cuMemcpyDtoH, hipDeviceSynchronize,
// ...). Names may carry nsys' "_vNNNN" suffix.
bool isBlockingCall(std::string_view name);

/*
 * DeviceOverview: one GPU's numbers over the analysed window. Optionals are empty when the
 * trace cannot give the value (no deviceProperties, no "blocks per SM" args, no memory events,
 * no kernels): show "not in this trace", never 0.
 */
struct DeviceOverview {
    int id = 0;
    std::string name;
    // AMD: SMs are compute units, Tensor Cores matrix cores (MFMA), the compute capability the GFX
    // version; occupancy needs register counts that only rocprofiler-sdk records (not Kineto).
    bool amd = false;
    std::optional<int> smCount;
    std::optional<int64_t> memoryBytes;
    std::optional<int> computeMajor;
    std::optional<int> computeMinor;
    uint64_t kernelCount = 0; // kernels overlapping the window
    int64_t kernelNs = 0;     // their time clipped to the window
    std::optional<double> gpuUtilization;    // 0..1, FORMATS.md 3.5; over the time outside graphSpanNs
    // CUDA graph replays recorded as one span each (EventKind::GpuGraph): what ran inside them is not
    // traced, so they are neither idle time nor kernel time, and GPU utilization leaves them out.
    int64_t graphSpanNs = 0;
    std::optional<double> smEfficiency;      // 0..1, FORMATS.md 3.6
    std::optional<double> achievedOccupancy; // percent, FORMATS.md 3.7
    std::optional<double> tensorCoreShare;   // 0..1 of kernelNs, Tensor Core kernels by name
    // The occupancy of some kernels is not in the trace but computed from their launch geometry
    // and the device (captures, Nsight Systems: cuda_occupancy.h).
    bool occupancyComputed = false;
    // Measured (MeasuredCounter), % of peak: the time-weighted mean of the samples over the window,
    // each sample holding until the next; empty when the counter was not recorded there.
    std::array<std::optional<double>, kMeasuredCounterCount> measured;
    const std::optional<double>& measuredValue(MeasuredCounter c) const { return measured[static_cast<size_t>(c)]; }
    std::optional<int64_t> peakAllocatedBytes;
};

/*
 * OverviewReport: the Overview of a window of the session.
 * Whole trace: the window is [steps_start, steps_end] and the steps are the profiler steps.
 * Selected range [from, to): the steps are those intersecting it, clipped to it; when none does
 * (e.g. the range lies outside the steps), the range itself is the one step. The window is then
 * [first clipped step start, last clipped step end]. All per-device metrics use the window, so
 * they match torch-tb-profiler on the whole trace.
 */
struct OverviewReport {
    bool valid = false;     // false: the session has no events to analyse
    bool selection = false; // computed for a selected range
    int64_t windowStart = 0;
    int64_t windowEnd = 0;
    bool profilerSteps = false; // the window has steps (else the trace or the range is one step)
    // Where the steps come from (step_ranges.h): ProfilerStep#N, ranges named like steps, PyTorch's
    // optimizer steps, or a capture's repeating launch pattern.
    enum class StepSource : uint8_t { None, Profiler, Named, LaunchPattern, Optimizer };
    StepSource stepSource = StepSource::None;
    // A capture's first step, left out of the steps as start-up (step_ranges.h).
    std::optional<StepRange> startup;
    // A capture recorded only between cudaProfilerStart and Stop (recorded_spans.h): the window's
    // recorded pieces, over which every device number is taken, and the unseen time between them,
    // left out; the steps that reached into it were left out (0 for every other trace).
    size_t recordedPieces = 0;
    int64_t unrecordedNs = 0;
    size_t unrecordedSteps = 0;
    std::vector<DeviceOverview> devices;
    StepBreakdown breakdown;
    std::vector<Recommendation> recommendations;
};

struct OverviewRange {
    int64_t start = 0;
    int64_t end = 0;
};

OverviewReport computeOverview(const Session& session, const OverviewData& data,
                               const std::optional<OverviewRange>& range = std::nullopt);
// prepareOverview + computeOverview for the whole trace.
OverviewReport computeOverview(const Session& session);

// The report as one JSON object (warpscope-cli overview --json); absent values are null. extra:
// members computed elsewhere, as (key, JSON text) pairs, appended after the report's own.
std::string overviewToJson(const Session& session, const OverviewReport& report,
                           const std::vector<std::pair<std::string, std::string>>& extra = {});

} // namespace ws
