#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <thread>
#include <vector>

namespace ws {

/*
 * sortOnThreads: std::sort on up to `threads` threads, in place. The range is split around a pivot
 * (the median of a sample) by std::partition, and each side is sorted on its own thread, halving
 * again while threads remain: no buffer beside the range, which a parallel merge sort would need
 * (on this kind of VM fresh pages cost more than the sort saves). `less` must be a strict total
 * order over distinct elements (ties broken, as by file order) for the result to be deterministic;
 * it is then exactly std::sort's. Small ranges are sorted on the calling thread.
 */
template <typename It, typename Less> void sortOnThreads(It first, It last, const Less& less, size_t threads) {
    constexpr std::ptrdiff_t kWorthThreads = std::ptrdiff_t(1) << 20;
    const std::ptrdiff_t n = last - first;
    if (threads < 2 || n < kWorthThreads) {
        std::sort(first, last, less);
        return;
    }
    using T = typename std::iterator_traits<It>::value_type;
    std::vector<T> sample;
    constexpr std::ptrdiff_t kSample = 63;
    for (std::ptrdiff_t k = 0; k < kSample; ++k)
        sample.push_back(*(first + k * (n - 1) / (kSample - 1)));
    std::nth_element(sample.begin(), sample.begin() + kSample / 2, sample.end(), less);
    const T pivot = sample[kSample / 2];
    const It middle = std::partition(first, last, [&](const T& x) { return less(x, pivot); });
    const size_t leftThreads = threads / 2;
    std::thread left([&] { sortOnThreads(first, middle, less, leftThreads); });
    sortOnThreads(middle, last, less, threads - leftThreads);
    left.join();
}

} // namespace ws
