#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace ws {

/*
 * Level of detail for one timeline row: which boxes to draw for the slices of a row inside a
 * visible window, with a cost bounded by pixels rather than by events.
 *
 * Input: one row's slices as parallel `start`/`dur` spans, sorted by start and non-overlapping (the
 * model's row invariant), so ends are sorted too. Output: DrawItems in time order, non-overlapping:
 *   - a single slice (count == 1, `first` is its index) when it is at least `minWidthPx` wide;
 *   - a folded box (count > 1, or a lone narrow slice) standing for the run of consecutive slices
 *     [first, first + count) that are each narrower than `minWidthPx` and start within `minWidthPx`
 *     of the run's beginning; touching folds (gap under one pixel) merge into one box.
 * Every slice that intersects the window is in exactly one item.
 *
 * Complexity: a fold consumes everything starting within minWidthPx of its start with one galloping
 * search, so each item advances the cursor by at least minWidthPx (folds) or is itself that wide
 * (singles): O((widthPx / minWidthPx) * log n) per row, whatever the number of events in view.
 */
struct LodItem {
    int64_t start = 0;
    int64_t end = 0;
    uint32_t first = 0;
    uint32_t count = 0;
    bool folded = false; // drawn as a fold box (one or more slices each under minWidthPx)
};

struct LodWindow {
    int64_t t0 = 0;      // visible window [t0, t1) in ns
    int64_t t1 = 0;
    double nsPerPx = 1;  // zoom
    double minWidthPx = 3;
};

// Appends the items of one row to `out`.
void foldRow(std::span<const int64_t> start, std::span<const int64_t> dur, const LodWindow& window,
             std::vector<LodItem>& out);

// First index whose slice ends after t (end > t, or start == t for zero-length); start.size() if none.
size_t firstVisible(std::span<const int64_t> start, std::span<const int64_t> dur, int64_t t);

} // namespace ws
