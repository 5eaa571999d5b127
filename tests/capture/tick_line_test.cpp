#include "inject/tickline.h"

#include <gtest/gtest.h>

#include <cstdint>

using ws::TickLine;

// Without pairs ticks are nanoseconds already (HostTicks without a counter).
TEST(TickLine, WithoutPairsTicksAreNanoseconds) {
    TickLine line;
    EXPECT_EQ(line.toNs(123456789), 123456789u);
}

// A counter at 2.4 GHz, paired with a clock every half second for an hour: every tick count maps to
// the clock within a nanosecond, inside and past the last pair.
TEST(TickLine, ACountersTicksMapOntoTheClockWithinANanosecond) {
    TickLine line;
    const uint64_t ticks0 = 987654321000ull, ns0 = 1'790'000'000'000'000'000ull;
    auto ticksAt = [&](uint64_t ns) { return ticks0 + (ns - ns0) * 12 / 5; }; // 2.4 ticks per ns
    for (uint64_t s = 0; s <= 7200; ++s)
        line.add(ticksAt(ns0 + s * 500'000'000ull), ns0 + s * 500'000'000ull);
    for (uint64_t after : {0ull, 1ull, 123'456'789ull, 1'800'000'000'005ull, 3'600'000'000'000ull, 3'600'400'000'000ull}) {
        const uint64_t ns = ns0 + after;
        EXPECT_NEAR(static_cast<double>(line.toNs(ticksAt(ns)) - ns0), static_cast<double>(after), 1.0) << after;
    }
}

// A clock slewed between pairs (NTP): each segment keeps its own rate, so a conversion inside a
// segment is exact where a single rate for the whole line would be off.
TEST(TickLine, EachSegmentKeepsItsOwnRate) {
    TickLine line(0);
    line.add(1000, 1'000'000);
    line.add(2000, 1'001'000); // 1 ns per tick
    line.add(3000, 1'003'000); // 2 ns per tick
    EXPECT_EQ(line.toNs(1500), 1'000'500u);
    EXPECT_EQ(line.toNs(2500), 1'002'000u);
    EXPECT_EQ(line.toNs(500), 999'500u);    // before the first pair: the first segment's rate
    EXPECT_EQ(line.toNs(3500), 1'004'000u); // after the last: the last segment's
}

// Pairs closer than the spacing move the line's end instead of adding points, and a pair not after
// the last one is dropped.
TEST(TickLine, ClosePairsMoveTheEndAndOutOfOrderPairsAreDropped) {
    TickLine line(1000);
    line.add(0, 0);
    line.add(100, 100);
    line.add(200, 200); // 100 ns after the first kept pair: replaces (100, 100)
    EXPECT_EQ(line.points(), 2u);
    line.add(1500, 1500); // the end (200) was too close to its predecessor: replaced again
    EXPECT_EQ(line.points(), 2u);
    line.add(1600, 1600); // the end (1500) is 1500 after its predecessor: kept, and this one added
    EXPECT_EQ(line.points(), 3u);
    line.add(1550, 1700); // ticks went back: dropped
    line.add(1700, 1500); // nanoseconds went back: dropped
    EXPECT_EQ(line.points(), 3u);
    EXPECT_EQ(line.toNs(1650), 1650u);
}
