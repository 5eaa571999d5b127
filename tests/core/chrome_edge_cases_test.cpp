// Chrome JSON written by tools other than Kineto (issue #30): what the Trace Event Format document
// and Perfetto accept, and what Warpscope decides for each case (core/import/FORMAT_NOTES.md).
#include "analysis/session_dump.h"
#include "import/loose_number.h"
#include "model/end_args_merge.h"
#include "model/json_trailing_commas.h"
#include "store/session_store.h"
#include "test_util.h"

#include <map>
#include <string>
#include <vector>

using namespace ws;
using ws::test::findTrack;
using ws::test::importText;

namespace {

// The slice of `track` named `name` (the first), or -1.
int sliceNamed(const Session& s, const Track& track, std::string_view name) {
    for (size_t i = 0; i < track.sliceCount(); ++i)
        if (s.str(track.names[i]) == name)
            return static_cast<int>(i);
    return -1;
}

std::map<std::string, std::string> argsOf(const Session& s, const Track& track, int slice) {
    std::map<std::string, std::string> out;
    if (slice < 0)
        return out;
    for (auto& [key, value] : s.args(track, static_cast<size_t>(slice)))
        out[key] = value;
    return out;
}

const CounterSeries* counterSeries(const Session& s, std::string_view name, std::string_view series) {
    for (const CounterSeries& c : s.counters())
        if (s.str(c.name) == name && s.str(c.series) == series)
            return &c;
    return nullptr;
}

// A stored copy of the session (the library's path): arguments come from the store's own text.
std::shared_ptr<Session> storedCopy(const Session& s, const std::string& name) {
    const std::string file = (test::tempDir() / name).string();
    std::string error;
    EXPECT_TRUE(SessionStore::write(s, file, {}, &error)) << error;
    auto stored = SessionStore::read(file, &error);
    EXPECT_NE(stored, nullptr) << error;
    return stored;
}

const char* kTrailingCommas = R"J({"traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "op", "pid": 1, "tid": 1, "ts": 1, "dur": 10,
   "args": {"External id": 5, "Input Dims": [[2, 3,], [],], "note": "a,}",}},
  {"ph": "X", "cat": "cuda_runtime", "name": "launch", "pid": 1, "tid": 1, "ts": 2, "dur": 1,
   "args": {"grid": [1, 2, 3 ,], "correlation": 9,},},
  {"ph": "X", "name": "plain", "pid": 1, "tid": 1, "ts": 20, "dur": 1, "args": {"list": ["a", "b"]}}
]})J";

} // namespace

TEST(ChromeEdgeCases, BlankTrailingCommasOnlyTouchesCommasBeforeAClosingBracket) {
    std::string text = R"({"a": [1, 2,], "b": {"c": "x,}", "d": [",]",],} , "e": ["p","q"],})";
    EXPECT_EQ(blankTrailingCommas(text.data(), text.size()), 4u);
    EXPECT_EQ(text, R"({"a": [1, 2 ], "b": {"c": "x,}", "d": [",]" ] } , "e": ["p","q"] })");
    std::string escaped = R"({"s": "q\",}", "t": 1})";
    EXPECT_EQ(blankTrailingCommas(escaped.data(), escaped.size()), 0u);
}

