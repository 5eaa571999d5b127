#include "model/event_text_reader.h"
#include "import/trace_import.h"
#include "model/args_spans.h"
#include "model/json_members.h"
#include "model/session.h"
#include "library/session_library.h"
#include "io/file_fingerprint.h"
#include "store/session_store.h"
#include "io/sqlite_database.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
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

// The same events without an E event's args (which the store merges into its B slice, so it packs
// no args itself), and with an async end's args: the import's packed args are stored, and the
// store cuts only "number" (whose args are not an object, so it has no span).
std::string traceWithoutEndArgs() {
    std::string t = kTrace;
    auto replace = [&t](std::string_view from, std::string_view to) {
        const size_t at = t.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        if (at != std::string::npos)
            t.replace(at, from.size(), to);
    };
    replace(R"("ts": 40, "args": {"end": 2}})", R"("ts": 40})");
    replace(R"("id": 7, "pid": 1, "tid": 1, "ts": 60})", R"("id": 7, "pid": 1, "tid": 1, "ts": 60, "args": {"e": 5}})");
    return t;
}

// An import that is going to be stored (ImportControl::forStore), in blocks of blockBytes (0: the
// default).
ImportResult importForStore(const std::string& path, size_t blockBytes = 0,
                            ImportControl::StorePrep prep = ImportControl::StorePrep::Packed) {
    ImportControl control;
    control.forStore = prep;
    control.blockBytes = blockBytes;
    return importTraceFile(path, control);
}

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

// Every slice's and instant's event text (its args) as the stored session reads it back, by track
// and position: equal for two stores of the same model whatever ranks and rows each chose.
std::vector<std::string> storedArgs(const std::string& file) {
    std::string error;
    const std::shared_ptr<Session> s = SessionStore::read(file, &error);
    EXPECT_NE(s, nullptr) << error;
    std::vector<std::string> out;
    if (!s)
        return out;
    std::vector<std::pair<uint64_t, size_t>> refs; // (rank, place in out): read in rank order, a row once
    for (const Track& t : s->tracks())
        for (const std::vector<uint64_t>* column : {&t.argRef, &t.instantArgRef})
            for (const uint64_t r : *column) {
                refs.emplace_back(r, out.size());
                out.emplace_back("-");
            }
    std::sort(refs.begin(), refs.end());
    for (const auto& [r, at] : refs)
        if (r != Track::kNoArgs)
            out[at] = s->eventJsonAt(r);
    return out;
}

// The number of event_args rows of a session file.
int64_t argRows(const std::string& file) {
    SqliteDatabase db;
    EXPECT_TRUE(db.open(file, SqliteDatabase::Mode::ReadOnly));
    return db.queryInt("SELECT count(*) FROM event_args").value_or(-1);
}

// The event names of the session's slices with args that got no span, after checking that every
// span is exactly the args value the store would cut from the event.
std::set<std::string> eventsWithoutSpans(const std::string& path, const ImportControl& control) {
    const std::string text = test::readFile(path);
    const ImportResult r = importTraceFile(path, control);
    EXPECT_NE(r.session, nullptr) << r.error;
    if (!r.session || !r.session->storePreparation()) {
        ADD_FAILURE() << "no spans kept";
        return {};
    }
    ArgsSpans::Cursor cursor(r.session->storePreparation()->spans);
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
    EXPECT_TRUE(spans.append(later));
    ArgsSpans behind;
    EXPECT_TRUE(behind.add(250, 1, 1));
    EXPECT_FALSE(spans.append(behind)); // not after the last ref: left out, so lookups stay ordered
    EXPECT_EQ(spans.size(), 4u);
    EXPECT_EQ(spans.at(3).begin, 403u);
    EXPECT_EQ(spans.refs(), (std::vector<uint64_t>{100, 200, 300, 400}));

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
        control.forStore = ImportControl::StorePrep::Packed;
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
    // Without forStore nothing is kept.
    const ImportResult plain = importTraceFile(path);
    ASSERT_NE(plain.session, nullptr);
    EXPECT_EQ(plain.session->storePreparation(), nullptr);
}

