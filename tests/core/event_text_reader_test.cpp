// EventTextReader: objects at ascending offsets, and member() (the one-scan form of topLevelMember
// the session store reads each event's args with) agreeing with topLevelMember on every shape.
#include "import/event_text_reader.h"
#include "model/json_members.h"
#include "test_util.h"

#include <gtest/gtest.h>

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

} // namespace
} // namespace ws
