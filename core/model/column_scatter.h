#pragma once

#include "model/release_memory.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace ws {

/*
 * scatterColumn: reorders a column so that element i goes to dest[i] (dest a permutation of
 * 0..n-1), in about the column's own memory.
 *
 * A plain reordering into a second vector needs the column twice at once: on a 10 M-slice track
 * 80 MB beside an 8-byte column, most of an import's peak memory above its model. Here the elements
 * go, in the column's order, to an uninitialized scratch buffer (whose pages the kernel provides as
 * they are first written), and each megabyte of the column already read is given back to the
 * kernel (madvise(MADV_DONTNEED): its pages drop out of the resident set and read as zeros if
 * touched again); then the scratch is copied back in order, giving back each megabyte of it already
 * copied. Resident memory stays near one copy of the column; the cost is the page faults of
 * touching every page a second time (a few ms per 10 MB). Reading in order and writing to the few
 * positions dest advances (one per row of a track) keeps both passes streaming.
 *
 * Columns under 16 MB, and systems without madvise, skip the giving back: their extra copy is small
 * and the page faults of touching the pages again cost more there (a 1 GB Kineto trace's track
 * phase: 0.07 s without, 0.10-0.15 s with from 4 MB on).
 */
namespace column_scatter_detail {
constexpr size_t kReleaseBytes = size_t(1) << 20;
} // namespace column_scatter_detail

template <typename T>
void scatterColumn(std::vector<T>& column, const std::vector<uint32_t>& dest) {
    namespace d = column_scatter_detail;
    const size_t n = column.size();
    if (n == 0)
        return;
    // new T[n] leaves a trivial type's elements unwritten: the kernel backs the pages on first write.
    std::unique_ptr<T[]> scratch(new T[n]);
    T* const v = column.data();
#if defined(__linux__) && defined(MADV_DONTNEED)
    const bool release = n * sizeof(T) >= 16 * d::kReleaseBytes;
#else
    const bool release = false;
#endif
    const size_t step = std::max<size_t>(1, d::kReleaseBytes / sizeof(T));
    uintptr_t released = reinterpret_cast<uintptr_t>(v);
    for (size_t begin = 0; begin < n; begin += step) {
        const size_t end = std::min(n, begin + step);
        for (size_t i = begin; i < end; ++i)
            scratch[dest[i]] = v[i];
        if (release)
            released = releasePages(released, v + end); // everything before `end` is read
    }
    released = reinterpret_cast<uintptr_t>(scratch.get());
    for (size_t begin = 0; begin < n; begin += step) {
        const size_t end = std::min(n, begin + step);
        std::copy(scratch.get() + begin, scratch.get() + end, v + begin);
        if (release)
            released = releasePages(released, scratch.get() + end);
    }
}

} // namespace ws
