#pragma once

#include "analysis/kernel_table.h"

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

namespace ws {

enum class KernelGrouping : uint8_t {
    Name,              // one group per kernel name
    NameOpGridBlock,   // one group per (kernel, launching operator, grid, block)
};

/*
 * KernelGroup: the aggregate of the kernel calls sharing a grouping key. Fields outside the key
 * are left absent (op = kEmptyString, grid/block zero) for name grouping. percentOfGpu is the
 * group's share of the kernel time of the rows grouped (sum of kernel durations), 0..100.
 * meanBlocksPerSm / meanOccupancy are duration-weighted means over the calls with calls lacking the
 * value counted as 0, as torch-tb-profiler's kernel view does (FORMATS.md 3.7); NaN when no call
 * has it.
 */
struct KernelGroup {
    StringId name = kEmptyString;
    StringId op = kEmptyString;
    std::array<int32_t, 3> grid{};
    std::array<int32_t, 3> block{};
    uint32_t firstRow = 0; // earliest call, a row of the KernelTable
    uint64_t calls = 0;
    int64_t totalNs = 0;
    int64_t minNs = 0;
    int64_t maxNs = 0;
    double meanNs = 0;
    double percentOfGpu = 0;
    double meanBlocksPerSm = std::numeric_limits<double>::quiet_NaN();
    double meanOccupancy = std::numeric_limits<double>::quiet_NaN();
    bool tensorCores = false;
};

// Groups of the table's rows, by total time descending (ties by first call). O(n) expected.
std::vector<KernelGroup> groupKernels(const KernelTable& table, KernelGrouping grouping);
// The same over a subset of the rows (e.g. the kernels of a selected time range).
std::vector<KernelGroup> groupKernels(const KernelTable& table, KernelGrouping grouping,
                                      const std::vector<uint32_t>& rows);

} // namespace ws
