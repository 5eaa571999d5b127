#pragma once

#include "model/string_table.h"

#include <cstdint>

namespace ws {

/*
 * Flow: one arrow between two slices, e.g. Kineto `ac2g` (CPU runtime launch -> GPU activity,
 * id = CUPTI correlation) or `fwdbwd` (forward op -> backward op). Endpoints are (track index,
 * slice index) into the finalized session. Flows are keyed by (category, id) when paired, since
 * ac2g and fwdbwd ids collide. A launch with several GPU ends (cudaGraphLaunch) gives one Flow per
 * end.
 */
struct Flow {
    uint32_t fromTrack = 0;
    uint32_t fromSlice = 0;
    uint32_t toTrack = 0;
    uint32_t toSlice = 0;
    StringId category = kEmptyString;
    uint64_t id = 0;
};

} // namespace ws
