#pragma once

#include "analysis/comm_ops.h"
#include "analysis/idle_gaps.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ws {

class Session;

/*
 * The Distributed view (issue #12), torch-tb-profiler's formulas (FORMATS.md 3.11) in two stages
 * so that ranks can be summarized where their traces live and merged elsewhere:
 *
 *   RankDistributed   everything one rank contributes, computed from its session alone
 *                     (summarizeRank) and small enough to travel as JSON in `warpscope-cli
 *                     summary --json` (distributed_json.h);
 *   JobDistributed    the per-worker tables of a job, merged from N RankDistributed
 *                     (computeJobDistributed) without touching any trace.
 *
 * All times are ns on the rank's own clock; the merge never compares absolute times across ranks
 * (tb's synchronizing/transfer split uses durations only), so unsynchronized hosts do not distort
 * it. Clock offsets matter only for drawing ranks on one axis (job_clock.h).
 */

/* One step of a rank: tb's computation/communication overlap (per step, ns). */
struct RankStep {
    std::string label; // N of ProfilerStep#N, empty when the trace has no profiler steps
    int64_t start = 0;
    int64_t end = 0;
    int64_t computation = 0;   // |Kernel ∩ step| (CPU Exec when the rank has no kernels)
    int64_t communication = 0; // |Communication ∩ step|
    int64_t overlap = 0;       // |Kernel ∩ Communication ∩ step|
    // The GPU's idle gaps in the step by cause (idle_gaps.h, without reading Call stack arguments).
    std::array<int64_t, kGapCategoryCount> idle{};
    int64_t other() const { return (end - start) + overlap - computation - communication; }
};

struct RankDistributed {
    std::string worker;     // display name: "rank 3" or the file's worker name
    std::string path;       // trace path, to open the trace from the job's tables
    int rank = -1;          // distributedInfo rank, else from the file name, else -1
    int worldSize = 0;      // distributedInfo world_size, 0 when unknown
    std::string backend;    // "nccl", "gloo", ...
    std::string gpuName;    // first device of deviceProperties (or the trace's GPU)
    std::optional<int64_t> gpuMemoryBytes;
    std::string computeCapability; // "7.0", empty when unknown
    std::optional<double> gpuUtilization; // fraction, over the steps (FORMATS.md 3.5), mean over devices
    std::optional<int64_t> peakMemoryBytes; // peak allocated of the busiest device
    std::vector<RankStep> steps;
    std::vector<CommNode> nodes; // in CPU start order; track/slice valid only with the session
    // Per idle-gap cause, the line with the most gap time over the whole trace (gapLineText), or empty.
    std::array<std::string, kGapCategoryCount> idleTopLine;
};

// Rank identity from a trace file name: the number after `rank` or `worker` (`worker3.123.pt.
// trace.json`, `rank-12.json`, `rank_0.pt.trace.json.gz`); -1 when there is none.
int rankFromFileName(const std::string& path);
// Worker name of a tensorboard_trace_handler file `<worker>.<span>.pt.trace.json[.gz]` (tb's
// regex), else the file name without directories and trace extensions.
std::string workerNameFromFileName(const std::string& path);
// The worker's display name: the file's worker name, except that a capture stream named by its pid
// (995.wscap) is "pid 995" (the views put "rank N" before it).
std::string workerName(const std::string& path);

RankDistributed summarizeRank(const Session& session);
// The same with the session's TraceSummary already at hand (GPU, utilization and peak memory come
// from it), so `summary --json` does not summarize twice.
struct TraceSummary;
RankDistributed summarizeRank(const Session& session, const TraceSummary& summary);
// The same from step and role ranges already computed (the Overview's, OverviewData).
RankDistributed summarizeRank(const Session& session, const TraceSummary& summary, const StepRanges& steps,
                              const std::vector<std::string>& stepLabels, const StepRoleRanges& roles);

/* One row of the communication operations table: a worker's calls of one op in one group. */
struct CommOpStats {
    size_t worker = 0; // index into JobDistributed::workers
    std::string processGroup;
    std::string name;
    CollectiveKind kind = CollectiveKind::Other;
    int groupSize = 0;
    uint64_t calls = 0;
    int64_t totalBytes = 0;     // sum of the known input bytes
    bool bytesKnown = false;    // some call had bytes
    int64_t latencyNs = 0;      // sum over calls of |union(ranges)|
    int64_t transferNs = 0;     // sum over calls of |union(real ranges)|
    int64_t kernelNs = 0;       // sum over calls of |union(GPU ranges)|
    std::optional<double> algBwGBps; // size / kernelNs (latencyNs without kernels)
    std::optional<double> busBwGBps; // algBw x busBandwidthFactor
};

/* A worker's row: its steps with the synchronizing/transfer split, and means over its steps. */
struct WorkerSteps {
    std::vector<int64_t> sync;     // per RankDistributed::steps entry
    std::vector<int64_t> transfer; // per RankDistributed::steps entry
    double meanComputation = 0;
    double meanCommunication = 0;
    double meanOverlap = 0;
    double meanOther = 0;
    double meanSync = 0;
    double meanTransfer = 0;
    double meanStepNs = 0;
};

/* The straggler of one step: the worker the others waited on, and how long they waited. */
struct StepStraggler {
    std::string step;   // step label
    size_t worker = 0;  // index into workers
    double waitNs = 0;  // mean synchronizing time of the other workers in that step
};

struct JobDistributed {
    std::vector<RankDistributed> workers; // sorted by rank (unknown ranks last, in input order); kept
                                          // steps only, no nodes
    std::vector<WorkerSteps> steps;       // per worker
    std::vector<CommOpStats> ops;         // by (worker, process group, name)
    std::vector<StepStraggler> stragglers; // steps present on every worker in which someone waited, in step order
    // The worker most often the straggler (ties: the one others waited on longest); empty when
    // there is no step common to all workers or only one worker.
    std::optional<size_t> straggler;
    double stragglerMeanWaitNs = 0; // mean wait of the others over the steps it straggled
    // What the straggler's host did while the others waited: in the steps it straggled, the mean
    // GPU idle time per step by cause of the straggler (idle_gaps.h), and of the others for comparison.
    std::array<double, kGapCategoryCount> stragglerIdleNs{};
    std::array<double, kGapCategoryCount> othersIdleNs{};
    std::optional<size_t> slowestWorker; // by mean step time, when it is >1% slower than the fastest
    std::optional<size_t> fastestWorker;
    uint64_t unmatchedNodes = 0; // nodes whose (name, occurrence) is missing on some worker
};

// Which steps count (a selected step, the steps overlapping a selected range): keep(index into
// `ranks`, step). Empty: all of them.
using StepFilter = std::function<bool(size_t rank, const RankStep& step)>;

// The job's tables. `ranks` are read in place (the result's workers carry the kept steps but no
// nodes), so a thousand ranks are merged without copying their communication ops.
JobDistributed computeJobDistributed(const std::vector<RankDistributed>& ranks, const StepFilter& keep = {});

// The causes of the straggler's GPU idle time in the steps it straggled (JobDistributed::
// stragglerIdleNs), heaviest first: those with at least a tenth of it, three at most; empty without
// a straggler or idle time.
std::vector<GapCategory> stragglerIdleCauses(const JobDistributed& job);

// Which of the processes opened together are the job's workers: all of them, except processes with
// no rank and no communication op (the torchrun launcher, which a capture records as a stream of its
// own) when some other process has a rank. Indices in input order.
std::vector<size_t> jobWorkerIndices(const std::vector<RankDistributed>& processes);


} // namespace ws
