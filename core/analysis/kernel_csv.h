#pragma once

#include "analysis/kernel_groups.h"
#include "analysis/kernel_table.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

class Session;

// One CSV field (RFC 4180): quoted when it holds a comma, quote, CR, LF or edge spaces; quotes
// inside are doubled.
std::string csvField(std::string_view text);

// Header plus one line per row of `order` (indices into the table), columns as KernelColumn.
// Absent values are empty fields.
void writeKernelCsv(std::ostream& out, const Session& session, const KernelTable& table,
                    const std::vector<uint32_t>& order);

// Header plus one line per group: the key columns of the grouping, then calls, total_ns, mean_ns,
// min_ns, max_ns, pct_gpu_time, mean_blocks_per_sm, mean_est_achieved_occupancy_pct, tensor_cores.
void writeKernelGroupCsv(std::ostream& out, const Session& session, const std::vector<KernelGroup>& groups,
                         KernelGrouping grouping);

} // namespace ws
