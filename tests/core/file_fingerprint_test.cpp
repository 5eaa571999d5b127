// The fingerprint's content hash (ContentHasher): independent of how the bytes are cut, moved by any
// change; the session store hashing the source during its argument pass gives what a separate read
// gives; sessions stored with the first hash ("source_hash") are still found by the library.
#include "import/trace_import.h"
#include "model/session.h"
#include "io/file_fingerprint.h"
#include "library/session_library.h"
#include "store/session_store.h"
#include "io/sqlite_database.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include <fcntl.h>
#include <sys/stat.h>
#include <random>

namespace ws {
namespace {

namespace fs = std::filesystem;

uint64_t hashOf(const std::string& bytes, std::mt19937& rng, bool randomPieces) {
    ContentHasher h(bytes.size());
    for (size_t at = 0; at < bytes.size();) {
        const size_t n = randomPieces ? std::min<size_t>(bytes.size() - at, rng() % 70) : bytes.size() - at;
        h.update(bytes.data() + at, n);
        at += n;
    }
    return h.finish();
}

TEST(ContentHasher, DependsOnTheBytesNotOnTheirPiecesAndSeesEveryChange) {
    std::mt19937 rng(7);
    std::string bytes(10007, '\0');
    for (char& c : bytes)
        c = static_cast<char>(rng());
    const uint64_t whole = hashOf(bytes, rng, false);
    for (int i = 0; i < 5; ++i)
        EXPECT_EQ(hashOf(bytes, rng, true), whole);
    // Any byte, in a full stripe or in the last partial one, in any lane.
    for (size_t at : {size_t(0), size_t(9), size_t(17), size_t(31), size_t(5000), bytes.size() - 1}) {
        std::string changed = bytes;
        changed[at] ^= 0x20;
        EXPECT_NE(hashOf(changed, rng, false), whole) << at;
    }
    EXPECT_NE(hashOf(bytes + '\0', rng, false), whole); // a zero byte more is another file
    EXPECT_NE(hashOf(bytes.substr(0, bytes.size() - 1), rng, false), whole);
    std::string swapped = bytes; // words trading places between lanes
    std::swap_ranges(swapped.begin(), swapped.begin() + 8, swapped.begin() + 8);
    EXPECT_NE(hashOf(swapped, rng, false), whole);
}

TEST(ContentHasher, TheFirstHashIsStillComputedAsBefore) {
    // Sessions stored before ContentHasher keep its value in "source_hash"; this value was computed
    // by an independent Python rendering of that hash (one chain over little-endian 8-byte words).
    const std::string path =
        test::writeTemp("legacy_hash.json", R"({"traceEvents": [{"ph": "X", "name": "k", "ts": 1, "dur": 2}]})");
    EXPECT_EQ(legacyContentHashHex(path), "9423c47a0d6267d4");
}

std::string traceText(int events = 3000) {
    std::string text = R"({"traceEvents": [)";
    for (int i = 0; i < events; ++i)
        text += std::string(i ? "," : "") + R"({"ph": "X", "cat": "kernel", "name": "k)" + std::to_string(i % 7) +
                R"(", "pid": 0, "tid": 7, "ts": )" + std::to_string(10 * i) + R"(, "dur": 5, "args": {"grid": [)" +
                std::to_string(i) + R"(, 1, 1], "correlation": )" + std::to_string(i) + "}}";
    return text + "]}";
}

TEST(ContentHasher, TheStoreHashesTheSourceDuringItsArgumentPassAsAReadWould) {
    for (const bool gzip : {false, true}) {
        const std::string trace =
            gzip ? test::dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz")
                 : test::writeTemp("fingerprint_trace.json", // several read buffers, bytes after the last event
                                   traceText(30000) + std::string(3, ' '));
        const ImportResult imported = importTraceFile(trace);
        ASSERT_NE(imported.session, nullptr) << imported.error;
        const std::string file = (test::tempDir() / "fingerprint.warpscope").string();
        std::string error;
        ASSERT_TRUE(SessionStore::write(*imported.session, file, {}, &error)) << error;
        const auto meta = SessionStore::readMeta(file, &error);
        ASSERT_TRUE(meta.has_value()) << error;
        const auto fp = fingerprintFile(trace);
        ASSERT_TRUE(fp.has_value());
        EXPECT_EQ(meta->at("source_hash2"), fp->hashHex()) << gzip;
        if (!gzip) {
            EXPECT_GT(fp->size, 3u << 20);
        }
        EXPECT_EQ(meta->at("source_size"), std::to_string(fs::file_size(trace))) << gzip;
        EXPECT_EQ(meta->count("source_hash"), 0u);
    }
}

TEST(SessionLibrary, FindsSessionsStoredWithTheFirstHash) {
    const fs::path dir = test::tempDir() / "library_legacy_hash";
    fs::remove_all(dir);
    SessionLibrary library(dir.string());
    const std::string trace = test::writeTemp("legacy_library_trace.json", traceText());
    const auto opened = library.open(trace);
    ASSERT_FALSE(opened.sessionPath.empty()) << opened.error << opened.storeError;
    const auto legacy = legacyContentHashHex(trace);
    ASSERT_TRUE(legacy.has_value());
    // As an older Warpscope stored it: "source_hash" only; and a modification time that no longer
    // matches (a copy of the file), so the content decides.
    auto rewrite = [&](const std::string& hash) {
        SqliteDatabase db;
        ASSERT_TRUE(db.open(opened.sessionPath, SqliteDatabase::Mode::ReadWriteCreate));
        ASSERT_TRUE(db.exec("DELETE FROM meta WHERE key IN ('source_hash2', 'source_hash')"));
        ASSERT_TRUE(db.exec("INSERT INTO meta(key, value) VALUES ('source_hash', '" + hash + "')"));
        ASSERT_TRUE(db.exec("UPDATE meta SET value = '1' WHERE key = 'source_mtime_ns'"));
    };
    rewrite(*legacy);
    EXPECT_EQ(library.findFor(trace), opened.sessionPath);
    rewrite("0123456789abcdef");
    EXPECT_FALSE(library.findFor(trace).has_value());
}

// A trace stored as soon as it was written (its time within the margin of the store) is hashed at
// a reopen; once its time is well past, the session notes that its content was found unchanged
// then, and the next reopen trusts the time again instead of hashing (a job of ranks reopened).
TEST(SessionLibrary, AFreshTraceFoundUnchangedIsTrustedByItsTimeAfterwards) {
    const fs::path dir = test::tempDir() / "library_verified";
    fs::remove_all(dir);
    SessionLibrary library(dir.string());
    const std::string text = traceText();
    const std::string trace = test::writeTemp("verified_library_trace.json", text);
    const auto opened = library.open(trace);
    ASSERT_FALSE(opened.sessionPath.empty()) << opened.error << opened.storeError;
    // The trace written 10 s ago and stored 1 s after that: within the margin, so not trusted.
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    const int64_t mtimeNs = std::chrono::duration_cast<std::chrono::nanoseconds>(now).count() - 10'000'000'000;
    auto setMtime = [&] {
        const timespec times[2] = {{0, UTIME_OMIT}, {mtimeNs / 1'000'000'000, mtimeNs % 1'000'000'000}};
        ASSERT_EQ(::utimensat(AT_FDCWD, trace.c_str(), times, 0), 0);
    };
    setMtime();
    {
        SqliteDatabase db;
        ASSERT_TRUE(db.open(opened.sessionPath, SqliteDatabase::Mode::ReadWrite));
        ASSERT_TRUE(db.exec("UPDATE meta SET value = '" + std::to_string(mtimeNs) + "' WHERE key = 'source_mtime_ns'"));
        ASSERT_TRUE(db.exec("UPDATE meta SET value = '" + std::to_string(mtimeNs + 1'000'000'000) +
                            "' WHERE key = 'created_at_ns'"));
    }
    EXPECT_EQ(library.findFor(trace), opened.sessionPath); // hashed: the same content
    std::string error;
    const auto meta = SessionStore::readMeta(opened.sessionPath, &error);
    ASSERT_TRUE(meta) << error;
    ASSERT_EQ(meta->count("source_verified_ns"), 1u) << "the unchanged content is not noted";
    // Now the time decides: a change that kept the size and the time is not seen (as with git),
    // which shows the file was not hashed again.
    std::string changed = text;
    changed[changed.size() / 2] = changed[changed.size() / 2] == ' ' ? '\t' : changed[changed.size() / 2];
    changed.back() = changed.back() == '\n' ? ' ' : '\n';
    test::writeTemp("verified_library_trace.json", changed);
    setMtime();
    EXPECT_EQ(library.findFor(trace), opened.sessionPath);
    // A time that moved: the content decides again.
    const timespec later[2] = {{0, UTIME_OMIT}, {0, UTIME_NOW}};
    ASSERT_EQ(::utimensat(AT_FDCWD, trace.c_str(), later, 0), 0);
    EXPECT_FALSE(library.findFor(trace).has_value());
}

} // namespace
} // namespace ws
