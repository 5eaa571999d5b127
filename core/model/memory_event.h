#pragma once

#include <cstdint>

namespace ws {

/*
 * MemoryEvent: one PyTorch allocator record (Kineto `[memory]` instant, FORMATS.md 2.7).
 * bytes > 0 is an allocation, < 0 a free. Fields the record lacked are kUnknown.
 * Session keeps them sorted by time.
 */
struct MemoryEvent {
    static constexpr int64_t kUnknown = INT64_MIN;
    int64_t ts = 0;
    int64_t addr = kUnknown;
    int64_t bytes = kUnknown;
    int64_t totalAllocated = kUnknown;
    int64_t totalReserved = kUnknown;
    uint32_t track = 0;   // thread that allocated
    int16_t deviceType = -1; // c10::DeviceType: 0 CPU, 1 CUDA
    int16_t deviceId = -1;
};

} // namespace ws
