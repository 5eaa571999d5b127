#include "analysis/snapshot_timeline.h"
#include "io/usable_cores.h"

#include <algorithm>
#include <bit>
#include <thread>

namespace ws {

namespace {

/*
 * SumTree: sizes by rank in a 16-ary tree of sums (level 0 the sizes, each level above the sums of
 * 16 consecutive entries below, up to one root): an update touches one entry per level (5 for
 * 300 k allocations, where a Fenwick tree touched 19 scattered ones, and a zoomed-out raster applies
 * every change of the trace), and a lookup reads one block of 16 contiguous sums per level.
 */
class SumTree {
public:
    static constexpr size_t kFan = 16;
    static constexpr int kShift = 4;

    // Built from every rank's size in O(n).
    explicit SumTree(std::vector<int64_t> sizes) {
        m_levels.push_back(std::move(sizes));
        while (m_levels.back().size() > 1) {
            const std::vector<int64_t>& below = m_levels.back();
            std::vector<int64_t> above((below.size() + kFan - 1) / kFan, 0);
            for (size_t i = 0; i < below.size(); ++i)
                above[i >> kShift] += below[i];
            m_levels.push_back(std::move(above));
        }
    }
    void add(size_t i, int64_t v) {
        for (std::vector<int64_t>& level : m_levels) {
            level[i] += v;
            i >>= kShift;
        }
    }
    // For each of `count` ascending byte offsets b, the smallest rank whose prefix sum (inclusive)
    // exceeds b, into `out` (n, the rank count, if none). Offsets in the same block share the
    // walk down to it: each block holding some is scanned once.
    void findMany(const int64_t* bytes, size_t count, uint32_t* out) const {
        if (m_levels.empty() || m_levels[0].empty()) {
            std::fill_n(out, count, 0u);
            return;
        }
        walk(m_levels.size() - 1, 0, 0, bytes, count, out);
    }

private:
    // Every offset in bytes[0, count) lies in entry i of `level` (whose bytes start at `base`).
    void walk(size_t level, size_t i, int64_t base, const int64_t* bytes, size_t count, uint32_t* out) const {
        if (level == 0) {
            std::fill_n(out, count, static_cast<uint32_t>(i));
            return;
        }
        const std::vector<int64_t>& below = m_levels[level - 1];
        size_t child = i << kShift;
        const size_t end = std::min(child + kFan, below.size());
        size_t q = 0;
        for (; child < end && q < count; ++child) {
            const int64_t top = base + below[child];
            size_t m = q;
            while (m < count && bytes[m] < top)
                ++m;
            if (m > q)
                walk(level - 1, child, base, bytes + q, m - q, out + q);
            q = m;
            base = top;
        }
        std::fill(out + q, out + count, static_cast<uint32_t>(m_levels[0].size())); // beyond the last
    }

    std::vector<std::vector<int64_t>> m_levels;
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
    // Per rank, where it comes and goes in the changes, and the live bytes before each change: a
    // window's starting state is then made in O(n) without replaying the changes before it.
    const size_t n = t.m_rankToAllocation.size();
    t.m_addedAfter.assign(n, 0);
    t.m_removedAt.assign(n, UINT32_MAX);
    t.m_liveBefore.resize(t.m_changes.size() + 1);
    int64_t live = 0;
    for (uint32_t rank : t.m_initial)
        live += t.m_size[rank];
    for (size_t j = 0; j < t.m_changes.size(); ++j) {
        const Change& c = t.m_changes[j];
        t.m_liveBefore[j] = live;
        if (c.add)
            t.m_addedAfter[c.rank] = static_cast<uint32_t>(j + 1);
        else
            t.m_removedAt[c.rank] = static_cast<uint32_t>(j);
        live += c.add ? t.m_size[c.rank] : -t.m_size[c.rank];
    }
    t.m_liveBefore[t.m_changes.size()] = live;
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
    size_t k = 0;
    while (k < m_changes.size() && pos(k) < r.fromUs)
        ++k;
    const size_t firstInWindow = k;
    int64_t live = m_liveBefore[firstInWindow];
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

