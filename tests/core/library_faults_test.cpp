// The library and the importers under the faults of issue #16 that a unit test can stage: a file
// that changes while it is imported, a store that finds its name taken at the last moment, and the
// temp files of a killed store. The kill, disk-full and two-process tests run the real CLI
// (tests/cli/check_library_faults.py).
#include "analysis/kernel_table.h"
#include "analysis/operator_tree.h"
#include "analysis/session_analyses.h"
#include "import/trace_import.h"
#include "model/session.h"
#include "library/session_library.h"
#include "store/session_store.h"
#include "test_util.h"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace ws;
using namespace ws::test;
namespace fs = std::filesystem;

namespace {

std::string traceText(int events) {
    std::string text = R"({"traceEvents": [)";
    for (int i = 0; i < events; ++i)
        text += std::string(i ? "," : "") + R"({"ph": "X", "name": "op", "pid": 1, "tid": 1, "ts": )" + std::to_string(i * 10) +
                R"(, "dur": 5})";
    return text + "]}";
}

} // namespace

TEST(LibraryFaults, AFileThatChangesWhileImportedIsReported) {
    const std::string path = writeTemp("growing.json", traceText(2000));
    ImportControl control;
    bool appended = false;
    control.progress = [&](double) {
        if (!appended) { // the program writing the trace is not done yet
            std::ofstream(path, std::ios::app) << "\n   ";
            appended = true;
        }
    };
    const ImportResult changed = importTraceFile(path, control);
    ASSERT_TRUE(changed.session) << changed.error;
    ASSERT_TRUE(appended);
    EXPECT_NE(changed.session->report().toText().find("the file changed on disk while it was being imported"),
              std::string::npos)
        << changed.session->report().toText();
    // Left alone, the same file imports without that note.
    const ImportResult still = importTraceFile(path);
    ASSERT_TRUE(still.session);
    EXPECT_EQ(still.session->report().toText().find("changed on disk"), std::string::npos);
}

TEST(LibraryFaults, AStoreNeverReplacesASessionThatTookItsName) {
    const ImportResult r = importTraceFile(writeTemp("small.json", traceText(10)));
    ASSERT_TRUE(r.session);
    const fs::path dir = tempDir() / "no_replace";
    fs::create_directories(dir);
    const std::string path = (dir / "run.warpscope").string();
    SessionWriteOptions keep;
    keep.keepExisting = true;
    std::string first, second, error;
    keep.writtenPath = &first;
    ASSERT_TRUE(SessionStore::write(*r.session, path, keep, &error)) << error;
    keep.writtenPath = &second;
    ASSERT_TRUE(SessionStore::write(*r.session, path, keep, &error)) << error;
    EXPECT_EQ(first, path);
    EXPECT_EQ(second, (dir / "run-2.warpscope").string());
    EXPECT_TRUE(SessionStore::read(first, &error) && SessionStore::read(second, &error));
}

TEST(LibraryFaults, CleanUpRemovesWhatKilledStoresLeftAndNothingElse) {
    const fs::path dir = tempDir() / "cleanup";
    fs::create_directories(dir);
    const ImportResult r = importTraceFile(writeTemp("kept.json", traceText(10)));
    ASSERT_TRUE(r.session);
    std::string error;
    ASSERT_TRUE(SessionStore::write(*r.session, (dir / "kept.warpscope").string(), {}, &error));
    // A writer that is gone (pid 1 << 22 is above Linux's pid_max) and its journal; one still running (us).
    const std::string dead = "x.warpscope.tmp-" + std::to_string(1 << 22);
    std::ofstream(dir / dead) << "half a session";
    std::ofstream(dir / (dead + "-journal")) << "j";
    const std::string alive = "y.warpscope.tmp-" + std::to_string(::getpid());
    std::ofstream(dir / alive) << "being written";
    // A session file something else damaged (half copied): moved aside, not deleted.
    std::ofstream(dir / "copied.warpscope") << "SQLite format 3";
    const SessionLibrary::Cleanup done = SessionLibrary(dir.string()).cleanUp();
    EXPECT_EQ(done.interruptedStores, 1u);
    EXPECT_EQ(done.removedFiles.size(), 2u);
    EXPECT_FALSE(fs::exists(dir / dead));
    EXPECT_TRUE(fs::exists(dir / alive));
    EXPECT_TRUE(fs::exists(dir / "kept.warpscope"));
    ASSERT_EQ(done.movedAside.size(), 1u);
    EXPECT_EQ(done.movedAside[0], (dir / "damaged" / "copied.warpscope").string());
    EXPECT_TRUE(fs::exists(done.movedAside[0]));
    EXPECT_FALSE(fs::exists(dir / "copied.warpscope"));
    ASSERT_EQ(SessionLibrary(dir.string()).list().size(), 1u);
    // Nothing left to do the second time.
    const SessionLibrary::Cleanup again = SessionLibrary(dir.string()).cleanUp();
    EXPECT_TRUE(again.removedFiles.empty() && again.movedAside.empty());
}

TEST(LibraryFaults, AClosingViewStopsTheArgumentPass) {
    // A view that closes sets its flag: the pass over the arguments stops, and the half-built tree is
    // neither shown nor kept in the session's analyses.
    const ImportResult r = importTraceFile(dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz"));
    ASSERT_TRUE(r.session);
    std::atomic<bool> closing{true};
    OperatorTreeOptions options;
    options.cancel = &closing;
    const OperatorTree stopped = OperatorTree::build(*r.session, options);
    EXPECT_TRUE(stopped.cancelled());
    EXPECT_FALSE(stopped.argsLoaded());
    EXPECT_FALSE(stopped.anyShapes());
    SessionAnalyses analyses(r.session);
    EXPECT_EQ(analyses.operatorTree(true, &closing), nullptr);
    EXPECT_EQ(analyses.operatorTreeIfReady(true), nullptr);
    closing = false;
    const auto full = analyses.operatorTree(true, &closing);
    ASSERT_TRUE(full);
    EXPECT_TRUE(full->argsLoaded());
    EXPECT_TRUE(full->anyShapes());
    // The kernel table's argument passes stop too: no launch geometry read.
    closing = true;
    KernelTableOptions kernelOptions;
    kernelOptions.cancel = &closing;
    const KernelTable kernels = KernelTable::build(*r.session, kernelOptions);
    ASSERT_GT(kernels.size(), 0u);
    for (size_t i = 0; i < kernels.size(); ++i)
        EXPECT_EQ(kernels.row(i).grid[0], 0);
    const KernelTable read = KernelTable::build(*r.session); // uncancelled, the trace has them
    bool anyGrid = false;
    for (size_t i = 0; i < read.size(); ++i)
        anyGrid |= read.row(i).grid[0] > 0;
    EXPECT_TRUE(anyGrid);
}
