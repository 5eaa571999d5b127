#pragma once

#include <cstdint>
#include <vector>

namespace ws {

// The sort key of an absent value: such rows go last in both directions.
inline constexpr int64_t kMissingSortKey = INT64_MAX;

/*
 * The row order of a table column given one integer key per row: ascending or descending, absent
 * values (kMissingSortKey) last either way, equal keys in row order (a stable sort). When the keys
 * span less than 2^32 (names as ranks, devices, floats mapped to integers, most durations) key and
 * row pack into one uint64; otherwise (key, row) pairs. Either is sorted by a stable LSD radix sort
 * over the key bytes that differ between rows (O(n) per byte, at most 4 or 8 passes), which keeps
 * row order for equal keys without comparing rows. Shared by the kernel and operator tables, whose
 * views are permutations of their rows.
 */
std::vector<uint32_t> orderByKeys(std::vector<int64_t> keys, bool descending);

} // namespace ws
