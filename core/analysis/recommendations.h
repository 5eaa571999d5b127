#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ws {

class InferenceSteps;

class Session;
struct OverviewData;
struct OverviewReport;

/*
 * Recommendation: one finding of the Overview rules, as structured data (kind + numbers) so the
 * GUI can word it in the user's language; recommendationTitle/Evidence give the English text the
 * CLI prints. Field use per kind ("share" and "threshold" are fractions 0..1, times ns):
 *   DataLoader          share = DataLoader / average step, ns = average DataLoader time per step,
 *                       range = the step with the most DataLoader time
 *   LowGpuUtilization   device, share = GPU utilization, range = the analysed window
 *   EnableAmp           device, count = GEMM/convolution kernels, ns = their time, share = their
 *                       share of the device's kernel time, name + slice = the longest of them
 *   MemoryNearCapacity  device, bytes = peak allocated, capacityBytes = totalGlobalMem, share =
 *                       bytes / capacity, range = the step holding the peak (else the window)
 *   Communication       share = Communication / average step, ns = average per step,
 *                       range = the step with the most communication
 *   LaunchBoundKernels  device, count = short kernels that start after the GPU went idle for at
 *                       most kLaunchGapMaxNs, total = all kernels on the device in the window,
 *                       ns = idle time right before them, share = ns /
 *                       window, meanKernelNs = their mean duration, range = the longest run of
 *                       consecutive short kernels
 *   SynchronousCalls    count = blocking runtime calls, ns = their time, share = ns / window,
 *                       name = the API with the most time, slice = the longest call
 *   PageableCopies      count = copies from/to pageable host memory, ns = their time, bytes = their
 *                       bytes (0 when unknown), share = ns / window, slice = the longest copy
 *   LongIdleGap         device, ns = the longest GPU idle gap between two GPU activities inside the
 *                       window, share = ns / average step, total = idle ns in the window,
 *                       range = the gap; what the host did then (Why the GPU waits, idle_gaps.h):
 *                       count = the gap's GapCategory + 1 (0: not known), name = its cause line
 *                       (gapLineText: "train.py:40 step"), detail = the synchronization that
 *                       drained the GPU's queue before it (empty: none)
 *   BusyDataLoaderWorkers  (captures with the `host` activity) cpuPercent = the child processes'
 *                       mean CPU use in the window (% of one core), threshold = its threshold (%),
 *                       share = the highest GPU utilization, range = the window
 */
enum class RecommendationKind : uint8_t {
    DataLoader,
    LowGpuUtilization,
    EnableAmp,
    MemoryNearCapacity,
    Communication,
    LaunchBoundKernels,
    SynchronousCalls,
    PageableCopies,
    LongIdleGap,
    BusyDataLoaderWorkers,
    HostBoundDecode,
};

enum class RecommendationSeverity : uint8_t { Info, Warning };

struct RecommendationRange {
    int64_t start = 0;
    int64_t end = 0;
};

struct RecommendationSlice {
    uint32_t track = 0;
    uint32_t slice = 0;
};

struct Recommendation {
    RecommendationKind kind = RecommendationKind::DataLoader;
    RecommendationSeverity severity = RecommendationSeverity::Info;
    int device = -1;
    double share = 0;
    double threshold = 0;
    uint64_t count = 0;
    uint64_t total = 0;
    int64_t ns = 0;
    int64_t meanKernelNs = 0;
    int64_t bytes = 0;
    int64_t capacityBytes = 0;
    double cpuPercent = 0;
    std::string name;
    std::string detail;
    std::optional<RecommendationRange> range;
    std::optional<RecommendationSlice> slice;
};

// Rule thresholds. Each is the point where the finding is worth a user's attention.
// torch-tb-profiler (FORMATS.md 3.13): input pipeline visibly stalls training.
inline constexpr double kDataLoaderShareThreshold = 0.05;
// torch-tb-profiler: the GPU sits idle more than half of the steps.
inline constexpr double kLowGpuUtilizationThreshold = 0.50;
// torch-tb-profiler memory view: allocations near the device's capacity risk OOM / allocator thrash.
inline constexpr double kMemoryCapacityThreshold = 0.90;
// torch-tb-profiler distributed view: communication dominates.
inline constexpr double kCommunicationShareThreshold = 0.10;
// Tensor Cores arrived with compute capability 7.0 (Volta). The AMP rule also needs GEMM/conv
// kernels in the window, none using Tensor Cores by name, and no kernel on fp16/bf16/fp8 types.
inline constexpr int kAmpMinComputeMajor = 7;
// A kernel this short finishes before the CPU can launch the next (launch overhead ~5-10 us).
inline constexpr int64_t kShortKernelNs = 10'000;
// Launch-bound: at least this many short kernels found the GPU idle for at most
// kLaunchGapMaxNs (a longer wait is CPU work, data loading or a sync, not launch overhead), and
// that idle time is at least kLaunchBoundIdleShareThreshold of the window.
inline constexpr uint64_t kLaunchBoundMinKernels = 20;
inline constexpr int64_t kLaunchGapMaxNs = 200'000;
inline constexpr double kLaunchBoundIdleShareThreshold = 0.10;
// The program's child processes (DataLoader workers) keep at least a core busy on average while the
// GPU is under kLowGpuUtilizationThreshold: preparing the input is the likely limit.
inline constexpr double kBusyWorkersCpuPercent = 90.0;
// Blocking runtime calls (cudaMemcpy, cudaStreamSynchronize, ...) take this share of the window.
inline constexpr double kSyncShareThreshold = 0.05;
// A GPU idle gap is long when it is this share of the average step and at least kLongIdleGapMinNs.
inline constexpr double kLongIdleGapShareThreshold = 0.10;
inline constexpr int64_t kLongIdleGapMinNs = 100'000;

enum class GapCategory : uint8_t;

// Stable machine-readable id ("dataloader", "low_gpu_utilization", ...), used in --json.
const char* recommendationId(RecommendationKind kind);
// English title and evidence sentence with the numbers.
std::string recommendationTitle(const Recommendation& r);
std::string recommendationEvidence(const Recommendation& r);
// A LongIdleGap's cause class (nullopt when not known or another kind), and the English sentence
// naming the cause with the advice for that class (the end of its evidence).
std::optional<GapCategory> longIdleGapCategory(const Recommendation& r);
std::string longIdleGapCauseText(const Recommendation& r);

// An inference run's decode forwards keep the GPU busy less than this share of their time
// (issue #49): the host, not the GPU, sets the time per token.
inline constexpr double kHostBoundDecodeThreshold = 0.50;
// Decode kernels replayed from CUDA graphs at least this share: the advice is no longer "graph it".
inline constexpr double kGraphedDecodeShare = 0.50;

// Applies every rule to a computed report (its window, breakdown and devices) and the prepared
// data; ordered warnings first, then by kind.
std::vector<Recommendation> computeRecommendations(const Session& session, const OverviewData& data,
                                                   const OverviewReport& report);

/*
 * The inference rules, for callers that have the run's inference steps (the Overview's callers):
 * HostBoundDecode when the decode forwards keep the GPU busy under kHostBoundDecodeThreshold of
 * their time (share = that busy share, count = decodes, ns = p50 time per output token,
 * meanKernelNs = GPU busy per decode, total = 1 when most decode kernels are CUDA graph replays,
 * range = the slowest decode). It replaces LowGpuUtilization, whose advice (batch size, data
 * loading) is a training loop's.
 */
void addInferenceRecommendations(std::vector<Recommendation>& recommendations, const InferenceSteps& steps);

} // namespace ws
