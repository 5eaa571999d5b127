#pragma once

#include "analysis/overview.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ws {

class Session;

/*
 * Why the GPU waits (issue #27): every GPU idle gap inside the steps, explained by what the thread
 * that launched the next GPU work did meanwhile.
 *
 * Gaps: per device, the idle intervals between two GPU activities (the Overview's gpuBusy: kernels,
 * copies and memsets of every stream, OverviewDevice) that last at least `thresholdNs`, clipped to
 * the Overview's steps (computeOverview's window: the steps, or those of a selected range clipped to
 * it); a gap across a step boundary gives one piece per step. The launching thread is the CPU end of
 * the flow (else the correlation id) of the first GPU activity after the gap: of those starting at
 * the gap's end, the one whose launch starts first; else the first with a launch in the busy
 * interval that follows.
 *
 * Classes of the thread's slices (step markers — ProfilerStep#N, `step 3` —, NCCL's ncclComm* set-up
 * ranges, which a capture may see last the whole run, and Trace spans say nothing and are left out):
 *   Sync         blocking runtime/driver calls (overview.h isBlockingCall: cudaStreamSynchronize,
 *                cudaDeviceSynchronize, synchronous cudaMemcpy, cuMemcpyDtoH, ...) and the operators
 *                aten::item / aten::_local_scalar_dense;
 *   Collective   ranges named nccl:* / gloo:* / nccl* (NCCL's NVTX ranges) / c10d::* /
 *                record_param_comms / ProcessGroup*, python_function frames in
 *                torch/distributed/distributed_c10d.py;
 *   DataLoading  ranges named enumerate(DataLoader)#... / enumerate(DataPipe)#..., python_function
 *                frames in torch/utils/data/, runtime calls and operators whose `Call stack` (a
 *                capture's Python stack) passes through torch/utils/data/;
 *   CpuWork      every other operator, user annotation, python_function frame or runtime/driver call.
 * Each moment of a gap gets, in this order: the launching thread's highest class among Sync,
 * Collective and DataLoading (Sync > Collective > DataLoading); else the process's main thread's (the
 * thread with the most python_function slices, else with the most step, optimizer and DataLoader
 * ranges), when the launching thread is another (an autograd thread); else Sync while a
 * synchronization of another thread of the process blocks; else CpuWork of the launching thread,
 * then of the main thread; else Nothing. So a gap is split by time (issue #51): the part while the
 * host was blocked in a synchronization, then what the host did after it returned (a sync only
 * drains the GPU's queue; the time after it is the host's next work, down to a `time.sleep`). The
 * synchronization that drained the queue is named with the gap's cause (IdleGap::drainedBy): the
 * last one of the process to end, when it ended less than drainNs after the gap's start, or the one
 * whose wake the gap is in (it opens before the GPU has worked wakeNs since that synchronization). Nothing with
 * the process's child processes (DataLoader workers) using at least kBusyWorkersCpuPercent of a core
 * over the gap (a capture's host_cpu_children counter) is DataLoading. Before that rule, in a
 * Warpscope capture, a moment with nothing on the launching thread within kHostGapNs before the
 * launch that ends the gap is CpuWork on that launch's line: the code that led to it ran then
 * (host_gaps.h; a capture covers only its CUDA calls and operator windows with slices).
 *
 * Lines: each moment is charged to a line of its class. Sync, Collective and DataLoading: the
 * outermost covering slice of the class (aten::item over its cudaStreamSynchronize, the
 * enumerate(DataLoader) range) with its user line; CpuWork: the user line of the innermost covering
 * slice, with the outermost covering operator as `what` (only when the line is unknown), or the
 * innermost slice itself when it is a module-level built-in ("<built-in function sleep>"). A slice's
 * user line: its Python frames (itself when python_function, then its enclosing python_function
 * slices), else its `Call stack` argument, else that of its innermost enclosing operator that has
 * one; the innermost frame that is not library code (a file under torch/, torchvision/,
 * site-packages/, dist-packages/, /lib/python, or <frozen ...>), else the innermost frame with a file.
 *
 * Cost: O(gaps * rows * log n) to find the slices inside the gaps, O(k log k) for the k slices of a
 * gap's thread that overlap it, plus one bulk pass over the `Call stack` arguments of those slices
 * on threads without python_function events (IdleGapOptions::readCallStacks).
 */
enum class GapCategory : uint8_t { Sync, Collective, DataLoading, CpuWork, Nothing };
inline constexpr size_t kGapCategoryCount = 5;

const char* gapCategoryId(GapCategory c);   // "sync", "collective", "data", "cpu", "none"
const char* gapCategoryName(GapCategory c); // "host synchronization", ..., "nothing recorded"

/* One line the gap time is charged to: `what` (call, range or operator name; empty for CpuWork with
 * a known line) and the user line (file empty when unknown). */