TEST(ChromeEdgeCases, TrailingCommasInArgsAreAccepted) {
    ImportResult r = importText(kTrailingCommas);
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    EXPECT_EQ(s.report().count("malformed event (skipped)"), 0u) << s.report().toText();
    EXPECT_EQ(s.report().count("trailing comma in an event (accepted)"), 2u) << s.report().toText();
    EXPECT_EQ(s.report().warningCount(), 0u) << s.report().toText(); // a note, not a warning
    const Track* t = findTrack(s, "thread 1");
    ASSERT_TRUE(t);
    ASSERT_EQ(t->sliceCount(), 3u);
    const int op = sliceNamed(s, *t, "op"), launch = sliceNamed(s, *t, "launch"), plain = sliceNamed(s, *t, "plain");
    ASSERT_GE(op, 0);
    ASSERT_GE(launch, 0);
    // What the importer reads from args at import time.
    ASSERT_FALSE(t->externalId.empty());
    EXPECT_EQ(t->externalId[op], 5u);
    ASSERT_FALSE(t->correlation.empty());
    EXPECT_EQ(t->correlation[launch], 9u);

    // What is read back on demand: the commas are gone, commas inside strings stay.
    const std::map<std::string, std::string> expectOp = {{"External id", "5"}, {"Input Dims", "[[2,3],[]]"}, {"note", "a,}"}};
    EXPECT_EQ(argsOf(s, *t, op), expectOp);
    EXPECT_EQ(argsOf(s, *t, launch), (std::map<std::string, std::string>{{"grid", "[1,2,3]"}, {"correlation", "9"}}));
    EXPECT_EQ(argsOf(s, *t, plain), (std::map<std::string, std::string>{{"list", "[\"a\",\"b\"]"}}));
    std::vector<std::string> bulk(3);
    s.forEachArgValues({t->argRef[op], t->argRef[launch], t->argRef[plain]}, {"Input Dims", "grid", "note", "list"},
                       [&](size_t i, const std::vector<std::string_view>& v) {
                           for (const auto& value : v)
                               bulk[i] += std::string(value) + "|";
                       });
    EXPECT_EQ(bulk, (std::vector<std::string>{"[[2,3],[]]||a,}||", "|[1,2,3]|||", "|||[\"a\",\"b\"]|"}));

    // The session store keeps the repaired text.
    auto stored = storedCopy(s, "trailing_commas.warpscope");
    ASSERT_TRUE(stored);
    const Track* st = findTrack(*stored, "thread 1");
    ASSERT_TRUE(st);
    EXPECT_EQ(argsOf(*stored, *st, sliceNamed(*stored, *st, "op")), expectOp);
}

TEST(ChromeEdgeCases, TrailingCommasGiveTheSameSessionForAnyThreadCountAndBlockSize) {
    ImportControl one;
    one.threads = 1;
    ImportResult a = importText(kTrailingCommas, one);
    ASSERT_TRUE(a.session);
    for (unsigned threads : {1u, 2u, 3u})
        for (size_t block : {64u, 150u, 4096u}) {
            ImportControl c;
            c.threads = threads;
            c.blockBytes = block;
            ImportResult b = importText(kTrailingCommas, c);
            ASSERT_TRUE(b.session);
            EXPECT_EQ(b.session->report().count("malformed event (skipped)"), 0u) << threads << " " << block;
            EXPECT_EQ(dumpSession(*a.session, 100), dumpSession(*b.session, 100)) << threads << " " << block;
        }
}

TEST(ChromeEdgeCases, LooseNumbersAreDecimalsAsJavaScriptReadsThem) {
    const std::vector<std::pair<std::string, double>> numbers = {
        {"25.7", 25.7}, {".75", 0.75}, {"246.", 246}, {"050", 50}, {"+10.5", 10.5}, {"-2e3", -2000},
        {"-.5", -0.5},  {"1E+2", 100}, {"0", 0},      {"-0", 0},   {"7", 7}};
    for (const auto& [text, expected] : numbers) {
        double v = -1;
        EXPECT_TRUE(parseLooseNumber(text, v)) << text;
        EXPECT_DOUBLE_EQ(v, expected) << text;
    }
    for (const char* text : {"", "+", "-", ".", "+.", "e5", "1e", "1e+", "1.2.3", "12 MB", " 5", "5 ", "0x10", "nan",
                             "inf", "-Infinity", "+-1", "1e999", "1,5"}) {
        double v = -1;
        EXPECT_FALSE(parseLooseNumber(text, v)) << text;
        EXPECT_EQ(v, -1) << text; // untouched
    }
}

TEST(ChromeEdgeCases, CounterValuesWrittenAsStringsAreNumbers) {
    const char* text = R"J({"traceEvents": [
  {"ph": "C", "name": "mem", "pid": 1, "ts": 1, "args": {"v": "25.7"}},
  {"ph": "C", "name": "mem", "pid": 1, "ts": 2, "args": {"v": ".75"}},
  {"ph": "C", "name": "mem", "pid": 1, "ts": 3, "args": {"v": "246."}},
  {"ph": "C", "name": "mem", "pid": 1, "ts": 4, "args": {"v": "050"}},
  {"ph": "C", "name": "mem", "pid": 1, "ts": 5, "args": {"v": "+10.5"}},
  {"ph": "C", "name": "mem", "pid": 1, "ts": 6, "args": {"v": 3}},
  {"ph": "C", "name": "mem", "pid": 1, "ts": 7, "args": {"v": "12 MB", "w": "4"}},
  {"ph": "C", "name": "mem", "pid": 1, "ts": 8, "args": {"v": ""}},
  {"ph": "C", "name": "mem", "pid": 1, "ts": 9, "args": {"v": "0x10", "w": "nan"}},
  {"ph": "C", "name": "mem", "pid": 1, "ts": 10, "args": {"v": "1e999", "w": " 5"}}
]})J";
    ImportResult r = importText(text);
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    const CounterSeries* v = counterSeries(s, "mem", "v");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->ts, (std::vector<int64_t>{1000, 2000, 3000, 4000, 5000, 6000}));
    EXPECT_EQ(v->value, (std::vector<double>{25.7, 0.75, 246, 50, 10.5, 3}));
    const CounterSeries* w = counterSeries(s, "mem", "w");
    ASSERT_TRUE(w);
    EXPECT_EQ(w->ts, std::vector<int64_t>{7000});
    EXPECT_EQ(w->value, std::vector<double>{4});
    // Only the malformed values are lost, and each is counted: "12 MB", "", "0x10", "nan", "1e999", " 5".
    const ImportReport& rep = s.report();
    EXPECT_EQ(rep.count("counter value that is not a number (skipped)"), 6u) << rep.toText();
    EXPECT_EQ(rep.count("counter without numeric values"), 0u) << rep.toText();
    EXPECT_NE(rep.toText().find("\"12 MB\""), std::string::npos) << rep.toText();
}

