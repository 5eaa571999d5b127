#pragma once

#include <atomic>
#include <cstdint>

namespace ws {

/*
 * CudaCallWatch: which CUDA call each thread is inside, for the Python sampler (issue #27: a sample
 * says whether its thread waited in a synchronization or a blocking copy, and in which call).
 *
 * LaunchCallbacks marks the entry and exit of the watched calls (synchronizations, copies, frees:
 * the calls that can block the host) on the calling thread; the sampler thread reads the mark of a
 * sampled thread by its OS thread id. A thread claims a slot of a fixed table at its first watched
 * call and keeps it for life (threads beyond kSlots are not watched): the calling thread writes only
 * its own slot, the sampler only reads, both with relaxed atomics, so a sample taken at the moment of
 * an entry or exit may see either side of it, never a torn value.
 */
class CudaCallWatch {
public:
    static constexpr int kSlots = 1024;
    struct Call {
        uint8_t domain = 0; // wscap::ApiDomain
        uint32_t cbid = 0;  // 0: none
    };

    // On the calling thread.
    static void enter(uint8_t domain, uint32_t cbid);
    static void leave();
    // Any thread: the watched call the thread with this OS id is inside.
    static Call current(uint32_t osThreadId);
    // Once the callbacks are on: samples can then say "not inside a CUDA call".
    static void activate() { s_active.store(true, std::memory_order_relaxed); }
    static bool active() { return s_active.load(std::memory_order_relaxed); }

private:
    struct Slot {
        std::atomic<uint32_t> thread{0};
        std::atomic<uint32_t> call{0}; // domain << 24 | cbid
    };
    static Slot* mine();
    static Slot s_slots[kSlots];
    static std::atomic<bool> s_active;
};

} // namespace ws
