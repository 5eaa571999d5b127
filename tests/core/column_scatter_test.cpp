// scatterColumn (model/column_scatter.h) and releaseMemory (model/release_memory.h), which the
// TraceBuilder's track reordering uses to stay near the model's own memory (issue #29).
#include "model/vector_slack.h"
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
    ScratchBuffer scratch;
    scatterColumn(column, dest, giveBack, scratch);
    ASSERT_EQ(column.size(), n);
    EXPECT_TRUE(column == expected) << "n " << n << ", rows " << rows;
}

TEST(ColumnScatter, SmallColumnsGoWhereDestSays) {
    expectScattered<int64_t>(1, 1, 1);
    expectScattered<int64_t>(1000, 3, 2);
    expectScattered<uint16_t>(4097, 5, 3);
    expectScattered<int64_t>(3'000'001, 4, 8, false); // the plain way
    std::vector<int64_t> empty;
    ScratchBuffer scratch;
    scatterColumn(empty, {}, true, scratch);
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

// One scratch serves a thread's columns one after another, whatever the previous one left in it,
// and a column of its own mapping with slack (over kOwnMappingBytes) is reordered in its own buffer.
TEST(ColumnScatter, OneScratchServesColumnsOfEveryTypeInTurn) {
    ScratchBuffer scratch;
    for (uint32_t seed = 1; seed <= 3; ++seed) {
        const size_t n = 200'000 + seed;
        const std::vector<uint32_t> dest = rowsDestination(n, 3 + seed, seed);
        std::vector<int64_t> wide(n);
        std::vector<uint16_t> narrow(n);
        std::vector<float> real(n);
        for (size_t i = 0; i < n; ++i) {
            wide[i] = static_cast<int64_t>(i) * 7 - 3;
            narrow[i] = static_cast<uint16_t>(i * 31);
            real[i] = static_cast<float>(i) / 4;
        }
        auto expected = [&](const auto& column) {
            auto out = column;
            for (size_t i = 0; i < n; ++i)
                out[dest[i]] = column[i];
            return out;
        };
        const auto wantWide = expected(wide);
        const auto wantNarrow = expected(narrow);
        const auto wantReal = expected(real);
        scatterColumn(wide, dest, false, scratch);
        scatterColumn(narrow, dest, false, scratch);
        scatterColumn(real, dest, false, scratch);
        EXPECT_TRUE(wide == wantWide) << seed;
        EXPECT_TRUE(narrow == wantNarrow) << seed;
        EXPECT_TRUE(real == wantReal) << seed;
    }
    const size_t n = 3'000'000;
    const std::vector<uint32_t> dest = rowsDestination(n, 5, 9);
    std::vector<int64_t> large;
    large.reserve(kOwnMappingBytes / sizeof(int64_t) + 1000);
    for (size_t i = 0; i < n; ++i)
        large.push_back(static_cast<int64_t>(i) * 3);
    const size_t capacity = large.capacity();
    std::vector<int64_t> want(n);
    for (size_t i = 0; i < n; ++i)
        want[dest[i]] = large[i];
    scatterColumn(large, dest, false, scratch);
    EXPECT_TRUE(large == want);
    EXPECT_EQ(large.capacity(), capacity); // not copied into an exact buffer
}

// A complete column of its own mapping keeps its capacity and counts its elements' pages; a heap
// column is shrunk and counts its capacity.
TEST(ColumnMemory, ALargeColumnKeepsItsCapacityAndCountsItsElements) {
    std::vector<int64_t> large;
    large.reserve(kOwnMappingBytes / sizeof(int64_t) * 2);
    large.assign(1'000'001, 5);
    const size_t capacity = large.capacity();
    releaseSlack(large);
    EXPECT_EQ(large.capacity(), capacity);
    EXPECT_EQ(large.size(), 1'000'001u);
    EXPECT_EQ(large.back(), 5);
    EXPECT_EQ(residentBytes(large), (1'000'001u * 8 + 4095) / 4096 * 4096);
    large.push_back(6); // the tail given back still takes elements
    EXPECT_EQ(large.back(), 6);

    std::vector<int64_t> small;
    small.reserve(1000);
    small.assign(10, 1);
    releaseSlack(small);
    EXPECT_EQ(small.capacity(), 10u);
    EXPECT_EQ(residentBytes(small), 80u);
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
