#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ws {

/* DeviceInfo: one entry of Kineto's `deviceProperties` (only the fields analyses use). */
struct DeviceInfo {
    int id = 0;
    std::string name;
    std::optional<int64_t> totalGlobalMem;
    std::optional<int> numSms;
    std::optional<int> computeMajor;
    std::optional<int> computeMinor;
    std::optional<int> maxThreadsPerMultiprocessor;
};

/* DistributedInfo: Kineto/torch `distributedInfo`. */
struct DistributedInfo {
    std::string backend;
    std::optional<int> rank;
    std::optional<int> worldSize;
};

} // namespace ws
