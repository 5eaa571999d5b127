#include "analysis/session_dump.h"
#include "compression_util.h"
#include "test_util.h"

#include <sqlite3.h>

using namespace ws;
using namespace ws::test;

namespace {

bool contains(const std::string& s, const std::string& what) {
    return s.find(what) != std::string::npos;
}

const std::string kGood = R"J({"traceEvents":[
 {"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":2},
 {"ph":"X","cat":"cpu_op","name":"b","pid":1,"tid":1,"ts":4,"dur":2},
 {"ph":"X","cat":"cpu_op","name":"c","pid":1,"tid":1,"ts":7,"dur":2}
]})J";

} // namespace

TEST(MalformedInput, UnreadableFilesGiveOneSentence) {
    EXPECT_EQ(importTraceFile(writeTemp("empty.json", "")).error, "the file is empty");
    // A directory of its own: the shared scratch directory may hold .wscap streams from other
    // tests, which would make it a capture directory.
    const auto emptyDir = tempDir() / "an-empty-directory";
    std::filesystem::create_directories(emptyDir);
    EXPECT_TRUE(contains(importTraceFile(emptyDir.string()).error, "is a directory"));
    EXPECT_TRUE(contains(importTraceFile((tempDir() / "missing.json").string()).error, "does not exist"));
    std::string binary(1000, '\0');
    for (size_t i = 0; i < binary.size(); ++i)
        binary[i] = static_cast<char>((i * 7919) & 0xff);
    EXPECT_EQ(importTraceFile(writeTemp("bin.dat", binary)).error,
              "not a trace: binary data that is neither JSON, gzip, zstd nor SQLite");
    EXPECT_EQ(importTraceFile(writeTemp("text.txt", "hello world\n")).error, "not a trace: text that is not JSON");
    // rocprofv3's other outputs say what to record instead.
    const std::string csv =
        "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Kernel_Id\",\"Kernel_Name\",\"Correlation_Id\",\"Start_Timestamp\","
        "\"End_Timestamp\"\n\"KERNEL_DISPATCH\",\"Agent 4\",1,7,\"Cijk_Alik\",12,100,200\n";
    EXPECT_TRUE(contains(importTraceFile(writeTemp("run_kernel_trace.csv", csv)).error, "--output-format json"));
    // A Perfetto trace: Trace { TracePacket packet = 1 { timestamp = 8; trusted_packet_sequence_id = 10 } }.
    const std::string pftrace("\x0a\x06\x40\xe8\x07\x50\x01\x00", 8);
    EXPECT_TRUE(contains(importTraceFile(writeTemp("run.pftrace", pftrace)).error, "likely a Perfetto trace"));
    EXPECT_TRUE(contains(importTraceFile(writeTemp("gz.gz", gzipBytes("hello"))).error, "does not contain JSON"));
    EXPECT_TRUE(contains(importTraceFile(writeTemp("nojson.json", R"J({"a": 1})J")).error, "no traceEvents"));
    EXPECT_TRUE(contains(importTraceFile(writeTemp("arrays.json", "[[1,2],[3]]")).error, "not a PyTorch memory timeline"));
    EXPECT_FALSE(importTraceFile(writeTemp("ws.json", "   \n  ")).session);
    EXPECT_EQ(detectFormat(writeTemp("ws2.json", "  {")), TraceFormat::ChromeJson);
}

