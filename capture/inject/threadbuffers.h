#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <type_traits>
#include <vector>

#include <sys/syscall.h>
#include <unistd.h>

namespace ws {

/*
 * ThreadBuffers<Item>: what the program's threads record on their hot paths (a launch, an operator
 * range, an NCCL call), appended to the calling thread's own buffer; drained by the writer thread at
 * each flush. A thread's buffer is registered at its first add() and kept after the thread ends, so
 * its last items are still written. Meant as one instance per Item type: a thread remembers its
 * buffer in the last instance it added to (a thread_local of the type), and a thread adding to two
 * instances in turn registers a new buffer at each switch. add() may throw std::bad_alloc; callers on
 * a program's thread catch it.
 *
 * Why lock-free: add() runs inside every kernel launch of the program (LaunchRecorder) and around
 * every PyTorch operator (IttRecorder). A buffer is a list of fixed chunks with one writer (its
 * thread) and one reader (the writer thread): add() writes the item and publishes the chunk's new
 * count with a release store, and starts a new chunk when one is full; the reader takes what the
 * counts publish and frees the chunks the writer has moved past. No lock, no atomic read-modify-write
 * and no copy when a buffer grows, where a mutex and a vector cost two atomic operations per item
 * and a regrowth from empty after every flush (issue #25: about a third of the launch callback's
 * 200 ns, measured on an H100 machine).
 */
template <class Item> class ThreadBuffers {
    static_assert(std::is_trivially_copyable_v<Item>, "items are copied into raw chunks");

public:
    static constexpr uint32_t kChunkItems = 1024;

    ThreadBuffers() = default;
    ThreadBuffers(const ThreadBuffers&) = delete;
    ThreadBuffers& operator=(const ThreadBuffers&) = delete;
    ~ThreadBuffers() {
        for (const auto& b : m_buffers)
            for (Chunk* c = b->head; c;) {
                Chunk* next = c->next.load(std::memory_order_acquire);
                delete c;
                c = next;
            }
    }

    void add(const Item& item) {
        // The calling thread's buffer in the instance it last added to (nearly always the only one).
        thread_local struct {
            uint64_t instance = 0;
            Buffer* buffer = nullptr;
        } mine;
        if (mine.instance != m_instance) {
            mine.buffer = registerThread();
            mine.instance = m_instance;
        }
        Buffer* b = mine.buffer;
        Chunk* c = b->tail;
        const uint32_t n = c->count.load(std::memory_order_relaxed); // only this thread writes it
        if (n < kChunkItems) {
            c->items[n] = item;
            c->count.store(n + 1, std::memory_order_release);
            return;
        }
        auto* fresh = new Chunk;
        fresh->items[0] = item;
        fresh->count.store(1, std::memory_order_relaxed);
        c->next.store(fresh, std::memory_order_release); // publishes fresh and its first item
        b->tail = fresh;                                  // c is the reader's alone from here
    }

    // Writer thread: the items added since the last drain, calling f(threadId, std::span<const Item>)
    // once or more per thread with items, each thread's in the order they were added.
    template <class F> void drain(F&& f) {
        std::lock_guard<std::mutex> reading(m_readMutex); // one reader at a time (flush, finalize)
        std::vector<Buffer*> buffers;
        {
            std::lock_guard<std::mutex> lock(m_registryMutex);
            buffers.reserve(m_buffers.size());
            for (const auto& b : m_buffers)
                buffers.push_back(b.get());
        }
        for (Buffer* b : buffers)
            for (;;) {
                Chunk* c = b->head;
                const uint32_t n = c->count.load(std::memory_order_acquire);
                if (n > b->taken) {
                    f(b->threadId, std::span<const Item>(c->items + b->taken, n - b->taken));
                    b->taken = n;
                }
                Chunk* next = n == kChunkItems ? c->next.load(std::memory_order_acquire) : nullptr;
                if (!next)
                    break;
                b->head = next;
                b->taken = 0;
                delete c;
            }
    }

private:
    struct Chunk {
        std::atomic<uint32_t> count{0};
        std::atomic<Chunk*> next{nullptr};
        Item items[kChunkItems];
    };
    struct Buffer {
        uint32_t threadId = 0;
        Chunk* tail = nullptr; // the thread's: the chunk it fills
        Chunk* head = nullptr; // the reader's: the first chunk not yet freed
        uint32_t taken = 0;    // the reader's: items of head already drained
    };

    Buffer* registerThread() {
        auto b = std::make_unique<Buffer>();
        b->threadId = static_cast<uint32_t>(::syscall(SYS_gettid));
        b->head = b->tail = new Chunk;
        std::lock_guard<std::mutex> lock(m_registryMutex);
        m_buffers.push_back(std::move(b)); // may throw: the chunk then leaks once, the item is lost
        return m_buffers.back().get();
    }

    static inline std::atomic<uint64_t> s_instances{0};
    const uint64_t m_instance = ++s_instances; // never 0, never reused, unlike an address
    std::mutex m_registryMutex;
    std::vector<std::unique_ptr<Buffer>> m_buffers;
    std::mutex m_readMutex;
};

} // namespace ws
