#pragma once

#include "analysis/step_ranges.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

class Session;

/*
 * Interval lists: half-open [start, end) ns. A "merged" list is sorted by start with disjoint,
 * non-touching, non-empty intervals; the set operations take and return merged lists in O(a + b).
 */
struct Interval {
    int64_t start = 0;
    int64_t end = 0;
};
using IntervalList = std::vector<Interval>;

// Sorts, merges overlapping or touching intervals and drops empty ones. O(n log n); O(n log r)
// when the list is r already sorted runs (e.g. the rows of a few tracks appended), the usual case.
void mergeIntervals(IntervalList& list);

// Sorts by `less`, merging the already sorted runs of the input when there are few of them (a
// vector filled track by track, row by row), else a plain sort.
template <typename T, typename Less>
void sortRuns(std::vector<T>& v, Less less) {
    std::vector<size_t> bounds{0};
    for (size_t i = 1; i < v.size(); ++i)
        if (less(v[i], v[i - 1])) {
            bounds.push_back(i);
            if (bounds.size() > 64) {
                std::sort(v.begin(), v.end(), less);
                return;
            }
        }
    bounds.push_back(v.size());
    // Merge neighbouring runs pairwise until one is left: O(n log runs).
    while (bounds.size() > 2) {
        std::vector<size_t> next{0};
        for (size_t k = 0; k + 2 < bounds.size(); k += 2) {
            const auto base = v.begin();
            std::inplace_merge(base + static_cast<std::ptrdiff_t>(bounds[k]), base + static_cast<std::ptrdiff_t>(bounds[k + 1]),
                               base + static_cast<std::ptrdiff_t>(bounds[k + 2]), less);
            next.push_back(bounds[k + 2]);
        }
        if (bounds.size() % 2 == 0)
            next.push_back(bounds.back());
        bounds = std::move(next);
    }
}
IntervalList intersectIntervals(const IntervalList& a, const IntervalList& b);
IntervalList subtractIntervals(const IntervalList& a, const IntervalList& b);
int64_t totalLength(const IntervalList& merged);
// |merged ∩ [lo, hi)|: O(log n + intervals inside).
int64_t lengthWithin(const IntervalList& merged, int64_t lo, int64_t hi);

/*
 * StepRole: where step time goes, in torch-tb-profiler's priority order (FORMATS.md 3.4): a
 * moment covered by several roles is counted once, for the first of them.
 */
enum class StepRole : uint8_t { Kernel, Memcpy, Memset, Communication, Runtime, DataLoader, CpuExec, Other };
inline constexpr size_t kStepRoleCount = 8;
const char* stepRoleName(StepRole role); // "Kernel", ..., "CPU Exec", "Other"

/*
 * StepRoleRanges: the merged role ranges of a whole session, before exclusive attribution
 * (everything but Other). Collected once per session in one pass over the slices; a breakdown for
 * any set of steps (the trace's, or those of a selected range) is then cheap.
 *
 * Role sources (FORMATS.md 3.4):
 *   Kernel        kernel slices on GPU tracks, except communication kernels;
 *   Memcpy/Memset GPU copies and memsets;
 *   Communication host ops/annotations named `nccl:*` or `gloo:*`, plus communication kernels: a
 *                 kernel is one when its name starts with `nccl` (NCCL and RCCL name all their
 *                 kernels so; modern torch links them to `record_param_comms`, not to the
 *                 `nccl:*` op, so tb-profiler's External-id rule alone misses them) or when its
 *                 External id is that of a `nccl:*`/`gloo:*`/`record_param_comms` op (the
 *                 tb-profiler rule, which also catches Gloo-launched kernels). Any `nccl:`/`gloo:`
 *                 op counts, not just tb-profiler's five names (all_to_all, send, recv, ... are
 *                 communication too).
 *   Runtime       runtime API calls (cuda_runtime and other *_runtime categories); driver calls
 *                 (cuda_driver) are not counted, as in tb-profiler;
 *   DataLoader    host ops/annotations `enumerate(DataLoader)#...__next__` or `enumerate(DataPipe)#...`;
 *   CPU Exec      other host cpu_op / user_annotation slices except ProfilerStep#N (python_function
 *                 and GPU-side annotations are not CPU Exec); and, in a Warpscope capture, a host
 *                 thread's time between two of its CUDA calls less than kHostGapNs apart
 *                 (host_gaps.h): outside the operator windows nothing else covers the Python that
 *                 runs an eager model between its launches, most of a host-bound decode loop's step
 *                 (issue #49); a longer gap stays Other.
 */
struct StepRoleRanges {
    std::array<IntervalList, kStepRoleCount - 1> ranges; // indexed by StepRole, Other excluded
    bool anyDeviceActivity = false;                        // any kernel, memcpy, memset or runtime
    bool anyCommunication = false;
};

StepRoleRanges collectStepRoleRanges(const Session& session);

// A communication kernel by name: NCCL and RCCL name all their kernels `nccl...` (any case, after
// an optional `void `).
bool isCommunicationKernelName(std::string_view name);

/*
 * StepCosts: one step's time split by role; the costs sum to total() exactly.
 */
struct StepCosts {
    std::string label; // the N of ProfilerStep#N; empty for a step that is not a profiler step
    int64_t start = 0;
    int64_t end = 0;
    std::array<int64_t, kStepRoleCount> cost{};
    int64_t total() const { return end - start; }
};

/*
 * StepBreakdown: the step-time breakdown of FORMATS.md 3.4. Each role's cost is its range
 * intersected with what earlier roles left free of the union of steps; the per-step cost is that
 * set's length inside the step; averages are arithmetic means over the steps.
 * Cost O(R + S) for R role intervals and S steps (steps must be sorted and disjoint, as
 * computeStepRanges gives them).
 */
struct StepBreakdown {
    std::vector<StepCosts> steps;
    std::array<double, kStepRoleCount> average{}; // ns
    double averageTotal = 0;                       // ns
    bool anyDeviceActivity = false;
    bool anyCommunication = false;
    // part / total of the average step, 0 when there are no steps.
    double averageShare(StepRole role) const;
};

StepBreakdown computeStepBreakdown(const StepRoleRanges& roles, std::vector<StepCosts> steps);

// Convenience for a whole session: its steps (computeStepRanges) labelled by ProfilerStep number.
StepBreakdown computeStepBreakdown(const Session& session);

// Labels of computeStepRanges(session).steps: the N of the host ProfilerStep#N slices in start
// order, or empty strings when the session has no profiler steps.
std::vector<std::string> stepLabels(const Session& session, const StepRanges& steps);

} // namespace ws
