// warpscope-capture end to end with fake workloads: no GPU and no CUDA driver needed.

#include "format/wscapcodec.h"
#include "launch/stacksymbolizer.h"
#include "wscapfixtures.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>

namespace {

struct Result {
    int code = -1;
    std::string err;
};

std::string quote(const std::string& s) {
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// Runs warpscope-capture with a fake injection library (any existing file: nothing loads it
// without a CUDA driver) and a driver name that cannot load, as on a machine without a GPU.
Result capture(const std::string& args, bool fakeInject = true) {
    const std::string errFile = wstest::tempPath("capture_stderr");
    std::string cmd = "WARPSCOPE_CUDA_DRIVER_LIBRARY=libwarpscope-no-such-driver.so.1 " +
                      quote(WARPSCOPE_CAPTURE_BIN) + " ";
    if (fakeInject)
        cmd += "--inject " + quote(WARPSCOPE_CAPTURE_BIN) + " ";
    cmd += args + " 2>" + quote(errFile);
    const int raw = std::system(cmd.c_str());
    Result r;
    r.code = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.err = wstest::readFile(errFile);
    std::remove(errFile.c_str());
    return r;
}

} // namespace

TEST(CaptureCli, HelpAndVersion) {
    EXPECT_EQ(capture("--help", false).code, 0);
    EXPECT_EQ(capture("--version", false).code, 0);
}

TEST(CaptureCli, BadCommandLineIsExit125) {
    Result r = capture("--no-such-option -o x -- true");
    EXPECT_EQ(r.code, 125);
    EXPECT_NE(r.err.find("unknown option --no-such-option"), std::string::npos) << r.err;
    r = capture("-- true");
    EXPECT_EQ(r.code, 125);
    EXPECT_NE(r.err.find("-o OUT"), std::string::npos) << r.err;
    r = capture("--activities kernel,bogus -o x -- true");
    EXPECT_EQ(r.code, 125);
    EXPECT_NE(r.err.find("unknown activity 'bogus'"), std::string::npos) << r.err;
}

TEST(CaptureCli, MissingInjectionLibraryIsAClearError) {
    const std::string out = wstest::tempPath("cap_noinject");
    const Result r = capture("--inject /nonexistent/libwarpscope_inject.so -o " + quote(out) + " -- true", false);
    EXPECT_EQ(r.code, 125);
    EXPECT_NE(r.err.find("not found"), std::string::npos) << r.err;
}

TEST(CaptureCli, NoDriverRunsTheProgramAndPassesItsExitCodeThrough) {
    const std::string out = wstest::tempPath("cap_nodriver");
    const Result r = capture("-o " + quote(out) + " -- sh -c 'exit 7'");
    EXPECT_EQ(r.code, 7);
    EXPECT_NE(r.err.find("no CUDA driver"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("nothing was captured"), std::string::npos) << r.err;
}

TEST(CaptureCli, CheckHostNamesTheDriversCudaVersion) {
    // What a remote client reads (launch/remotecapture.h parseHostCheck): this program's version,
    // whether the driver loads and which CUDA it supports.
    const std::string outFile = wstest::tempPath("check_host_out");
    const std::string cmd = "WARPSCOPE_CUDA_DRIVER_LIBRARY=" + quote(WSCAP_FAKE_CUDA_DRIVER) +
                            " WSCAP_FAKE_CUDA_VERSION=12080 " + quote(WARPSCOPE_CAPTURE_BIN) + " --check-host >" +
                            quote(outFile);
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    const std::string out = wstest::readFile(outFile);
    EXPECT_NE(out.find("warpscope-capture "), std::string::npos) << out;
    EXPECT_NE(out.find("\ncuda-driver yes 12080\n"), std::string::npos) << out;
    // A driver library without cuDriverGetVersion: present, version unknown.
    const Result r = capture("--check-host", false);
    EXPECT_EQ(r.code, 0);
}

TEST(CaptureCli, ProgramNotFoundIs127) {
    const std::string out = wstest::tempPath("cap_notfound");
    const Result r = capture("-o " + quote(out) + " -- warpscope-no-such-program --x");
    EXPECT_EQ(r.code, 127);
    EXPECT_NE(r.err.find("cannot run warpscope-no-such-program"), std::string::npos) << r.err;
}

TEST(CaptureCli, KilledProgramIs128PlusSignal) {
    const std::string out = wstest::tempPath("cap_signal");
    const Result r = capture("-o " + quote(out) + " -- sh -c 'kill -TERM $$'");
    EXPECT_EQ(r.code, 128 + 15);
}

TEST(CaptureCli, SetsTheInjectionEnvironment) {
    const std::string out = wstest::tempPath("cap_env");
    const std::string seen = wstest::tempPath("cap_env_seen");
    const Result r = capture("--activities kernel,nvtx --sample-hz 5 --flush-ms 250 --delay 1.5 --name run1 "
                             "--capture-range=cudaProfilerApi -o " +
                             quote(out) + " -- sh -c 'env | grep -E \"^(CUDA|NVTX|WARPSCOPE)_\" | sort > " + seen + "'");
    EXPECT_EQ(r.code, 0) << r.err;
    const std::string env = wstest::readFile(seen);
    EXPECT_NE(env.find("CUDA_INJECTION64_PATH=/"), std::string::npos) << env;
    EXPECT_NE(env.find("NVTX_INJECTION64_PATH=/"), std::string::npos) << env;
    EXPECT_NE(env.find("WARPSCOPE_ACTIVITIES=kernel,nvtx\n"), std::string::npos) << env;
    EXPECT_NE(env.find("WARPSCOPE_SAMPLE_HZ=5\n"), std::string::npos) << env;
    EXPECT_NE(env.find("WARPSCOPE_FLUSH_MS=250\n"), std::string::npos) << env;
    EXPECT_NE(env.find("WARPSCOPE_DELAY_MS=1500\n"), std::string::npos) << env;
    EXPECT_NE(env.find("WARPSCOPE_NAME=run1\n"), std::string::npos) << env;
    EXPECT_NE(env.find("WARPSCOPE_CAPTURE_RANGE=cudaProfilerApi\n"), std::string::npos) << env;
    EXPECT_NE(env.find("WARPSCOPE_OUTPUT=/"), std::string::npos) << env;
    std::remove(seen.c_str());
}

TEST(CaptureCli, CaptureRangeTakesOnlyTheProfilerApi) {
    const std::string out = wstest::tempPath("cap_range");
    const Result r = capture("--capture-range nvtx -o " + quote(out) + " -- true");
    EXPECT_EQ(r.code, 125) << r.err;
    EXPECT_NE(r.err.find("--capture-range takes cudaProfilerApi, not 'nvtx'"), std::string::npos) << r.err;
}

TEST(CaptureCli, SummarizesTheStreamsTheRunWrote) {
    using namespace ws::wscap;
    // A fake workload "captures" by copying a prepared stream into $WARPSCOPE_OUTPUT: a cut-off one
    // (no footer, as after SIGKILL) with two kernels, a dropped count and an error.
    std::string bytes = fileHeader();
    StreamHeaderRecord h;
    h.pid = 4242;
    h.rank = 1;
    appendRecord(bytes, h);
    appendRecord(bytes, KernelRecord{});
    appendRecord(bytes, KernelRecord{});
    appendRecord(bytes, DroppedRecord{1, 0, 5});
    appendRecord(bytes, ErrorRecord{2, 2, 35, "pm-sampling", "insufficient privileges"});
    const std::string prepared = wstest::tempPath("prepared.wscap");
    wstest::writeFile(prepared, bytes);
    const std::string out = wstest::tempPath("cap_summary");
    const Result r = capture("-o " + quote(out) + " -- sh -c 'cp " + prepared + " \"$WARPSCOPE_OUTPUT/4242.wscap\"'");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("1 capture written"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("4242.wscap rank 1"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("2 kernels"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("dropped 5"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("cut off"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("insufficient privileges"), std::string::npos) << r.err;
    std::remove(prepared.c_str());
    std::remove((out + "/4242.wscap").c_str());
}

TEST(WscapDump, PrintsCountsAndRecords) {
    using namespace ws::wscap;
    std::string bytes = fileHeader();
    appendRecord(bytes, StringRecord{1, "cudaLaunchKernel_v7000"});
    ApiRecord a;
    a.nameId = 1;
    appendRecord(bytes, a);
    appendRecord(bytes, a);
    const std::string path = wstest::tempPath("dump.wscap");
    wstest::writeFile(path, bytes);
    const std::string outFile = wstest::tempPath("dump_out");
    const int raw = std::system((quote(WSCAP_DUMP_BIN) + " -n 2 " + quote(path) + " > " + quote(outFile)).c_str());
    EXPECT_EQ(WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, 0);
    const std::string text = wstest::readFile(outFile);
    EXPECT_NE(text.find("nameId=1(\"cudaLaunchKernel_v7000\")"), std::string::npos) << text;
    EXPECT_NE(text.find("-- 3 records"), std::string::npos) << text;
    EXPECT_NE(text.find("Api                  2"), std::string::npos) << text;
    std::remove(path.c_str());
    std::remove(outFile.c_str());
}

TEST(CaptureCli, StacksOptionSetsTheActivityAndDepth) {
    const std::string out = wstest::tempPath("cap_stacks_env");
    const std::string seen = wstest::tempPath("cap_stacks_env_seen");
    const Result r = capture("--stacks --stack-depth 12 -o " + quote(out) + " -- sh -c 'env | grep -E \"^WARPSCOPE_\" > " +
                             seen + "'");
    EXPECT_EQ(r.code, 0) << r.err;
    const std::string env = wstest::readFile(seen);
    EXPECT_NE(env.find("WARPSCOPE_ACTIVITIES=kernel,memcpy,memset,memory,nvtx,overhead,nvml,stacks,host,launches,collectives,graphs\n"),
              std::string::npos)
        << env;
    EXPECT_NE(env.find("WARPSCOPE_STACK_DEPTH=12\n"), std::string::npos) << env;
    std::remove(seen.c_str());
    EXPECT_EQ(capture("--stack-depth 40 -o " + quote(out) + " -- true").code, 125);
}

TEST(CaptureCli, StacksAreSymbolizedAfterTheRun) {
    // The probe writes a stream holding its own native stack into $WARPSCOPE_OUTPUT, as the
    // injection library would; warpscope-capture then runs addr2line on it.
    const std::string out = wstest::tempPath("cap_stacks");
    Result r = capture("--activities default,stacks -o " + quote(out) + " -- " + quote(WSCAP_STACK_PROBE_BIN));
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("1 launch stacks"), std::string::npos) << r.err;
    if (!ws::stacksymbolizer::findAddr2Line().empty()) {
        EXPECT_NE(r.err.find("1 distinct launch stacks"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("code addresses symbolized to file:line"), std::string::npos) << r.err;
    }
    // Without addr2line: one note, and the run still succeeds.
    ::setenv("WARPSCOPE_ADDR2LINE", "/nonexistent/addr2line", 1);
    r = capture("--stacks -o " + quote(wstest::tempPath("cap_stacks_notool")) + " -- " + quote(WSCAP_STACK_PROBE_BIN));
    ::unsetenv("WARPSCOPE_ADDR2LINE");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("[warpscope] note: addr2line not found"), std::string::npos) << r.err;
}
