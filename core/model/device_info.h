#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ws {

/* DeviceInfo: one entry of Kineto's `deviceProperties` (only the fields analyses use). */
struct DeviceInfo {
    // Who made the GPU: formulas that only hold for one vendor's hardware (Tensor Core kernel
    // names, CUDA's occupancy calculator) are not applied to the other's.
    enum class Vendor : uint8_t { Unknown, Nvidia, Amd };
    int id = 0;
    Vendor vendor = Vendor::Unknown;
    std::string name;
    std::optional<int64_t> totalGlobalMem;
    std::optional<int> numSms;
    std::optional<int> computeMajor;
    std::optional<int> computeMinor;
    std::optional<int> maxThreadsPerMultiprocessor;
};

// The vendor given by the importer, else told by the product name (Kineto on ROCm names no vendor
// field: "AMD Instinct MI300X", "AMD Radeon Graphics").
DeviceInfo::Vendor deviceVendor(const DeviceInfo& d);

/* DistributedInfo: Kineto/torch `distributedInfo`. */
struct DistributedInfo {
    std::string backend;
    std::optional<int> rank;
    std::optional<int> worldSize;
};

} // namespace ws
