#include "import/event_text_reader.h"
#include "import/trace_import.h"
#include "model/args_spans.h"
#include "model/json_members.h"
#include "model/session.h"
#include "store/session_library.h"
#include "store/session_store.h"
#include "store/sqlite_database.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <set>

using namespace ws;

namespace {

// Events of every kind that keeps args, with args first, in the middle and last, spread over lines,
// with braces and commas inside strings, an E event's args (merged into its B slice), and an args
// that is not an object.
const char kTrace[] = R"({"traceEvents": [
  {"ph": "X", "name": "last", "pid": 1, "tid": 1, "ts": 1, "dur": 5, "args": {"a": 1, "s": "x}, {y"}},
  {"args" :
     {"first": [1, {"n": "}"}]} ,
   "ph": "X", "name": "first", "pid": 1, "tid": 1, "ts": 10, "dur": 5},
  {"ph": "X", "name": "middle", "args": {"q": "\"}\\"}, "pid": 1, "tid": 2, "ts": 20, "dur": 5},
  {"ph": "B", "name": "be", "pid": 1, "tid": 3, "ts": 30, "args": {"begin": 1}},
  {"ph": "E", "pid": 1, "tid": 3, "ts": 40, "args": {"end": 2}},
  {"ph": "i", "name": "mark", "pid": 1, "tid": 1, "ts": 45, "s": "t", "args": {"i": 3}},
  {"ph": "b", "name": "async", "cat": "c", "id": 7, "pid": 1, "tid": 1, "ts": 50, "args": {"b": 4}},
  {"ph": "e", "name": "async", "cat": "c", "id": 7, "pid": 1, "tid": 1, "ts": 60},
  {"ph": "X", "name": "number", "pid": 1, "tid": 4, "ts": 70, "dur": 5, "args": 5},
  {"ph": "X", "name": "empty", "pid": 1, "tid": 4, "ts": 80, "dur": 5, "args": {}},
  {"ph": "X", "name": "none", "pid": 1, "tid": 4, "ts": 85, "dur": 5}
]})";

// An event with a trailing comma, which the import repairs in its buffer (and parses its group of
// events again): the source still has the comma, so the store must cut that group's events itself.
const char kTraceWithComma[] = R"({"traceEvents": [
  {"ph": "X", "name": "before", "pid": 1, "tid": 5, "ts": 80, "dur": 5, "args": {"b": 1}},
  {"ph": "X", "name": "comma", "pid": 1, "tid": 5, "ts": 90, "dur": 5, "args": {"c": 1,},},
  {"ph": "X", "name": "after", "pid": 1, "tid": 5, "ts": 100, "dur": 5, "args": {"d": 2}}
]})";

// The refs of every slice and instant with args, as the store collects them.
std::set<uint64_t> argRefs(const Session& s) {
    std::set<uint64_t> refs;
    for (const Track& t : s.tracks()) {
        for (uint64_t r : t.argRef)
            if (r != Track::kNoArgs)
                refs.insert(r);
        for (uint64_t r : t.instantArgRef)
            if (r != Track::kNoArgs)
                refs.insert(r);
    }
    return refs;
}

// The stored sessions' argument chunks, byte for byte.
std::vector<std::string> storedArgs(const std::string& file) {
    SqliteDatabase db;
    EXPECT_TRUE(db.open(file, SqliteDatabase::Mode::ReadOnly));
    SqliteStatement q(db, "SELECT lengths, text FROM event_args ORDER BY chunk");
    std::vector<std::string> out;
    while (q.step()) {
        out.emplace_back(q.blob(0));
        out.back() += q.blob(1);
    }
    return out;
}

// The event names of the session's slices with args that got no span, after checking that every
// span is exactly the args value the store would cut from the event.
std::set<std::string> eventsWithoutSpans(const std::string& path, const ImportControl& control) {
    const std::string text = test::readFile(path);
    const ImportResult r = importTraceFile(path, control);
    EXPECT_NE(r.session, nullptr) << r.error;
    if (!r.session || !r.session->argsSpans()) {
        ADD_FAILURE() << "no spans kept";
        return {};
    }
    ArgsSpans::Cursor cursor(*r.session->argsSpans());
    EventTextReader reader;
    EXPECT_TRUE(reader.open(path));
    std::set<std::string> without;
    for (const uint64_t ref : argRefs(*r.session)) {
        std::string object;
        EXPECT_TRUE(reader.objectAt(ref, object)) << ref;
        const std::string name(topLevelMember(object, "name"));
        if (const auto span = cursor.find(ref))
            EXPECT_EQ(text.substr(span->begin, span->length), topLevelMember(object, "args")) << name;
        else
            without.insert(name);
    }
    return without;
}

} // namespace

