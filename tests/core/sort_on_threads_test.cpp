#include "model/sort_on_threads.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

using namespace ws;

namespace {

// Keys with many duplicates in the first field and a unique tie-breaker, like the flow ends.
struct Item {
    uint32_t key;
    uint64_t seq;
};

bool lessItem(const Item& a, const Item& b) { return a.key != b.key ? a.key < b.key : a.seq < b.seq; }

} // namespace

// On 1, 2, 3 and 8 threads the result is std::sort's, for random keys, few distinct keys, sorted
// and reversed input (a pivot at an end leaves one side empty).
TEST(SortOnThreads, GivesStdSortsOrder) {
    std::mt19937_64 rng(29);
    const size_t n = (size_t(1) << 20) + 12345;
    for (int shape = 0; shape < 4; ++shape) {
        std::vector<Item> items(n);
        for (size_t i = 0; i < n; ++i) {
            const uint32_t key = shape == 0 ? uint32_t(rng()) : shape == 1 ? uint32_t(rng() % 3) : uint32_t(i);
            items[i] = {shape == 3 ? uint32_t(n - i) : key, rng()};
        }
        std::vector<Item> expected = items;
        std::sort(expected.begin(), expected.end(), lessItem);
        for (size_t threads : {1u, 2u, 3u, 8u}) {
            std::vector<Item> got = items;
            sortOnThreads(got.begin(), got.end(), lessItem, threads);
            ASSERT_TRUE(std::equal(got.begin(), got.end(), expected.begin(), expected.end(),
                                   [](const Item& a, const Item& b) { return a.key == b.key && a.seq == b.seq; }))
                << "shape " << shape << ", " << threads << " threads";
        }
    }
}
