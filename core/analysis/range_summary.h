#pragma once

#include "model/string_table.h"

#include <cstdint>
#include <vector>

namespace ws {

class Session;

/*
 * What happened inside a time range, per slice name: how many slices overlap it, their total time
 * and self time (time not covered by their children on the row below), both clipped to the range.
 * Drives the range-selection table of the timeline and, later, the other views' range filters.
 * Cost: O(log n) per row to find the range plus O(k) for the k slices inside it.
 */
struct RangeSummaryRow {
    StringId name = kEmptyString;
    uint64_t count = 0;
    int64_t totalNs = 0;
    int64_t selfNs = 0;
    bool gpu = false; // any of them ran on a GPU track
};

// Rows sorted by total time, descending.
std::vector<RangeSummaryRow> summarizeRange(const Session& session, int64_t start, int64_t end);

} // namespace ws
