#pragma once

#include "model/release_memory.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ws {

/*
 * The growth slack of a vector that is complete (a finished track's column, a session's table).
 *
 * A buffer of kOwnMappingBytes or more is a mapping of its own (glibc's largest mmap threshold on
 * 64-bit): the part past its elements was never written (a vector's growth and reserve leave it
 * untouched) and is not resident. releaseSlack gives any page of it back to the kernel and keeps the
 * capacity there, where shrink_to_fit would copy the elements into a new mapping and fault every
 * page of it in again (on the 10 GB trace: 8 M-slice tracks whose columns had reserved 19 M, and
 * 0.09 s for the memory events alone). A smaller buffer comes from the heap, whose slack may be
 * pages in use: it is shrunk.
 *
 * residentBytes counts what such a vector holds: its elements up to their last page for a buffer of
 * its own, its capacity otherwise.
 */
inline constexpr size_t kOwnMappingBytes = size_t(32) << 20;

template <typename T> void releaseSlack(std::vector<T>& v) {
    if (v.capacity() * sizeof(T) < kOwnMappingBytes) {
        v.shrink_to_fit();
        return;
    }
    releasePages(reinterpret_cast<uintptr_t>(v.data() + v.size()), v.data() + v.capacity());
}

template <typename T> size_t residentBytes(const std::vector<T>& v) {
    const size_t capacity = v.capacity() * sizeof(T);
    if (capacity < kOwnMappingBytes)
        return capacity;
    constexpr size_t kPage = 4096;
    return (v.size() * sizeof(T) + kPage - 1) / kPage * kPage;
}

} // namespace ws
