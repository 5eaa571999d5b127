#include "analysis/trace_summary.h"
#include "import/trace_import.h"
#include "model/json_members.h"
#include "model/session.h"
#include "store/bookmarks.h"
#include "library/session_library.h"
#include "store/session_store.h"
#include "io/sqlite_database.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

using namespace ws;
namespace fs = std::filesystem;

namespace {

std::string samplePath() { return test::dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz"); }

void expectSameTracks(const Session& a, const Session& b) {
    ASSERT_EQ(a.tracks().size(), b.tracks().size());
    for (size_t i = 0; i < a.tracks().size(); ++i) {
        const Track& x = a.tracks()[i];
        const Track& y = b.tracks()[i];
        EXPECT_EQ(x.start, y.start) << i;
        EXPECT_EQ(x.dur, y.dur) << i;
        EXPECT_EQ(x.category, y.category) << i;
        EXPECT_EQ(x.rowBegin, y.rowBegin) << i;
        EXPECT_EQ(x.rowDepth, y.rowDepth) << i;
        EXPECT_EQ(x.correlation, y.correlation) << i;
        EXPECT_EQ(x.instantTs, y.instantTs) << i;
        ASSERT_EQ(x.names.size(), y.names.size());
        for (size_t k = 0; k < x.names.size(); ++k)
            ASSERT_EQ(a.str(x.names[k]), b.str(y.names[k]));
        EXPECT_EQ(a.trackLabel(x), b.trackLabel(y));
    }
}

} // namespace

TEST(SessionStore, RoundTripKeepsEveryColumnTheSummaryAndTheArguments) {
    const ImportResult imported = importTraceFile(samplePath());
    ASSERT_NE(imported.session, nullptr) << imported.error;
    const Session& original = *imported.session;
    const std::string file = (test::tempDir() / "roundtrip.warpscope").string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(original, file, {"bert", "python infer.py"}, &error)) << error;
    EXPECT_TRUE(SessionStore::isSessionFile(file));
    auto stored = SessionStore::read(file, &error);
    ASSERT_NE(stored, nullptr) << error;
    EXPECT_EQ(stored->format(), TraceFormat::WarpscopeSession);
    expectSameTracks(original, *stored);
    EXPECT_EQ(original.flows().size(), stored->flows().size());
    EXPECT_EQ(original.memoryEvents().size(), stored->memoryEvents().size());
    EXPECT_EQ(original.counters().size(), stored->counters().size());
    EXPECT_EQ(original.report().toText(), stored->report().toText());

    // Same headline numbers, apart from the format name.
    TraceSummary a = summarizeSession(original), b = summarizeSession(*stored);
    a.format = b.format = "";
    EXPECT_EQ(summaryToJson(a, true), summaryToJson(b, true));

    // Arguments come back from the store, identical to those read from the source.
    int compared = 0;
    for (size_t t = 0; t < original.tracks().size(); ++t)
        for (size_t i = 0; i < original.tracks()[t].sliceCount(); i += 13) {
            const std::string x = original.eventJson(original.tracks()[t], i);
            const std::string y = stored->eventJson(stored->tracks()[t], i);
            const auto argsOf = [](const std::string& text) {
                const auto j = nlohmann::json::parse(text, nullptr, false);
                return j.is_object() && j.contains("args") ? j["args"] : nlohmann::json();
            };
            EXPECT_EQ(argsOf(x), argsOf(y)) << t << "/" << i;
            ++compared;
        }
    EXPECT_GT(compared, 100);

    const auto meta = SessionStore::readMeta(file, &error);
    ASSERT_TRUE(meta.has_value());
    EXPECT_EQ(meta->at("name"), "bert");
    EXPECT_EQ(meta->at("capture_command"), "python infer.py");
    EXPECT_EQ(meta->at("source_size"), std::to_string(fs::file_size(samplePath())));
    EXPECT_EQ(meta->at("source_hash2").size(), 16u);
}

