#pragma once

#include "model/memory_snapshot.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ws {

/*
 * SnapshotTimeline: memory_viz's "active memory timeline" of one device, as pixels. Every live
 * allocation is a band whose height is its size; bands are stacked in allocation order (the oldest
 * at the bottom, those alive before the trace below all), so freeing one lets the ones above it
 * drop. The picture is rasterized, never drawn band by band, so its cost follows the pixels:
 *
 *   - one column per pixel: the state shown in a column is the one with the most live bytes inside
 *     the column's time span, so a peak narrower than a pixel is never lost;
 *   - in a column, each pixel row shows the allocation that covers the middle byte of the row,
 *     found by a descent of a 16-ary tree of sums over the allocations' sizes in stacking order;
 *     allocations thinner than a row share it (the one in the middle wins).
 *
 * The x axis is time, or (byOrder) the trace's order of changes, one step per alloc or free, as
 * memory_viz draws it: a burst of allocations after a quiet second is then as wide as it is busy.
 *
 * build() sorts the changes once (O(n log n)) and notes where each allocation comes and goes;
 * rasterize() makes the state at the window's start in O(n) (no replay of the changes before it),
 * then costs O(changes in the window * log n + width * height * log n).
 */
class SnapshotTimeline {
public:
    static SnapshotTimeline build(const MemorySnapshot& snapshot, int16_t device);

    struct Raster {
        int width = 0;
        int height = 0;
        int64_t fromUs = 0;                  // the window asked for (change indices when by order)
        int64_t toUs = 0;
        int64_t maxBytes = 0;                // the top row's byte value
        std::vector<uint32_t> cells;         // width * height, column-major from the bottom row;
                                             // allocation index + 1, 0 when empty
        std::vector<int64_t> columnBytes;    // live bytes of each column's state
        std::vector<int64_t> columnUs;       // the time of each column's state
        uint32_t at(int x, int yFromBottom) const {
            return cells[static_cast<size_t>(x) * static_cast<size_t>(height) + static_cast<size_t>(yFromBottom)];
        }
    };
    // [from, to): µs, or change indices with byOrder. maxBytes 0: the highest column in the window
    // sets the scale.
    Raster rasterize(int64_t from, int64_t to, int width, int height, int64_t maxBytes = 0, bool byOrder = false) const;
    // Changes (allocs and frees in the trace) and the time of change k; the first change at or after
    // `us` (changeCount() if none).
    size_t changeCount() const { return m_changes.size(); }
    int64_t changeUs(size_t k) const { return m_changes[std::min(k, m_changes.size() - 1)].us; }
    size_t changeAt(int64_t us) const;

    int16_t device() const { return m_device; }
    int64_t firstUs() const { return m_firstUs; }
    int64_t lastUs() const { return m_lastUs; }
    size_t allocationCount() const { return m_rankToAllocation.size(); }

private:
    struct Change {
        int64_t us;
        uint32_t rank; // stacking position
        bool add;
    };
    const MemorySnapshot* m_snapshot = nullptr;
    int16_t m_device = 0;
    std::vector<uint32_t> m_rankToAllocation; // stacking order -> allocations index
    std::vector<int64_t> m_size;              // by rank
    std::vector<uint32_t> m_initial;          // ranks live before the first change
    std::vector<Change> m_changes;            // trace order
    std::vector<uint32_t> m_addedAfter;       // by rank: live from the state after this many changes (0: from the start)
    std::vector<uint32_t> m_removedAt;        // by rank: the change that frees it (UINT32_MAX: never)
    std::vector<int64_t> m_liveBefore;        // live bytes before change j (and after the last, at the end)
    int64_t m_firstUs = 0;
    int64_t m_lastUs = 0;
};

} // namespace ws
