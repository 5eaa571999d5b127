#include "index/time_ticks.h"

#include <gtest/gtest.h>

using namespace ws;

TEST(TimeTicks, StepIsANiceNumberWideEnoughForLabels) {
    // 1 ms across 1000 px, labels >= 80 px apart: step >= 80 µs -> 100 µs.
    const TimeTicks t = computeTicks(0, 0, 1'000'000, 1000.0, 80);
    EXPECT_EQ(t.step, 100'000);
    ASSERT_EQ(t.times.size(), 11u);
    EXPECT_EQ(t.times.front(), 0);
    EXPECT_EQ(t.times.back(), 1'000'000);
    EXPECT_EQ(computeTicks(0, 0, 1000, 1.0, 150).step, 200);
    EXPECT_EQ(computeTicks(0, 0, 1000, 0.01, 80).step, 1);
}

TEST(TimeTicks, TicksAreMultiplesOfTheStepFromTheOrigin) {
    const int64_t origin = 1'752'830'083'332'500'684;
    const TimeTicks t = computeTicks(origin, origin + 1'234'567, origin + 9'000'000, 5000.0, 100);
    ASSERT_FALSE(t.times.empty());
    for (int64_t x : t.times) {
        EXPECT_EQ((x - origin) % t.step, 0);
        EXPECT_GE(x, origin + 1'234'567);
    }
}

TEST(TimeTicks, LabelsUseTheStepsUnitAndPrecision) {
    EXPECT_EQ(formatTickLabel(0, 100'000), "0 µs");
    EXPECT_EQ(formatTickLabel(900'000, 100'000), "900 µs");
    EXPECT_EQ(formatTickLabel(1'200'000, 100'000), "1.2 ms");
    EXPECT_EQ(formatTickLabel(1'500'000, 500'000), "1.5 ms");
    EXPECT_EQ(formatTickLabel(2'000'000'000, 1'000'000'000), "2 s");
    EXPECT_EQ(formatTickLabel(250, 50), "250 ns");
    EXPECT_EQ(formatTickLabel(1'250'000, 250'000), "1.25 ms");
}
