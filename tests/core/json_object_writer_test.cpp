// JsonObjectWriter (model/json_object_writer.h) writes what nlohmann's compact dump writes for the same
// members, so capture arguments stored before and after it read the same: random objects of every
// value kind, strings of random bytes (control characters, quotes, invalid UTF-8), and doubles.
#include "model/json_object_writer.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

namespace ws {
namespace {

using nlohmann::json;

std::string nlohmannDump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// Bytes biased towards what breaks escaping: ASCII controls, quotes, backslashes and UTF-8 pieces.
std::string randomBytes(std::mt19937_64& rng) {
    static const std::vector<std::string> pieces = {"a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\x01", "\x1f", "\x7f",
                                                    "\xc3\xa9", "\xe4\xb8\xad", "\xf0\x9f\x98\x80", "\xc3", "\xe4\xb8",
                                                    "\x80", "\xbf", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                                                    "\xf5", "\xff", "\xe0\x80", "\xf0\x80"};
    std::string s;
    const size_t n = rng() % 12;
    for (size_t i = 0; i < n; ++i) {
        if (rng() % 4 == 0)
            s += static_cast<char>(rng() % 256);
        else
            s += pieces[rng() % pieces.size()];
    }
    return s;
}

TEST(JsonObjectWriter, WritesWhatNlohmannDumps) {
    std::mt19937_64 rng(29);
    const std::vector<std::string> keys = {"device", "grid", "Call stack", "correlation", "Input Dims", "a", "B",
                                           "memory bandwidth (GB/s)", "z key", "\xc3\xa9t\xc3\xa9", "ended"};
    for (int round = 0; round < 20000; ++round) {
        JsonObjectWriter w;
        json expected = json::object();
        for (const std::string& key : keys) {
            if (rng() % 3 == 0)
                continue;
            switch (rng() % 7) {
            case 0: {
                const auto v = static_cast<int64_t>(rng());
                w.add(key, v);
                expected[key] = v;
                break;
            }
            case 1: {
                const auto v = static_cast<uint64_t>(rng());
                w.add(key, v);
                expected[key] = v;
                break;
            }
            case 2: {
                const bool v = rng() & 1;
                w.add(key, v);
                expected[key] = v;
                break;
            }
            case 3: {
                const std::string v = randomBytes(rng);
                w.add(key, v);
                expected[key] = v;
                break;
            }
            case 4: { // as a capture's bandwidth: bytes over nanoseconds
                const double v = static_cast<double>(rng() % 100000000) / static_cast<double>(1 + rng() % 1000000);
                w.add(key, v);
                expected[key] = v;
                break;
            }
            case 5: {
                const int64_t x = static_cast<int32_t>(rng()), y = rng() % 1000, z = 1;
                w.addDims(key, x, y, z);
                expected[key] = json::array({x, y, z});
                break;
            }
            default: {
                const uint32_t v = static_cast<uint32_t>(rng());
                w.add(key, v);
                expected[key] = v;
                break;
            }
            }
        }
        const bool wrapped = rng() & 1;
        const std::string got = w.finish(wrapped ? "args" : "");
        const std::string want = nlohmannDump(wrapped ? json{{"args", expected}} : expected);
        ASSERT_EQ(got, want) << "round " << round;
        EXPECT_TRUE(w.empty()); // finish() clears
    }
}

TEST(JsonObjectWriter, LaterValueOfARepeatedKeyWins) {
    JsonObjectWriter w;
    w.add("b", 1);
    w.add("a", "x");
    w.add("b", 2);
    EXPECT_EQ(w.finish(), R"({"a":"x","b":2})");
}

TEST(JsonObjectWriter, DoublesInNlohmannsLayout) {
    // Every layout branch: integral values, plain decimals, small and large exponents, negatives.
    for (const double v : {1.0, 2.0, 100.0, 1e15, 1e16, 123456789012345.0, 1.5, 0.1, 0.001, 1e-4, 1e-5, 1.25e-7,
                           1e20, 1.5e300, -2.5, -1e-10, 5e-324, 1.7976931348623157e308, 0.0, -0.0, 3.0 / 7.0}) {
        std::string got;
        JsonObjectWriter::appendDouble(got, v);
        EXPECT_EQ(got, nlohmannDump(json(v))) << v;
    }
    std::string nan;
    JsonObjectWriter::appendDouble(nan, std::nan(""));
    EXPECT_EQ(nan, "null");
    // Random bit patterns, including those where Grisu2's digits are not the shortest.
    std::mt19937_64 rng(7);
    for (int i = 0; i < 100000; ++i) {
        const uint64_t bits = rng();
        double v;
        std::memcpy(&v, &bits, sizeof v);
        std::string got;
        JsonObjectWriter::appendDouble(got, v);
        ASSERT_EQ(got, nlohmannDump(json(v)));
    }
}

TEST(JsonObjectWriter, Utf8Validation) {
    EXPECT_TRUE(validUtf8("plain \xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80"));
    for (const char* bad : {"\x80", "\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xff", "ab\xe4\xb8"})
        EXPECT_FALSE(validUtf8(bad)) << bad;
}

TEST(JsonObjectWriter, CompactsIntegerArraysAndRefusesTheRest) {
    std::string out;
    ASSERT_TRUE(compactIntegerArrays("[[64, 256], [256], []]", out));
    EXPECT_EQ(out, "[[64,256],[256],[]]");
    ASSERT_TRUE(compactIntegerArrays(" [ -1 , 0 ,[ [ 7 ] ] ] ", out));
    EXPECT_EQ(out, "[-1,0,[[7]]]");
    ASSERT_TRUE(compactIntegerArrays("[]", out));
    EXPECT_EQ(out, "[]");
    for (const char* other : {"", "1", "[1,]", "[,1]", "[1 2]", "[[1]", "[1]]", "[1.5]", "[1e3]", "[\"a\"]", "[01]",
                              "[-0]", "[1234567890123456789]", "[1] x", "{}", "[true]", "[[1][2]]"}) {
        EXPECT_FALSE(compactIntegerArrays(other, out)) << other; // the caller asks nlohmann about these
    }
    // What it accepts, nlohmann writes the same.
    for (const char* text : {"[[64, 256], [256], []]", "[ -1 , 0 ,[ [ 7 ] ] ]", "[123456789012345678]"}) {
        ASSERT_TRUE(compactIntegerArrays(text, out));
        EXPECT_EQ(out, nlohmannDump(json::parse(text)));
    }
}

} // namespace
} // namespace ws