TEST(ChromeEdgeCases, AnEventWithoutTidIsOnItsProcesssOwnThread) {
    const char* text = R"J({"traceEvents": [
  {"ph": "M", "name": "thread_name", "pid": 5, "tid": 5, "args": {"name": "main"}},
  {"ph": "X", "name": "parent", "pid": 5, "tid": 5, "ts": 0, "dur": 100},
  {"ph": "X", "name": "child", "pid": 5, "ts": 10, "dur": 20},
  {"ph": "B", "name": "begin-end", "pid": 5, "ts": 40},
  {"ph": "E", "pid": 5, "ts": 50},
  {"ph": "i", "name": "mark", "pid": 5, "ts": 60, "s": "t"},
  {"ph": "X", "name": "other process", "pid": "worker", "ts": 0, "dur": 5},
  {"ph": "X", "name": "thread 0 stays", "pid": 5, "tid": 0, "ts": 0, "dur": 5}
]})J";
    ImportResult r = importText(text);
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    const Track* main = findTrack(s, "main");
    ASSERT_TRUE(main);
    ASSERT_EQ(main->sliceCount(), 3u);
    EXPECT_EQ(main->rowCount(), 2u); // parent above child and begin-end
    for (const char* name : {"child", "begin-end"}) {
        const int i = sliceNamed(s, *main, name);
        ASSERT_GE(i, 0) << name;
        EXPECT_EQ(main->rowDepth[main->rowOf(static_cast<size_t>(i))], 1u) << name;
        ASSERT_EQ(s.ancestors(*main, static_cast<uint32_t>(i)).size(), 1u) << name;
        EXPECT_EQ(s.str(main->names[s.ancestors(*main, static_cast<uint32_t>(i))[0]]), "parent") << name;
    }
    EXPECT_EQ(main->instantTs, std::vector<int64_t>{60000});
    // A string pid without tid: the thread is named like its process.
    const Track* worker = findTrack(s, "worker");
    ASSERT_TRUE(worker);
    EXPECT_EQ(worker->sliceCount(), 1u);
    // An explicit tid 0 is still thread 0, apart from the process's own thread.
    const Track* zero = findTrack(s, "thread 0");
    ASSERT_TRUE(zero);
    EXPECT_EQ(zero->sliceCount(), 1u);
    EXPECT_EQ(s.tracks().size(), 3u);
}

TEST(ChromeEdgeCases, APhaseLongerThanOneCharacterIsSkippedAndNamed) {
    const char* text = R"J({"traceEvents": [
  {"ph": "X", "name": "kept", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
  {"ph": "XXX", "name": "long", "pid": 1, "tid": 1, "ts": 1, "dur": 2},
  {"ph": "Begin", "name": "word", "pid": 1, "tid": 1, "ts": 3},
  {"ph": "Q", "name": "unknown", "pid": 1, "tid": 1, "ts": 4}
]})J";
    ImportResult r = importText(text);
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    const ImportReport& rep = s.report();
    EXPECT_EQ(rep.count("phase longer than one character (skipped)"), 2u) << rep.toText();
    EXPECT_EQ(rep.count("unknown phase"), 1u) << rep.toText(); // "Q" only
    EXPECT_NE(rep.toText().find("ph \"XXX\""), std::string::npos) << rep.toText();
    const Track* t = findTrack(s, "thread 1");
    ASSERT_TRUE(t);
    ASSERT_EQ(t->sliceCount(), 1u);
    EXPECT_EQ(s.str(t->names[0]), "kept");
}

