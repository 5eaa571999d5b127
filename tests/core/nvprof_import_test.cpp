// nvprof SQLite import: pinned numbers on tests/data/nvprof, independent SQL on the shared files,
// marker ranges, API names from callback ids, demangled kernel names, arguments.
#include "analysis/trace_summary.h"
#include "io/sqlite_database.h"
#include "test_util.h"

#include <nlohmann/json.hpp>

using namespace ws;
using namespace ws::test;

namespace {

const char* kFile = "nvprof/profiling-lm_pyprof_nvtx_net.sql";

int64_t sqlInt(const std::string& path, const std::string& sql) {
    SqliteDatabase db;
    EXPECT_TRUE(db.open(path, SqliteDatabase::Mode::ReadOnly)) << db.error();
    return db.queryInt(sql).value_or(-1);
}

uint64_t countKind(const Session& s, EventKind kind) {
    uint64_t n = 0;
    for (const Track& t : s.tracks())
        for (size_t i = 0; i < t.sliceCount(); ++i)
            n += s.kindOf(t, i) == kind;
    return n;
}

} // namespace

TEST(NvprofImport, PinnedCountsOnTestData) {
    const ImportResult r = importTraceFile(dataPath(kFile));
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    EXPECT_EQ(s.format(), TraceFormat::NvprofSqlite);
    const TraceSummary sum = summarizeSession(s);
    EXPECT_EQ(sum.kernelCount, 160u);
    EXPECT_EQ(sum.kernelTotalNs, 7296770);
    EXPECT_EQ(sum.memcpyCount, 21u);
    EXPECT_EQ(sum.memsetCount, 8u);
    EXPECT_EQ(sum.runtimeCalls, 1968u);
    EXPECT_EQ(countKind(s, EventKind::UserAnnotation), 683u); // 1366 marker rows = 683 start/end pairs
    EXPECT_EQ(countKind(s, EventKind::CudaSync), 23u);
    EXPECT_EQ(sum.flows, 189u);
    ASSERT_EQ(sum.devices.size(), 1u);
    EXPECT_EQ(sum.devices[0].name, "Tesla V100-SXM2-16GB");
    EXPECT_TRUE(sum.devices[0].gpuUtilization.has_value());
    EXPECT_EQ(sum.startNs, 1583978808645121207); // absolute epoch ns, as nvprof stores them
    EXPECT_TRUE(s.report().empty()) << s.report().toText();
}

TEST(NvprofImport, NamesMarkersAndArguments) {
    const ImportResult r = importTraceFile(dataPath(kFile));
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    bool launch = false, demangled = true, marker = false;
    const Track* markerTrack = nullptr;
    for (const Track& t : s.tracks())
        for (size_t i = 0; i < t.sliceCount(); ++i) {
            const std::string_view name = s.str(t.names[i]);
            const EventKind k = s.kindOf(t, i);
            launch = launch || (k == EventKind::Runtime && name == "cudaLaunchKernel");
            if (k == EventKind::Kernel) demangled = demangled && name.rfind("_Z", 0) != 0 && !name.empty();
            if (k == EventKind::UserAnnotation && !marker) {
                marker = true;
                markerTrack = &t;
            }
        }
    EXPECT_TRUE(launch);
    EXPECT_TRUE(demangled);
    ASSERT_TRUE(markerTrack);
    // Markers share the thread track of the runtime calls (thread id masked to 32 bits).
    EXPECT_GT(countKind(s, EventKind::Runtime), 0u);
    bool runtimeOnSameTrack = false;
    for (size_t i = 0; i < markerTrack->sliceCount(); ++i)
        runtimeOnSameTrack = runtimeOnSameTrack || s.kindOf(*markerTrack, i) == EventKind::Runtime;
    EXPECT_TRUE(runtimeOnSameTrack);
    for (const Track& t : s.tracks())
        for (size_t i = 0; i < t.sliceCount(); ++i)
            if (s.kindOf(t, i) == EventKind::Kernel) {
                const nlohmann::json a = nlohmann::json::parse(s.eventJson(t, i))["args"];
                EXPECT_TRUE(a["grid"].is_array());
                EXPECT_TRUE(a["block"].is_array());
                EXPECT_TRUE(a.contains("registers per thread"));
                EXPECT_TRUE(a.contains("shared memory"));
                return;
            }
    FAIL() << "no kernel";
}

TEST(NvprofImport, SharedFilesMatchIndependentSql) {
    const std::filesystem::path root = std::filesystem::path(WARPSCOPE_SHARED_TESTDATA_DIR) / "nvprof_sqlite";
    if (!std::filesystem::is_directory(root)) GTEST_SKIP() << "no " << root;
    size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(root)) {
        const std::string path = entry.path().string();
        SCOPED_TRACE(path);
        const ImportResult r = importTraceFile(path);
        ASSERT_TRUE(r.session) << r.error;
        const TraceSummary sum = summarizeSession(*r.session);
        EXPECT_EQ(static_cast<int64_t>(sum.kernelCount),
                  sqlInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL") +
                      sqlInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
        EXPECT_EQ(sum.kernelTotalNs,
                  sqlInt(path, "SELECT total(end - start) FROM CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL") +
                      sqlInt(path, "SELECT total(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
        EXPECT_EQ(static_cast<int64_t>(sum.memcpyCount),
                  sqlInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY") +
                      sqlInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY2"));
        EXPECT_EQ(static_cast<int64_t>(sum.memsetCount),
                  sqlInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET"));
        EXPECT_EQ(static_cast<int64_t>(sum.runtimeCalls),
                  sqlInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
        EXPECT_EQ(static_cast<int64_t>(countKind(*r.session, EventKind::Driver)),
                  sqlInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_DRIVER"));
        EXPECT_EQ(static_cast<int64_t>(countKind(*r.session, EventKind::UserAnnotation)),
                  sqlInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MARKER WHERE flags = 2"));
        EXPECT_EQ(static_cast<int64_t>(sum.devices.size()),
                  sqlInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_DEVICE"));
        ++files;
    }
    EXPECT_EQ(files, 2u);
}
