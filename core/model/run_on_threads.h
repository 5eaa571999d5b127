#pragma once

#include <algorithm>
#include <atomic>
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

// Runs work(state, i) once for every i in [0, n) on up to `threads` threads (the calling one among
// them); each thread takes the next index as it finishes one, so unequal items balance. Each thread
// has its own State, made when it starts and freed when it has no item left: scratch memory reused
// over that thread's items.
template <typename State, typename Work> void forEachIndexOnThreadsWith(size_t n, size_t threads, const Work& work) {
    std::atomic<size_t> next{0};
    runOnThreads(std::min(n, std::max<size_t>(1, threads)), [&] {
        State state;
        for (size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < n;)
            work(state, i);
    });
}

// The same without a state: work(i).
template <typename Work> void forEachIndexOnThreads(size_t n, size_t threads, const Work& work) {
    struct NoState {};
    forEachIndexOnThreadsWith<NoState>(n, threads, [&](NoState&, size_t i) { work(i); });
}

} // namespace ws
