// Nsight Systems SQLite import: pinned numbers on tests/data/nsys, the same numbers recomputed with
// independent SQL on every shared export, arguments, names, flows and the session-store round trip.
#include "analysis/call_stack.h"
#include "analysis/session_dump.h"
#include "analysis/trace_summary.h"
#include "store/session_store.h"
#include "io/sqlite_database.h"
#include "library/open_trace.h"
#include "test_util.h"

#include <nlohmann/json.hpp>

using namespace ws;
using namespace ws::test;

namespace {

const char* kFile = "nsys/nvfuser_report2_h200_nsys2024.6.sqlite";

int64_t sqlInt(const std::string& path, const std::string& sql) {
    SqliteDatabase db;
    EXPECT_TRUE(db.open(path, SqliteDatabase::Mode::ReadOnly)) << db.error();
    return db.queryInt(sql).value_or(-1);
}

uint64_t countKind(const Session& s, EventKind kind, int64_t* totalNs = nullptr) {
    uint64_t n = 0;
    for (const Track& t : s.tracks())
        for (size_t i = 0; i < t.sliceCount(); ++i)
            if (s.kindOf(t, i) == kind) {
                ++n;
                if (totalNs) *totalNs += t.dur[i];
            }
    return n;
}

} // namespace

TEST(NsysImport, PinnedCountsOnTestData) {
    const ImportResult r = importTraceFile(dataPath(kFile));
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    EXPECT_EQ(s.format(), TraceFormat::NsightSqlite);
    const TraceSummary sum = summarizeSession(s);
    EXPECT_EQ(sum.kernelCount, 19u);
    EXPECT_EQ(sum.kernelTotalNs, 390428);
    EXPECT_EQ(sum.memcpyCount, 1u);
    EXPECT_EQ(sum.memcpyTotalNs, 1600);
    EXPECT_EQ(sum.memcpyBytes.value_or(-1), 1);
    EXPECT_EQ(sum.memsetCount, 1u);
    EXPECT_EQ(sum.memsetTotalNs, 1088);
    EXPECT_EQ(sum.runtimeCalls, 83u);
    EXPECT_EQ(countKind(s, EventKind::Driver), 885u);
    EXPECT_EQ(countKind(s, EventKind::CudaSync), 1u);
    int64_t nvtxNs = 0;
    EXPECT_EQ(countKind(s, EventKind::UserAnnotation, &nvtxNs), 652u);
    EXPECT_EQ(nvtxNs, 1138641400);
    EXPECT_EQ(sum.flows, 21u); // every kernel, memcpy and memset linked to its launch
    EXPECT_EQ(sum.events, 1642u);
    ASSERT_EQ(sum.devices.size(), 1u);
    EXPECT_EQ(sum.devices[0].name, "NVIDIA H200");
    EXPECT_EQ(sum.devices[0].totalMemoryBytes.value_or(0), 150137864192);
    EXPECT_TRUE(sum.devices[0].gpuUtilization.has_value());
    EXPECT_TRUE(sum.devices[0].estSmEfficiency.has_value());
    // Times are anchored at the session's UTC start.
    EXPECT_EQ(s.baseTimeNs().value_or(0), 1733878431540588992);
    EXPECT_FALSE(s.report().truncated());
}

TEST(NsysImport, TracksNamesAndFlows) {
    const ImportResult r = importTraceFile(dataPath(kFile));
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    const Track* stream = findTrack(s, "stream 7");
    ASSERT_NE(stream, nullptr);
    EXPECT_TRUE(stream->gpu);
    EXPECT_EQ(s.processLabel(s.processes()[stream->process]), "GPU 0");
    EXPECT_EQ(s.processes()[stream->process].deviceId, 0);
    const Track* host = findTrack(s, "test_matmul");
    ASSERT_NE(host, nullptr);
    EXPECT_FALSE(host->gpu);
    EXPECT_EQ(s.processLabel(s.processes()[host->process]), "./bin/test_matmul (pid 30571)");
    // Runtime names lose CUPTI's version suffix; driver names keep theirs.
    bool launch = false;
    for (size_t i = 0; i < host->sliceCount(); ++i)
        launch = launch || s.str(host->names[i]) == "cudaLaunchKernel";
    EXPECT_TRUE(launch);
    for (const Flow& f : s.flows()) {
        const Track& from = s.tracks()[f.fromTrack];
        const Track& to = s.tracks()[f.toTrack];
        const EventKind fromKind = s.kindOf(from, f.fromSlice); // nvFuser launches with cuLaunchKernel
        EXPECT_TRUE(fromKind == EventKind::Runtime || fromKind == EventKind::Driver);
        EXPECT_TRUE(isGpuActivity(s.kindOf(to, f.toSlice)));
        ASSERT_FALSE(from.correlation.empty());
        EXPECT_EQ(from.correlation[f.fromSlice], to.correlation[f.toSlice]);
    }
}

