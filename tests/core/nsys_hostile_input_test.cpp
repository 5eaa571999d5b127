// Hostile and broken SQLite inputs for the Nsight Systems and nvprof importers: truncated files,
// right table names with wrong column types, NULLs, negative durations, odd ids, a view that tries
// to load an extension, and a non-SQLite file named .sqlite. Never a crash; an error or a report.
#include "analysis/trace_summary.h"
#include "test_util.h"

#include <sqlite3.h>

using namespace ws;
using namespace ws::test;

namespace {

std::string makeDb(const std::string& name, const std::string& sql) {
    const std::string path = (tempDir() / name).string();
    std::filesystem::remove(path);
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* message = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message), SQLITE_OK)
        << (message ? message : "");
    sqlite3_free(message);
    sqlite3_close(db);
    return path;
}

// Every cut of the file imports to an error or to a session, never a crash.
void importCuts(const std::string& source, const std::string& stem) {
    const std::string bytes = readFile(source);
    ASSERT_GT(bytes.size(), 4096u);
    for (double fraction : {0.05, 0.25, 0.5, 0.75, 0.95}) {
        SCOPED_TRACE(fraction);
        const auto cut = static_cast<size_t>(static_cast<double>(bytes.size()) * fraction);
        const std::string path = writeTemp(stem + std::to_string(cut) + ".sqlite", bytes.substr(0, cut));
        const ImportResult r = importTraceFile(path);
        if (!r.session) {
            EXPECT_FALSE(r.error.empty());
            continue;
        }
        (void)summarizeSession(*r.session);
        for (const Track& t : r.session->tracks())
            if (t.sliceCount() > 0) (void)r.session->eventJson(t, 0);
    }
}

} // namespace

TEST(NsysHostileInput, TruncatedExportsNeverCrash) {
    importCuts(dataPath("nsys/nvfuser_report2_h200_nsys2024.6.sqlite"), "nsys_cut_");
}

TEST(NsysHostileInput, TruncatedNvprofNeverCrashes) {
    importCuts(dataPath("nvprof/profiling-lm_pyprof_nvtx_net.sql"), "nvprof_cut_");
}

TEST(NsysHostileInput, HalfAFileIsAnErrorOrAReportedPartialImport) {
    const std::string bytes = readFile(dataPath("nsys/nvfuser_report2_h200_nsys2024.6.sqlite"));
    const std::string path = writeTemp("nsys_half.sqlite", bytes.substr(0, bytes.size() / 2));
    const ImportResult r = importTraceFile(path);
    if (r.session)
        EXPECT_FALSE(r.session->report().empty());
    else
        EXPECT_FALSE(r.error.empty());
}

TEST(NsysHostileInput, NotSqliteNamedSqlite) {
    const ImportResult r =
        importTraceFile(writeTemp("fake.sqlite", std::string("\x01\x02garbage\x00\xff", 12)));
    EXPECT_FALSE(r.session);
    EXPECT_FALSE(r.error.empty());
    // SQLite magic followed by garbage pages.
    std::string fake("SQLite format 3\0", 16);
    fake += std::string(8192, '\xA5');
    const ImportResult g = importTraceFile(writeTemp("garbage.sqlite", fake));
    EXPECT_FALSE(g.session);
    EXPECT_FALSE(g.error.empty());
}