// The store copies the args from the spans, or stores the import's packed args: either way every
// slice reads back the same args as from a store that cuts them from the source without any, on
// the synthetic traces (with and without an E event's args, which leaves the packed args unused)
// in one block and in 64-byte blocks, and on a real one (gzip: offsets in the inflated text). The
// library drops the preparation once stored.
TEST(ArgsSpans, TheStoreWritesTheSameArgumentsFromThePreparationAsFromCutting) {
    const std::string synthetic = test::writeTemp("spans_store.json", kTrace);
    const std::string withoutEnd = test::writeTemp("spans_store_no_end.json", traceWithoutEndArgs());
    const std::string comma = test::writeTemp("spans_store_comma.json", kTraceWithComma);
    const std::string real = test::dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz");
    for (const std::string& source : {synthetic, withoutEnd, comma, real}) {
        for (const size_t blockBytes : {size_t(0), size_t(64)}) {
            const ImportResult prepared = importForStore(source, blockBytes), without = importTraceFile(source);
            ASSERT_NE(prepared.session, nullptr);
            ASSERT_NE(without.session, nullptr);
            const StorePreparation* p = prepared.session->storePreparation();
            ASSERT_NE(p, nullptr);
            if (source != comma) { // in one block, the repair leaves the whole group without spans
                EXPECT_GT(p->spans.size(), 0u) << source;
            }
            EXPECT_TRUE(p->packedComplete) << source;
            size_t packedCount = 0;
            for (const auto& block : p->packed)
                packedCount += block.count;
            EXPECT_EQ(packedCount, p->spans.size()) << source;
            const std::string a = (test::tempDir() / "with_spans.warpscope").string();
            const std::string b = (test::tempDir() / "without_spans.warpscope").string();
            std::string error;
            ASSERT_TRUE(SessionStore::write(*prepared.session, a, {}, &error)) << error;
            ASSERT_TRUE(SessionStore::write(*without.session, b, {}, &error)) << error;
            const auto stored = storedArgs(a);
            EXPECT_FALSE(stored.empty()) << source;
            EXPECT_EQ(stored, storedArgs(b)) << source << " in blocks of " << blockBytes;
            if (source == withoutEnd && blockBytes == 64) { // a row per block, and one for "number"
                EXPECT_EQ(argRows(a), static_cast<int64_t>(p->packed.size()) + 1);
            }
        }
    }
    SessionLibrary library((test::tempDir() / "spans_library").string());
    const SessionLibrary::OpenResult opened = library.open(test::writeTemp("spans_library.json", kTrace));
    ASSERT_NE(opened.session, nullptr) << opened.error;
    EXPECT_FALSE(opened.sessionPath.empty()) << opened.storeError;
    EXPECT_EQ(opened.session->storePreparation(), nullptr) << "dropped once stored";
}

// A session whose import packed its args is stored without reading the source again: the source
// replaced by other text after the import changes nothing in the stored args. The import hashed the
// file on its reads; the store keeps that hash only while the file is the one that was read.
TEST(ArgsSpans, TheImportsPackedArgsAndHashSpareTheStoreASecondRead) {
    // Without "number", whose args (not an object) have no span: the store would cut them.
    std::string trace = traceWithoutEndArgs();
    const size_t number = trace.find("  {\"ph\": \"X\", \"name\": \"number\"");
    ASSERT_NE(number, std::string::npos);
    trace.erase(number, trace.find('\n', number) + 1 - number);
    const std::string source = test::writeTemp("packed_source.json", trace);
    const std::optional<FileFingerprint> original = fingerprintFile(source);
    ASSERT_TRUE(original);
    const ImportResult prepared = importForStore(source), reference = importTraceFile(source);
    ASSERT_NE(prepared.session, nullptr);
    ASSERT_NE(reference.session, nullptr);
    const StorePreparation* p = prepared.session->storePreparation();
    ASSERT_NE(p, nullptr);
    ASSERT_TRUE(p->sourceHash);
    EXPECT_EQ(p->sourceHash->hash, original->hash);
    EXPECT_EQ(p->sourceHash->size, original->size);

    // A compressed source is hashed as it lies on disk, as the store's own fingerprint does.
    const std::string gz = test::dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz");
    const ImportResult gzPrepared = importForStore(gz);
    ASSERT_NE(gzPrepared.session, nullptr);
    ASSERT_TRUE(gzPrepared.session->storePreparation()->sourceHash);
    EXPECT_EQ(gzPrepared.session->storePreparation()->sourceHash->hash, fingerprintFile(gz)->hash);

    const std::string expected = (test::tempDir() / "packed_reference.warpscope").string();
    const std::string stored = (test::tempDir() / "packed_stored.warpscope").string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(*reference.session, expected, {}, &error)) << error;
    auto metaHash = [](const std::string& file) {
        std::string why;
        const auto meta = SessionStore::readMeta(file, &why);
        return meta && meta->count("source_hash2") ? meta->at("source_hash2") : std::string("none: " + why);
    };
    ASSERT_TRUE(SessionStore::write(*prepared.session, stored, {}, &error)) << error;
    EXPECT_EQ(metaHash(stored), original->hashHex()) << "the import's hash";

    // The same bytes in other places (spaces): a store that cut from the source would read wrong args.
    std::string other = trace;
    other.insert(other.find("traceEvents") + 14, 64, ' ');
    test::writeTemp("packed_source.json", other);
    ASSERT_TRUE(SessionStore::write(*prepared.session, stored, {}, &error)) << error;
    EXPECT_EQ(storedArgs(stored), storedArgs(expected));
    const std::optional<FileFingerprint> changed = fingerprintFile(source);
    ASSERT_TRUE(changed);
    EXPECT_EQ(metaHash(stored), changed->hashHex()) << "the file changed: hashed again";
}

