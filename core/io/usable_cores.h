#pragma once

#include <algorithm>
#include <sched.h>
#include <thread>

namespace ws {

// The CPUs this process may run on: its affinity mask (taskset, a container's or a batch job's
// cpuset), where std::thread::hardware_concurrency counts the machine's. Parse threads for all 64
// CPUs of a node whose Slurm job holds 8 of them would only contend. At least 1.
inline unsigned usableCores() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        if (const int n = CPU_COUNT(&set); n > 0)
            return static_cast<unsigned>(n);
    return std::max(1u, std::thread::hardware_concurrency());
}

} // namespace ws
