#include "inject/cudacallwatch.h"

#include <sys/syscall.h>
#include <unistd.h>

namespace ws {

CudaCallWatch::Slot CudaCallWatch::s_slots[CudaCallWatch::kSlots];
std::atomic<bool> CudaCallWatch::s_active{false};

namespace {
// Slots are claimed by hashing the thread id, then probing: a claim is a compare-and-swap from 0.
size_t firstSlot(uint32_t tid) { return (tid * 2654435761u) % CudaCallWatch::kSlots; }
} // namespace

CudaCallWatch::Slot* CudaCallWatch::mine() {
    thread_local Slot* slot = nullptr;
    thread_local bool tried = false;
    if (slot || tried)
        return slot;
    tried = true;
    const auto tid = static_cast<uint32_t>(::syscall(SYS_gettid));
    for (size_t i = 0, at = firstSlot(tid); i < kSlots; ++i, at = (at + 1) % kSlots) {
        uint32_t expected = 0;
        if (s_slots[at].thread.compare_exchange_strong(expected, tid, std::memory_order_relaxed) || expected == tid) {
            slot = &s_slots[at];
            break;
        }
    }
    return slot;
}

void CudaCallWatch::enter(uint8_t domain, uint32_t cbid) {
    if (Slot* s = mine())
        s->call.store(uint32_t(domain) << 24 | (cbid & 0xffffff), std::memory_order_relaxed);
}

void CudaCallWatch::leave() {
    if (Slot* s = mine())
        s->call.store(0, std::memory_order_relaxed);
}

CudaCallWatch::Call CudaCallWatch::current(uint32_t osThreadId) {
    Call c;
    for (size_t i = 0, at = firstSlot(osThreadId); i < kSlots; ++i, at = (at + 1) % kSlots) {
        const uint32_t t = s_slots[at].thread.load(std::memory_order_relaxed);
        if (t == 0)
            return c; // never claimed: the thread made no watched call
        if (t == osThreadId) {
            const uint32_t v = s_slots[at].call.load(std::memory_order_relaxed);
            c.domain = static_cast<uint8_t>(v >> 24);
            c.cbid = v & 0xffffff;
            return c;
        }
    }
    return c;
}

} // namespace ws