TEST(MalformedInput, BadEventsAreSkippedAndCounted) {
    const std::string text = std::string(R"J({"traceEvents":[
 {"ph":"X","name":"ok1","pid":1,"tid":1,"ts":1,"dur":1},
 {"ph":"X","name":"bad utf8 )J") + "\xff\xfe" + R"J(","pid":1,"tid":1,"ts":2,"dur":1},
 {"ph":"X","name":"nan","pid":1,"tid":1,"ts":NaN,"dur":1},
 {"ph":"X","name":"wrongts","pid":1,"tid":1,"ts":"abc","dur":1},
 {"ph":"X","name":"wrongpid","pid":[1],"tid":1,"ts":3,"dur":1},
 {"ph":"X","name":"negdur","pid":1,"tid":1,"ts":4,"dur":-5},
 {"ph":"X","name":"objdur","pid":1,"tid":1,"ts":5,"dur":{}},
 {"ph":7,"name":"badph","pid":1,"tid":1,"ts":6},
 {"ph":"Q","name":"unknownph","pid":1,"tid":1,"ts":6},
 {"name":"noph","pid":1,"tid":1,"ts":6},
 {"ph":"X","name":"nots","pid":1,"tid":1,"dur":1},
 {"ph":"X","name":"deep","pid":1,"tid":1,"ts":7,"dur":1,"args":)J" +
                             std::string(3000, '[') + std::string(3000, ']') + R"J(},
 {"ph":"X","name":"ok2","pid":1,"tid":1,"ts":8,"dur":1}
]})J";
    ImportResult r = importText(text);
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    const ImportReport& rep = s.report();
    EXPECT_EQ(rep.count("malformed event (skipped)"), 1u); // bad UTF-8
    EXPECT_EQ(rep.count("invalid timestamp"), 2u);          // NaN, "abc"
    EXPECT_EQ(rep.count("invalid duration"), 1u);           // {}
    EXPECT_EQ(rep.count("negative duration (set to 0)"), 1u);
    EXPECT_EQ(rep.count("unknown phase"), 1u);
    EXPECT_EQ(rep.count("event without a phase"), 2u);
    EXPECT_EQ(rep.count("event without ts"), 1u);
    EXPECT_EQ(rep.count("event field of the wrong type"), 2u); // pid [1], ph 7
    const Track* t = findTrack(s, "thread 1");
    ASSERT_TRUE(t);
    bool ok1 = false, ok2 = false, deep = false;
    for (size_t i = 0; i < t->sliceCount(); ++i) {
        ok1 |= s.str(t->names[i]) == "ok1";
        ok2 |= s.str(t->names[i]) == "ok2";
        deep |= s.str(t->names[i]) == "deep"; // args are not descended into, so nesting is harmless
        EXPECT_GE(t->dur[i], 0);
    }
    EXPECT_TRUE(ok1 && ok2 && deep);
    EXPECT_FALSE(rep.truncated());
}