TEST(NsysImport, KernelAndMemcpyArguments) {
    const ImportResult r = importTraceFile(dataPath(kFile));
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    const Track* stream = findTrack(s, "stream 7");
    ASSERT_NE(stream, nullptr);
    size_t first = SIZE_MAX, memcpy = SIZE_MAX;
    for (size_t i = 0; i < stream->sliceCount(); ++i) {
        if (s.kindOf(*stream, i) == EventKind::Kernel &&
            (first == SIZE_MAX || stream->start[i] < stream->start[first]))
            first = i;
        if (s.kindOf(*stream, i) == EventKind::Memcpy) memcpy = i;
    }
    ASSERT_NE(first, SIZE_MAX);
    const nlohmann::json k = nlohmann::json::parse(s.eventJson(*stream, first))["args"];
    EXPECT_EQ(k["grid"], nlohmann::json::array({1056, 1, 1}));
    EXPECT_EQ(k["block"], nlohmann::json::array({256, 1, 1}));
    EXPECT_EQ(k["registers per thread"], 40);
    EXPECT_EQ(k["shared memory"], 0);
    EXPECT_EQ(k["correlation"], 158);
    EXPECT_EQ(k["device"], 0);
    EXPECT_EQ(k["stream"], 7);
    EXPECT_NE(k["shortName"].get<std::string>().find("distribution_elementwise_grid_stride_kernel"),
              std::string::npos);
    ASSERT_NE(memcpy, SIZE_MAX);
    const nlohmann::json m = nlohmann::json::parse(s.eventJson(*stream, memcpy))["args"];
    EXPECT_EQ(m["bytes"], 1);
    EXPECT_TRUE(m.contains("copy kind"));
    EXPECT_TRUE(m.contains("memory bandwidth (GB/s)"));
    EXPECT_EQ(s.str(stream->names[memcpy]).rfind("Memcpy ", 0), 0u);
}

TEST(NsysImport, SessionStoreRoundTripKeepsTheSummary) {
    const ImportResult r = importTraceFile(dataPath(kFile));
    ASSERT_TRUE(r.session) << r.error;
    const std::string out = (tempDir() / "nsys_roundtrip.warpscope").string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(*r.session, out, {}, &error)) << error;
    const ImportResult back = openTraceFile(out);
    ASSERT_TRUE(back.session) << back.error;
    nlohmann::json a = nlohmann::json::parse(summaryToJson(summarizeSession(*r.session), true));
    nlohmann::json b = nlohmann::json::parse(summaryToJson(summarizeSession(*back.session), true));
    a.erase("format");
    b.erase("format");
    EXPECT_EQ(a, b);
}