TEST(NsysHostileInput, WrongTypesNullsAndNegativeDurations) {
    const std::string path = makeDb("nsys_hostile.sqlite", R"(
        CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);
        INSERT INTO StringIds VALUES (1, 'k1'), (2, 'cudaLaunchKernel_v7000'), (3, 'read');
        INSERT INTO StringIds VALUES (4611686018427387904, 'huge id');
        CREATE TABLE TARGET_INFO_GPU(id INTEGER, name TEXT, smCount INTEGER, totalMemory INTEGER);
        INSERT INTO TARGET_INFO_GPU VALUES (0, 'GPU zero', 0, NULL), (1000000000000, 'bad id', -5, 'x');
        CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start TEXT, end BLOB, deviceId TEXT, streamId INTEGER,
            correlationId INTEGER, globalPid INTEGER, shortName INTEGER, gridX TEXT, gridY INTEGER, gridZ INTEGER);
        INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
            (100, 200, 0, 7, 1, 281474993487872, 1, 10, 1, 1),
            ('abc', x'00ff', 'zz', NULL, NULL, NULL, 99, 'q', NULL, NULL),
            (NULL, 5, 0, 7, 2, 0, 1, 1, 1, 1),
            (500, 400, 0, 7, 3, 0, 4611686018427387904, 1, 1, 1),
            (0, 0, 0, 7, 4, 0, 1, 1, 1, 1),
            (9223372036854775807, -9223372036854775808, -1, -1, -1, -1, -1, -1, -1, -1);
        CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER,
            correlationId INTEGER, nameId INTEGER);
        INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (90, 110, 0, 281474993487873, 1, 2),
            (NULL, NULL, NULL, NULL, NULL, NULL), (120, 100, 1, 281474993487873, 9, 777), (1, 2, 67, 0, 0, 2);
        CREATE TABLE NVTX_EVENTS(start INTEGER, end INTEGER, eventType INTEGER, text TEXT, globalTid INTEGER,
            textId INTEGER, domainId INTEGER, color INTEGER);
        INSERT INTO NVTX_EVENTS VALUES (50, NULL, 59, NULL, 281474993487873, NULL, 0, NULL),
            (60, 70, 34, 'mark', 1, NULL, 0, NULL), (10, 300, 60, 'range', 281474993487873, 12345, 0, NULL),
            (NULL, NULL, 59, 'x', NULL, NULL, NULL, NULL), (80, 20, 59, 'backwards', 281474993487873, NULL, 0, NULL),
            (1, NULL, 75, 'mydomain', 281474993487873, NULL, 5, NULL),
            (91, 93, 59, 'in domain', 281474993487873, NULL, 5, 4278190335);
        CREATE TABLE OSRT_API(start INTEGER, end INTEGER, globalTid INTEGER, nameId INTEGER);
        INSERT INTO OSRT_API VALUES (95, 99, 281474993487873, 3), (99, 95, 281474993487873, 3);
        CREATE TABLE TARGET_INFO_GPU_METRICS(typeId INTEGER, metricId INTEGER, metricName TEXT);
        INSERT INTO TARGET_INFO_GPU_METRICS VALUES (0, 1, 'SMs Active [Throughput %]'), (0, 2, 'GPC Clock Frequency [MHz]');
        CREATE TABLE GPU_METRICS(timestamp INTEGER, typeId INTEGER, metricId INTEGER, value INTEGER);
        INSERT INTO GPU_METRICS VALUES (100, 0, 1, 40), (200, 0, 1, 60), (100, 0, 2, 1980000000), (150, 0, 99, 1),
            (NULL, 0, 1, 5);
        CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS(start INTEGER, globalPid INTEGER, deviceId INTEGER, address INTEGER,
            bytes INTEGER, memoryOperationType INTEGER);
        INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES (100, 281474993487872, 0, 4096, 1000, 0),
            (150, 281474993487872, 0, 8192, 500, 0), (200, 281474993487872, 0, 4096, 1000, 1), (NULL, 0, 0, 0, 0, 0);
        CREATE TABLE PROCESSES(globalPid INTEGER, pid INTEGER, name TEXT);
        INSERT INTO PROCESSES VALUES (281474993487872, 1, 'proc'), (NULL, NULL, NULL);
        CREATE TABLE ThreadNames(nameId INTEGER, priority INTEGER, globalTid INTEGER);
        INSERT INTO ThreadNames VALUES (1, 0, 281474993487873), (NULL, NULL, NULL), (999, 0, 281474993487873);
        CREATE TABLE SOME_FUTURE_TABLE(x BLOB);
    )");
    EXPECT_EQ(detectFormat(path), TraceFormat::NsightSqlite);
    const ImportResult r = importTraceFile(path);
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    const ImportReport& rep = s.report();
    EXPECT_GE(rep.count("row without start or end time (skipped)"), 3u) << rep.toText();
    EXPECT_GE(rep.count("row ends before it starts (duration set to 0)"), 3u) << rep.toText();
    EXPECT_EQ(rep.count("kernels without timestamps (skipped)"), 2u)
        << rep.toText(); // (0, 0) and non-numbers
    EXPECT_EQ(rep.count("NVTX range without end (closed at the last GPU/API time)"), 1u) << rep.toText();
    EXPECT_EQ(rep.count("GPU metric samples without a metric name (skipped)"), 1u) << rep.toText();
    const TraceSummary sum = summarizeSession(s);
    EXPECT_EQ(rep.count("row with a time out of range (skipped)"), 1u) << rep.toText();
    EXPECT_EQ(sum.kernelCount, 2u);
    EXPECT_EQ(sum.runtimeCalls, 1u);
    EXPECT_EQ(sum.flows, 1u);
    for (const Track& t : s.tracks())
        for (size_t i = 0; i < t.sliceCount(); ++i) {
            EXPECT_GE(t.dur[i], 0);
            (void)s.eventJson(t, i);
        }
    // NVTX: start/end ranges on the process's async row; domain and colour in the arguments.
    const Track* ranges = findTrack(s, "NVTX start/end ranges");
    ASSERT_NE(ranges, nullptr);
    ASSERT_EQ(ranges->sliceCount(), 1u);
    EXPECT_EQ(s.str(ranges->names[0]), "range");
    bool domainChecked = false;
    for (const Track& t : s.tracks())
        for (size_t i = 0; i < t.sliceCount(); ++i)
            if (s.str(t.names[i]) == "in domain") {
                const std::string json = s.eventJson(t, i);
                EXPECT_NE(json.find("\"domain\":\"mydomain\""), std::string::npos) << json;
                EXPECT_NE(json.find("\"color\":\"#ff0000ff\""), std::string::npos) << json;
                domainChecked = true;
            }
    EXPECT_TRUE(domainChecked);
    // GPU metrics become one counter series per metric under the device.
    size_t metricSeries = 0;
    for (const CounterSeries& c : s.counters())
        if (s.str(c.name) == "SMs Active [Throughput %]") {
            ++metricSeries;
            EXPECT_EQ(c.ts.size(), 2u);
            EXPECT_EQ(s.processes()[c.process].deviceId, 0);
        }
    EXPECT_EQ(metricSeries, 1u);
    // Memory usage: running sum per device, so the peak is 1500 bytes.
    ASSERT_FALSE(sum.devices.empty());
    EXPECT_EQ(sum.devices[0].name, "GPU zero");
    ASSERT_EQ(s.memoryEvents().size(), 3u);
    EXPECT_EQ(s.memoryEvents()[1].totalAllocated, 1500);
    EXPECT_EQ(s.memoryEvents()[2].totalAllocated, 500);
}