// An import for the app (StorePrep::Spans) keeps only where the args lie: nothing packed, no hash,
// so that its first view does not wait for the store's work. Its store cuts the args through the
// spans and hashes the file itself, to the same args and fingerprint.
TEST(ArgsSpans, AnImportForTheAppKeepsOnlyTheSpans) {
    const std::string source = test::writeTemp("spans_only.json", traceWithoutEndArgs());
    const ImportResult spansOnly = importForStore(source, 0, ImportControl::StorePrep::Spans);
    const ImportResult packed = importForStore(source);
    ASSERT_NE(spansOnly.session, nullptr);
    ASSERT_NE(packed.session, nullptr);
    const StorePreparation* p = spansOnly.session->storePreparation();
    ASSERT_NE(p, nullptr);
    EXPECT_GT(p->spans.size(), 0u);
    EXPECT_TRUE(p->packed.empty());
    EXPECT_FALSE(p->packedComplete);
    EXPECT_FALSE(p->sourceHash);
    EXPECT_TRUE(packed.session->storePreparation()->packedComplete);
    const std::string a = (test::tempDir() / "spans_only.warpscope").string();
    const std::string b = (test::tempDir() / "spans_packed.warpscope").string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(*spansOnly.session, a, {}, &error)) << error;
    ASSERT_TRUE(SessionStore::write(*packed.session, b, {}, &error)) << error;
    EXPECT_EQ(storedArgs(a), storedArgs(b));
    std::string why;
    EXPECT_EQ(SessionStore::readMeta(a, &why)->at("source_hash2"), fingerprintFile(source)->hashHex());
}

// A version 1 file (rows of 4096 ranks keyed by `chunk`) reads the same args: the rows of a store
// that packed every chunk itself are those of version 1 under another key.
TEST(ArgsSpans, AVersionOneSessionReadsItsArguments) {
    std::string trace = R"({"traceEvents": [)";
    for (int i = 0; i < 10000; ++i)
        trace += std::string(i ? "," : "") + R"({"ph": "X", "name": "k", "pid": 1, "tid": 1, "ts": )" +
                 std::to_string(i * 10) + R"(, "dur": 5, "args": {"i": )" + std::to_string(i) + "}}";
    trace += "]}";
    const ImportResult imported = importTraceFile(test::writeTemp("version_one.json", trace));
    ASSERT_NE(imported.session, nullptr);
    const std::string file = (test::tempDir() / "version_two.warpscope").string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(*imported.session, file, {}, &error)) << error;
    const std::vector<std::string> current = storedArgs(file);
    ASSERT_EQ(argRows(file), 3) << "rows of 4096";
    {
        SqliteDatabase db;
        ASSERT_TRUE(db.open(file, SqliteDatabase::Mode::ReadWrite));
        ASSERT_TRUE(db.exec("UPDATE event_args SET first_rank = first_rank / 4096; "
                            "ALTER TABLE event_args RENAME COLUMN first_rank TO chunk; PRAGMA user_version = 1;"));
    }
    EXPECT_EQ(storedArgs(file), current);
}

// Real traces of several producers (Kineto on H100, B200 and MI300, DLRM, vLLM with CUDA graphs,
// the legacy array format, Chrome DevTools' B/E events): every slice reads back the same args from
// a store of the import's preparation as from one that cuts them from the source.
class ArgsSpansShared : public ::testing::TestWithParam<const char*> {};

TEST_P(ArgsSpansShared, TheStoreWritesTheSameArgumentsFromThePreparationAsFromCutting) {
    const std::string source = test::sharedPath(GetParam());
    if (!std::filesystem::exists(source))
        GTEST_SKIP() << "not present: " << source;
    const ImportResult prepared = importForStore(source), without = importTraceFile(source);
    ASSERT_NE(prepared.session, nullptr) << prepared.error;
    ASSERT_NE(without.session, nullptr) << without.error;
    const std::string a = (test::tempDir() / "shared_prepared.warpscope").string();
    const std::string b = (test::tempDir() / "shared_cut.warpscope").string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(*prepared.session, a, {}, &error)) << error;
    ASSERT_TRUE(SessionStore::write(*without.session, b, {}, &error)) << error;
    const auto stored = storedArgs(a);
    EXPECT_EQ(stored, storedArgs(b));
    EXPECT_TRUE(std::any_of(stored.begin(), stored.end(), [](const std::string& t) { return t.size() > 1; }));
}

INSTANTIATE_TEST_SUITE_P(
    Traces, ArgsSpansShared,
    ::testing::Values("pytorch-h100/resnet18_train.pt.trace.json.gz",
                      "pytorch_kineto/tracelens/b200_eager_trace.json.gz",
                      "pytorch_kineto/tracelens/mi300_ddp_resnet_act_checkpoint_rank0.json.gz",
                      "pytorch_kineto/tracelens/vllm_graph_capture_rank_0.1773709679453551615.pt.trace.json.gz",
                      "pytorch_kineto/param_dlrm_8ranks/worker0_step_12.1694128201545.pt.trace.json",
                      "pytorch_kineto/kineto_tb_plugin/legacy_2021-01_array_format_resnet50_worker0.pt.trace.json.gz",
                      "chrome_trace_other/chrome116_devtools_Trace-20230603T221323.json"));
