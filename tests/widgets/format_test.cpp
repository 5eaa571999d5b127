#include "format.h"

#include <QLocale>

#include <gtest/gtest.h>

using namespace ws;

class FormatTest : public ::testing::Test {
protected:
    void SetUp() override { QLocale::setDefault(QLocale::c()); }
};

TEST_F(FormatTest, DurationPicksAReadableUnit) {
    EXPECT_EQ(formatDuration(0), QStringLiteral("0 ns"));
    EXPECT_EQ(formatDuration(999), QStringLiteral("999 ns"));
    EXPECT_EQ(formatDuration(1500), QStringLiteral("1.50 µs"));
    EXPECT_EQ(formatDuration(42'300'000), QStringLiteral("42.3 ms"));
    EXPECT_EQ(formatDuration(125'000'000'000), QStringLiteral("125 s"));
    EXPECT_EQ(formatDuration(-2'000'000), QStringLiteral("-2.00 ms"));
}

TEST_F(FormatTest, BytesUseBinaryUnits) {
    EXPECT_EQ(formatBytes(512), QStringLiteral("512 B"));
    EXPECT_EQ(formatBytes(1536), QStringLiteral("1.50 KiB"));
    EXPECT_EQ(formatBytes(80LL * 1024 * 1024 * 1024), QStringLiteral("80.0 GiB"));
}

TEST_F(FormatTest, PercentOfUnknownIsNotAvailable) {
    EXPECT_EQ(formatPercent(std::nullopt), QStringLiteral("n/a"));
    EXPECT_EQ(formatPercent(0.4567), QStringLiteral("45.67 %"));
}