    // Pass 2a: each column's state (the changes applied when it is drawn: after its peak change, or
    // after everything before the column) and that state's time.
    r.cells.assign(static_cast<size_t>(r.width) * static_cast<size_t>(r.height), 0);
    r.columnUs.assign(static_cast<size_t>(r.width), 0);
    std::vector<size_t> state(static_cast<size_t>(r.width));
    size_t applied = firstInWindow; // changes [0, applied)
    for (int x = 0; x < r.width; ++x) {
        const int64_t columnStart = r.fromUs + static_cast<int64_t>(usPerColumn * x);
        size_t target = applied;
        if (peakChange[static_cast<size_t>(x)] >= 0)
            target = static_cast<size_t>(peakChange[static_cast<size_t>(x)]) + 1;
        else
            while (target < m_changes.size() && pos(target) < columnStart)
                ++target;
        applied = std::max(applied, target);
        state[static_cast<size_t>(x)] = applied;
        // The time of the column's state: its last change, else where the column starts.
        r.columnUs[static_cast<size_t>(x)] =
            applied > 0 && pos(applied - 1) >= columnStart ? m_changes[applied - 1].us
            : byOrder                                      ? (applied < m_changes.size() ? m_changes[applied].us : m_lastUs)
                                                           : columnStart;
    }

    // Pass 2b: the pixels. Columns are drawn in a few contiguous runs, one thread each: a run makes
    // the state at its first column in O(n) (rank r is live when it came before that state, or
    // before the trace, and goes at or after it), then a SumTree follows the changes column by
    // column; each row shows the allocation at the row's middle byte.
    const double bytesPerRow = static_cast<double>(r.maxBytes) / r.height;
    auto drawColumns = [&](int x0, int x1) {
        if (x0 >= x1)
            return;
        const size_t first = state[static_cast<size_t>(x0)];
        std::vector<int64_t> liveSizes(n, 0);
        for (size_t rank = 0; rank < n; ++rank)
            if (m_addedAfter[rank] <= first && first <= m_removedAt[rank])
                liveSizes[rank] = m_size[rank];
        SumTree tree(std::move(liveSizes));
        std::vector<int64_t> rowBytes(static_cast<size_t>(r.height));
        std::vector<uint32_t> rowRanks(static_cast<size_t>(r.height));
        size_t inTree = first;
        // The previous column's rows: rank per row (n: none) and how many rows were looked up.
        size_t known = 0; // rows of rowRanks valid for the state in the tree
        for (int x = x0; x < x1; ++x) {
            // A row keeps its allocation when every change since the previous column is above it
            // (stacking is by rank: only a change below a byte moves what lies there). Zoomed in,
            // most columns have no change at all and are copies; in a run of frees at the top of
            // the stack (PyTorch's usual order) the rows below keep theirs.
            uint32_t lowestChanged = UINT32_MAX;
            for (; inTree < state[static_cast<size_t>(x)]; ++inTree) {
                const Change& c = m_changes[inTree];
                tree.add(c.rank, c.add ? m_size[c.rank] : -m_size[c.rank]);
                lowestChanged = std::min(lowestChanged, c.rank);
            }
            const int64_t total = r.columnBytes[static_cast<size_t>(x)];
            uint32_t* column = r.cells.data() + static_cast<size_t>(x) * static_cast<size_t>(r.height);
            size_t rows = 0;
            for (; rows < static_cast<size_t>(r.height); ++rows) {
                const auto b = static_cast<int64_t>((static_cast<double>(rows) + 0.5) * bytesPerRow);
                if (b >= total)
                    break;
                rowBytes[rows] = b;
            }
            // Rows still below the lowest change keep their rank (ranks ascend with the rows).
            size_t kept = 0;
            if (x > x0)
                kept = static_cast<size_t>(std::partition_point(rowRanks.begin(), rowRanks.begin() + static_cast<ptrdiff_t>(std::min(known, rows)),
                                                                [&](uint32_t rank) { return rank < lowestChanged; }) -
                                           rowRanks.begin());
            tree.findMany(rowBytes.data() + kept, rows - kept, rowRanks.data() + kept);
            known = rows;
            for (size_t y = 0; y < rows; ++y) {
                if (rowRanks[y] >= n) {
                    known = y;
                    break;
                }
                column[y] = m_rankToAllocation[rowRanks[y]] + 1;
            }
        }
    };
    // Threads only where the lookups outweigh starting them and making one more tree (O(n)).
    const unsigned hardware = usableCores();
    const size_t work = static_cast<size_t>(r.width) * static_cast<size_t>(r.height);
    const int runs = n >= 20000 && work >= 100000 ? static_cast<int>(std::min(hardware, 8u)) : 1;
    std::vector<std::thread> threads;
    for (int t = 1; t < runs; ++t)
        threads.emplace_back(drawColumns, r.width * t / runs, r.width * (t + 1) / runs);
    drawColumns(0, r.width / runs);
    for (std::thread& t : threads)
        t.join();
    return r;
}

} // namespace ws
