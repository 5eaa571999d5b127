// scatterColumn (model/column_scatter.h) and releaseMemory (model/release_memory.h), which the
// TraceBuilder's track reordering uses to stay near the model's own memory (issue #29).
#include "model/column_scatter.h"
#include "model/release_memory.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace ws {
namespace {

// A track's reordering: slices of a few rows interleaved, each row's slices kept in order.
std::vector<uint32_t> rowsDestination(size_t n, uint32_t rows, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<uint32_t> row(n);
    std::vector<uint32_t> count(rows + 1, 0);
    for (auto& r : row) {
        r = static_cast<uint32_t>(rng() % rows);
        ++count[r + 1];
    }
    std::partial_sum(count.begin(), count.end(), count.begin());
    std::vector<uint32_t> dest(n);
    for (size_t i = 0; i < n; ++i)
        dest[i] = count[row[i]]++;
    return dest;
}

template <typename T>
void expectScattered(size_t n, uint32_t rows, uint32_t seed, bool giveBack = true) {
    const std::vector<uint32_t> dest = rowsDestination(n, rows, seed);
    std::vector<T> column(n);
    for (size_t i = 0; i < n; ++i)
        column[i] = static_cast<T>(i * 2654435761u + 7);
    std::vector<T> expected(n);
    for (size_t i = 0; i < n; ++i)
        expected[dest[i]] = column[i];
    scatterColumn(column, dest, giveBack);
    ASSERT_EQ(column.size(), n);
    EXPECT_TRUE(column == expected) << "n " << n << ", rows " << rows;
}

TEST(ColumnScatter, SmallColumnsGoWhereDestSays) {
    expectScattered<int64_t>(1, 1, 1);
    expectScattered<int64_t>(1000, 3, 2);
    expectScattered<uint16_t>(4097, 5, 3);
    expectScattered<int64_t>(3'000'001, 4, 8, false); // the plain way
    std::vector<int64_t> empty;
    scatterColumn(empty, {}, true);
    EXPECT_TRUE(empty.empty());
}

// Columns over 4 MB asked to give their read pages back do so while they are reordered: every
// element must still arrive, also across the partial pages at each step's edge (sizes not a
// multiple of a page).
TEST(ColumnScatter, LargeColumnsGoWhereDestSaysWhileTheirPagesAreGivenBack) {
    expectScattered<int64_t>(3'000'001, 4, 4);
    expectScattered<uint32_t>(5'000'003, 2, 5);
    expectScattered<uint16_t>(9'000'011, 7, 6);
    expectScattered<float>(4'200'007, 1, 7); // one row: the identity permutation
}

TEST(ReleaseMemory, GivesTheBufferBackWhereAssigningBracesKeepsIt) {
    std::vector<int64_t> v(1000, 1);
    v = {};
    EXPECT_EQ(v.capacity(), 1000u); // why releaseMemory exists
    releaseMemory(v);
    EXPECT_EQ(v.capacity(), 0u);
    EXPECT_TRUE(v.empty());
}

} // namespace
} // namespace ws
