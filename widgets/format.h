#pragma once

#include "analysis/idle_gaps.h"

#include <QString>

#include <cstdint>
#include <optional>

namespace ws {

// Human-readable numbers for the UI, with translated units. Durations pick the unit that keeps
// three significant digits visible (ns, µs, ms, s).
QString formatDuration(int64_t ns);
QString formatBytes(int64_t bytes);
QString formatCount(uint64_t count);
QString formatPercent(std::optional<double> fraction); // 0..1 -> "42.1 %", empty -> "n/a"
// A utilization that can be tiny (MFU of a decode loop): the decimals it needs to show a figure
// ("42.1 %", "0.15 %", "0.003 %"); empty for NaN.
QString formatUtilization(double fraction);
// A cause of GPU idle time (idle_gaps.h): "Host synchronization", "Data loading", ...
QString formatGapCategory(GapCategory category);
// The same inside a sentence ("the host was in data loading at ...").
QString formatGapCategoryInSentence(GapCategory category);

} // namespace ws
