#pragma once

#include "io/usable_cores.h"
#include "model/run_on_threads.h"

#include <cstddef>
#include <thread>

namespace ws {

/*
 * prefaultOnThreads: writes one byte of every 4 KB page of a large, freshly reserved buffer, from
 * all cores, before one thread fills it. The kernel zeroes each fresh page at its first write,
 * and on a VM whose host has not backed those pages recently that zeroing runs at ~1 GB/s: most of
 * building the 10 GB trace's operator tree was spent there. Page faults of different threads run
 * in parallel, so the fill then finds its pages present. Only for buffers whose bytes the caller
 * is about to overwrite anyway (reserved capacity); small ones are left alone.
 */
inline void prefaultOnThreads(void* data, size_t bytes) {
    constexpr size_t kPage = 4096;
    constexpr size_t kWorthThreads = size_t(64) << 20;
    const size_t threads = usableCores();
    if (data == nullptr || bytes < kWorthThreads || threads < 2)
        return;
    auto* raw = static_cast<volatile unsigned char*>(data);
    const size_t pages = (bytes + kPage - 1) / kPage;
    forEachIndexOnThreads(threads, threads, [&](size_t t) {
        for (size_t p = pages * t / threads; p < pages * (t + 1) / threads; ++p)
            raw[p * kPage] = 0;
    });
}

} // namespace ws
