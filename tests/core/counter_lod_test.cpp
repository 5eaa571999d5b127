#include "index/counter_lod.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

using namespace ws;

TEST(CounterLod, RangeMinMaxMatchesBruteForce) {
    std::mt19937_64 rng(3);
    for (size_t n : {1u, 2u, 3u, 7u, 64u, 1000u, 4097u}) {
        std::vector<int64_t> ts(n);
        std::vector<double> v(n);
        for (size_t i = 0; i < n; ++i) {
            ts[i] = static_cast<int64_t>(i * 10);
            v[i] = static_cast<double>(static_cast<int64_t>(rng() % 2001) - 1000);
        }
        CounterLod lod;
        lod.build(ts, v);
        for (int q = 0; q < 300; ++q) {
            const size_t a = rng() % n, b = a + 1 + rng() % (n - a);
            double mn, mx;
            lod.rangeMinMax(a, b, mn, mx);
            EXPECT_EQ(mn, *std::min_element(v.begin() + static_cast<long>(a), v.begin() + static_cast<long>(b)));
            EXPECT_EQ(mx, *std::max_element(v.begin() + static_cast<long>(a), v.begin() + static_cast<long>(b)));
        }
    }
}

TEST(CounterLod, ColumnsKeepPeaksAndMatchAStepFunctionReference) {
    std::mt19937_64 rng(11);
    const size_t n = 50000;
    std::vector<int64_t> ts(n);
    std::vector<double> v(n);
    int64_t t = 1000;
    for (size_t i = 0; i < n; ++i) {
        t += 1 + static_cast<int64_t>(rng() % 40);
        ts[i] = t;
        v[i] = static_cast<double>(rng() % 100);
    }
    v[n / 2] = 1e6; // one narrow spike
    CounterLod lod;
    lod.build(ts, v);
    const int width = 300;
    const double nsPerPx = static_cast<double>(ts.back() - ts.front() + 5000) / width;
    const int64_t t0 = ts.front() - 2000;
    std::vector<CounterLod::Column> cols;
    lod.columns(t0, nsPerPx, width, cols);
    ASSERT_EQ(cols.size(), static_cast<size_t>(width));
    EXPECT_EQ(std::count_if(cols.begin(), cols.end(), [](const auto& c) { return c.valid && c.max == 1e6; }), 1);
    for (int x = 0; x < width; ++x) {
        const auto left = t0 + static_cast<int64_t>(std::floor(x * nsPerPx));
        const auto right = t0 + static_cast<int64_t>(std::floor((x + 1) * nsPerPx));
        // Reference: every sample that is in force at some instant of [left, right).
        double mn = INFINITY, mx = -INFINITY, last = 0;
        bool any = false;
        for (size_t i = 0; i < n; ++i) {
            const int64_t until = i + 1 < n ? ts[i + 1] : INT64_MAX;
            if (ts[i] < right && until > left) {
                mn = std::min(mn, v[i]);
                mx = std::max(mx, v[i]);
                last = v[i];
                any = true;
            }
        }
        ASSERT_EQ(cols[static_cast<size_t>(x)].valid, any) << x;
        if (any) {
            EXPECT_EQ(cols[static_cast<size_t>(x)].min, mn) << x;
            EXPECT_EQ(cols[static_cast<size_t>(x)].max, mx) << x;
            EXPECT_EQ(cols[static_cast<size_t>(x)].last, last) << x;
        }
    }
}
