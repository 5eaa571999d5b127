#include "model/nearly_sorted.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>

namespace ws {
namespace {

struct Slices {
    std::vector<int64_t> start, dur;
    // The track's order: by start, the longer first at the same start (the file's order on a tie).
    bool before(uint32_t a, uint32_t b) const {
        if (start[a] != start[b])
            return start[a] < start[b];
        return dur[a] > dur[b];
    }
};

std::vector<uint32_t> stableSorted(const Slices& s) {
    std::vector<uint32_t> order(s.start.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return s.before(a, b); });
    return order;
}

std::vector<uint32_t> nearlySorted(const Slices& s, size_t movesPerElement = 16) {
    std::vector<uint32_t> order(s.start.size());
    std::iota(order.begin(), order.end(), 0u);
    sortNearlySorted(order, [&](uint32_t a, uint32_t b) { return s.before(a, b); }, movesPerElement);
    return order;
}

// Operators written as they end (Kineto): children before their parent, steps of nested calls,
// with ties (same start and length) that must keep the file's order.
Slices postOrder(int steps) {
    Slices s;
    std::function<void(int64_t, int64_t, int)> op = [&](int64_t at, int64_t len, int depth) {
        if (depth < 4 && len >= 8)
            for (int c = 0; c < 3; ++c)
                op(at + c * (len / 3), len / 4, depth + 1);
        s.start.push_back(at);
        s.dur.push_back(len);
        if (depth == 3) { // a twin: same start and length
            s.start.push_back(at);
            s.dur.push_back(len);
        }
    };
    for (int i = 0; i < steps; ++i)
        op(int64_t(i) * 100000, 90000, 0);
    return s;
}

TEST(SortNearlySorted, SortsOperatorsWrittenAsTheyEndAsStableSortDoes) {
    const Slices s = postOrder(20);
    ASSERT_FALSE(std::is_sorted(s.start.begin(), s.start.end()));
    EXPECT_EQ(nearlySorted(s), stableSorted(s));
}

TEST(SortNearlySorted, FallsBackOnAnOrderFarFromSorted) {
    Slices s;
    std::mt19937 rng(7);
    for (int i = 0; i < 20000; ++i) {
        s.start.push_back(rng() % 5000); // many ties: stability shows
        s.dur.push_back(rng() % 3);
    }
    EXPECT_EQ(nearlySorted(s), stableSorted(s));
    // Reversed, and with no budget at all: the fallback from the first move.
    std::reverse(s.start.begin(), s.start.end());
    EXPECT_EQ(nearlySorted(s), stableSorted(s));
    EXPECT_EQ(nearlySorted(s, 0), stableSorted(s));
    EXPECT_EQ(nearlySorted(postOrder(3), 0), stableSorted(postOrder(3)));
}

TEST(SortNearlySorted, EmptyAndSingle) {
    EXPECT_TRUE(nearlySorted(Slices{}).empty());
    EXPECT_EQ(nearlySorted(Slices{{5}, {1}}), std::vector<uint32_t>{0});
}

} // namespace
} // namespace ws