TEST(NsysHostileInput, ViewThatLoadsAnExtensionIsNotRun) {
    const std::string path = makeDb("nsys_view.sqlite", R"(
        CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);
        CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS SELECT load_extension('/nonexistent/evil') AS start, 1 AS end;
        CREATE VIEW CUPTI_ACTIVITY_KIND_RUNTIME AS SELECT writefile('/tmp/warpscope_pwned', 'x') AS start, 2 AS end;
    )");
    const ImportResult r = importTraceFile(path);
    ASSERT_TRUE(r.session) << r.error;
    EXPECT_EQ(r.session->sliceCount(), 0u);
    EXPECT_FALSE(std::filesystem::exists("/tmp/warpscope_pwned"));
}

TEST(NsysHostileInput, NvprofWrongTypesAndUnpairedMarkers) {
    const std::string path = makeDb("nvprof_hostile.sqlite", R"(
        CREATE TABLE StringTable(_id_ INTEGER PRIMARY KEY, value TEXT);
        INSERT INTO StringTable VALUES (1, '_Z6kernelPfi'), (2, 'range'), (3, 'not a mangled name');
        CREATE TABLE Version(version INTEGER);
        CREATE TABLE CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL(_id_ INTEGER PRIMARY KEY, start INT, end INT, deviceId INT,
            streamId INT, correlationId INT, name INT, gridX INT, gridY INT, gridZ INT);
        INSERT INTO CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL VALUES (1, 100, 200, 0, 7, 5, 1, 1, 1, 1),
            (2, 'x', NULL, 'y', 7, 6, 3, 1, 1, 1), (3, 300, 250, 0, 7, 7, 99, 1, 1, 1);
        CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(_id_ INTEGER PRIMARY KEY, cbid INT, start INT, end INT, processId INT,
            threadId INT, correlationId INT, returnValue INT);
        INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1, 211, 90, 110, 10, -354666688, 5, 0),
            (2, 999999, 120, 130, 10, -354666688, 0, 0), (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
        CREATE TABLE CUPTI_ACTIVITY_KIND_MARKER(_id_ INTEGER PRIMARY KEY, flags INT, timestamp INT, id INT,
            objectKind INT, objectId BLOB, name INT, domain INT);
        INSERT INTO CUPTI_ACTIVITY_KIND_MARKER VALUES
            (1, 2, 95, 1, 2, x'0a0000004037dcea00000000', 2, 0), (2, 4, 105, 1, 2, x'0a0000004037dcea00000000', 0, 0),
            (3, 2, 96, 2, 2, x'01', 2, 0), (4, 4, 97, 42, 2, NULL, 0, 0), (5, 1, 98, 3, 2, 'text', 2, 0);
        CREATE TABLE CUPTI_ACTIVITY_KIND_DEVICE(_id_ INTEGER PRIMARY KEY, id INT, name INT, numMultiprocessors INT);
        INSERT INTO CUPTI_ACTIVITY_KIND_DEVICE VALUES (1, 0, 77, 0), (2, -3, 2, 80);
    )");
    EXPECT_EQ(detectFormat(path), TraceFormat::NvprofSqlite);
    const ImportResult r = importTraceFile(path);
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    const ImportReport& rep = s.report();
    EXPECT_EQ(rep.count("marker range without end (closed at the last time)"), 1u) << rep.toText();
    EXPECT_EQ(rep.count("marker end without start (dropped)"), 1u) << rep.toText();
    EXPECT_GE(rep.count("row without start or end time (skipped)"), 1u) << rep.toText();
    EXPECT_EQ(rep.count("kernels without timestamps (skipped)"), 1u) << rep.toText();
    const TraceSummary sum = summarizeSession(s);
    EXPECT_EQ(sum.kernelCount, 2u);
    EXPECT_EQ(sum.runtimeCalls, 2u);
    EXPECT_EQ(sum.flows, 1u);
    bool demangled = false, unknownCbid = false;
    for (const Track& t : s.tracks())
        for (size_t i = 0; i < t.sliceCount(); ++i) {
            demangled = demangled || s.str(t.names[i]) == "kernel(float*, int)";
            unknownCbid = unknownCbid || s.str(t.names[i]) == "runtime cbid 999999";
            EXPECT_GE(t.dur[i], 0);
            (void)s.eventJson(t, i);
        }
    EXPECT_TRUE(demangled);
    EXPECT_TRUE(unknownCbid);
}