TEST(SessionStore, CaptureArgumentsComeBackInTheirEventsOrder) {
    // A capture's arguments are stored chunk by chunk by parallel tasks (EventTextSource::
    // parallelReads); each event must get its own back, byte for byte, across many chunks.
    const ImportResult imported = importTraceFile(test::dataPath("captures/transformer_ops_pystacks.wscap.gz"));
    ASSERT_NE(imported.session, nullptr) << imported.error;
    const Session& original = *imported.session;
    ASSERT_TRUE(original.eventTextReadsInParallel());
    const std::string file = (test::tempDir() / "capture_args.warpscope").string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(original, file, {}, &error)) << error;
    auto stored = SessionStore::read(file, &error);
    ASSERT_NE(stored, nullptr) << error;
    size_t withArgs = 0;
    for (size_t t = 0; t < original.tracks().size(); ++t)
        for (size_t i = 0; i < original.tracks()[t].sliceCount(); ++i) {
            const std::string x = original.eventJson(original.tracks()[t], i);
            const std::string y = stored->eventJson(stored->tracks()[t], i);
            ASSERT_EQ(topLevelMember(x, "args"), topLevelMember(y, "args")) << t << "/" << i;
            withArgs += !x.empty();
        }
    EXPECT_GT(withArgs, 4u * SessionStore::kArgsPerChunk); // several chunks
}

TEST(SessionStore, StoredSessionIsAFractionOfTheSource) {
    const ImportResult imported = importTraceFile(samplePath());
    const std::string file = (test::tempDir() / "size.warpscope").string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(*imported.session, file, {}, &error)) << error;
    // The gzip source is 71 KB; 1 MB of JSON text.
    EXPECT_LT(fs::file_size(file), 400u * 1024);
}

TEST(SessionStore, NewerSchemaIsRefusedWithAClearMessage) {
    const ImportResult imported = importTraceFile(samplePath());
    const std::string file = (test::tempDir() / "newer.warpscope").string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(*imported.session, file, {}, &error));
    {
        SqliteDatabase db;
        ASSERT_TRUE(db.open(file, SqliteDatabase::Mode::ReadWriteCreate));
        ASSERT_TRUE(db.exec("PRAGMA user_version = 99"));
    }
    EXPECT_EQ(SessionStore::read(file, &error), nullptr);
    EXPECT_NE(error.find("newer Warpscope"), std::string::npos) << error;
}

TEST(SessionStore, DamagedAndForeignFilesAreRefusedNotCrashed) {
    const ImportResult imported = importTraceFile(samplePath());
    const std::string file = (test::tempDir() / "damaged.warpscope").string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(*imported.session, file, {}, &error));
    // Corrupt every column blob of one track: the read must fail with a message.
    {
        SqliteDatabase db;
        ASSERT_TRUE(db.open(file, SqliteDatabase::Mode::ReadWriteCreate));
        ASSERT_TRUE(db.exec("UPDATE columns SET data = x'0102030405' WHERE owner = 'track' AND name = 'start'"));
    }
    EXPECT_EQ(SessionStore::read(file, &error), nullptr);
    EXPECT_NE(error.find("damaged"), std::string::npos) << error;

    // A plain SQLite database of someone else.
    const std::string other = (test::tempDir() / "other.sqlite").string();
    {
        SqliteDatabase db;
        ASSERT_TRUE(db.open(other, SqliteDatabase::Mode::ReadWriteCreate));
        ASSERT_TRUE(db.exec("CREATE TABLE x(a)"));
    }
    EXPECT_FALSE(SessionStore::isSessionFile(other));
    EXPECT_EQ(SessionStore::read(other, &error), nullptr);
    EXPECT_NE(error.find("not a Warpscope session"), std::string::npos);
    // Truncated session file.
    const std::string bytes = test::readFile(file);
    const std::string cut = test::writeTemp("cut.warpscope", bytes.substr(0, bytes.size() / 3));
    EXPECT_EQ(SessionStore::read(cut, &error), nullptr);
    EXPECT_FALSE(error.empty());
}

