#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ws {

class Session;

/*
 * Counter series derived from the events, drawn by the timeline under each GPU (and, for host
 * memory, under the process):
 *   - "GPU Utilization": torch-tb-profiler's bucketed busy fraction (FORMATS.md 3.5): buckets of the
 *     smallest power-of-ten microseconds that gives at most 100 over the session, value = kernel
 *     busy time in the bucket / bucket length.
 *   - "Est. SM Efficiency": the running sum of concurrent kernels' blocks-per-SM capped at 1
 *     (FORMATS.md 3.6), as a step function; only when kernels carry "blocks per SM".
 *   - "Memory Allocated" / "Memory Reserved": PyTorch allocator totals from `[memory]` events; for
 *     old traces without totals, "Memory (net allocations)": the running sum of their Bytes.
 * Samples are sorted by time; a series holds from one sample to the next.
 */
struct DerivedCounter {
    enum class Unit { Fraction, Bytes };
    uint32_t process = 0; // where the row goes: the device's process, or the host process
    std::string name;
    Unit unit = Unit::Fraction;
    std::vector<int64_t> ts;
    std::vector<double> value;
};

std::vector<DerivedCounter> deriveCounters(const Session& session);

} // namespace ws
