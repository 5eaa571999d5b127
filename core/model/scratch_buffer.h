#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <type_traits>

namespace ws {

/*
 * ScratchBuffer: uninitialized memory for temporary arrays of trivial types, kept from one use to
 * the next and grown only when a use needs more.
 *
 * Why: a temporary of 32 MB or more is a fresh mapping of glibc's every time, and each first
 * touch of its pages is a page fault with a page cleared by the kernel, which costs more than
 * filling the array (about 1.7 µs a 4 KB page on the 2-core VM, where a 10 GB import spent 0.7 s
 * of CPU so in reordering its tracks). Smaller temporaries come from the heap's reused pages, which
 * is why a 1 GB import does not see it. One ScratchBuffer per thread, reused over a thread's
 * tracks and columns, touches its pages once.
 *
 * as<T>(n) returns n elements of unspecified values (whatever the previous use left, or never
 * written); the span is valid up to the next call.
 */
class ScratchBuffer {
public:
    template <typename T> std::span<T> as(size_t n) {
        static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_default_constructible_v<T>);
        static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
        const size_t bytes = n * sizeof(T);
        if (bytes > m_bytes) {
            m_data.reset(); // the old buffer goes before the new one comes: one at a time
            m_data.reset(new std::byte[bytes]);
            m_bytes = bytes;
        }
        return {reinterpret_cast<T*>(m_data.get()), n};
    }

    // Gives the memory back now (a later as() allocates again).
    void release() {
        m_data.reset();
        m_bytes = 0;
    }

private:
    std::unique_ptr<std::byte[]> m_data;
    size_t m_bytes = 0;
};

} // namespace ws
