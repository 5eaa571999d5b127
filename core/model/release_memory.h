#pragma once

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace ws {

/*
 * releaseMemory: empties a container and gives its buffer back to the allocator.
 *
 * `v = {}` looks like it does this but does not: overload resolution picks the initializer_list
 * assignment (an identity conversion beats constructing a temporary), which is assign() of no
 * elements and keeps the capacity. Temporaries of an import "freed" that way stayed allocated up to
 * the end of their function: on a 525 MB XSpace, the builder's 95 MB of pending flow ends beside the
 * flows made from them.
 */
template <typename Container>
void releaseMemory(Container& c) {
    Container().swap(c);
}

/*
 * releasePages: gives back to the kernel the whole pages of a buffer from `from` (page-aligned, or
 * the buffer's start) to `to`, whose contents are not needed any more (madvise(MADV_DONTNEED): they
 * drop out of the resident set and read as zeros if touched again); returns where the next release
 * starts. For a large buffer read once from front to back while its replacement is written, so the
 * two together stay near the size of one. Nothing happens where madvise is missing.
 */
inline uintptr_t releasePages(uintptr_t from, const void* to) {
    constexpr uintptr_t kPage = 4096;
    const uintptr_t begin = (from + kPage - 1) & ~(kPage - 1);
    const uintptr_t end = reinterpret_cast<uintptr_t>(to) & ~(kPage - 1);
    if (end <= begin)
        return from;
#if defined(__linux__) && defined(MADV_DONTNEED)
    ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
#endif
    return end;
}

} // namespace ws
