#pragma once

#include <cupti.h>

#include <cstdint>

namespace ws {

// CUPTI's clock, the one every record of a capture is in: what the recorders timestamp program-thread
// events (launches, operator ranges, NCCL calls) with, so they line up with CUPTI's own activities.
inline uint64_t cuptiNow() {
    uint64_t ts = 0;
    cuptiGetTimestamp(&ts);
    return ts;
}

} // namespace ws
