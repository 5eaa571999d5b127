// The Memory tab's active-memory bands (analysis/snapshot_timeline.h) against a naive raster of the
// same definition: each column drawn at the state where its live bytes peak (or, without a change in
// it, the state at its start), each row showing the allocation that covers the row's middle byte in
// stacking order (alive before the trace first, then by the alloc entry's place in the trace).
// The naive one replays the trace from its start for every column and sums the sizes rank by rank.
#include "analysis/snapshot_timeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace ws;

namespace {

struct Step {
    int64_t us;
    uint32_t seq;
    uint32_t allocation;
    bool add;
};

// A snapshot of one device: some allocations alive before the trace, the rest allocated in it; a
// share freed in random order (so changes fall below and above any row), sizes over 5 decades.
std::shared_ptr<MemorySnapshot> randomSnapshot(uint64_t seed, int count) {
    auto s = std::make_shared<MemorySnapshot>();
    std::mt19937_64 rng(seed);
    uint32_t seq = 0;
    int64_t t = 1'000'000;
    for (int i = 0; i < count; ++i) {
        SnapshotAllocation a;
        a.addr = 0x7f0000000000 + int64_t(i) * 4096;
        a.size = int64_t(512) << (rng() % 12);
        a.size += static_cast<int64_t>(rng() % 512);
        if (i % 10 != 0) { // one in ten from before the trace
            a.allocUs = (t += static_cast<int64_t>(rng() % 5)); // same-µs entries too
            a.allocSeq = ++seq;
        }
        s->allocations.push_back(a);
    }
    std::vector<size_t> order(s->allocations.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    // Frees interleaved with nothing else (after all allocations): 60 % of them.
    for (size_t k = 0; k < order.size() * 6 / 10; ++k) {
        SnapshotAllocation& a = s->allocations[order[k]];
        a.freeUs = (t += static_cast<int64_t>(rng() % 3));
        a.freeSeq = ++seq;
        a.freeRequestedUs = a.freeUs;
    }
    s->firstUs = 1'000'000;
    s->lastUs = t;
    s->devices = {0};
    return s;
}

// The naive raster of [from, to) (µs, or change indices byOrder) at width x height.
SnapshotTimeline::Raster naiveRaster(const MemorySnapshot& s, int64_t from, int64_t to, int width, int height, bool byOrder) {
    // Stacking order and the changes in trace order.
    std::vector<uint32_t> ranks;
    for (uint32_t i = 0; i < s.allocations.size(); ++i)
        ranks.push_back(i);
    std::stable_sort(ranks.begin(), ranks.end(), [&](uint32_t x, uint32_t y) {
        const SnapshotAllocation& a = s.allocations[x];
        const SnapshotAllocation& b = s.allocations[y];
        const bool beforeA = a.allocUs == SnapshotAllocation::kBeforeTrace;
        const bool beforeB = b.allocUs == SnapshotAllocation::kBeforeTrace;
        return beforeA != beforeB ? beforeA : a.allocSeq < b.allocSeq;
    });
    std::vector<Step> steps;
    for (uint32_t i = 0; i < s.allocations.size(); ++i) {
        const SnapshotAllocation& a = s.allocations[i];
        if (a.allocUs != SnapshotAllocation::kBeforeTrace)
            steps.push_back({a.allocUs, a.allocSeq, i, true});
        if (a.freeUs != SnapshotAllocation::kNeverFreed)
            steps.push_back({a.freeUs, a.freeSeq, i, false});
    }
    std::sort(steps.begin(), steps.end(), [](const Step& x, const Step& y) { return x.seq < y.seq; });
    auto pos = [&](size_t j) { return byOrder ? static_cast<int64_t>(j) : steps[j].us; };
    auto liveAfter = [&](size_t applied) { // allocation -> live after the first `applied` changes
        std::vector<bool> live(s.allocations.size());
        for (uint32_t i = 0; i < s.allocations.size(); ++i)
            live[i] = s.allocations[i].allocUs == SnapshotAllocation::kBeforeTrace;
        for (size_t j = 0; j < applied; ++j)
            live[steps[j].allocation] = steps[j].add;
        return live;
    };
    auto bytesOf = [&](const std::vector<bool>& live) {
        int64_t b = 0;
        for (uint32_t i = 0; i < live.size(); ++i)
            b += live[i] ? s.allocations[i].size : 0;
        return b;
    };
    SnapshotTimeline::Raster r;
    r.width = width;
    r.height = height;
    const double usPerColumn = static_cast<double>(to - from) / width;
    // Each change's column (as the raster places them: by division, past columns clamped), then per
    // column its live bytes: the state before its first change, or a higher one after one of its
    // changes (the first highest); the state drawn is that peak's, or for a column without a
    // higher state every change before the column's start.
    size_t first = 0;
    while (first < steps.size() && pos(first) < from)
        ++first;
    auto columnOf = [&](size_t j) {
        return std::max(0, static_cast<int>(std::clamp(static_cast<double>(pos(j) - from) / usPerColumn, -1.0, double(width))));
    };
    std::vector<int64_t> peakState(static_cast<size_t>(width), -1);
    r.columnBytes.assign(static_cast<size_t>(width), 0);
    for (int x = 0; x < width; ++x) {
        size_t before = first; // the changes of earlier columns
        while (before < steps.size() && pos(before) < to && columnOf(before) < x)
            ++before;
        int64_t bytes = bytesOf(liveAfter(before));
        for (size_t j = before; j < steps.size() && pos(j) < to && columnOf(j) == x; ++j)
            if (const int64_t b = bytesOf(liveAfter(j + 1)); b > bytes)
                bytes = b, peakState[static_cast<size_t>(x)] = static_cast<int64_t>(j + 1);
        r.columnBytes[static_cast<size_t>(x)] = bytes;
    }
    std::vector<size_t> state(static_cast<size_t>(width));
    size_t applied = first;
    for (int x = 0; x < width; ++x) {
        const int64_t start = from + static_cast<int64_t>(usPerColumn * x);
        size_t target = applied;
        if (peakState[static_cast<size_t>(x)] >= 0)
            target = static_cast<size_t>(peakState[static_cast<size_t>(x)]);
        else
            while (target < steps.size() && pos(target) < start)
                ++target;
        applied = std::max(applied, target);
        state[static_cast<size_t>(x)] = applied;
    }
    r.maxBytes = std::max<int64_t>(1, *std::max_element(r.columnBytes.begin(), r.columnBytes.end()));
    r.cells.assign(static_cast<size_t>(width) * static_cast<size_t>(height), 0);
    const double bytesPerRow = static_cast<double>(r.maxBytes) / height;
    for (int x = 0; x < width; ++x) {
        const std::vector<bool> live = liveAfter(state[static_cast<size_t>(x)]);
        for (int y = 0; y < height; ++y) {
            const auto b = static_cast<int64_t>((y + 0.5) * bytesPerRow);
            if (b >= r.columnBytes[static_cast<size_t>(x)])
                break;
            int64_t below = 0;
            for (uint32_t i : ranks) {
                if (!live[i])
                    continue;
                if (b < below + s.allocations[i].size) {
                    r.cells[static_cast<size_t>(x) * static_cast<size_t>(height) + static_cast<size_t>(y)] = i + 1;
                    break;
                }
                below += s.allocations[i].size;
            }
        }
    }
    return r;
}

} // namespace

TEST(SnapshotTimeline, BandsMatchANaiveRasterWholeAndZoomed) {
    for (uint64_t seed : {1u, 2u}) {
        const auto snap = randomSnapshot(seed, 600);
        const SnapshotTimeline timeline = SnapshotTimeline::build(*snap, 0);
        for (bool byOrder : {false, true}) {
            const int64_t from = byOrder ? 0 : timeline.firstUs();
            const int64_t to = byOrder ? static_cast<int64_t>(timeline.changeCount()) : timeline.lastUs() + 1;
            // The whole trace, its middle, a narrow window (columns without a change), its end.
            const std::pair<int64_t, int64_t> windows[] = {
                {from, to}, {from + (to - from) / 4, from + (to - from) * 3 / 4},
                {from + (to - from) / 2, from + (to - from) / 2 + std::max<int64_t>(2, (to - from) / 300)},
                {to - (to - from) / 10, to}};
            for (const auto& [lo, hi] : windows) {
                const SnapshotTimeline::Raster got = timeline.rasterize(lo, hi, 61, 37, 0, byOrder);
                const SnapshotTimeline::Raster want = naiveRaster(*snap, lo, hi, 61, 37, byOrder);
                SCOPED_TRACE(testing::Message() << "seed " << seed << (byOrder ? " by order" : " by time") << " [" << lo
                                                << ", " << hi << ")");
                EXPECT_EQ(got.maxBytes, want.maxBytes);
                EXPECT_EQ(got.columnBytes, want.columnBytes);
                EXPECT_EQ(got.cells, want.cells);
            }
        }
    }
}
