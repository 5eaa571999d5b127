#pragma once

#include "analysis/session_diff.h"

#include <string>

namespace ws {

/* The tables of a SessionDiff as text for `warpscope-cli diff`: CSV (one table) and JSON (all). */
enum class DiffTable : uint8_t { Operators, Kernels, OperatorKernels, Steps, Headline };

// RFC 4180 CSV with a header row; times in ns, `delta_ns` = compared - baseline.
std::string sessionDiffCsv(const SessionDiff& diff, DiffTable table);
// {"headline": [...], "steps": [...], "operators": [...], "kernels": [...], "operator_kernels": [...],
//  "operator_grouping": "name"|"shape"|"stack", "step_time_change_percent": x, ...}
std::string sessionDiffJson(const SessionDiff& diff);

} // namespace ws
