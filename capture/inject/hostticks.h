#pragma once

#include "inject/cuptitime.h"
#include "inject/tickline.h"

#include <atomic>
#include <cstdint>

namespace ws {

/*
 * HostTicks: the clock of the program threads' hottest paths, the start and end of every kernel
 * launch (LaunchCallbacks) and of every PyTorch operator (IttRecorder). They read a hardware counter
 * and store raw ticks; the writer thread turns the ticks into CUPTI's clock when it takes them
 * (TickLine, fed by calibrate()).
 *
 * Why: cuptiGetTimestamp (CLOCK_REALTIME through the vDSO) took 45 ns on an H100 machine and the TSC
 * 21 ns, twice per launch and twice per operator (issue #25: the launch callback's own work was
 * 200 ns of the default capture's cost per launch).
 *
 * The counter is used only where it runs at one rate on every core: on x86-64 the TSC when the
 * kernel's clocksource is "tsc" (the kernel checked exactly that before choosing it), on arm64 the
 * generic timer's virtual count. Elsewhere ticks are CUPTI's nanoseconds, and the conversion is the
 * identity.
 */
class HostTicks {
public:
    // Once, before any recorder records: whether ticks are the counter's.
    static void choose();
    static bool counting() { return s_counting.load(std::memory_order_relaxed); }

    static uint64_t now() { return counting() ? counter() : cuptiNow(); }

    // Writer thread: a pair of readings (the counter's around CUPTI's clock, the tightest of three)
    // added to line. Nothing while ticks are CUPTI's nanoseconds.
    static void calibrate(TickLine& line);

private:
    static uint64_t counter() {
#if defined(__x86_64__)
        uint32_t lo, hi;
        __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
        return (static_cast<uint64_t>(hi) << 32) | lo;
#elif defined(__aarch64__)
        uint64_t v;
        __asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
        return v;
#else
        return cuptiNow();
#endif
    }

    static std::atomic<bool> s_counting;
};

} // namespace ws
