#pragma once

#include "analysis/operator_table.h"

#include <ostream>

namespace ws {

class Session;
struct KernelTableOptions;

/*
 * The CLI's CSV reports of a session, written where every front end (warpscope-cli, the Python
 * package, the MCP server) takes them from, so that they cannot drift apart:
 *   kernels --csv          one row per kernel call in start order (kernel_csv.h)
 *   ops --csv --group G    operator rows in the table's default order (operator_csv.h)
 *   gaps --csv             one row per idle gap, default thresholds (idle_gaps.h)
 */
void writeKernelsReport(std::ostream& out, const Session& session, const KernelTableOptions& options);
void writeOperatorsReport(std::ostream& out, const Session& session, OperatorGrouping grouping);
void writeGapsReport(std::ostream& out, const Session& session);

} // namespace ws
