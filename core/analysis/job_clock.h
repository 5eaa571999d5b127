#pragma once

#include "analysis/distributed.h"

#include <cstdint>
#include <vector>

namespace ws {

/*
 * ClockAlignment: the offset added to each worker's times to draw a job on one axis.
 *
 * Ranks on one host, or hosts kept in sync by NTP/PTP, already share a clock; then a collective
 * ends at (nearly) the same moment everywhere, since nobody leaves it before the last rank
 * arrived. When the first collective common to all workers ends more than `toleranceNs` apart,
 * the hosts' clocks disagree and each worker is shifted so that collective ends together (its
 * starts keep the real arrival skew); without a common collective, the start of the first common
 * profiler step (ProfilerStep#N) is used, and without that the clocks are kept. Offsets are relative to the first worker. O(workers + nodes).
 */
struct ClockAlignment {
    enum class Method { TraceClocks, FirstCollective, FirstStep, Manual };
    Method method = Method::TraceClocks;
    std::vector<int64_t> offsetNs; // per worker
    int64_t spreadNs = 0;          // how far apart the reference event was before alignment
    std::string reference;         // the event aligned on (collective or step label), if any
};

ClockAlignment alignJobClocks(const std::vector<RankDistributed>& workers, int64_t toleranceNs = 1'000'000);

} // namespace ws
