// A remote trace is parsed while it downloads (issue #14, core/import/remote_import.h): the test
// server holds back the second half of the object until the test releases it, and the importer
// must have parsed the first half by then; the result equals the local import. A dropped
// connection resumed mid-import and a cancel while waiting for bytes are covered too.
#include "import/trace_import.h"
#include "model/session.h"
#include "remote_test_support.h"
#include "test_util.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace ws;
using namespace ws::test;

namespace {

// A plain-JSON copy of a real trace, so the bytes on the wire are the bytes parsed.
std::string plainTrace(const Dirs& d) {
    const std::string path = d.root + "/trace.json";
    std::system(("gzip -dc '" + dataPath("dlrm_8ranks/worker0_step_12.1694128201545.pt.trace.json.gz") + "' > '" + path + "'").c_str());
    return path;
}

uint64_t sizeOf(const std::string& path) { return readFile(path).size(); }

void get(const TestServer& server, const std::string& path) {
    std::system(("curl -s -o /dev/null '" + server.url(path) + "'").c_str());
}

// Waits (a guard against a hang, not a timing) until pred holds; false if it never did.
template <typename Pred>
bool eventually(Pred pred) {
    for (int i = 0; i < 1200 && !pred(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return pred();
}

} // namespace

TEST(RemoteImport, ParsesTheFirstHalfBeforeTheSecondArrives) {
    if (!havePython() || std::system("curl --version > /dev/null 2>&1") != 0)
        GTEST_SKIP() << "python3 or curl is not installed";
    const Dirs d = makeDirs("remote_stream");
    const std::string trace = plainTrace(d);
    const uint64_t size = sizeOf(trace);
    ASSERT_GT(size, 500000u);
    TestServer server({d.root, "--pause-at", std::to_string(size / 2)});
    ::setenv("WARPSCOPE_REMOTE_CACHE", d.cache.c_str(), 1);

    std::atomic<double> progress{0};
    ImportControl control;
    control.blockBytes = 64 << 10; // parse blocks finish long before half the object
    control.progress = [&](double f) { progress = std::max(progress.load(), f); };
    ImportResult remote;
    std::thread import([&] { remote = importTraceFile(server.url("/trace.json"), control); });
    // Blocks of the first half were parsed while the second half was still held back.
    const bool parsedEarly = eventually([&] { return progress.load() > 0.1; });
    const double atRelease = progress.load();
    get(server, "/_release");
    import.join();
    ::unsetenv("WARPSCOPE_REMOTE_CACHE");
    EXPECT_TRUE(parsedEarly) << "no progress while the download was half done";
    EXPECT_LE(atRelease, 0.9 * 0.5 + 0.01) << "read past what had arrived";

    ASSERT_TRUE(remote.session) << remote.error;
    const ImportResult local = importTraceFile(trace);
    ASSERT_TRUE(local.session);
    EXPECT_EQ(remote.textBytes, local.textBytes);
    EXPECT_EQ(remote.session->sliceCount(), local.session->sliceCount());
    EXPECT_EQ(remote.session->tracks().size(), local.session->tracks().size());
    EXPECT_TRUE(remote.session->report().toText() == local.session->report().toText());
    // The session reads its events' arguments from the finished cached copy.
    const std::string cached = d.cache; // one object in it
    EXPECT_EQ(remote.session->sourcePath().rfind(cached, 0), 0u) << remote.session->sourcePath();
    EXPECT_EQ(readFile(remote.session->sourcePath()), readFile(trace));
}

TEST(RemoteImport, ResumesADroppedConnectionMidImport) {
    if (!havePython())
        GTEST_SKIP() << "python3 is not installed";
    const Dirs d = makeDirs("remote_stream_drop");
    const std::string trace = plainTrace(d);
    TestServer server({d.root, "--drop-after", std::to_string(sizeOf(trace) / 3)});
    ::setenv("WARPSCOPE_REMOTE_CACHE", d.cache.c_str(), 1);
    ImportControl control;
    control.blockBytes = 64 << 10;
    const ImportResult remote = importTraceFile(server.url("/trace.json"), control);
    ::unsetenv("WARPSCOPE_REMOTE_CACHE");
    ASSERT_TRUE(remote.session) << remote.error;
    const ImportResult local = importTraceFile(trace);
    EXPECT_EQ(remote.textBytes, local.textBytes);
    EXPECT_EQ(remote.session->sliceCount(), local.session->sliceCount());
    EXPECT_EQ(remote.session->report().toText(), local.session->report().toText());
}

TEST(RemoteImport, CancelWhileWaitingForBytesLeavesNothingBehind) {
    if (!havePython() || std::system("curl --version > /dev/null 2>&1") != 0)
        GTEST_SKIP() << "python3 or curl is not installed";
    const Dirs d = makeDirs("remote_stream_cancel");
    const std::string trace = plainTrace(d);
    TestServer server({d.root, "--pause-at", std::to_string(sizeOf(trace) / 2)});
    ::setenv("WARPSCOPE_REMOTE_CACHE", d.cache.c_str(), 1);
    std::atomic<bool> cancel{false};
    std::atomic<double> progress{0};
    ImportControl control;
    control.blockBytes = 64 << 10;
    control.cancel = &cancel;
    control.progress = [&](double f) { progress = std::max(progress.load(), f); };
    ImportResult remote;
    std::atomic<bool> done{false};
    std::thread import([&] {
        remote = importTraceFile(server.url("/trace.json"), control);
        done = true;
    });
    const bool parsedEarly = eventually([&] { return progress.load() > 0.1; });
    cancel = true; // the server still holds the second half back
    const bool returned = eventually([&] { return done.load(); });
    get(server, "/_release"); // let a stuck import finish before the verdict
    import.join();
    ::unsetenv("WARPSCOPE_REMOTE_CACHE");
    EXPECT_TRUE(parsedEarly);
    EXPECT_TRUE(returned) << "the import did not stop while waiting for bytes";
    EXPECT_TRUE(remote.cancelled);
    EXPECT_FALSE(remote.session);
    const std::string leftovers = tempDir() / "remote_stream_cancel_ls.txt";
    std::system(("find '" + d.cache + "' -type f -name 'trace.json*' > '" + leftovers + "'").c_str());
    EXPECT_EQ(readFile(leftovers), "");
}
