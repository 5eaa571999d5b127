#pragma once

#include "analysis/ncu_results.h"
#include "analysis/roofline_bound.h"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace ws {

class KernelTable;
class Session;

/*
 * Nsight Compute's launches matched to this run's kernels (issue #49: its measurements attached to
 * those kernels, marked as measured).
 *
 * ncu profiled consecutive launches of the kernels its filter matched, so the results of one
 * function name are consecutive launches of that name. They are placed where their sequence of grid
 * and block sizes agrees best with the run's launches of the same function name (in the table's
 * order); among placements that agree equally (a decode loop repeats its shapes every token), the
 * one at `skipHint` if it is one of them, else the first. The run that ncu profiled is another run
 * of the program: a matched launch is the same launch of the same code, not the same moment.
 */
struct NcuMatchedLaunch {
    uint32_t result = 0;                  // index into NcuResults::results
    std::optional<uint32_t> row;          // the table row; nullopt: the run has no launch of the name there
    uint64_t launch = 0;                  // its index among the run's launches of the function name
    bool shapesAgree = false;             // grid and block equal
    Bound measuredBound = Bound::Unknown; // ncu's speed of light: the busier of SM and memory, latency when both < 60 %
};

struct NcuMatch {
    std::vector<NcuMatchedLaunch> launches; // one per result, in result order
    uint32_t ambiguousFunctions = 0;        // function names placed at one of several equal placements
};

struct NcuMatchOptions {
    std::optional<uint64_t> skipHint; // the --launch-skip of the ncu run, when known
};

NcuMatch matchNcuResults(const Session& session, const KernelTable& table, const NcuResults& results,
                         const NcuMatchOptions& options = {});

/*
 * What ncu measured on the launches of one kernel name of the table, averaged over them; the
 * measured roofline point is the estimated FLOPs over ncu's DRAM bytes and duration, of the launches
 * that have an estimate.
 */
struct NcuKernelMeasure {
    uint32_t nameIndex = 0; // KernelTable::names() index
    uint32_t launches = 0;
    double durationNs = 0, smThroughputPct = 0, memoryThroughputPct = 0, dramGBps = 0, achievedOccupancyPct = 0;
    Bound bound = Bound::Unknown; // of the means
    double flops = 0;             // estimated, of the launches with an estimate
    double dramBytes = 0;         // measured (DRAM GB/s x duration) of those launches
    double estimatedNs = 0;       // their ncu duration
    std::vector<NcuRule> rules;   // the distinct OPT and WRN findings, by name

    double intensity() const { return dramBytes > 0 ? flops / dramBytes : std::nan(""); }
    double tflops() const { return estimatedNs > 0 ? flops / estimatedNs / 1e3 : std::nan(""); }
};
std::vector<NcuKernelMeasure> ncuByKernelName(const KernelTable& table, const NcuResults& results, const NcuMatch& match);

// ncu's verdict from its speed-of-light percentages: Nsight Compute calls a kernel latency-bound
// when neither SM nor memory throughput reaches 60 % of peak.
Bound ncuSpeedOfLightBound(const NcuResult& r);

// `warpscope-cli ncu --import`: JSON (results: ncu's figures, the matched kernel with its trace
// duration, estimate and estimated bound, the rules) and a text table.
std::string ncuMatchToJson(const Session& session, const KernelTable& table, const NcuResults& results,
                           const NcuMatch& match);
void printNcuMatch(std::ostream& out, const Session& session, const KernelTable& table, const NcuResults& results,
                   const NcuMatch& match);

} // namespace ws
