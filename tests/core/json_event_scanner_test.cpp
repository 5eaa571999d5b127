#include "import/json_event_scanner.h"

#include <gtest/gtest.h>

#include <string>

using ws::JsonEventScanner;

namespace {

// Feeds text in pieces of `step` bytes, carrying unfinished events like the importer does, and
// returns the event texts found.
std::vector<std::string> scanInPieces(const std::string& text, size_t step, JsonEventScanner& sc) {
    std::vector<std::string> out;
    std::string buf;
    size_t pos = 0;
    while (pos < text.size()) {
        const size_t n = std::min(step, text.size() - pos);
        const size_t from = buf.size();
        buf.append(text, pos, n);
        pos += n;
        std::vector<JsonEventScanner::Span> spans;
        sc.scan(buf.data(), from, buf.size(), spans);
        for (auto [b, e] : spans)
            out.push_back(buf.substr(b, e - b));
        const size_t keep = std::min(sc.openEventStart(), buf.size());
        buf.erase(0, keep);
        sc.shift(keep);
    }
    return out;
}

} // namespace

TEST(JsonEventScanner, ObjectFormAnyBlockSize) {
    const std::string text = "\xEF\xBB\xBF {\"a\": [1, {\"x\": \"}\"}], \"traceEvents\": [ {\"name\": \"q\\\"}{\", \"ph\": \"X\"},"
                             "{\"args\": {\"k\": [1,2,{}]}, \"s\": \"\\\\\"} ], \"traceName\": \"t\\\"n\"}\n";
    for (size_t step : {1, 2, 3, 7, 64, 4096}) {
        JsonEventScanner sc;
        auto events = scanInPieces(text, step, sc);
        ASSERT_EQ(events.size(), 2u) << "step " << step;
        EXPECT_EQ(events[0], "{\"name\": \"q\\\"}{\", \"ph\": \"X\"}");
        EXPECT_EQ(events[1], "{\"args\": {\"k\": [1,2,{}]}, \"s\": \"\\\\\"}");
        EXPECT_TRUE(sc.complete());
        ASSERT_EQ(sc.members().size(), 2u);
        EXPECT_EQ(sc.members()[0].first, "a");
        EXPECT_EQ(sc.members()[0].second, "[1, {\"x\": \"}\"}]");
        EXPECT_EQ(sc.members()[1].second, "\"t\\\"n\"");
    }
}

TEST(JsonEventScanner, ArrayFormTruncatedAndNonObjects) {
    JsonEventScanner sc;
    auto events = scanInPieces("[{\"ph\":\"X\"}, 5, \"s\", [1], {\"ph\":\"i\"}, {\"ph\":", 5, sc);
    EXPECT_EQ(events.size(), 2u);
    EXPECT_FALSE(sc.complete());
    EXPECT_TRUE(sc.inEventArray());
    EXPECT_TRUE(sc.arrayForm());
    EXPECT_EQ(sc.nonObjectElements(), 3u);
}

TEST(JsonEventScanner, RejectsNonJson) {
    JsonEventScanner sc;
    std::vector<JsonEventScanner::Span> spans;
    const std::string text = "hello";
    sc.scan(text.data(), 0, text.size(), spans);
    EXPECT_TRUE(sc.failed());
    EXPECT_NE(sc.error().find("not JSON"), std::string::npos);
}

TEST(JsonEventScanner, FastPathAgreesWithScalarPath) {
    // Events with nested args, strings holding brackets and quotes, escapes, odd spacing and a
    // non-object element, long enough to cross many 64-byte SIMD blocks.
    std::string text = "{\"traceEvents\": [\n";
    for (int i = 0; i < 400; ++i) {
        text += "  {\"ph\": \"X\", \"name\": \"ev" + std::to_string(i) + (i % 7 == 0 ? "{[\\\"}]" : "") +
                "\", \"args\": {\"Input Dims\": [[1, 2], [], [[3]]], \"s\": \"" + std::string(static_cast<size_t>(i % 90), 'x') +
                (i % 11 == 0 ? "\\\\" : "") + "\"}}";
        if (i == 200)
            text += ", 12345, \"str]ing\"";
        text += i + 1 < 400 ? ",\n" : "\n";
    }
    text += "], \"traceName\": \"t\"}";
    JsonEventScanner scalar;
    const auto expected = scanInPieces(text, 1, scalar);
    ASSERT_EQ(expected.size(), 400u);
    EXPECT_EQ(scalar.nonObjectElements(), 2u);
    for (size_t step : {size_t(63), size_t(64), size_t(100), size_t(1000), size_t(1) << 20}) {
        JsonEventScanner fast;
        EXPECT_EQ(scanInPieces(text, step, fast), expected) << step;
        EXPECT_TRUE(fast.complete());
        EXPECT_EQ(fast.nonObjectElements(), 2u);
    }
}
