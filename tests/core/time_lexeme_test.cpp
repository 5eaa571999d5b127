#include "import/time_lexeme.h"

#include <gtest/gtest.h>

using ws::parseIntegerId;
using ws::parseMicrosToNs;

TEST(TimeLexeme, ExactNanosecondsFromEpochMicros) {
    int64_t ns = 0;
    ASSERT_TRUE(parseMicrosToNs("1700000000123456.789", ns));
    EXPECT_EQ(ns, 1700000000123456789LL); // a double would round this
    ASSERT_TRUE(parseMicrosToNs("1707417525509335", ns));
    EXPECT_EQ(ns, 1707417525509335000LL);
    ASSERT_TRUE(parseMicrosToNs("12", ns));
    EXPECT_EQ(ns, 12000);
    ASSERT_TRUE(parseMicrosToNs("0.5", ns));
    EXPECT_EQ(ns, 500);
    ASSERT_TRUE(parseMicrosToNs("31000000.000 ", ns));
    EXPECT_EQ(ns, 31000000000LL);
}

TEST(TimeLexeme, RoundsTheFourthFractionDigit) {
    int64_t ns = 0;
    ASSERT_TRUE(parseMicrosToNs("1.2345", ns));
    EXPECT_EQ(ns, 1235);
    ASSERT_TRUE(parseMicrosToNs("1.2344999", ns));
    EXPECT_EQ(ns, 1234);
    ASSERT_TRUE(parseMicrosToNs("-3.5", ns));
    EXPECT_EQ(ns, -3500);
}

TEST(TimeLexeme, ExponentAndRejects) {
    int64_t ns = 0;
    ASSERT_TRUE(parseMicrosToNs("1.5e3", ns));
    EXPECT_EQ(ns, 1500000);
    EXPECT_FALSE(parseMicrosToNs("NaN", ns));
    EXPECT_FALSE(parseMicrosToNs("", ns));
    EXPECT_FALSE(parseMicrosToNs("-", ns));
    EXPECT_FALSE(parseMicrosToNs("1.2.3", ns));
    EXPECT_FALSE(parseMicrosToNs("99999999999999999999", ns));
    EXPECT_FALSE(parseMicrosToNs("1e400", ns));
}

TEST(TimeLexeme, Ids) {
    uint64_t v = 0;
    ASSERT_TRUE(parseIntegerId("0x1f", v));
    EXPECT_EQ(v, 31u);
    ASSERT_TRUE(parseIntegerId("42", v));
    EXPECT_EQ(v, 42u);
    EXPECT_FALSE(parseIntegerId("abc", v));
}
