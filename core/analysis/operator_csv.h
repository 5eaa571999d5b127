#pragma once

#include "analysis/operator_table.h"

#include <cstdint>
#include <ostream>
#include <vector>

namespace ws {

class Session;

/*
 * Operator table export. CSV: a header of stable snake_case names (operatorColumnName) for the
 * columns of the table's grouping (operatorColumnInGrouping), then one line per row of `order`:
 *   by name:          name,calls,host_total_ns,host_self_ns,device_total_ns,device_self_ns,
 *                     tc_eligible,tc_self_pct,tc_total_pct
 *   by input shape:   name,input_shapes,input_types,calls,...
 *   by call stack:    name,call_stack,calls,...
 * Absent values are empty fields: device columns of a trace without GPU activity, shapes of a trace
 * recorded without record_shapes, Tensor Core percentages of an operator without device time.
 */
void writeOperatorCsv(std::ostream& out, const Session& session, const OperatorTree& tree,
                      const OperatorTable& table, const std::vector<uint32_t>& order);

// The same rows as an aligned plain-text table for a terminal: durations in microseconds, names
// and key texts cut to `maxTextWidth` characters, and a footnote for what the trace does not hold
// ("device time: not in this trace").
void writeOperatorText(std::ostream& out, const Session& session, const OperatorTree& tree,
                       const OperatorTable& table, const std::vector<uint32_t>& order, size_t maxTextWidth = 60);

} // namespace ws
