#pragma once

#include "model/vector_slack.h"
#include "model/release_memory.h"
#include "model/scratch_buffer.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace ws {

/*
 * scatterColumn: reorders a column so that element i goes to dest[i] (dest a permutation of
 * 0..n-1), in the column's own buffer.
 *
 * The elements go, in the column's order, to the caller's scratch and are then copied back. The
 * scratch is one per thread, kept over a thread's tracks and columns (scratch_buffer.h): a new
 * buffer per column was a fresh mapping each time on the 10 GB trace, and its page faults were
 * most of that import's track phase. Reading in order and writing to the few positions dest
 * advances (one per row of a track) keeps the passes streaming.
 *
 * A small column with growth slack (a heap buffer, below kOwnMappingBytes: vector_slack.h) is
 * reordered instead into a new exactly sized vector that replaces it: that is the copy its
 * shrink_to_fit would make anyway, one pass fewer.
 *
 * With giveBack (a large track whose copy would be a large share of the import's peak: a 525 MB
 * XSpace's 10 M-slice line) resident memory stays near one copy of the column: the scratch is a
 * fresh buffer whose pages the kernel provides as they are first written, each 2 MB of the column
 * already read is given back (releasePages), and each 2 MB of the scratch already copied back is
 * given back too. The cost is the page faults of touching every page again.
 */
template <typename T>
void scatterColumn(std::vector<T>& column, std::span<const uint32_t> dest, bool giveBack, ScratchBuffer& scratch) {
    const size_t n = column.size();
    if (n == 0)
        return;
    constexpr size_t kStepBytes = size_t(2) << 20; // given back in steps of 2 MB
#if defined(__linux__) && defined(MADV_DONTNEED)
    giveBack = giveBack && n * sizeof(T) >= 2 * kStepBytes;
#else
    giveBack = false;
#endif
    if (!giveBack && column.capacity() > n && column.capacity() * sizeof(T) < kOwnMappingBytes) {
        std::vector<T> out(n);
        const T* const in = column.data();
        for (size_t i = 0; i < n; ++i)
            out[dest[i]] = in[i];
        column.swap(out);
        return;
    }
    // new T[n] leaves a trivial type's elements unwritten: the kernel backs the pages on first write.
    std::unique_ptr<T[]> fresh(giveBack ? new T[n] : nullptr);
    T* const out = giveBack ? fresh.get() : scratch.as<T>(n).data();
    T* const v = column.data();
    const size_t step = std::max<size_t>(1, kStepBytes / sizeof(T));
    uintptr_t released = reinterpret_cast<uintptr_t>(v);
    for (size_t begin = 0; begin < n; begin += step) {
        const size_t end = std::min(n, begin + step);
        for (size_t i = begin; i < end; ++i)
            out[dest[i]] = v[i];
        if (giveBack)
            released = releasePages(released, v + end); // everything before `end` is read
    }
    released = reinterpret_cast<uintptr_t>(out);
    for (size_t begin = 0; begin < n; begin += step) {
        const size_t end = std::min(n, begin + step);
        std::copy(out + begin, out + end, v + begin);
        if (giveBack)
            released = releasePages(released, out + end);
    }
}

} // namespace ws
