#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace ws {

/*
 * adviseHugePages: asks the kernel to back the 2 MB-aligned part of a large, freshly reserved
 * buffer with transparent huge pages (madvise(MADV_HUGEPAGE); the usual "madvise" THP setting
 * gives them only to buffers that ask). Filling a 1 GB array of 4 KB pages takes ~260 K page
 * faults, a large share of building it (the 10 GB trace's operator tree); with 2 MB pages ~500.
 * A hint only: nothing changes where the kernel has no huge pages or is not Linux.
 */
inline void adviseHugePages(const void* data, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr uintptr_t kHuge = uintptr_t(2) << 20;
    if (data == nullptr || bytes < 4 * kHuge)
        return;
    const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
    const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kHuge - 1);
    if (end > begin)
        ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

} // namespace ws
