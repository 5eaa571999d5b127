#include "index/slice_lod.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

using namespace ws;

namespace {

struct Row {
    std::vector<int64_t> start, dur;
};

// Random row obeying the model's invariant: sorted, non-overlapping; a mix of tiny, medium and long
// slices with tiny and long gaps.
Row randomRow(std::mt19937_64& rng, size_t n) {
    Row r;
    int64_t t = static_cast<int64_t>(rng() % 1000);
    for (size_t i = 0; i < n; ++i) {
        const int kind = static_cast<int>(rng() % 10);
        const int64_t d = kind < 6 ? static_cast<int64_t>(rng() % 50) : (kind < 9 ? 50 + static_cast<int64_t>(rng() % 5000)
                                                                                  : 5000 + static_cast<int64_t>(rng() % 500000));
        r.start.push_back(t);
        r.dur.push_back(d);
        t += d + (rng() % 4 == 0 ? static_cast<int64_t>(rng() % 100000) : static_cast<int64_t>(rng() % 30));
    }
    return r;
}

// The same rules, applied by walking every slice: the brute-force reference.
std::vector<LodItem> referenceFold(const Row& r, const LodWindow& w) {
    std::vector<LodItem> out;
    const int64_t minWidthNs = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(w.minWidthPx * w.nsPerPx)));
    const int64_t onePxNs = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(w.nsPerPx)));
    size_t i = 0;
    while (i < r.start.size() && r.start[i] + r.dur[i] <= w.t0 && !(r.dur[i] == 0 && r.start[i] >= w.t0))
        ++i;
    while (i < r.start.size() && r.start[i] < w.t1) {
        if (r.dur[i] >= minWidthNs) {
            out.push_back({r.start[i], r.start[i] + r.dur[i], static_cast<uint32_t>(i), 1, false});
            ++i;
            continue;
        }
        size_t j = i + 1;
        while (j < r.start.size() && r.start[j] <= r.start[i] + minWidthNs)
            ++j;
        if (j - 1 > i && r.dur[j - 1] >= minWidthNs)
            --j;
        const int64_t end = r.start[j - 1] + r.dur[j - 1];
        if (!out.empty() && out.back().folded && r.start[i] - out.back().end < onePxNs) {
            out.back().end = std::max(out.back().end, end);
            out.back().count += static_cast<uint32_t>(j - i);
        } else {
            out.push_back({r.start[i], end, static_cast<uint32_t>(i), static_cast<uint32_t>(j - i), true});
        }
        i = j;
    }
    return out;
}

bool sameItems(const std::vector<LodItem>& a, const std::vector<LodItem>& b) {
    if (a.size() != b.size())
        return false;
    for (size_t k = 0; k < a.size(); ++k)
        if (a[k].start != b[k].start || a[k].end != b[k].end || a[k].first != b[k].first ||
            a[k].count != b[k].count || a[k].folded != b[k].folded)
            return false;
    return true;
}

} // namespace

TEST(SliceLod, MatchesBruteForceOnRandomRowsAtEveryZoom) {
    std::mt19937_64 rng(12345);
    for (int trial = 0; trial < 60; ++trial) {
        const Row row = randomRow(rng, 1 + rng() % 3000);
        const int64_t span = row.start.back() + row.dur.back();
        for (double widthPx : {200.0, 1920.0}) {
            for (int zoom = 0; zoom < 6; ++zoom) {
                LodWindow w;
                const int64_t len = std::max<int64_t>(1, span >> (zoom * 2));
                w.t0 = static_cast<int64_t>(rng() % static_cast<uint64_t>(std::max<int64_t>(1, span - len + 1)));
                w.t1 = w.t0 + len;
                w.nsPerPx = static_cast<double>(len) / widthPx;
                std::vector<LodItem> got;
                foldRow(row.start, row.dur, w, got);
                ASSERT_TRUE(sameItems(got, referenceFold(row, w))) << "trial " << trial << " zoom " << zoom;
            }
        }
    }
}

TEST(SliceLod, EveryVisibleSliceIsDrawnExactlyOnceAndItemsDoNotOverlap) {
    std::mt19937_64 rng(99);
    const Row row = randomRow(rng, 20000);
    LodWindow w{row.start[1000], row.start[15000], 0, 3};
    w.nsPerPx = static_cast<double>(w.t1 - w.t0) / 1000.0;
    std::vector<LodItem> items;
    foldRow(row.start, row.dur, w, items);
    ASSERT_FALSE(items.empty());
    uint64_t covered = 0;
    for (size_t k = 0; k < items.size(); ++k) {
        const LodItem& it = items[k];
        covered += it.count;
        if (k > 0) {
            EXPECT_EQ(items[k - 1].first + items[k - 1].count, it.first); // contiguous, nothing skipped
            EXPECT_LE(items[k - 1].end, it.start);
        }
        if (!it.folded) {
            EXPECT_EQ(it.count, 1u);
            EXPECT_GE(static_cast<double>(it.end - it.start), 3 * w.nsPerPx - 1);
        }
    }
    // Covered indices are exactly the visible ones, except that the last fold may swallow a few
    // slices just past the right edge (they start within minWidth of a visible one).
    size_t firstVis = row.start.size(), lastVis = 0;
    for (size_t i = 0; i < row.start.size(); ++i) {
        if ((row.start[i] + row.dur[i] > w.t0 || (row.dur[i] == 0 && row.start[i] >= w.t0)) && row.start[i] < w.t1) {
            firstVis = std::min(firstVis, i);
            lastVis = i;
        }
    }
    EXPECT_EQ(items.front().first, firstVis);
    EXPECT_GT(items.back().first + items.back().count, lastVis);
    EXPECT_LE(items.back().first, lastVis);
    EXPECT_EQ(covered, items.back().first + items.back().count - firstVis);
    // Bounded by pixels: never more items than about one per minWidth plus the wide singles.
    EXPECT_LT(items.size(), 1000u);
}

TEST(SliceLod, ZoomedInEverySliceIsSingle) {
    Row r{{0, 100, 200}, {50, 50, 50}};
    std::vector<LodItem> items;
    foldRow(r.start, r.dur, LodWindow{0, 300, 1.0, 3}, items);
    ASSERT_EQ(items.size(), 3u);
    for (const LodItem& it : items)
        EXPECT_FALSE(it.folded);
}

TEST(SliceLod, ZoomedOutARunFoldsIntoOneBoxWithItsCount) {
    Row r;
    for (int i = 0; i < 1000; ++i) {
        r.start.push_back(i * 10);
        r.dur.push_back(5);
    }
    std::vector<LodItem> items;
    foldRow(r.start, r.dur, LodWindow{0, 10000, 100.0, 3}, items); // 100 px for the whole row
    ASSERT_EQ(items.size(), 1u);
    EXPECT_TRUE(items[0].folded);
    EXPECT_EQ(items[0].count, 1000u);
    EXPECT_EQ(items[0].start, 0);
    EXPECT_EQ(items[0].end, 9995);
}

TEST(SliceLod, WindowEdgesIncludeSlicesCrossingThem) {
    const Row r{{0, 160, 300}, {150, 50, 50}};
    EXPECT_EQ(firstVisible(r.start, r.dur, 100), 0u); // [0,150) crosses t=100
    EXPECT_EQ(firstVisible(r.start, r.dur, 150), 1u);
    EXPECT_EQ(firstVisible(r.start, r.dur, 400), 3u);
}
