#pragma once

#include "model/huge_pages.h"
#include "model/release_memory.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace ws {

/*
 * scatterColumn: reorders a column so that element i goes to dest[i] (dest a permutation of
 * 0..n-1); with giveBack, in about the column's own memory.
 *
 * A plain reordering into a second vector needs the column twice at once: on a 10 M-slice track
 * 80 MB beside an 8-byte column, most of an import's peak memory above its model. With giveBack the
 * elements go, in the column's order, to an uninitialized scratch buffer (whose pages the kernel
 * provides as they are first written), and each 2 MB of the column already read is given back to
 * the kernel (releasePages); then the scratch is copied back in order, giving back each 2 MB of it
 * already copied. Resident memory stays near one copy of the column. The cost is a second pass and
 * the page faults of touching every page again (fewer with huge pages, which both buffers ask for):
 * about 1.5x the plain reordering's time, so the caller asks for it only where the copy would be a
 * large share of the peak. Reading in order and writing to the few positions dest advances (one per
 * row of a track) keeps the passes streaming.
 *
 * Without giveBack a column without slack is still copied back into its own buffer rather than
 * swapped with a new one: a builder thread reordering tracks the main thread filled would otherwise leave each
 * old buffer as a hole in the main thread's heap and hold the new one in its own arena (110 MB
 * more resident on the 525 MB XSpace).
 */
template <typename T>
void scatterColumn(std::vector<T>& column, const std::vector<uint32_t>& dest, bool giveBack) {
    const size_t n = column.size();
    if (n == 0)
        return;
    constexpr size_t kStepBytes = size_t(2) << 20; // a huge page
#if defined(__linux__) && defined(MADV_DONTNEED)
    giveBack = giveBack && n * sizeof(T) >= 2 * kStepBytes;
#else
    giveBack = false;
#endif
    if (!giveBack && column.capacity() > n) {
        // The column has growth slack, which the caller's shrink_to_fit would drop by copying it
        // once more into a new buffer: the reordered copy is that buffer, exactly sized. (Two
        // passes over fresh memory fewer: the 10 GB trace's two 8 M-slice threads took ~0.4 s
        // each in scratch, copy back and shrink.)
        std::vector<T> out(n);
        const T* const in = column.data();
        for (size_t i = 0; i < n; ++i)
            out[dest[i]] = in[i];
        column.swap(out);
        return;
    }
    // new T[n] leaves a trivial type's elements unwritten: the kernel backs the pages on first write.
    std::unique_ptr<T[]> scratch(new T[n]);
    T* const v = column.data();
    if (giveBack) {
        adviseHugePages(scratch.get(), n * sizeof(T));
        adviseHugePages(v, n * sizeof(T));
    }
    const size_t step = std::max<size_t>(1, kStepBytes / sizeof(T));
    uintptr_t released = reinterpret_cast<uintptr_t>(v);
    for (size_t begin = 0; begin < n; begin += step) {
        const size_t end = std::min(n, begin + step);
        for (size_t i = begin; i < end; ++i)
            scratch[dest[i]] = v[i];
        if (giveBack)
            released = releasePages(released, v + end); // everything before `end` is read
    }
    released = reinterpret_cast<uintptr_t>(scratch.get());
    for (size_t begin = 0; begin < n; begin += step) {
        const size_t end = std::min(n, begin + step);
        std::copy(scratch.get() + begin, scratch.get() + end, v + begin);
        if (giveBack)
            released = releasePages(released, scratch.get() + end);
    }
}

} // namespace ws
