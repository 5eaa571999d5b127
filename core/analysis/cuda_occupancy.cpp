#include "analysis/cuda_occupancy.h"

#include "model/device_info.h"
#include "model/session.h"

#include <algorithm>
#include <climits>
#include <limits>
#include <span>

namespace ws {

namespace {

/* One architecture's SM, as cudaGetDeviceProperties reports it. minor -1: any minor version. */
struct Arch {
    int major, minor;
    int maxThreadsPerSm, maxBlocksPerSm;
    int64_t sharedMemPerSm, sharedMemPerBlockOptin;
};

constexpr int64_t kKiB = 1024;

// CUDA C Programming Guide, "Technical Specifications per Compute Capability", and the blocks-per-SM
// table of cuda_occupancy.h (cudaOccMaxBlocksPerMultiprocessor).
constexpr Arch kArchs[] = {
    {5, 2, 2048, 32, 96 * kKiB, 48 * kKiB},    {5, -1, 2048, 32, 64 * kKiB, 48 * kKiB},
    {6, 1, 2048, 32, 96 * kKiB, 48 * kKiB},    {6, -1, 2048, 32, 64 * kKiB, 48 * kKiB},
    {7, 5, 1024, 16, 64 * kKiB, 64 * kKiB},    {7, -1, 2048, 32, 96 * kKiB, 96 * kKiB},
    {8, 0, 2048, 32, 164 * kKiB, 163 * kKiB},  {8, 7, 2048, 16, 164 * kKiB, 163 * kKiB},
    {8, 9, 1536, 24, 100 * kKiB, 99 * kKiB},   {8, -1, 1536, 16, 100 * kKiB, 99 * kKiB},
    {9, -1, 2048, 32, 228 * kKiB, 227 * kKiB}, {10, 1, 1536, 24, 228 * kKiB, 227 * kKiB},
    {10, -1, 2048, 32, 228 * kKiB, 227 * kKiB}, {11, 0, 1536, 24, 228 * kKiB, 227 * kKiB},
    {11, -1, 2048, 32, 228 * kKiB, 227 * kKiB}, {12, -1, 1536, 24, 100 * kKiB, 99 * kKiB},
};

const Arch* archOf(int major, int minor) {
    for (const Arch& a : kArchs)
        if (a.major == major && (a.minor == minor || a.minor == -1))
            return &a;
    return nullptr;
}

// The smallest shared-memory carveout of the architecture that holds `bytes` (the unified L1 /
// shared memory of sm_70+ is split in these steps); nullopt when none does. Before sm_70 the SM's
// shared memory is fixed.
std::optional<int64_t> carveout(int64_t bytes, const CudaSmLimits& sm) {
    static constexpr int kVolta[] = {0, 8, 16, 32, 64, 96}, kTuring[] = {32, 64}, kA100[] = {0, 8, 16, 32, 64, 100, 132, 164},
                         kAda[] = {0, 8, 16, 32, 64, 100}, kHopper[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
    std::span<const int> steps; // KiB
    switch (sm.computeMajor) {
    case 7: steps = sm.computeMinor == 5 ? std::span<const int>(kTuring) : kVolta; break;
    case 8: steps = sm.computeMinor == 0 || sm.computeMinor == 7 ? std::span<const int>(kA100) : kAda; break;
    case 9:
    case 10:
    case 11: steps = kHopper; break;
    case 12: steps = kAda; break;
    default: return bytes;
    }
    for (int s : steps)
        if (bytes <= s * kKiB)
            return s * kKiB;
    return std::nullopt;
}

int64_t roundUp(int64_t v, int64_t unit) { return (v + unit - 1) / unit * unit; }

} // namespace

std::optional<CudaSmLimits> cudaSmLimits(const DeviceInfo& d) {
    if (deviceVendor(d) == DeviceInfo::Vendor::Amd || !d.computeMajor || !d.numSms || *d.numSms <= 0)
        return std::nullopt;
    const Arch* a = archOf(*d.computeMajor, d.computeMinor.value_or(0));
    if (!a)
        return std::nullopt;
    CudaSmLimits sm;
    sm.computeMajor = *d.computeMajor;
    sm.computeMinor = d.computeMinor.value_or(0);
    sm.numSms = *d.numSms;
    sm.maxThreadsPerSm = d.maxThreadsPerMultiprocessor.value_or(0) > 0 ? *d.maxThreadsPerMultiprocessor : a->maxThreadsPerSm;
    sm.maxBlocksPerSm = a->maxBlocksPerSm;
    sm.sharedMemPerSm = a->sharedMemPerSm;
    sm.sharedMemPerBlockOptin = a->sharedMemPerBlockOptin;
    return sm;
}

std::map<int, CudaSmLimits> cudaSmLimitsByDevice(const Session& s) {
    std::map<int, CudaSmLimits> out;
    for (const DeviceInfo& d : s.devices())
        if (const auto sm = cudaSmLimits(d))
            out.emplace(d.id, *sm);
    return out;
}

std::optional<CudaOccupancy> cudaOccupancy(const CudaLaunch& k, const CudaSmLimits& sm, CudaSharedMemoryLimit limit) {
    if (k.threadsPerBlock <= 0 || k.blocks <= 0 || sm.numSms <= 0 || sm.maxThreadsPerSm <= 0 || sm.warpSize <= 0)
        return std::nullopt;
    if (k.threadsPerBlock > sm.maxThreadsPerBlock) {
        // No block of this size fits an SM (and nothing below may multiply such a size: a corrupt
        // record's extents reach INT64_MAX).
        CudaOccupancy none;
        none.activeBlocksPerSm = 0;
        none.limiters = CudaOccupancy::Warps;
        none.achieved = 0.0f;
        return none;
    }
    const int64_t warps = (k.threadsPerBlock + sm.warpSize - 1) / sm.warpSize;

    const int64_t byWarps = (sm.maxThreadsPerSm / sm.warpSize) / warps;
    const int64_t byBlocks = sm.maxBlocksPerSm;

    int64_t byRegisters = INT_MAX;
    const int64_t parts = sm.computeMajor == 6 && sm.computeMinor == 0 ? 2 : 4;
    const int64_t regsPerWarp = roundUp(int64_t(std::max(k.registersPerThread, 0)) * sm.warpSize, 256);
    const int maxRegsPerThread = sm.computeMajor >= 7 ? 256 : 255;
    if (regsPerWarp * warps > sm.regsPerBlock || regsPerWarp * roundUp(warps, parts) > sm.regsPerBlock ||
        k.registersPerThread > maxRegsPerThread)
        byRegisters = 0;
    else if (regsPerWarp > 0)
        byRegisters = (sm.regsPerSm / parts / regsPerWarp) * parts / warps;

    const int64_t reserved = sm.computeMajor >= 8 ? kKiB : 0;
    // Clamped far above any SM's shared memory, so the rounding cannot overflow.
    const int64_t requested = std::clamp<int64_t>(k.sharedMemoryBytes, 0, int64_t(1) << 40);
    const int64_t allocated = roundUp(requested + reserved, sm.computeMajor >= 8 ? 128 : 256);
    const int64_t perBlock = (limit == CudaSharedMemoryLimit::OptIn && allocated > sm.sharedMemPerBlock + reserved
                                  ? sm.sharedMemPerBlockOptin
                                  : sm.sharedMemPerBlock) +
                             reserved;
    int64_t bySharedMemory = 0;
    if (allocated <= perBlock) {
        std::optional<int64_t> perSm = carveout(sm.sharedMemPerSm, sm);
        if (perSm && *perSm < allocated)
            perSm = sm.computeMajor >= 7 ? carveout(allocated, sm) : sm.sharedMemPerSm;
        if (!perSm)
            return std::nullopt; // the calculator fails: Kineto writes no value (-1)
        bySharedMemory = allocated > 0 ? *perSm / allocated : INT_MAX;
    }

    CudaOccupancy out;
    const int64_t active = std::min({byWarps, byBlocks, byRegisters, bySharedMemory});
    out.activeBlocksPerSm = static_cast<int>(active);
    out.limiters = static_cast<uint8_t>((byWarps == active ? CudaOccupancy::Warps : 0) |
                                        (byBlocks == active ? CudaOccupancy::Blocks : 0) |
                                        (byRegisters == active ? CudaOccupancy::Registers : 0) |
                                        (bySharedMemory == active ? CudaOccupancy::SharedMemory : 0));
    // Single precision, operation by operation, as Kineto (kernelOccupancy) does.
    const float given = static_cast<float>(k.blocks) / static_cast<float>(sm.numSms);
    const float blocks = std::min(static_cast<float>(active), given);
    out.achieved = blocks * static_cast<float>(k.threadsPerBlock) / static_cast<float>(sm.maxThreadsPerSm);
    return out;
}

namespace {

// x*y*z of launch dimensions, negatives as 0, saturating at INT64_MAX: a hostile or corrupt record's
// three 2^31 extents overflow int64 (found by fuzz_capture_stream).
int64_t extent(const std::array<int32_t, 3>& d) {
    int64_t out = 1;
    for (int32_t v : d)
        if (__builtin_mul_overflow(out, int64_t(std::max(v, 0)), &out))
            return std::numeric_limits<int64_t>::max();
    return out;
}

} // namespace

float occupancyFromLaunchArgs(const CudaSmLimits& sm, const std::array<int32_t, 3>& grid,
                              const std::array<int32_t, 3>& block, int32_t registers, int64_t sharedMemory) {
    CudaLaunch k;
    k.blocks = extent(grid);
    k.threadsPerBlock = extent(block);
    k.registersPerThread = registers;
    k.sharedMemoryBytes = sharedMemory;
    if (registers < 0 || sharedMemory < 0)
        return std::numeric_limits<float>::quiet_NaN();
    const auto occ = cudaOccupancy(k, sm, CudaSharedMemoryLimit::OptIn);
    return occ ? static_cast<float>(occ->percent()) : std::numeric_limits<float>::quiet_NaN();
}

} // namespace ws
