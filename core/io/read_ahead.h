#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include <sys/mman.h>

namespace ws {

/*
 * ReadAhead: reads a source on a thread of its own, a few blocks ahead of the consumer, so a parser
 * bound to one core does not also pay for the kernel's copy out of the page cache (or a
 * decompressor's work). read() hands the blocks over in order, as the source would. At most
 * kBlocks blocks of kBlockBytes wait: memory stays bounded whatever the input's size.
 *
 * `source` returns up to n bytes, 0 at the end; it runs on the read-ahead thread only (what it
 * reads must outlive the ReadAhead). The thread stops at the end of the source, or when the
 * ReadAhead is destroyed.
 */
class ReadAhead {
public:
    static constexpr size_t kBlockBytes = size_t(1) << 20;
    static constexpr size_t kBlocks = 4;

    explicit ReadAhead(std::function<size_t(char*, size_t)> source) : m_source(std::move(source)) {
        m_thread = std::thread([this] { run(); });
    }
    ~ReadAhead() {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_stop = true;
        }
        m_changed.notify_all();
        m_thread.join();
    }
    ReadAhead(const ReadAhead&) = delete;
    ReadAhead& operator=(const ReadAhead&) = delete;

    // Whether the read-ahead stopped on an error (out of memory, or the source threw) rather than at
    // the source's end; valid once read() returned 0.
    bool failed() {
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_failed;
    }
    // Up to n bytes; 0 at the end of the source.
    size_t read(char* out, size_t n) {
        size_t done = 0;
        while (done < n) {
            if (m_at == m_current.size) {
                if (!next())
                    break;
                continue;
            }
            const size_t take = std::min(n - done, m_current.size - m_at);
            std::memcpy(out + done, m_current.data.get() + m_at, take);
            m_at += take;
            done += take;
        }
        return done;
    }

private:
    // The next filled block as m_current (the one read goes back for reuse); false at the end.
    bool next() {
        std::unique_lock<std::mutex> lock(m_mutex);
        if (m_current.data)
            m_spare.push_back(std::move(m_current));
        m_current = Block();
        m_at = 0;
        m_changed.notify_all();
        m_changed.wait(lock, [&] { return !m_filled.empty() || m_end; });
        if (m_filled.empty())
            return false;
        m_current = std::move(m_filled.front());
        m_filled.pop_front();
        m_changed.notify_all();
        return true;
    }

    // The read-ahead thread: no exception leaves it (one that would ends the input there and is
    // said by failed()).
    void run() {
        try {
            fill();
        } catch (...) {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_failed = m_end = true;
            m_changed.notify_all();
        }
    }
    void fill() {
        for (;;) {
            Block block;
            {
                std::unique_lock<std::mutex> lock(m_mutex);
                m_changed.wait(lock, [&] { return m_filled.size() < kBlocks || m_stop; });
                if (m_stop)
                    return;
                if (!m_spare.empty()) {
                    block = std::move(m_spare.back());
                    m_spare.pop_back();
                }
            }
            if (!block.data)
                block.data.reset(mapBlock());
            size_t got = 0;
            while (got < kBlockBytes) {
                const size_t n = m_source(block.data.get() + got, kBlockBytes - got);
                if (n == 0)
                    break;
                got += n;
            }
            block.size = got;
            std::lock_guard<std::mutex> lock(m_mutex);
            if (got > 0)
                m_filled.push_back(std::move(block));
            if (got < kBlockBytes) {
                m_end = true;
                m_changed.notify_all();
                return;
            }
            m_changed.notify_all();
        }
    }

    // Blocks are mapped pages of their own, not the allocator's: freeing a large malloc'd block
    // raises glibc's mmap threshold, and the importer's later large buffers would then come from the
    // heap and stay there (measured: +15 MB of peak RSS on a 1 GB snapshot).
    struct Unmap {
        void operator()(char* p) const { ::munmap(p, kBlockBytes); }
    };
    struct Block {
        std::unique_ptr<char[], Unmap> data;
        size_t size = 0;
    };
    static char* mapBlock() {
        void* p = ::mmap(nullptr, kBlockBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            throw std::bad_alloc();
        return static_cast<char*>(p);
    }
    std::function<size_t(char*, size_t)> m_source;
    Block m_current; // being read by read()
    size_t m_at = 0;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<Block> m_filled; // read ahead, in order
    std::vector<Block> m_spare; // read, for reuse
    bool m_end = false;
    bool m_stop = false;
    bool m_failed = false;
    std::thread m_thread;
};

} // namespace ws
