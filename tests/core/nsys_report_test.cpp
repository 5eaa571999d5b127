// Nsight Systems reports (.nsys-rep) opened through nsys (issue #28). There is no Nsight Systems on
// the test machines: every conversion here runs tests/fake_nsys/nsys, a FAKE nsys (a shell script)
// that checks it is called as the real one is and copies a known SQLite export to --output. What is
// tested is Warpscope's side: finding nsys, the call, progress, errors, cancel and the cache.
#include "analysis/trace_summary.h"
#include "import/nsys_report_export.h"
#include "test_util.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace ws;
using namespace ws::test;
namespace fs = std::filesystem;

namespace {

const char* kKnownExport = "nsys/nvfuser_report2_h200_nsys2024.6.sqlite";

// A report as far as Warpscope's sniffing goes: the magic of a real .nsys-rep ("NVIDIA Tegra
// Profiler Report", tests/../shared/testdata's nvfuser_report1_h200.nsys-rep begins so) and filler.
// The fake nsys never reads past its existence.
std::string writeReport(const std::string& name) {
    const fs::path path = tempDir() / name;
    std::ofstream out(path, std::ios::binary);
    out << "NVIDIA Tegra Profiler Report 2025@1@1@110-251135" << std::string(4000, '\x01');
    return path.string();
}

/* The fake's behaviour for one test, through its environment (restored afterwards). */
struct FakeNsys {
    explicit FakeNsys(const char* mode, const std::string& log = {}) {
        ::setenv("FAKE_NSYS_SQLITE", dataPath(kKnownExport).c_str(), 1);
        ::setenv("FAKE_NSYS_MODE", mode, 1);
        if (!log.empty())
            ::setenv("FAKE_NSYS_LOG", log.c_str(), 1);
    }
    ~FakeNsys() {
        ::unsetenv("FAKE_NSYS_MODE");
        ::unsetenv("FAKE_NSYS_LOG");
    }
};

ImportControl fakeControl(const std::string& cache) {
    ImportControl control;
    control.nsysExport.nsys = WARPSCOPE_FAKE_NSYS;
    control.nsysExport.searchSystem = false; // a real nsys on the machine must not stand in for the fake
    control.nsysExport.cacheDir = cache;
    return control;
}

size_t lines(const std::string& path) {
    std::ifstream in(path);
    size_t n = 0;
    for (std::string line; std::getline(in, line);)
        ++n;
    return n;
}

std::vector<std::string> filesIn(const std::string& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        names.push_back(it->path().filename().string());
    return names;
}

} // namespace

TEST(NsysReport, FakeNsysExportIsImportedLikeTheSqlite) {
    FakeNsys fake("ok");
    const std::string report = writeReport("convert.nsys-rep");
    ASSERT_EQ(detectFormat(report), TraceFormat::NsightReport);
    ImportControl control = fakeControl((tempDir() / "cache-convert").string());
    std::vector<double> seen;
    control.progress = [&](double f) { seen.push_back(f); };
    const ImportResult viaReport = importTraceFile(report, control);
    ASSERT_TRUE(viaReport.session) << viaReport.error;
    const ImportResult direct = importTraceFile(dataPath(kKnownExport));
    ASSERT_TRUE(direct.session);
    const TraceSummary a = summarizeSession(*viaReport.session), b = summarizeSession(*direct.session);
    EXPECT_EQ(a.kernelCount, b.kernelCount);
    EXPECT_EQ(a.events, b.events);
    EXPECT_EQ(viaReport.session->format(), TraceFormat::NsightSqlite);
    // nsys' bar (50 %, 100 %) is the first half, the import the second; never backwards.
    ASSERT_FALSE(seen.empty());
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_NEAR(seen.front(), 0.25, 1e-9);
    EXPECT_GE(seen.back(), 0.9);
}

TEST(NsysReport, ReopeningAnUnchangedReportReusesTheExport) {
    const std::string log = (tempDir() / "calls.log").string();
    FakeNsys fake("ok", log);
    const std::string report = writeReport("reuse.nsys-rep");
    const std::string cache = (tempDir() / "cache-reuse").string();
    const ImportControl control = fakeControl(cache);
    ASSERT_TRUE(importTraceFile(report, control).session);
    ASSERT_TRUE(importTraceFile(report, control).session);
    EXPECT_EQ(lines(log), 1u) << "the second open ran nsys again";
    EXPECT_FALSE(cachedNsysExport(report, control.nsysExport).empty());
    // Rewritten (another recording under the same name): exported again, the old export replaced.
    fs::last_write_time(report, fs::last_write_time(report) + std::chrono::seconds(5));
    EXPECT_TRUE(cachedNsysExport(report, control.nsysExport).empty());
    ASSERT_TRUE(importTraceFile(report, control).session);
    EXPECT_EQ(lines(log), 2u);
    EXPECT_EQ(filesIn(cache).size(), 1u);
}