TEST(MalformedInput, TruncatedFileImportsEverythingBeforeTheCut) {
    const std::string full = gunzipBytes(readFile(dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz")));
    ASSERT_GT(full.size(), 100000u);
    ImportResult whole = importText(full);
    ASSERT_TRUE(whole.session);
    EXPECT_FALSE(whole.session->report().truncated());
    uint64_t previous = 0;
    for (double frac : {0.1, 0.5, 0.9, 0.999}) {
        const std::string cut = full.substr(0, static_cast<size_t>(static_cast<double>(full.size()) * frac));
        for (size_t block : {0u, 4096u}) {
            ImportControl c;
            c.blockBytes = block;
            ImportResult r = importText(cut, c);
            ASSERT_TRUE(r.session) << frac << ": " << r.error;
            EXPECT_TRUE(r.session->report().truncated()) << frac;
            EXPECT_GT(r.session->sourceEventCount(), previous);
            EXPECT_LT(r.session->sourceEventCount(), whole.session->sourceEventCount());
            EXPECT_TRUE(contains(r.session->report().toText(), "inside the event array"));
        }
        previous = 0;
    }
    // The same cut inside a gzip stream.
    const std::string gz = readFile(dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz"));
    ImportResult r = importTraceFile(writeTemp("cut.json.gz", gz.substr(0, gz.size() / 2)));
    ASSERT_TRUE(r.session) << r.error;
    EXPECT_TRUE(r.session->report().truncated());
    EXPECT_GT(r.session->sourceEventCount(), 100u);
}

TEST(MalformedInput, UnterminatedStringAndMissingBracket) {
    ImportResult a = importText(kGood.substr(0, kGood.size() - 3) + ",{\"ph\":\"X\",\"name\":\"unterminated");
    ASSERT_TRUE(a.session);
    EXPECT_TRUE(a.session->report().truncated());
    EXPECT_EQ(a.session->sliceCount(), 3u);
    // Array form without the closing bracket (a writer killed mid-file).
    ImportResult b = importText(R"J([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2},
                                  {"ph":"X","name":"b","pid":1,"tid":1,"ts":4,"dur":2},)J");
    ASSERT_TRUE(b.session);
    EXPECT_EQ(b.session->sliceCount(), 2u);
    EXPECT_TRUE(b.session->report().truncated());
    // Garbage after the document is reported, not fatal.
    ImportResult c = importText(kGood + "\n}}garbage");
    ASSERT_TRUE(c.session);
    EXPECT_EQ(c.session->report().count("data after the end of the JSON document (ignored)"), 1u);
}

TEST(MalformedInput, CompressedInputsMatchPlain) {
    const std::string plain = gunzipBytes(readFile(dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz")));
    ImportResult p = importText(plain);
    ImportResult g = importTraceFile(dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz"));
    ImportResult z = importTraceFile(writeTemp("sample.json.zst", zstdBytes(plain)));
    ImportResult gg = importTraceFile(writeTemp("double.json.gz", gzipBytes(plain.substr(0, 1000)) + gzipBytes(plain.substr(1000))));
    ASSERT_TRUE(p.session && g.session && z.session && gg.session);
    EXPECT_EQ(dumpSession(*p.session), dumpSession(*g.session));
    EXPECT_EQ(dumpSession(*p.session), dumpSession(*z.session));
    EXPECT_EQ(dumpSession(*p.session), dumpSession(*gg.session)); // concatenated gzip members
    EXPECT_EQ(detectFormat(writeTemp("sample2.json.zst", zstdBytes(plain))), TraceFormat::ChromeJson);
}

TEST(MalformedInput, HugeEventLargerThanABlock) {
    const std::string big(100000, 'x');
    ImportControl c;
    c.blockBytes = 256;
    ImportResult r = importText(R"J({"traceEvents":[{"ph":"X","name":")J" + big +
                                    R"J(","pid":1,"tid":1,"ts":1,"dur":1},{"ph":"X","name":"n","pid":1,"tid":1,"ts":3,"dur":1}]})J",
                                c);
    ASSERT_TRUE(r.session) << r.error;
    EXPECT_EQ(r.session->sliceCount(), 2u);
    EXPECT_TRUE(r.session->report().empty()) << r.session->report().toText();
}

TEST(MalformedInput, SqliteDatabasesAreClassified) {
    const std::string path = (tempDir() / "nsys.sqlite").string();
    std::filesystem::remove(path);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_exec(db, "CREATE TABLE StringIds(id INTEGER, value TEXT);", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    EXPECT_EQ(detectFormat(path), TraceFormat::NsightSqlite);
    const ImportResult empty = importTraceFile(path); // an export without activity tables: an empty session
    ASSERT_TRUE(empty.session) << empty.error;
    EXPECT_EQ(empty.session->sliceCount(), 0u);

    const std::string other = (tempDir() / "other.sqlite").string();
    std::filesystem::remove(other);
    ASSERT_EQ(sqlite3_open(other.c_str(), &db), SQLITE_OK);
    sqlite3_exec(db, "CREATE TABLE t(x);", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    EXPECT_EQ(detectFormat(other), TraceFormat::Unknown);
    EXPECT_FALSE(importTraceFile(other).error.empty());
}

TEST(MalformedInput, CancelStopsTheImport) {
    std::atomic<bool> cancel{true};
    ImportControl c;
    c.cancel = &cancel;
    ImportResult r = importTraceFile(dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz"), c);
    EXPECT_TRUE(r.cancelled);
    EXPECT_FALSE(r.session);
}

TEST(MalformedInput, NonObjectElementsBetweenEvents) {
    ImportResult r = importText(R"J([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2}, 5, "x", null,
                                  {"ph":"X","name":"b","pid":1,"tid":1,"ts":4,"dur":2}])J");
    ASSERT_TRUE(r.session) << r.error;
    EXPECT_EQ(r.session->sliceCount(), 2u);
    EXPECT_EQ(r.session->report().count("non-object elements in the event array (skipped)"), 3u);
}

TEST(MalformedInput, RandomCorruptionNeverCrashes) {
    // Mutation fuzzing light: flip, insert and delete bytes (structural characters, quotes,
    // backslashes, NULs, high bytes) in a real trace and cut it at random places; every variant
    // must give either a session or a one-sentence error.
    const std::string full = gunzipBytes(readFile(dataPath("cuda_event_sync_trace.json.gz")));
    ASSERT_FALSE(full.empty());
    uint64_t state = 12345;
    auto rnd = [&](uint64_t n) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<size_t>((state >> 33) % n);
    };
    const char kBytes[] = {'{', '}', '[', ']', '"', '\\', ',', ':', '\0', '\xff', '\xc3', '-', '.', 'e', '9', ' '};
    for (int round = 0; round < 150; ++round) {
        std::string text = full;
        const int edits = 1 + static_cast<int>(rnd(8));
        for (int e = 0; e < edits; ++e) {
            const size_t at = rnd(text.size());
            const char c = kBytes[rnd(sizeof kBytes)];
            switch (rnd(3)) {
            case 0: text[at] = c; break;
            case 1: text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), c); break;
            default: text.erase(at, 1 + rnd(20)); break;
            }
        }
        if (rnd(4) == 0)
            text.resize(rnd(text.size()));
        ImportControl c;
        c.blockBytes = rnd(2) ? 0 : 512 + rnd(4096);
        ImportResult r = importText(text, c, "fuzz.json");
        EXPECT_TRUE(r.session || !r.error.empty()) << "round " << round;
        if (r.session)
            (void)dumpSession(*r.session);
    }
}