TEST(ArgsSpans, KeepsAscendingRefsThatFitAndFindsThemInOrder) {
    ArgsSpans spans;
    EXPECT_TRUE(spans.add(100, 10, 20));
    EXPECT_FALSE(spans.add(100, 10, 20)) << "refs must ascend";
    EXPECT_FALSE(spans.add(150, ArgsSpans::kMaxOffset + 1, 5)) << "offset past the packing";
    EXPECT_FALSE(spans.add(160, 5, ArgsSpans::kMaxLength + 1)) << "length past the packing";
    EXPECT_TRUE(spans.add(200, ArgsSpans::kMaxOffset, ArgsSpans::kMaxLength));
    ArgsSpans later;
    EXPECT_TRUE(later.add(300, 1, 2));
    EXPECT_TRUE(later.add(400, 3, 4));
    spans.append(later);
    ArgsSpans behind;
    EXPECT_TRUE(behind.add(250, 1, 1));
    spans.append(behind); // not after the last ref: left out, so lookups stay ordered
    EXPECT_EQ(spans.size(), 4u);

    ArgsSpans::Cursor cursor(spans);
    EXPECT_FALSE(cursor.find(50));
    const auto a = cursor.find(100);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->begin, 110u);
    EXPECT_EQ(a->length, 20u);
    const auto b = cursor.find(200);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->begin, 200u + ArgsSpans::kMaxOffset);
    EXPECT_EQ(b->length, ArgsSpans::kMaxLength);
    EXPECT_FALSE(cursor.find(250));
    const auto d = cursor.find(400);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->begin, 403u);
    EXPECT_FALSE(cursor.find(500));

    spans.truncate(2);
    EXPECT_EQ(spans.size(), 2u);
    ArgsSpans::Cursor again(spans);
    EXPECT_FALSE(again.find(300));
}


// Every span the import keeps is the args value the store would cut from the event, across block
// seams (64-byte blocks) and both parse paths (groups of events as one document, and one event at a
// time after the trailing-comma repair, whose group gets no spans).
TEST(ArgsSpans, AnImportToBeStoredKeepsWhereEachEventsArgsLie) {
    const std::string path = test::writeTemp("spans.json", kTrace);
    const std::string commaPath = test::writeTemp("spans_comma.json", kTraceWithComma);
    for (const size_t blockBytes : {size_t(0), size_t(64)}) {
        ImportControl control;
        control.keepArgsSpans = true;
        control.blockBytes = blockBytes;
        control.threads = 2;
        // Only the events whose args are not an object, or absent, are left to cut.
        const std::set<std::string> expected{"\"number\"", "\"none\""};
        EXPECT_EQ(eventsWithoutSpans(path, control), expected) << "blocks of " << blockBytes;
        const std::set<std::string> comma = eventsWithoutSpans(commaPath, control);
        EXPECT_TRUE(comma.count("\"comma\"")) << blockBytes;
        if (blockBytes == 64) { // each event in a block, and a group, of its own
            EXPECT_EQ(comma, std::set<std::string>{"\"comma\""});
        }
    }
    // Without keepArgsSpans nothing is kept.
    const ImportResult plain = importTraceFile(path);
    ASSERT_NE(plain.session, nullptr);
    EXPECT_EQ(plain.session->argsSpans(), nullptr);
}

// The store copies the args from the spans: the stored chunks equal those it cuts from the source
// without them, on the synthetic trace and on a real one (gzip: offsets in the inflated text). The
// library drops the spans once stored.
TEST(ArgsSpans, TheStoreWritesTheSameArgumentsFromSpansAsFromCutting) {
    for (const std::string& source : {test::writeTemp("spans_store.json", kTrace),
                                      test::dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz")}) {
        ImportControl keep;
        keep.keepArgsSpans = true;
        const ImportResult withSpans = importTraceFile(source, keep), without = importTraceFile(source);
        ASSERT_NE(withSpans.session, nullptr);
        ASSERT_NE(without.session, nullptr);
        ASSERT_NE(withSpans.session->argsSpans(), nullptr);
        EXPECT_GT(withSpans.session->argsSpans()->size(), 0u);
        const std::string a = (test::tempDir() / "with_spans.warpscope").string();
        const std::string b = (test::tempDir() / "without_spans.warpscope").string();
        std::string error;
        ASSERT_TRUE(SessionStore::write(*withSpans.session, a, {}, &error)) << error;
        ASSERT_TRUE(SessionStore::write(*without.session, b, {}, &error)) << error;
        const auto stored = storedArgs(a);
        EXPECT_FALSE(stored.empty()) << source;
        EXPECT_EQ(stored, storedArgs(b)) << source;
    }
    SessionLibrary library((test::tempDir() / "spans_library").string());
    const SessionLibrary::OpenResult opened = library.open(test::writeTemp("spans_library.json", kTrace));
    ASSERT_NE(opened.session, nullptr) << opened.error;
    EXPECT_FALSE(opened.sessionPath.empty()) << opened.storeError;
    EXPECT_EQ(opened.session->argsSpans(), nullptr) << "dropped once stored";
}