TEST(NsysImport, EverySharedExportMatchesIndependentSql) {
    const std::filesystem::path root = std::filesystem::path(WARPSCOPE_SHARED_TESTDATA_DIR) / "nsys_sqlite";
    if (!std::filesystem::is_directory(root)) GTEST_SKIP() << "no " << root;
    size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(root)) {
        const std::string path = entry.path().string();
        if (entry.path().extension() != ".sqlite") continue;
        SCOPED_TRACE(path);
        const ImportResult r = importTraceFile(path);
        ASSERT_TRUE(r.session) << r.error;
        EXPECT_FALSE(r.session->report().truncated());
        const TraceSummary sum = summarizeSession(*r.session);
        EXPECT_EQ(
            static_cast<int64_t>(sum.kernelCount),
            sqlInt(path,
                   "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE NOT (start = 0 AND end = 0)"));
        EXPECT_EQ(sum.kernelTotalNs,
                  sqlInt(path, "SELECT total(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
        EXPECT_EQ(static_cast<int64_t>(sum.memcpyCount),
                  sqlInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY"));
        EXPECT_EQ(sum.memcpyTotalNs,
                  sqlInt(path, "SELECT total(end - start) FROM CUPTI_ACTIVITY_KIND_MEMCPY"));
        EXPECT_EQ(sum.memcpyBytes.value_or(0),
                  sqlInt(path, "SELECT total(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY"));
        EXPECT_EQ(static_cast<int64_t>(sum.runtimeCalls),
                  sqlInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass = 0"));
        EXPECT_EQ(static_cast<int64_t>(countKind(*r.session, EventKind::Driver)),
                  sqlInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass = 1"));
        EXPECT_EQ(static_cast<int64_t>(sum.devices.size()),
                  sqlInt(path, "SELECT count(*) FROM TARGET_INFO_GPU"));
        // Each GPU row whose launch was traced has its flow.
        std::string gpuRows =
            "SELECT correlationId, globalPid / 16777216 % 16777216 AS pid FROM CUPTI_ACTIVITY_KIND_KERNEL "
            "UNION ALL SELECT correlationId, globalPid / 16777216 % 16777216 FROM CUPTI_ACTIVITY_KIND_MEMCPY";
        if (sqlInt(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'CUPTI_ACTIVITY_KIND_MEMSET'") > 0)
            gpuRows += " UNION ALL SELECT correlationId, globalPid / 16777216 % 16777216 FROM "
                       "CUPTI_ACTIVITY_KIND_MEMSET";
        EXPECT_EQ(
            static_cast<int64_t>(sum.flows),
            sqlInt(
                path,
                "SELECT count(*) FROM (" + gpuRows +
                    ") g WHERE EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = "
                    "g.correlationId AND r.globalTid / 16777216 % 16777216 = g.pid AND r.eventClass IN (0, "
                    "1))"));
        ++files;
    }
    EXPECT_GE(files, 5u);
}

TEST(NsysImport, ReportFileGetsExportInstructions) {
    const std::string path = sharedPath("nsys_sqlite/nvfuser_report1_h200.nsys-rep");
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "no " << path;
    ImportControl withoutNsys; // as on a machine without Nsight Systems (nsys_report_test.cpp has one)
    withoutNsys.nsysExport.searchSystem = false;
    const ImportResult r = importTraceFile(path, withoutNsys);
    EXPECT_FALSE(r.session);
    EXPECT_NE(r.error.find("nsys export --type sqlite -o out.sqlite report.nsys-rep"), std::string::npos)
        << r.error;
}

TEST(NsysImport, ResultDoesNotDependOnThreadsOrRowRanges) {
    ImportControl one;
    one.threads = 1;
    ImportControl many;
    many.threads = 4;
    many.blockBytes = 64 * 50; // ~50 rows per unit: every table is cut into many rowid ranges
    const ImportResult a = importTraceFile(dataPath(kFile), one);
    const ImportResult b = importTraceFile(dataPath(kFile), many);
    ASSERT_TRUE(a.session && b.session);
    EXPECT_EQ(dumpSession(*a.session, 100000), dumpSession(*b.session, 100000));
    EXPECT_EQ(summaryToJson(summarizeSession(*a.session), true),
              summaryToJson(summarizeSession(*b.session), true));
}

TEST(NsysImport, StoredSessionKeepsTheArguments) {
    const std::string path = ws::test::dataPath("nsys/nvfuser_report2_h200_nsys2024.6.sqlite");
    const ws::ImportResult imported = ws::importTraceFile(path);
    ASSERT_NE(imported.session, nullptr) << imported.error;
    const std::string file = (ws::test::tempDir() / "nsys-args.warpscope").string();
    std::string error;
    ASSERT_TRUE(ws::SessionStore::write(*imported.session, file, {}, &error)) << error;
    auto stored = ws::SessionStore::read(file, &error);
    ASSERT_NE(stored, nullptr) << error;
    size_t compared = 0;
    for (size_t t = 0; t < imported.session->tracks().size(); ++t) {
        const ws::Track& a = imported.session->tracks()[t];
        for (size_t i = 0; i < a.sliceCount() && compared < 200; i += 5) {
            const auto original = imported.session->args(a, i);
            if (original.empty())
                continue;
            EXPECT_EQ(stored->args(stored->tracks()[t], i), original) << t << "/" << i;
            ++compared;
        }
    }
    EXPECT_GT(compared, 20u);
}

namespace ws {
namespace {

// nsys backtraces (CUDA_CALLCHAINS) of runtime calls become their `Call stack`: function and
// module per frame, innermost first, without libcupti/libcuda frames; the stack view (callStackFor)
// then shows them as native frames of the kernel's launch.
TEST(NsysImport, RuntimeBacktracesBecomeTheCallStack) {
    const std::string path = test::sharedPath("nsys_sqlite/pipit_saxpy-mpi-cuda_nsys_perlmutter0.sqlite");
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "no " << path;
    auto r = importTraceFile(path);
    ASSERT_NE(r.session, nullptr) << r.error;
    const Session& s = *r.session;
    size_t withStack = 0;
    bool sawMalloc = false;
    for (const Track& t : s.tracks()) {
        for (uint32_t i = 0; i < t.sliceCount(); ++i) {
            if (s.kindOf(t, i) != EventKind::Runtime)
                continue;
            const std::vector<StackFrameText> frames = s.callStack(t, i);
            if (frames.empty())
                continue;
            ++withStack;
            // The stack view of the call: itself, its enclosing slices, then the native frames.
            const CallStack view = callStackFor(s, static_cast<uint32_t>(&t - s.tracks().data()), i);
            const auto native = std::count_if(view.frames.begin(), view.frames.end(),
                                              [](const StackFrame& f) { return f.kind == StackFrameKind::Native; });
            EXPECT_EQ(static_cast<size_t>(native), frames.size());
            EXPECT_EQ(frames.front().file.find("libcupti"), std::string::npos);
            EXPECT_EQ(frames.front().file.find("libcuda."), std::string::npos);
            for (const StackFrameText& f : frames)
                EXPECT_FALSE(f.file.empty()) << f.function;
            if (s.str(t.names[i]).find("cudaMalloc") != std::string_view::npos &&
                frames.front().function.find("cudaMalloc") != std::string::npos)
                sawMalloc = true;
        }
    }
    // In this nsys 2022.2 export 38 backtrace rows (eventClass 67) duplicate runtime calls; one of
    // them points at callchain 0, which has no frames (checked with sqlite3): 37 stacks.
    EXPECT_EQ(withStack, 37u);
    EXPECT_TRUE(sawMalloc);
}

} // namespace
} // namespace ws
