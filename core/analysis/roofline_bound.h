#pragma once

#include "analysis/gpu_peaks.h"

#include <cstdint>

namespace ws {

/*
 * What bounds a kernel on the roofline (issue #49): the roof it is closest to, or neither.
 *   - Compute: its FLOPs take longer at the device's compute peak (for its number format, on
 *     Tensor Cores or not) than its bytes take at the memory peak, and it reaches 10 % of that time;
 *   - Memory: the other way round;
 *   - Latency: it reaches neither roof within a factor of 10 (too small a grid, launch latency,
 *     synchronization, tails), or it has no estimate and lasts under 5 us, too short for either roof
 *     to matter (at 4.8 TB/s, 5 us moves 24 MB);
 *   - Unknown: no estimate and longer than that, or no peaks for the device.
 * The estimate is the operator's (op_cost.h): bytes count every tensor once, so cache reuse can
 * take a kernel past the memory roof; that still reads as Memory.
 */
enum class Bound : uint8_t { Unknown, Compute, Memory, Latency };

inline constexpr int64_t kLatencyBoundNs = 5000;
inline constexpr double kRoofFraction = 0.1;

const char* boundName(Bound b); // "compute", "memory", "latency", ""

// NaN flops or bytes mean no estimate.
Bound classifyBound(const GpuPeaks& peaks, double flops, double bytes, int64_t durNs, NumberFormat format, bool tensorCores);

// The fraction of the bounding roof a kernel reached: the longer of its FLOPs' time at the compute
// peak and its bytes' time at the memory peak, over its duration; NaN without an estimate.
double roofFraction(const GpuPeaks& peaks, double flops, double bytes, int64_t durNs, NumberFormat format, bool tensorCores);

} // namespace ws
