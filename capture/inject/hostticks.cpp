#include "inject/hostticks.h"

#include <cstdio>
#include <cstring>

namespace ws {

std::atomic<bool> HostTicks::s_counting{false};

void HostTicks::choose() {
#if defined(__x86_64__)
    char source[32] = {0};
    if (FILE* f = std::fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r")) {
        if (!std::fgets(source, sizeof source, f))
            source[0] = 0;
        std::fclose(f);
    }
    s_counting.store(std::strncmp(source, "tsc\n", 4) == 0 || std::strcmp(source, "tsc") == 0,
                     std::memory_order_relaxed);
#elif defined(__aarch64__)
    s_counting.store(true, std::memory_order_relaxed);
#endif
}

void HostTicks::calibrate(TickLine& line) {
    if (!counting())
        return;
    uint64_t bestSpread = UINT64_MAX, ticks = 0, ns = 0;
    for (int i = 0; i < 3; ++i) {
        const uint64_t before = counter();
        const uint64_t at = cuptiNow();
        const uint64_t after = counter();
        if (after >= before && after - before < bestSpread) {
            bestSpread = after - before;
            ticks = before + (after - before) / 2;
            ns = at;
        }
    }
    if (bestSpread != UINT64_MAX)
        line.add(ticks, ns);
}

} // namespace ws
