#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include <sys/syscall.h>
#include <unistd.h>

namespace ws {

/*
 * ThreadBuffers<Item>: what the program's threads record on their hot paths (a launch, an operator
 * range), appended to the calling thread's own buffer under that buffer's own lock, which only the
 * writer thread's drain() ever contends; drained by the writer thread at each flush. A thread's
 * buffer is registered at its first add() and kept after the thread ends, so its last items are
 * still written. One instance per Item type (the calling thread's buffer is a thread_local of the
 * type). add() may throw std::bad_alloc; callers on a program's thread catch it.
 */
template <class Item> class ThreadBuffers {
public:
    void add(const Item& item) {
        thread_local std::shared_ptr<Buffer> mine;
        if (!mine) {
            mine = std::make_shared<Buffer>();
            mine->threadId = static_cast<uint32_t>(::syscall(SYS_gettid));
            std::lock_guard<std::mutex> lock(m_mutex);
            m_buffers.push_back(mine);
        }
        std::lock_guard<std::mutex> lock(mine->mutex);
        mine->items.push_back(item);
    }

    // Moves every thread's items out, calling f(threadId, const std::vector<Item>&) per thread.
    template <class F> void drain(F&& f) {
        std::vector<std::shared_ptr<Buffer>> buffers;
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            buffers = m_buffers;
        }
        for (const auto& b : buffers) {
            std::vector<Item> items;
            {
                std::lock_guard<std::mutex> lock(b->mutex);
                items.swap(b->items);
            }
            if (!items.empty())
                f(b->threadId, items);
        }
    }

private:
    struct Buffer {
        std::mutex mutex;
        uint32_t threadId = 0;
        std::vector<Item> items;
    };
    std::mutex m_mutex;
    std::vector<std::shared_ptr<Buffer>> m_buffers;
};

} // namespace ws