TEST(NsysReport, FailingNsysIsReportedInItsOwnWords) {
    FakeNsys fake("fail");
    const std::string report = writeReport("fail.nsys-rep");
    const std::string cache = (tempDir() / "cache-fail").string();
    const ImportResult r = importTraceFile(report, fakeControl(cache));
    EXPECT_FALSE(r.session);
    EXPECT_FALSE(r.cancelled);
    EXPECT_NE(r.error.find("exit code 3"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("the report is damaged (section 7 unreadable)"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find(WARPSCOPE_FAKE_NSYS), std::string::npos) << r.error;
    EXPECT_TRUE(filesIn(cache).empty()) << "a failed export must leave nothing in the cache";
}

TEST(NsysReport, CancelStopsNsysAndLeavesNothing) {
    FakeNsys fake("hang");
    const std::string report = writeReport("cancel.nsys-rep");
    const std::string cache = (tempDir() / "cache-cancel").string();
    ImportControl control = fakeControl(cache);
    std::atomic<bool> cancel{false};
    control.cancel = &cancel;
    std::thread user([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        cancel = true;
    });
    const auto t0 = std::chrono::steady_clock::now();
    const ImportResult r = importTraceFile(report, control);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    user.join();
    EXPECT_TRUE(r.cancelled);
    EXPECT_FALSE(r.session);
    EXPECT_LT(seconds, 10.0) << "the hanging nsys was not stopped";
    EXPECT_TRUE(filesIn(cache).empty());
}

TEST(NsysReport, WithoutNsysTheMessageStillSaysHowToExport) {
    const std::string report = writeReport("nonsys.nsys-rep");
    ImportControl control;
    control.nsysExport.searchSystem = false; // as on a machine without Nsight Systems
    control.nsysExport.cacheDir = (tempDir() / "cache-none").string();
    const ImportResult r = importTraceFile(report, control);
    EXPECT_FALSE(r.session);
    EXPECT_NE(r.error.find("nsys export --type sqlite -o out.sqlite report.nsys-rep"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("once nsys is installed or configured"), std::string::npos) << r.error;
    // A configured nsys that is not there is named, not silently replaced.
    control.nsysExport.nsys = "/nonexistent/nsys";
    const ImportResult configured = importTraceFile(report, control);
    EXPECT_NE(configured.error.find("/nonexistent/nsys"), std::string::npos) << configured.error;
}

TEST(NsysReport, FindsNsysOnPathAndTheNewestInstall) {
    const fs::path root = tempDir() / "opt-nvidia";
    auto exe = [&](const fs::path& rel) {
        fs::create_directories((root / rel).parent_path());
        std::ofstream(root / rel) << "#!/bin/sh\n";
        fs::permissions(root / rel, fs::perms::owner_all);
        return (root / rel).string();
    };
    EXPECT_EQ(newestNsysUnder(root.string()), "");
    exe("nsight-systems/2024.6.2/bin/nsys");
    const std::string newest = exe("nsight-systems/2025.1.1/target-linux-x64/nsys"); // no bin/ in this one
    exe("nsight-systems/2024.10.1/bin/nsys"); // newer than 2024.6 by number, older than 2025.1
    exe("nsight-systems-cli/2023.4.1/bin/nsys");
    fs::create_directories(root / "nsight-systems/2026.1.1/bin");
    std::ofstream(root / "nsight-systems/2026.1.1/bin/nsys") << "not executable";
    EXPECT_EQ(newestNsysUnder(root.string()), newest);
    const std::string onPath = (root / "nsight-systems/2024.6.2/bin/nsys").string();
    EXPECT_EQ(nsysOnPath("/nonexistent:" + (root / "nsight-systems/2024.6.2/bin").string() + ":/usr/bin"), onPath);
    EXPECT_EQ(nsysOnPath("/nonexistent"), "");
}
