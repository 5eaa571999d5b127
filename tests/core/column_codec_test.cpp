#include "io/column_codec.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>

using namespace ws;

TEST(ColumnCodec, Int64RoundTripIncludingExtremes) {
    std::vector<int64_t> values = {0, 1, -1, 1700000000000000000, std::numeric_limits<int64_t>::max(),
                                   std::numeric_limits<int64_t>::min(), 42, 42, -7};
    std::vector<int64_t> back;
    ASSERT_TRUE(ColumnCodec::decodeInt64(ColumnCodec::encodeInt64(values), back));
    EXPECT_EQ(back, values);
}

TEST(ColumnCodec, SortedTimestampsCompressFar) {
    std::vector<int64_t> ts;
    std::mt19937_64 rng(7);
    int64_t t = 1'752'830'083'332'500'684;
    for (int i = 0; i < 65536; ++i) {
        t += static_cast<int64_t>(rng() % 5000);
        ts.push_back(t);
    }
    const std::string blob = ColumnCodec::encodeInt64(ts);
    EXPECT_LT(blob.size(), ts.size() * sizeof(int64_t) / 3);
    std::vector<int64_t> back;
    ASSERT_TRUE(ColumnCodec::decodeInt64(blob, back));
    EXPECT_EQ(back, ts);
}

TEST(ColumnCodec, FixedWidthRoundTrip) {
    std::vector<uint32_t> ids = {0, 5, 5, 70000, 0xffffffffu, 3};
    std::vector<uint32_t> back;
    ASSERT_TRUE(ColumnCodec::decode<uint32_t>(ColumnCodec::encode<uint32_t>(ids), back));
    EXPECT_EQ(back, ids);
    std::vector<float> f = {0.5f, -1.25f, 3e10f};
    std::vector<float> fb;
    ASSERT_TRUE(ColumnCodec::decode<float>(ColumnCodec::encode<float>(f), fb));
    EXPECT_EQ(fb, f);
    std::vector<uint16_t> empty, eb = {1};
    ASSERT_TRUE(ColumnCodec::decode<uint16_t>(ColumnCodec::encode<uint16_t>(empty), eb));
    EXPECT_TRUE(eb.empty());
}

TEST(ColumnCodec, DamagedBlobsAreRejectedNotTrusted) {
    std::vector<int64_t> values(1000);
    for (size_t i = 0; i < values.size(); ++i)
        values[i] = static_cast<int64_t>(i * 3);
    const std::string blob = ColumnCodec::encodeInt64(values);
    std::vector<int64_t> back;
    // Every truncation fails cleanly.
    for (size_t cut = 0; cut < blob.size(); ++cut)
        EXPECT_FALSE(ColumnCodec::decodeInt64(std::string_view(blob).substr(0, cut), back)) << cut;
    // Wrong tag: a fixed-width blob is not an int64 blob.
    std::vector<uint32_t> ids = {1, 2, 3};
    EXPECT_FALSE(ColumnCodec::decodeInt64(ColumnCodec::encode<uint32_t>(ids), back));
    // Flipped bytes either fail or decode to the right row count; never crash.
    std::mt19937 rng(1);
    for (int i = 0; i < 200; ++i) {
        std::string bad = blob;
        bad[rng() % bad.size()] ^= static_cast<char>(1 + rng() % 255);
        if (ColumnCodec::decodeInt64(bad, back)) {
            EXPECT_EQ(back.size(), values.size());
        }
    }
    // A header claiming a gigantic payload is refused before allocating it.
    std::string huge = "\x01\x01\xff\xff\xff\xff\x7f";
    EXPECT_FALSE(ColumnCodec::decodeInt64(huge, back));
}
