#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

/* One finding of an Nsight Compute rule on a launch ("SOLBottleneck", OPT: its advice). */
struct NcuRule {
    std::string name;        // "AchievedOccupancy"
    std::string type;        // OPT, INF, WRN, ERR
    std::string description; // ncu's text
    double speedupPct = std::nan(""); // its estimated speedup, when it gives one
};

/*
 * NcuResult: what Nsight Compute measured on one profiled launch, from its CSV exports. NaN where
 * the export lacks the metric (the sections that were not collected).
 */
struct NcuResult {
    uint32_t id = 0;              // ncu's result ID: 0, 1, ... in launch order
    int64_t pid = -1;
    std::string kernelName;       // as ncu demangles it
    std::string function;         // kernelFunctionName of it (ncu_command.h)
    std::array<int32_t, 3> grid{}, block{};
    double durationNs = std::nan("");
    double smThroughputPct = std::nan("");     // Compute (SM) Throughput
    double memoryThroughputPct = std::nan(""); // Memory Throughput (the busiest memory unit)
    double dramThroughputPct = std::nan("");   // DRAM Throughput
    double dramGBps = std::nan("");            // DRAM bytes per second
    double achievedOccupancyPct = std::nan("");
    double tensorPipePct = std::nan("");       // Tensor pipe active (raw page only)
    double registers = std::nan("");
    std::vector<NcuRule> rules;
};

/* The launches of one or more exports of the same report, by ID. */
struct NcuResults {
    std::vector<NcuResult> results; // ID order
    uint32_t rawFiles = 0, detailFiles = 0;
    uint32_t skippedRows = 0;       // rows that were not a launch's (malformed, or no ID)
};

/*
 * Reads one of ncu's CSV exports into `into`, merging launches by ID with what it holds already (a
 * raw and a details export of the same report complete each other):
 *   - `--page raw`: a header of metric names, a row of units, then one row per launch;
 *   - `--page details`: one row per metric or rule finding of a launch (Section Name, Metric Name,
 *     Metric Unit, Metric Value, Rule Name, Rule Type, Rule Description, Estimated Speedup).
 * A metric that an earlier export gave is kept (read the raw page first: the details page rounds).
 * Units are read as written (us, ns, ms, Gbyte/s, byte/s, ... and --print-units base); thousands
 * separators are dropped. False with a reason when the text is neither; the rows that are not a
 * launch's are counted in skippedRows.
 */
bool readNcuCsv(std::string_view text, NcuResults& into, std::string& error);

// readNcuCsv on a file (plain, gzip or zstd); false with the reason when it cannot be read.
bool readNcuCsvFile(const std::string& path, NcuResults& into, std::string& error);

// ncu's "(2, 64, 1)" or "[2, 64, 1]"; false when it is not 1..3 integers.
bool parseNcuDim3(std::string_view text, std::array<int32_t, 3>& out);

} // namespace ws