TEST(SessionStore, AFailedWriteLeavesTheOldFile) {
    const ImportResult imported = importTraceFile(samplePath());
    const std::string file = (test::tempDir() / "keep.warpscope").string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(*imported.session, file, {"first", ""}, &error));
    // Writing into a directory that does not exist fails; the existing file elsewhere is untouched,
    // and no temporary file is left next to the target.
    EXPECT_FALSE(SessionStore::write(*imported.session, "/nonexistent/dir/x.warpscope", {}, &error));
    EXPECT_FALSE(error.empty());
    EXPECT_EQ(SessionStore::readMeta(file, &error)->at("name"), "first");
    for (const auto& e : fs::directory_iterator(test::tempDir()))
        EXPECT_EQ(e.path().string().find(".tmp-"), std::string::npos) << e.path();
}

TEST(SessionLibrary, ImportsOnceThenReopensTheStoredSession) {
    const fs::path dir = test::tempDir() / "library";
    fs::remove_all(dir);
    SessionLibrary library(dir.string());
    EXPECT_TRUE(library.list().empty());
    // A private copy of the trace, so the fingerprint is of a file this test controls.
    const std::string trace = (test::tempDir() / "lib-trace.json.gz").string();
    fs::copy_file(samplePath(), trace, fs::copy_options::overwrite_existing);

    auto first = library.open(trace);
    ASSERT_NE(first.session, nullptr) << first.error;
    EXPECT_FALSE(first.fromLibrary);
    ASSERT_FALSE(first.sessionPath.empty()) << first.storeError;
    auto second = library.open(trace);
    ASSERT_NE(second.session, nullptr);
    EXPECT_TRUE(second.fromLibrary);
    EXPECT_EQ(second.sessionPath, first.sessionPath);
    EXPECT_EQ(second.session->sliceCount(), first.session->sliceCount());

    auto entries = library.list();
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_EQ(entries[0].name, "lib-trace.json.gz");
    EXPECT_EQ(entries[0].gpus, "NVIDIA H100 80GB HBM3");
    std::string error;
    ASSERT_TRUE(library.rename(entries[0].path, "renamed", &error)) << error;
    EXPECT_EQ(library.list()[0].name, "renamed");

    // A copy made by older importers (another import revision) is not reopened: importer
    // improvements must reach traces imported before them.
    {
        SqliteDatabase db;
        ASSERT_TRUE(db.open(entries[0].path, SqliteDatabase::Mode::ReadWriteCreate));
        ASSERT_TRUE(db.exec("UPDATE meta SET value = '1' WHERE key = 'import_revision'"));
    }
    EXPECT_FALSE(library.findFor(trace).has_value());
    {
        SqliteDatabase db;
        ASSERT_TRUE(db.open(entries[0].path, SqliteDatabase::Mode::ReadWriteCreate));
        ASSERT_TRUE(db.exec("UPDATE meta SET value = '" + std::to_string(kImportRevision) +
                            "' WHERE key = 'import_revision'"));
    }
    EXPECT_TRUE(library.findFor(trace).has_value());

    // Changing the trace's content (same size) makes it a new import.
    std::string bytes = test::readFile(trace);
    bytes[bytes.size() - 5] ^= 0x01;
    test::writeTemp("lib-trace.json.gz", bytes);
    EXPECT_FALSE(library.findFor(trace).has_value());

    ASSERT_TRUE(library.remove(entries[0].path, &error)) << error;
    EXPECT_TRUE(library.list().empty());
}

TEST(Bookmarks, AreStoredInTheSessionFileAndReadBackSorted) {
    const ImportResult imported = importTraceFile(samplePath());
    const std::string file = (test::tempDir() / "bookmarks.warpscope").string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(*imported.session, file, {}, &error)) << error;
    EXPECT_TRUE(Bookmarks::read(file).empty());
    const std::vector<Bookmark> marks = {{500, "second \"quoted\""}, {100, "first: 数据加载"}};
    ASSERT_TRUE(Bookmarks::write(file, marks, &error)) << error;
    const auto back = Bookmarks::read(file);
    ASSERT_EQ(back.size(), 2u);
    EXPECT_EQ(back[0], marks[1]);
    EXPECT_EQ(back[1], marks[0]);
    // The session itself is untouched and still opens.
    EXPECT_NE(SessionStore::read(file, &error), nullptr) << error;
    EXPECT_FALSE(Bookmarks::write(test::writeTemp("nope.warpscope", "plain text"), marks, &error));
    EXPECT_TRUE(Bookmarks::fromJson("{broken").empty());
}