struct GapLine {
    GapCategory category = GapCategory::Nothing;
    std::string what;
    std::string file;
    int32_t line = 0;
    std::string function;
    int64_t ns = 0;    // gap time charged to it
    uint64_t gaps = 0; // gaps with time charged to it
};

// "what (file:line function)", "file:line function" or "what".
std::string gapLineText(const GapLine& line);

/* One gap (or its piece inside one step). ns by category sums to end - start. */
struct IdleGap {
    static constexpr uint32_t kNone = 0xffffffffu;
    int64_t start = 0;
    int64_t end = 0;
    uint32_t step = 0; // index into IdleGapReport::steps
    int device = 0;
    uint32_t thread = kNone;      // track of the launching thread
    uint32_t launchTrack = kNone; // the call that launched the first GPU work after the gap
    uint32_t launchSlice = kNone;
    std::array<int64_t, kGapCategoryCount> ns{};
    GapCategory category = GapCategory::Nothing; // the class with the most time (ties: higher class)
    uint32_t cause = kNone; // index into IdleGapReport::lines: the heaviest line of `category` in it
    // The synchronization that drained the GPU's queue before the gap (a Sync line), named with the
    // cause of a gap that is the host's work after it; kNone if none, or when the gap is itself
    // mostly that synchronization (category Sync).
    uint32_t drainedBy = kNone;
    int64_t duration() const { return end - start; }
};

struct GapCategoryTotals {
    int64_t ns = 0;
    double perStepNs = 0;         // ns / steps
    double share = 0;             // of all gap time, 0..1
    uint64_t gaps = 0;            // gaps whose main category this is
    std::vector<uint32_t> lines;  // into IdleGapReport::lines, heaviest first
};

struct IdleGapReport {
    bool valid = false; // false: no steps (nothing to analyse)
    int64_t thresholdNs = 0;
    std::vector<StepRange> steps; // the analysed steps (clipped to a selected range)
    std::vector<std::string> stepLabels; // per step: the N of ProfilerStep#N, or empty
    int64_t stepsNs = 0;          // their total length
    int64_t gapNs = 0;            // all gap time
    std::vector<IdleGap> gaps;    // by device, then start
    std::array<GapCategoryTotals, kGapCategoryCount> categories;
    std::vector<GapLine> lines;
    bool callStacksRead = false; // some thread's `Call stack` arguments were read
    std::string emptyReason;     // why there are no gaps, when there are none

    const GapCategoryTotals& totals(GapCategory c) const { return categories[static_cast<size_t>(c)]; }
    // "host synchronization: cudaStreamSynchronize (train.py:42 step)" for one gap.
    std::string causeText(const IdleGap& gap) const;
};

struct IdleGapOptions {
    int64_t thresholdNs = 50'000;
    std::optional<OverviewRange> range; // as computeOverview's selected range
    // Read the `Call stack` arguments of the slices in the gaps on threads without python_function
    // events (captures' Python stacks, legacy with_stack traces). Off: those threads have no lines
    // and no DataLoading by stack (a whole-job summary skips the pass over each rank's file).
    bool readCallStacks = true;
    // A gap that opens less than this much GPU busy time after a synchronization of the process
    // ended is in its wake (the synchronization emptied the GPU's queue and the host has not got
    // ahead again); 0: off.
    int64_t wakeNs = 300'000;
    // A synchronization that ended at most this long after a gap's start is named as what drained
    // the GPU's queue before it (IdleGap::drainedBy); the time itself is what the host did.
    int64_t drainNs = 10'000'000;
    const std::atomic<bool>* cancel = nullptr;
};

IdleGapReport computeIdleGaps(const Session& session, const OverviewData& data, const IdleGapOptions& options = {});
// With the Overview's data prepared here.
IdleGapReport computeIdleGaps(const Session& session, const IdleGapOptions& options = {});
// Over given steps (computeStepRanges), with only the GPU busy time collected here (one pass over the
// GPU tracks): what a rank's distributed summary needs without the rest of the Overview's data.
IdleGapReport computeIdleGaps(const Session& session, const StepRanges& steps, const IdleGapOptions& options);

// The analysed steps of computeOverview(session, data, range): the steps, those intersecting the
// range clipped to it, or the range itself when none does.
std::vector<StepRange> overviewWindowSteps(const OverviewData& data, const std::optional<OverviewRange>& range,
                                           std::vector<std::string>* labels = nullptr);

// The report as CSV, one row per gap:
// step (label, else its number from 1),device,start_ns,end_ns,duration_ns,category,sync_ns,collective_ns,data_ns,cpu_ns,none_ns,thread,cause
std::string idleGapsCsv(const Session& session, const IdleGapReport& report);

} // namespace ws
