#pragma once

#include "model/id_value.h"

namespace ws {

/*
 * ProcessInfo: one Chrome-trace process (a host process, a GPU device in Kineto traces, or a
 * string pid such as "Spans"). Labels and sort index come from `M` metadata (last wins).
 * deviceId >= 0 marks a GPU device (Kineto uses the device index as pid).
 */
struct ProcessInfo {
    IdValue pid;
    StringId name = kEmptyString;
    StringId labels = kEmptyString;
    int64_t sortIndex = 0;
    bool hasSortIndex = false;
    int deviceId = -1;
};

} // namespace ws
