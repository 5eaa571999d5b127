#pragma once

#include "analysis/operator_table.h"
#include "analysis/run_digest.h"
#include "analysis/step_breakdown.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

class Session;
class SessionAnalyses;

/*
 * Comparing two runs (issue #15): what got faster, what got slower. Side 0 is the baseline, side 1
 * the run compared with it. Everything here is Qt-free; the CLI (`warpscope-cli diff`) prints it
 * and tests/core/reference_diff.py recomputes it from the JSON on its own.
 */

/*
 * normalizeKernelName: the name two runs' kernels are matched by, so that renames that do not
 * matter do not split a kernel in two. `void ` and the parameter list go; in the base name,
 * cuBLAS/CUTLASS configuration tokens become `*` (tile shapes such as 128x128x32 or 64x2,
 * `tilesize...`, `warpgroupsize...`, `stages...`, `sliced1x4`, split factors like `5x`); template
 * arguments stay, since they name the functor and the types, but their numbers (vector widths,
 * tile sizes, lambda ordinals) become `*`. E.g.
 *   sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas
 *   -> sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_*_*_execute_segment_k_off_kernel__*_cublas
 *   void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul> >(int, ...)
 *   -> at::native::vectorized_elementwise_kernel<*, at::native::CUDAFunctor_add<float>, std::array<char*, *> >
 */
std::string normalizeKernelName(std::string_view name);

// Whether a group exists in both runs, only in the compared one (new) or only in the baseline.
enum class DiffPresence : uint8_t { Both, New, Vanished };

/* One operator group of either run, matched by the grouping's key text. */
struct OperatorDiffRow {
    std::string name, shapes, types, callStack; // the key (columns outside the grouping empty)
    std::array<uint64_t, 2> calls{};
    std::array<int64_t, 2> hostTotalNs{}, hostSelfNs{}, deviceTotalNs{}, deviceSelfNs{};
    DiffPresence presence = DiffPresence::Both;
    // The time the table is sorted by: device self time when either run has GPU activity, host
    // self time otherwise; compared (1) minus baseline (0).
    int64_t deltaNs = 0;
};

/*
 * One kernel group, matched by normalizeKernelName (and, in SessionDiff::operatorKernels, by the
 * name of the operator that launched it too); the raw names of each side are kept.
 */
struct KernelDiffRow {
    std::string op;                     // the launching operator (operatorKernels only; "" = none)
    std::string key;                    // the normalized name
    std::array<std::string, 2> names;   // each run's raw name (its longest variant), "" if absent
    std::array<uint64_t, 2> calls{};
    std::array<int64_t, 2> totalNs{};
    std::array<int, 2> variants{};      // distinct raw names grouped under the key, per run
    DiffPresence presence = DiffPresence::Both;
    int64_t deltaNs = 0;                // totalNs[1] - totalNs[0]
};

/* A headline number of both runs; absent where a run's trace cannot give it. */
struct DiffMetric {
    std::string name;   // "step time", "GPU utilization", ...
    std::string unit;   // "ns", "%", "bytes", "count"
    std::array<std::optional<double>, 2> value;
    // Percent change from the baseline (absent when either side is, or the baseline is 0).
    std::optional<double> percentChange() const;
};

struct SessionDiff {
    std::vector<DiffMetric> headline;
    std::array<size_t, 2> steps{};          // steps of each run (per-step values are means)
    // Each run's step-time breakdown (the Overview's); side by side, step i of A meets step i of B.
    std::array<StepBreakdown, 2> breakdown;
    std::vector<OperatorDiffRow> operators; // by |deltaNs| descending, then key
    std::vector<KernelDiffRow> kernels;     // by |deltaNs| descending, then key
    // Kernels by launching operator + normalized name: the operator tree's owner of the runtime
    // call that launched each kernel (the operator's own call, not its children's); kernels no
    // operator launched have op "". Same order.
    std::vector<KernelDiffRow> operatorKernels;
    bool deviceTimes = false;               // operator deltas are device self times
    // The grouping the operator rows use: the one asked for, except that name + call stack falls
    // back to name when a run has no call stacks (grouping it by stack would make every operator
    // of the other run new or vanished).
    OperatorGrouping operatorGrouping = OperatorGrouping::Name;
    std::array<bool, 2> callStacks{};       // whether each run's operators have call stacks
    // The mean step time's percent change (wall time of the trace when there are no steps).
    std::optional<double> stepTimeChangePercent;
};

/* A window of a run: [from, to) in session ns, e.g. one step (stepWindow). */
struct DiffWindow {
    int64_t from = 0;
    int64_t to = 0;
};

struct SessionDiffOptions {
    OperatorGrouping operatorGrouping = OperatorGrouping::Name;
    // Compare only part of each run (two steps or ranges of one session, or of two): operators and
    // kernels starting inside, and the Overview of the window (overview.h's selected range).
    std::array<std::optional<DiffWindow>, 2> window;
    // The operators' argument pass (shapes, call stacks), done only for the groupings that need it.
    bool readArgs = true;
};

// The window of the step labelled `label` (ProfilerStep#N's N, an NVTX `step N`'s N) or, for a
// label "#K", of the K-th step (1-based); nullopt when there is no such step.
std::optional<DiffWindow> stepWindow(const Session& session, const std::string& label);

// Compares two runs with the analyses their open tabs already made (session_analyses.h): only what
// is missing is computed, the two runs on two threads, and what is computed stays in the caches.
// A session whose file carries its results (session_results.h) gives its side without computing
// anything when the side has no window.
SessionDiff computeSessionDiff(SessionAnalyses& baseline, SessionAnalyses& compared, const SessionDiffOptions& options = {});
// Compares two runs' digests (run_digest.h): the rows for options.operatorGrouping (and Name, the
// fallback without call stacks) must be there; windows were applied when the digests were made.
SessionDiff diffRunDigests(const RunDigest& baseline, const RunDigest& compared, const SessionDiffOptions& options);
// A stored digest (session_results.h) as the comparison would compute that side: nullopt when the
// side has a window or the stored one lacks what `options` needs.
struct SessionResults;
std::optional<RunDigest> storedDigestFor(const SessionResults& stored, const SessionDiffOptions& options, size_t side);
// The same with no analyses at hand (stored results are still used).
SessionDiff computeSessionDiff(const Session& baseline, const Session& compared, const SessionDiffOptions& options = {});

const char* diffPresenceName(DiffPresence presence); // "both", "new", "vanished"

} // namespace ws
