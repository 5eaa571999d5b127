#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ws {

class Session;

/*
 * The summary tables `nsys stats` prints, from any session: GPU kernels, runtime/driver API calls
 * and GPU memory operations by time, and memory operations by size, each a CSV named like its
 * nsys report (cuda_gpu_kern_sum.csv, cuda_api_sum.csv, cuda_gpu_mem_time_sum.csv,
 * cuda_gpu_mem_size_sum.csv) with nsys's columns: Time (%), Total Time (ns), Instances, Avg, Med,
 * Min, Max, StdDev (ns), Name; sizes in MB. Rows by total time (size) descending, names breaking
 * ties. StdDev is the sample standard deviation (0 for one instance). [from, to) keeps the
 * events starting in it. O(n log n).
 */
struct SummaryCsvFile {
    std::string name; // file name
    std::string text; // CSV text
};

std::vector<SummaryCsvFile> summaryCsvFiles(const Session& session, std::optional<int64_t> from = {},
                                            std::optional<int64_t> to = {});

} // namespace ws
