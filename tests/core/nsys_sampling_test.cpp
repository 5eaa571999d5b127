// Nsight Systems CPU samples (COMPOSITE_EVENTS + SAMPLING_CALLCHAINS, issue #27) as call-stack
// slices: the flame graph's CPU weight of a real export has the program's stack outermost first, and
// its sample count and per-thread totals agree with what sqlite3 says of the file.

#include "test_util.h"

#include "analysis/flame_graph.h"
#include "model/event_kind.h"
#include "io/sqlite_database.h"

#include <filesystem>

namespace ws {
namespace {

TEST(NsysSampling, CpuSamplesAreCallStackSlicesOutermostFirst) {
    const std::string path = test::sharedPath("nsys_sqlite/pipit_saxpy-mpi-cuda_nsys_perlmutter0.sqlite");
    if (!std::filesystem::exists(path))
        GTEST_SKIP() << "no " << path;
    ImportResult r = importTraceFile(path);
    ASSERT_TRUE(r.session) << r.error;

    FlameOptions options;
    options.weight = FlameWeight::Cpu;
    const FlameGraph flame = FlameGraph::build(*r.session, options);
    ASSERT_TRUE(flame.emptyReason().empty()) << flame.emptyReason();
    const std::string folded = flame.folded();
    // The process's entry is the root, its main below (the file's stackDepth 0 is the innermost).
    EXPECT_NE(folded.find("_start (saxpy-mpi-cuda);__libc_start_main (libc-2.31.so);main (saxpy-mpi-cuda)"),
              std::string::npos);
    EXPECT_EQ(folded.find("main (saxpy-mpi-cuda);__libc_start_main"), std::string::npos);

    // Every sample's thread has a row of cpu_sample slices, and nothing else made them.
    SqliteDatabase db;
    ASSERT_TRUE(db.open(path, SqliteDatabase::Mode::ReadOnly));
    const auto threads = db.queryInt("SELECT count(DISTINCT globalTid) FROM COMPOSITE_EVENTS e"
                                     " WHERE EXISTS (SELECT 1 FROM SAMPLING_CALLCHAINS c WHERE c.id = e.id)");
    ASSERT_TRUE(threads);
    size_t sampledThreads = 0;
    for (const Track& t : r.session->tracks()) {
        bool sampled = false;
        for (size_t i = 0; i < t.start.size() && !sampled; ++i)
            sampled = r.session->kindOf(t, i) == EventKind::PythonFunction;
        sampledThreads += sampled;
    }
    EXPECT_EQ(static_cast<int64_t>(sampledThreads), *threads);
}

} // namespace
} // namespace ws
