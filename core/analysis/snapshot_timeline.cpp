#include "analysis/snapshot_timeline.h"

#include <algorithm>
#include <bit>

namespace ws {

namespace {

/* Fenwick tree of sizes by rank: prefix sums and "which rank holds byte b" in O(log n). */
class Fenwick {
public:
    explicit Fenwick(size_t n) : m_tree(n + 1, 0), m_top(n ? std::bit_floor(n) : 0) {}
    void add(size_t i, int64_t v) {
        for (++i; i < m_tree.size(); i += i & (~i + 1))
            m_tree[i] += v;
    }
    // The smallest rank whose prefix sum (inclusive) exceeds b; size() if none.
    size_t find(int64_t b) const {
        size_t pos = 0;
        for (size_t step = m_top; step; step >>= 1) {
            if (pos + step < m_tree.size() && m_tree[pos + step] <= b) {
                pos += step;
                b -= m_tree[pos];
            }
        }
        return pos; // 0-based rank
    }
    // Sum of ranks [0, i].
    int64_t prefix(size_t i) const {
        int64_t s = 0;
        for (++i; i > 0; i -= i & (~i + 1))
            s += m_tree[i];
        return s;
    }

private:
    std::vector<int64_t> m_tree;
    size_t m_top;
};

} // namespace

SnapshotTimeline SnapshotTimeline::build(const MemorySnapshot& s, int16_t device) {
    SnapshotTimeline t;
    t.m_snapshot = &s;
    t.m_device = device;
    // Stacking order: alive before the trace first, then by the alloc entry's place in the trace.
    for (uint32_t i = 0; i < s.allocations.size(); ++i)
        if (s.allocations[i].device == device)
            t.m_rankToAllocation.push_back(i);
    std::stable_sort(t.m_rankToAllocation.begin(), t.m_rankToAllocation.end(), [&s](uint32_t x, uint32_t y) {
        const SnapshotAllocation& a = s.allocations[x];
        const SnapshotAllocation& b = s.allocations[y];
        const bool beforeA = a.allocUs == SnapshotAllocation::kBeforeTrace;
        const bool beforeB = b.allocUs == SnapshotAllocation::kBeforeTrace;
        return beforeA != beforeB ? beforeA : a.allocSeq < b.allocSeq;
    });
    struct Keyed {
        uint32_t seq;
        Change c;
    };
    std::vector<Keyed> changes;
    for (uint32_t r = 0; r < t.m_rankToAllocation.size(); ++r) {
        const SnapshotAllocation& a = s.allocations[t.m_rankToAllocation[r]];
        t.m_size.push_back(a.size);
        if (a.allocUs == SnapshotAllocation::kBeforeTrace)
            t.m_initial.push_back(r);
        else
            changes.push_back({a.allocSeq, {a.allocUs, r, true}});
        if (a.freeUs != SnapshotAllocation::kNeverFreed)
            changes.push_back({a.freeSeq, {a.freeUs, r, false}});
    }
    std::sort(changes.begin(), changes.end(), [](const Keyed& x, const Keyed& y) { return x.seq < y.seq; });
    t.m_changes.reserve(changes.size());
    for (const Keyed& k : changes)
        t.m_changes.push_back(k.c);
    t.m_firstUs = s.firstUs;
    t.m_lastUs = s.lastUs;
    return t;
}

size_t SnapshotTimeline::changeAt(int64_t us) const {
    return static_cast<size_t>(std::partition_point(m_changes.begin(), m_changes.end(),
                                                    [us](const Change& c) { return c.us < us; }) -
                               m_changes.begin());
}

SnapshotTimeline::Raster SnapshotTimeline::rasterize(int64_t from, int64_t to, int width, int height,
                                                     int64_t maxBytes, bool byOrder) const {
    Raster r;
    r.width = std::max(width, 0);
    r.height = std::max(height, 0);
    r.fromUs = from;
    r.toUs = std::max(to, from + 1);
    // Where change j sits on the x axis.
    auto pos = [&](size_t j) { return byOrder ? static_cast<int64_t>(j) : m_changes[j].us; };
    if (r.width == 0 || r.height == 0)
        return r;
    const size_t n = m_size.size();
    const double usPerColumn = static_cast<double>(r.toUs - r.fromUs) / r.width;
    auto columnOf = [&](int64_t us) {
        return static_cast<int>(std::clamp(static_cast<double>(us - r.fromUs) / usPerColumn, -1.0, double(r.width)));
    };

    // Pass 1: live bytes through the changes; per column the change after which they peak (-1: the
    // state at the column's start, i.e. after every change before it).
    int64_t live = 0;
    for (uint32_t rank : m_initial)
        live += m_size[rank];
    size_t k = 0;
    while (k < m_changes.size() && pos(k) < r.fromUs) {
        live += m_changes[k].add ? m_size[m_changes[k].rank] : -m_size[m_changes[k].rank];
        ++k;
    }
    const size_t firstInWindow = k;
    std::vector<int64_t> peakChange(static_cast<size_t>(r.width), -1); // index into m_changes, inclusive
    r.columnBytes.assign(static_cast<size_t>(r.width), live);
    int lastColumn = 0;
    for (size_t j = k; j < m_changes.size() && pos(j) < r.toUs; ++j) {
        const int c = std::max(columnOf(pos(j)), 0);
        // Columns without changes keep the state reached so far.
        for (int x = lastColumn + 1; x <= c && x < r.width; ++x)
            r.columnBytes[static_cast<size_t>(x)] = live;
        lastColumn = std::max(lastColumn, c);
        live += m_changes[j].add ? m_size[m_changes[j].rank] : -m_size[m_changes[j].rank];
        if (c < r.width && live > r.columnBytes[static_cast<size_t>(c)]) {
            r.columnBytes[static_cast<size_t>(c)] = live;
            peakChange[static_cast<size_t>(c)] = static_cast<int64_t>(j);
        }
    }
    for (int x = lastColumn + 1; x < r.width; ++x)
        r.columnBytes[static_cast<size_t>(x)] = live;
    r.maxBytes = maxBytes > 0 ? maxBytes : std::max<int64_t>(1, *std::max_element(r.columnBytes.begin(), r.columnBytes.end()));

    // Pass 2: the Fenwick tree follows the changes; each column is drawn at its peak state.
    Fenwick tree(n);
    for (uint32_t rank : m_initial)
        tree.add(rank, m_size[rank]);
    for (size_t j = 0; j < firstInWindow; ++j)
        tree.add(m_changes[j].rank, m_changes[j].add ? m_size[m_changes[j].rank] : -m_size[m_changes[j].rank]);
    r.cells.assign(static_cast<size_t>(r.width) * static_cast<size_t>(r.height), 0);
    r.columnUs.assign(static_cast<size_t>(r.width), 0);
    size_t applied = firstInWindow; // changes [0, applied) are in the tree
    const double bytesPerRow = static_cast<double>(r.maxBytes) / r.height;
    for (int x = 0; x < r.width; ++x) {
        const int64_t columnStart = r.fromUs + static_cast<int64_t>(usPerColumn * x);
        // The column's state: after its peak change, or after everything before the column.
        size_t target = applied;
        if (peakChange[static_cast<size_t>(x)] >= 0)
            target = static_cast<size_t>(peakChange[static_cast<size_t>(x)]) + 1;
        else
            while (target < m_changes.size() && pos(target) < columnStart)
                ++target;
        for (; applied < target; ++applied)
            tree.add(m_changes[applied].rank,
                     m_changes[applied].add ? m_size[m_changes[applied].rank] : -m_size[m_changes[applied].rank]);
        // The time of the column's state: its last change, else where the column starts.
        r.columnUs[static_cast<size_t>(x)] =
            applied > 0 && pos(applied - 1) >= columnStart ? m_changes[applied - 1].us
            : byOrder                                      ? (applied < m_changes.size() ? m_changes[applied].us : m_lastUs)
                                                           : columnStart;
        const int64_t total = r.columnBytes[static_cast<size_t>(x)];
        uint32_t* column = r.cells.data() + static_cast<size_t>(x) * static_cast<size_t>(r.height);
        int64_t bandEnd = -1; // the current allocation covers bytes below this
        uint32_t current = 0;
        for (int y = 0; y < r.height; ++y) {
            const auto b = static_cast<int64_t>((y + 0.5) * bytesPerRow);
            if (b >= total)
                break;
            if (b >= bandEnd) {
                const size_t rank = tree.find(b);
                if (rank >= n)
                    break;
                bandEnd = tree.prefix(rank);
                current = m_rankToAllocation[rank] + 1;
            }
            column[y] = current;
        }
    }
    return r;
}

} // namespace ws
