#pragma once

#include "analysis/idle_gaps.h"

#include <cstddef>
#include <string>

namespace ws {

// "Why the GPU waits" as text for a terminal: the gaps' totals, a row per category with its share
// and top line, then each category's `top` heaviest lines (warpscope-cli gaps, and overview).
std::string idleGapsText(const IdleGapReport& report, size_t top);

} // namespace ws
