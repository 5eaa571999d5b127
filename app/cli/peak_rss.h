#pragma once

#include <cstdint>

namespace ws::cli {

// Peak resident set size of this process in bytes (VmHWM, else ru_maxrss), for benchmarks.
uint64_t peakRssBytes();

} // namespace ws::cli
