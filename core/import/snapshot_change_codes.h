#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#include <sys/mman.h>

namespace ws {

/*
 * SnapshotChangeCodes: one device's allocator records in trace order (SnapshotChangeOrder codes,
 * 4 bytes each), in blocks of 1 MiB of mapped pages. They grow without a copy (a vector's doubling
 * held 1.5x them while the file was read), and consume() hands each block back to the system as it
 * passes it: the allocator records are written at the import's peak of memory, and the codes (18 MB
 * for a 1 GB snapshot) are gone by then. Mapped pages, not malloc's, so that what is handed back
 * really leaves the process.
 */
class SnapshotChangeCodes {
public:
    static constexpr size_t kPerBlock = (size_t(1) << 20) / sizeof(uint32_t);

    void push_back(uint32_t code) {
        if (m_size == m_blocks.size() * kPerBlock)
            m_blocks.emplace_back(mapBlock());
        m_blocks.back()[m_size % kPerBlock] = code;
        ++m_size;
    }
    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    // Calls fn(code) for every code in order, releasing each block once read; empty afterwards.
    template <typename Fn> void consume(Fn fn) {
        for (size_t b = 0; b < m_blocks.size(); ++b) {
            const size_t n = std::min(kPerBlock, m_size - b * kPerBlock);
            for (size_t i = 0; i < n; ++i)
                fn(m_blocks[b][i]);
            m_blocks[b].reset();
        }
        m_blocks.clear();
        m_size = 0;
    }

private:
    struct Unmap {
        void operator()(uint32_t* p) const { ::munmap(p, kPerBlock * sizeof(uint32_t)); }
    };
    static uint32_t* mapBlock() {
        void* p = ::mmap(nullptr, kPerBlock * sizeof(uint32_t), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            throw std::bad_alloc();
        return static_cast<uint32_t*>(p);
    }
    std::vector<std::unique_ptr<uint32_t[], Unmap>> m_blocks;
    size_t m_size = 0;
};

} // namespace ws
