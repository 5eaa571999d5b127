// JsonRecordScanner: values (objects, arrays, scalars) at wanted paths, whatever the block boundaries; skipped members with
// strings full of brackets; the outer array index; truncated and malformed documents.
#include "import/json_record_scanner.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

using namespace ws;

namespace {

struct Found {
    std::string text;
    uint32_t path;
    uint32_t outer;
    bool operator==(const Found&) const = default;
};

// Scans `doc` in blocks of `block` bytes, keeping the open record's bytes as a reader does.
std::vector<Found> scanInBlocks(const std::string& doc, const std::vector<std::string>& paths, size_t block,
                                JsonRecordScanner* out = nullptr) {
    JsonRecordScanner local;
    JsonRecordScanner& s = out ? *out : local;
    for (const auto& p : paths)
        s.want(p);
    std::string buf;
    std::vector<JsonRecordScanner::Span> spans;
    std::vector<Found> found;
    for (size_t at = 0; at < doc.size(); at += block) {
        const size_t from = buf.size();
        buf += doc.substr(at, block);
        s.scan(buf.data(), from, buf.size(), spans);
        for (const auto& sp : spans)
            found.push_back({buf.substr(sp.begin, sp.end - sp.begin), sp.path, sp.outerIndex});
        spans.clear();
        const size_t keep = std::min(s.openStart(), buf.size());
        buf.erase(0, keep);
        s.shift(keep);
    }
    return found;
}

const std::string kDoc = R"({"tool": [
  {"meta": {"pid": 7, "note": "a } in a string ] and \" quote {"},
   "skip": [[1, 2, {"x": "]]]"}], {"deep": {"deeper": [1]}}],
   "records": {"a": [{"n": 1}, {"n": 2, "s": "\\"}], "b": [], "c": [{"n": 3}]}},
  {"records": {"a": [{"n": 4}], "b": [[5, 6], 7]}}
]})";

} // namespace

TEST(JsonRecordScanner, FindsEveryWantedValueAtEveryBlockSize) {
    const std::vector<std::string> paths = {"tool[].meta", "tool[].records.a[]", "tool[].records.b[]"};
    const std::vector<Found> expected = {
        {R"({"pid": 7, "note": "a } in a string ] and \" quote {"})", 0, 0},
        {R"({"n": 1})", 1, 0},
        {R"({"n": 2, "s": "\\"})", 1, 0},
        {R"({"n": 4})", 1, 1},
        {R"([5, 6])", 2, 1},
        {"7", 2, 1},
    };
    for (size_t block = 1; block <= kDoc.size(); ++block) {
        JsonRecordScanner s;
        EXPECT_EQ(scanInBlocks(kDoc, paths, block, &s), expected) << "block " << block;
        EXPECT_TRUE(s.complete()) << "block " << block;
        EXPECT_EQ(s.firstKey(), "tool");
    }
}

TEST(JsonRecordScanner, TopLevelArrayElements) {
    const std::string doc = "[[-1, 1, 512, 7], [10, 2, 64, 3]]  ";
    JsonRecordScanner s;
    const auto found = scanInBlocks(doc, {"[]"}, 5, &s);
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].text, "[-1, 1, 512, 7]");
    EXPECT_EQ(found[1].outer, 1u);
    EXPECT_TRUE(s.complete());
    EXPECT_FALSE(s.trailingGarbage());
}

TEST(JsonRecordScanner, ScalarsAndStrings) {
    const std::string doc = R"([[10, 20, -3.5e2], ["a\"]", "b"]])";
    for (size_t block = 1; block <= doc.size(); ++block) {
        JsonRecordScanner s;
        const auto found = scanInBlocks(doc, {"[][]"}, block, &s);
        ASSERT_EQ(found.size(), 5u) << "block " << block;
        EXPECT_EQ(found[2].text, "-3.5e2");
        EXPECT_EQ(found[3].text, R"("a\"]")");
        EXPECT_EQ(found[4].outer, 1u);
        EXPECT_TRUE(s.complete());
    }
}

TEST(JsonRecordScanner, ATruncatedDocumentKeepsWhatEnded) {
    const std::string cut = kDoc.substr(0, kDoc.find(R"({"n": 2)") + 4);
    JsonRecordScanner s;
    const auto found = scanInBlocks(cut, {"tool[].records.a[]"}, 7, &s);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].text, R"({"n": 1})");
    EXPECT_FALSE(s.complete());
    EXPECT_FALSE(s.failed());
    EXPECT_NE(s.openStart(), SIZE_MAX) << "the cut record is still open";
}

TEST(JsonRecordScanner, MalformedStructureStopsWithAnError) {
    JsonRecordScanner s;
    const auto found = scanInBlocks(R"({"tool": [{"records": {"a": [{"n": 1}] "b": 2}}]})", {"tool[].records.a[]"}, 3, &s);
    EXPECT_EQ(found.size(), 1u);
    EXPECT_TRUE(s.failed());
    EXPECT_NE(s.error().find("after a value"), std::string::npos) << s.error();
}

TEST(JsonRecordScanner, DataAfterTheDocumentIsNoticed) {
    JsonRecordScanner s;
    scanInBlocks(R"({"a": [1]} x)", {"a[]"}, 4, &s);
    EXPECT_TRUE(s.complete());
    EXPECT_TRUE(s.trailingGarbage());
}
