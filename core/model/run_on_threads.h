#pragma once

#include <algorithm>
#include <thread>
#include <vector>

namespace ws {

// Runs work() on `threads` threads (at least one: the calling thread is one of them) and waits for
// all. The work takes its items itself, from a counter the caller shares between the threads.
template <typename Work> void runOnThreads(size_t threads, const Work& work) {
    std::vector<std::thread> pool;
    for (size_t i = 1; i < std::max<size_t>(1, threads); ++i)
        pool.emplace_back(work);
    work();
    for (std::thread& t : pool)
        t.join();
}

} // namespace ws