TEST(ChromeEdgeCases, EndArgsMergeIntoTheSliceTheirBeginOpened) {
    const char* text = R"J({"traceEvents": [
  {"ph": "B", "name": "outer", "pid": 1, "tid": 1, "ts": 0, "args": {"a": 1, "b": "begin", "shape": [1, 2]}},
  {"ph": "B", "name": "inner", "pid": 1, "tid": 1, "ts": 10},
  {"ph": "E", "pid": 1, "tid": 1, "ts": 20, "args": {"result": "ok"}},
  {"ph": "E", "pid": 1, "tid": 1, "ts": 30, "args": {"b": "end", "c": [3, 4],}},
  {"ph": "B", "name": "plain", "pid": 1, "tid": 1, "ts": 40, "args": {"x": 1}},
  {"ph": "E", "pid": 1, "tid": 1, "ts": 50},
  {"ph": "B", "name": "empty end args", "pid": 1, "tid": 1, "ts": 60, "args": {"y": 2}},
  {"ph": "E", "pid": 1, "tid": 1, "ts": 70, "args": {}}
]})J";
    using Args = std::vector<std::pair<std::string, std::string>>;
    // B's keys in B's order with E's value where E has one, then E's other keys.
    const std::map<std::string, Args> expected = {
        {"outer", {{"a", "1"}, {"b", "end"}, {"shape", "[1,2]"}, {"c", "[3,4]"}}},
        {"inner", {{"result", "ok"}}},
        {"plain", {{"x", "1"}}},
        {"empty end args", {{"y", "2"}}}};
    ImportResult r = importText(text);
    ASSERT_TRUE(r.session) << r.error;
    auto stored = storedCopy(*r.session, "end_args.warpscope");
    ASSERT_TRUE(stored);
    for (const Session* s : {r.session.get(), static_cast<const Session*>(stored.get())}) {
        const Track* t = findTrack(*s, "thread 1");
        ASSERT_TRUE(t);
        ASSERT_EQ(t->sliceCount(), 4u);
        std::vector<uint64_t> refs;
        for (const auto& [name, args] : expected) {
            const int i = sliceNamed(*s, *t, name);
            ASSERT_GE(i, 0) << name;
            EXPECT_EQ(s->args(*t, static_cast<size_t>(i)), args) << name;
            refs.push_back(t->argRef[i]);
        }
        // The bulk reader merges the same way (expected's order: empty end args, inner, outer, plain).
        std::vector<std::string> bulk(refs.size());
        s->forEachArgValues(refs, {"a", "b", "c", "result"}, [&](size_t i, const std::vector<std::string_view>& v) {
            for (const auto& value : v)
                bulk[i] += std::string(value) + "|";
        });
        EXPECT_EQ(bulk, (std::vector<std::string>{"||||", "|||ok|", "1|end|[3,4]||", "||||"}));
    }
}

TEST(ChromeEdgeCases, MergeEndArgsKeepsBeginOrderAndLetsTheEndWin) {
    EXPECT_EQ(mergeEndArgs(R"({"ph": "B", "args": {"a": 1, "b": [1, 2]}, "ts": 3})", R"({"ph": "E", "args": {"b": "x", "c": {"d": 1}}})"),
              R"({"ph": "B", "args": {"a":1,"b":"x","c":{"d": 1}}, "ts": 3})");
    // B without args, with args that are not an object, or empty: E's args.
    EXPECT_EQ(mergeEndArgs(R"({"ph": "B"})", R"({"args": {"r": "ok"}})"), R"({"ph": "B","args":{"r":"ok"}})");
    EXPECT_EQ(mergeEndArgs(R"({"args": "__stripped__"})", R"({"args": {"r": 1}})"), R"({"args": {"r":1}})");
    EXPECT_EQ(mergeEndArgs("{}", R"({"args": {"r": 1}})"), R"({"args":{"r":1}})");
    // A key E repeats: its later value, once.
    EXPECT_EQ(mergeEndArgs(R"({"args": {}})", R"({"args": {"k": 1, "k": 2}})"), R"({"args": {"k":2}})");
    // E without args members: B unchanged.
    EXPECT_EQ(mergeEndArgs(R"({"args": {"a": 1}})", R"({"args": {}})"), R"({"args": {"a": 1}})");
    EXPECT_EQ(mergeEndArgs(R"({"args": {"a": 1}})", R"({"ph": "E"})"), R"({"args": {"a": 1}})");
}
