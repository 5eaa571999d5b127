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
 *
 * No buffer asks for transparent huge pages (madvise(MADV_HUGEPAGE)) any more: a VM that reports
 * free memory to its host (virtio-balloon free page reporting) reports free blocks of 2 MB and
 * more, so a huge page is nearly always memory the host backs afresh, 4 KB at a time, where the
 * guest's 4 KB pages come from those it freed recently. On the 2-core VM the 10 GB operator tree's
 * 495 MB of nodes took 0.55 s to fault in as huge pages and 0.10 s as 4 KB pages.
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
