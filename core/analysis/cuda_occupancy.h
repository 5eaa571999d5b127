#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>

namespace ws {

class Session;
struct DeviceInfo;

/*
 * CudaSmLimits: what one streaming multiprocessor of an NVIDIA GPU holds, the device side of CUDA's
 * occupancy calculator (cudaOccDeviceProp). cudaSmLimits() fills it from the compute capability
 * (the values of cudaGetDeviceProperties for that architecture: every GPU of one compute
 * capability has the same SM) and takes the SM count and threads per SM from the trace's device
 * record where it has them.
 */
struct CudaSmLimits {
    int computeMajor = 0;
    int computeMinor = 0;
    int numSms = 0;
    int warpSize = 32;
    int maxThreadsPerSm = 0;
    int maxThreadsPerBlock = 1024;
    int maxBlocksPerSm = 0;
    int regsPerSm = 65536;
    int regsPerBlock = 65536;
    int64_t sharedMemPerSm = 0;
    int64_t sharedMemPerBlock = 48 * 1024;
    int64_t sharedMemPerBlockOptin = 48 * 1024;
};

// The limits of an NVIDIA device of compute capability 5.0 to 12.x; nullopt for another vendor, an
// unknown compute capability or a device without an SM count.
std::optional<CudaSmLimits> cudaSmLimits(const DeviceInfo& device);
// cudaSmLimits of every device of the session that has them, by device id.
std::map<int, CudaSmLimits> cudaSmLimitsByDevice(const Session& session);

/*
 * CudaLaunch: one kernel launch as the occupancy calculator needs it: blocks in the grid, threads
 * per block, registers per thread, and static + dynamic shared memory per block.
 */
struct CudaLaunch {
    int64_t blocks = 0;
    int64_t threadsPerBlock = 0;
    int registersPerThread = 0;
    int64_t sharedMemoryBytes = 0;
};

// The per-block shared memory limit: Kineto asks the calculator with the default 48 KiB, so a
// kernel above it gets 0 blocks (its "est. achieved occupancy %" of every large cuBLAS/cuDNN/CUTLASS
// GEMM is 0); a kernel that ran with more had opted in to the device's maximum, which OptIn uses.
enum class CudaSharedMemoryLimit : uint8_t { Default, OptIn };

/*
 * CudaOccupancy: the theoretical and the estimated achieved occupancy of one launch.
 *
 * Theoretical blocks per SM are the minimum of four limits, as cudaOccMaxActiveBlocksPerMultiprocessor
 * computes them (cuda_occupancy.h; partitioned global caching off, no barrier or virtual-resource
 * limit, the default shared-memory carveout):
 *   warps          floor(max warps per SM / ceil(threads per block / warp size)); 0 when the block
 *                  has more threads than a block may
 *   blocks         the architecture's max resident blocks per SM
 *   registers      registers per warp = regs/thread x warp size rounded up to 256; the SM's
 *                  registers are split over 4 sub-partitions (2 on sm_60) that each hold whole
 *                  warps: floor(floor(regs per SM / parts / per warp) x parts / warps per block);
 *                  0 past 255 (sm_5x/6x) or 256 registers per thread or the per-block register
 *                  limit (the hardware counts the block's warps rounded up to the sub-partitions)
 *   shared memory  static + dynamic + the per-block reservation (1 KiB on sm_80+), rounded up to
 *                  256 B (128 B on sm_80+); 0 above the per-block limit (CudaSharedMemoryLimit);
 *                  else floor(the SM's shared memory / that), where the SM's shared memory is its
 *                  whole carveout, or the smallest carveout step that holds one block
 * Est. achieved occupancy (Kineto, FORMATS.md 2.10) = min(theoretical blocks, grid blocks / SMs) x
 * threads per block / max threads per SM, in single precision as Kineto computes it, so that
 * kinetoPercent() rounds it to Kineto's integer exactly. O(1).
 */
struct CudaOccupancy {
    enum Limiter : uint8_t { Warps = 1, Blocks = 2, Registers = 4, SharedMemory = 8 };
    int activeBlocksPerSm = 0; // theoretical
    uint8_t limiters = 0;      // the limits equal to activeBlocksPerSm
    float achieved = 0;        // est. achieved occupancy, 0..1
    double percent() const { return 100.0 * static_cast<double>(achieved); }
    // Kineto's "est. achieved occupancy %": int(0.5 + achieved x 100).
    int kinetoPercent() const { return static_cast<int>(0.5 + static_cast<double>(achieved) * 100.0); }
};

// nullopt when the launch has no threads or no blocks.
std::optional<CudaOccupancy> cudaOccupancy(const CudaLaunch& launch, const CudaSmLimits& sm,
                                           CudaSharedMemoryLimit limit = CudaSharedMemoryLimit::OptIn);

// The est. achieved occupancy % of a kernel from its launch arguments as the kernel table reads
// them (grid and block {0,0,0} or registers/shared memory < 0 when absent), for traces that do not
// carry Kineto's value (captures, Nsight Systems): OptIn, since the kernel did run. NaN when an
// argument is missing.
float occupancyFromLaunchArgs(const CudaSmLimits& sm, const std::array<int32_t, 3>& grid,
                              const std::array<int32_t, 3>& block, int32_t registers, int64_t sharedMemory);

} // namespace ws
