// EventTextReader: objects at ascending offsets, and member() (the one-scan form of topLevelMember
// the session store reads each event's args with) agreeing with topLevelMember on every shape.
#include "model/event_text_reader.h"
#include "model/json_members.h"
#include "model/json_trailing_commas.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>

namespace ws {
namespace {

TEST(EventTextReader, ObjectsAndMembersAsTopLevelMemberReadsThem) {
    const std::vector<std::string> objects = {
        R"({"ph":"X","name":"a","args":{"grid":[1, 2, 1],"s":"x,}y"}})",
        R"({ "args" : { "k" : [ {"a":1} , 2 ] } , "ph" : "X" })",
        R"({"name":"no args","ts":1})",
        R"({})",
        R"({"args":{"x":1,},})",              // trailing commas, blanked
        R"({"args":  12   ,"b":true})",        // a bare value with spaces around
        R"({"a\"rgs":1,"args":"q\"}"})",       // escapes in keys and strings
        R"({"args":{"first":1},"args":{"second":2}})", // the first one counts
        R"({"x":1,,"args":3})",                // not JSON: the general reader decides
        "{\n  \"ph\": \"X\",\n  \"args\": {\n    \"External id\": 5\n  }\n}",
    };
    std::string text = "[";
    std::vector<uint64_t> offsets;
    for (const std::string& o : objects) {
        text += "\n  ";
        offsets.push_back(text.size());
        text += o;
        text += ',';
    }
    text += "\n]";
    const std::string path = test::writeTemp("event_text_reader.json", text);
    EventTextReader reader;
    ASSERT_TRUE(reader.open(path));
    std::string object;
    std::vector<uint32_t> separators;
    for (size_t i = 0; i < objects.size(); ++i) {
        ASSERT_TRUE(reader.objectAt(offsets[i], object, &separators)) << i;
        std::string repaired = objects[i];
        if (i == 4)
            repaired = R"({"args":{"x":1 } })";
        EXPECT_EQ(object, repaired) << i;
        for (const char* key : {"args", "ph", "name", "b", "missing"})
            EXPECT_EQ(EventTextReader::member(object, separators, key), topLevelMember(object, key))
                << i << " " << key;
    }
    EXPECT_EQ(EventTextReader::member(R"({"args":{"x":1},"ph":"X"})", {7, 15, 20, 24}, "args"), R"({"x":1})");
    EXPECT_FALSE(reader.objectAt(offsets[0], object)); // behind the previous one
}

// The positions of an object's top-level ':' and ',' and of its closing '}', byte by byte: what
// objectAt's separators must be, however it scans.
std::vector<uint32_t> referenceSeparators(const std::string& object) {
    std::vector<uint32_t> out;
    int depth = 0;
    bool inString = false, escape = false;
    for (size_t i = 0; i < object.size(); ++i) {
        const char c = object[i];
        if (inString) {
            if (escape)
                escape = false;
            else if (c == '\\')
                escape = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"')
            inString = true;
        else if (c == '{' || c == '[')
            ++depth;
        else if (c == '}' || c == ']') {
            if (--depth == 0)
                out.push_back(static_cast<uint32_t>(i));
        } else if ((c == ':' || c == ',') && depth == 1)
            out.push_back(static_cast<uint32_t>(i));
    }
    return out;
}

// Random objects of every shape the 64-byte block cutter must agree on with the byte-by-byte rule:
// long and short, strings full of brackets, commas, colons, escaped quotes and backslashes (also
// across block edges), runs of blanks longer than a block, trailing commas after blanks, nesting;
// several MiB, so objects also straddle the reader's buffer refills.
void checkRandomObjects(unsigned seed) {
    std::mt19937 rng(seed);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    auto blanks = [&] {
        static const char kBlank[] = " \n\r\t";
        std::string b;
        const int n = pick(4) == 0 ? pick(150) : pick(3);
        for (int i = 0; i < n; ++i)
            b += kBlank[pick(4)];
        return b;
    };
    auto str = [&] {
        static const char kChars[] = "ab{}[],: x\"\\";
        std::string s = "\"";
        const int n = pick(3) == 0 ? pick(200) : pick(12);
        for (int i = 0; i < n; ++i) {
            const char c = kChars[pick(sizeof kChars - 1)];
            if (c == '"')
                s += "\\\"";
            else if (c == '\\')
                s += pick(2) ? "\\\\" : "\\u005c";
            else
                s += c;
        }
        return s + "\"";
    };
    std::function<std::string(int)> value = [&](int depth) -> std::string {
        const int kind = depth > 3 ? pick(3) : pick(6);
        if (kind == 0)
            return std::to_string(rng() % 100000);
        if (kind == 1 || kind == 2)
            return str();
        const bool object = kind != 3;
        std::string v = object ? "{" : "[";
        const int n = pick(6);
        for (int i = 0; i < n; ++i) {
            v += blanks();
            if (object)
                v += (pick(3) ? str() : std::string("\"args\"")) + blanks() + ":" + blanks();
            v += value(depth + 1) + blanks();
            if (i + 1 < n || pick(8) == 0)
                v += ",";
        }
        return v + blanks() + (object ? "}" : "]");
    };
    std::vector<std::string> objects;
    std::string text = "[";
    std::vector<uint64_t> offsets;
    while (text.size() < (5u << 20)) {
        std::string o = "{";
        const int n = 1 + pick(8);
        for (int i = 0; i < n; ++i) {
            o += blanks() + (pick(4) ? str() : std::string("\"args\"")) + blanks() + ":" + blanks() + value(0) + blanks();
            if (i + 1 < n || pick(8) == 0)
                o += ",";
        }
        o += blanks() + "}";
        text += blanks();
        offsets.push_back(text.size());
        text += o;
        text += ',';
        objects.push_back(std::move(o));
    }
    text += "\n]";
    const std::string path = test::writeTemp("event_text_reader_random.json", text);
    EventTextReader reader;
    ASSERT_TRUE(reader.open(path));
    std::string object;
    std::vector<uint32_t> separators;
    std::string scratch;
    size_t repaired = 0;
    for (size_t i = 0; i < objects.size(); ++i) {
        if (i % 2) { // the copying form and the viewing one take turns
            ASSERT_TRUE(reader.objectAt(offsets[i], object, &separators)) << i;
        } else {
            std::string_view view;
            ASSERT_TRUE(reader.objectViewAt(offsets[i], view, scratch, &separators)) << i;
            object.assign(view);
        }
        std::string expected = objects[i];
        repaired += blankTrailingCommas(expected.data(), expected.size()) > 0;
        ASSERT_EQ(object, expected) << i;
        ASSERT_EQ(separators, referenceSeparators(objects[i])) << i; // trailing commas included, as member() expects
        ASSERT_EQ(EventTextReader::member(object, separators, "args"), topLevelMember(object, "args")) << i;
    }
    EXPECT_GT(objects.size(), 1000u);
    EXPECT_GT(repaired, 100u); // the trailing-comma case was exercised
}

TEST(EventTextReader, BlockCutterAgreesWithTheByteRuleOnRandomObjects) {
    for (const bool wide : {true, false}) { // AVX-512 (where the CPU has it) and SSE2 masks
        SCOPED_TRACE(wide ? "wide blocks" : "SSE2 blocks");
        EventTextReader::setWideBlocks(wide);
        for (unsigned seed : {29u, 30u})
            checkRandomObjects(seed);
    }
    EventTextReader::setWideBlocks(true);
}

} // namespace
} // namespace ws
