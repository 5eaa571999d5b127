#include "analysis/roofline_bound.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ws {

namespace {

struct RoofTimes {
    double compute = 0; // seconds at the compute peak
    double memory = 0;  // seconds at the memory peak
};

RoofTimes roofTimes(const GpuPeaks& p, double flops, double bytes, NumberFormat format, bool tensorCores) {
    RoofTimes t;
    const double compute = p.computeTflops(format, tensorCores) * 1e12;
    if (compute > 0)
        t.compute = flops / compute;
    if (p.memoryGBps > 0)
        t.memory = bytes / (p.memoryGBps * 1e9);
    return t;
}

} // namespace

const char* boundName(Bound b) {
    switch (b) {
    case Bound::Compute: return "compute";
    case Bound::Memory: return "memory";
    case Bound::Latency: return "latency";
    case Bound::Unknown: break;
    }
    return "";
}

double roofFraction(const GpuPeaks& peaks, double flops, double bytes, int64_t durNs, NumberFormat format, bool tensorCores) {
    if (durNs <= 0 || std::isnan(flops) || std::isnan(bytes))
        return std::numeric_limits<double>::quiet_NaN();
    const RoofTimes t = roofTimes(peaks, flops, bytes, format, tensorCores);
    return std::max(t.compute, t.memory) / (static_cast<double>(durNs) * 1e-9);
}

Bound classifyBound(const GpuPeaks& peaks, double flops, double bytes, int64_t durNs, NumberFormat format, bool tensorCores) {
    if (durNs <= 0)
        return Bound::Unknown;
    if (std::isnan(flops) || std::isnan(bytes))
        return durNs < kLatencyBoundNs ? Bound::Latency : Bound::Unknown;
    const RoofTimes t = roofTimes(peaks, flops, bytes, format, tensorCores);
    if (t.compute == 0 && t.memory == 0)
        return peaks.memoryGBps > 0 ? Bound::Latency : Bound::Unknown;
    if (std::max(t.compute, t.memory) < kRoofFraction * static_cast<double>(durNs) * 1e-9)
        return Bound::Latency;
    return t.compute >= t.memory ? Bound::Compute : Bound::Memory;
}

} // namespace ws
