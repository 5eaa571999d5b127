// Capture streams (wscap) into Sessions: the real H200 captures in tests/data/captures (counts from
// wscap-dump and captures/README.md), capture directories, truncated and hostile streams.

#include "test_util.h"
#include "wscapfixtures.h"

#include "format/activitylist.h"

#include "analysis/call_stack.h"
#include "analysis/comm_ops.h"
#include "analysis/kernel_table.h"
#include "analysis/overview.h"
#include "analysis/recorded_spans.h"

#include "model/event_kind.h"
#include "store/session_store.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

namespace ws {
namespace {

namespace fs = std::filesystem;

std::string capturePath(const std::string& name) { return test::dataPath("captures/" + name); }

/* Slice counts per EventKind plus instants, for pinning against wscap-dump. */
struct Counts {
    std::map<EventKind, size_t> kinds;
    size_t instants = 0;
    size_t of(EventKind k) const {
        auto it = kinds.find(k);
        return it == kinds.end() ? 0 : it->second;
    }
};

Counts countKinds(const Session& s) {
    Counts c;
    for (const Track& t : s.tracks()) {
        for (size_t i = 0; i < t.start.size(); ++i)
            ++c.kinds[s.kindOf(t, i)];
        c.instants += t.instantTs.size();
    }
    return c;
}

std::shared_ptr<const Session> importOk(const std::string& path) {
    ImportResult r = importTraceFile(path);
    EXPECT_TRUE(r.session) << path << ": " << r.error;
    return r.session;
}

// A scratch directory holding copies of the named captures.
std::string captureDir(const std::string& dirName, const std::vector<std::pair<std::string, std::string>>& files) {
    const fs::path dir = test::tempDir() / dirName;
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const auto& [from, to] : files)
        fs::copy_file(capturePath(from), dir / to);
    return dir.string();
}

TEST(CaptureImport, DetectsCapturesByContent) {
    EXPECT_EQ(detectFormat(capturePath("vector_add.wscap")), TraceFormat::WarpscopeCapture);
    EXPECT_EQ(detectFormat(capturePath("resnet18.wscap.gz")), TraceFormat::WarpscopeCapture);
    // The name does not matter, the bytes do.
    const std::string renamed = test::writeTemp("capture.bin", test::readFile(capturePath("vector_add.wscap")));
    EXPECT_EQ(detectFormat(renamed), TraceFormat::WarpscopeCapture);
    EXPECT_EQ(detectFormat(captureDir("detect_dir", {{"vector_add.wscap", "649.wscap"}})),
              TraceFormat::WarpscopeCapture);
    const fs::path empty = test::tempDir() / "empty_dir";
    fs::create_directories(empty);
    EXPECT_EQ(detectFormat(empty.string()), TraceFormat::Unknown);
    ImportResult r = importTraceFile(empty.string());
    EXPECT_FALSE(r.session);
    EXPECT_NE(r.error.find("directory"), std::string::npos) << r.error;
}

TEST(CaptureImport, VectorAddMatchesTheStream) {
    auto s = importOk(capturePath("vector_add.wscap"));
    ASSERT_TRUE(s);
    EXPECT_EQ(s->format(), TraceFormat::WarpscopeCapture);
    EXPECT_EQ(s->sourceEventCount(), 177u); // records, as wscap-dump counts them
    const Counts c = countKinds(*s);
    EXPECT_EQ(c.of(EventKind::Kernel), 20u);
    EXPECT_EQ(c.of(EventKind::Memcpy), 3u);
    EXPECT_EQ(c.of(EventKind::Memset), 1u);
    EXPECT_EQ(c.of(EventKind::Runtime) + c.of(EventKind::Driver), 49u);
    EXPECT_EQ(c.of(EventKind::CudaSync), 10u);
    EXPECT_EQ(c.of(EventKind::UserAnnotation), 10u); // NVTX ranges
    EXPECT_EQ(c.of(EventKind::Overhead), 9u);
    EXPECT_EQ(c.instants, 1u); // the NVTX mark
    EXPECT_EQ(s->memoryEvents().size(), 6u);
    EXPECT_FALSE(s->report().truncated());

    ASSERT_EQ(s->devices().size(), 1u);
    EXPECT_EQ(s->devices()[0].id, 0);
    EXPECT_EQ(s->devices()[0].name, "NVIDIA H200");
    EXPECT_EQ(s->devices()[0].numSms, 132);
    size_t gpus = 0;
    for (const ProcessInfo& p : s->processes())
        gpus += p.deviceId >= 0;
    EXPECT_EQ(gpus, 1u);

    // NVML: 7 metrics x 4 samples on GPU 0.
    ASSERT_EQ(s->counters().size(), 7u);
    for (const CounterSeries& cs : s->counters()) {
        EXPECT_EQ(cs.ts.size(), 4u);
        EXPECT_EQ(s->processes()[cs.process].deviceId, 0);
    }
    // Times are CUPTI ns (epoch).
    EXPECT_GT(s->startNs(), int64_t(1'700'000'000) * 1'000'000'000);
}

TEST(CaptureImport, NamesArgumentsAndFlows) {
    auto s = importOk(capturePath("vector_add.wscap"));
    ASSERT_TRUE(s);
    const std::regex versioned(".*_v[0-9]+$");
    bool sawKernelArgs = false, sawMemcpyArgs = false;
    for (const Track& t : s->tracks())
        for (size_t i = 0; i < t.start.size(); ++i) {
            const EventKind k = s->kindOf(t, i);
            const std::string name(s->str(t.names[i]));
            if (k == EventKind::Runtime || k == EventKind::Driver) {
                EXPECT_FALSE(std::regex_match(name, versioned)) << name;
            }
            if (k == EventKind::Kernel && !sawKernelArgs) {
                EXPECT_TRUE(t.gpu);
                EXPECT_EQ(name.find("_Z"), std::string::npos) << "kernel names are demangled: " << name;
                const std::string json = s->eventJson(t, i);
                for (const char* key : {"\"grid\"", "\"block\"", "\"registers per thread\"", "\"shared memory\"",
                                        "\"correlation\"", "\"stream\"", "\"device\""})
                    EXPECT_NE(json.find(key), std::string::npos) << key << " in " << json;
                std::map<std::string, std::string> args;
                for (const auto& [key, value] : s->args(t, i))
                    args[key] = value;
                EXPECT_EQ(args["correlation"], std::to_string(t.correlation[i]));
                sawKernelArgs = true;
            }
            if (k == EventKind::Memcpy && !sawMemcpyArgs) {
                const std::string json = s->eventJson(t, i);
                EXPECT_NE(json.find("\"bytes\""), std::string::npos) << json;
                EXPECT_NE(json.find("\"kind\""), std::string::npos) << json;
                ASSERT_FALSE(t.bytes.empty());
                EXPECT_GT(t.bytes[i], 0);
                sawMemcpyArgs = true;
            }
        }
    EXPECT_TRUE(sawKernelArgs);
    EXPECT_TRUE(sawMemcpyArgs);

    // Every flow goes from a runtime/driver call to GPU work with the same correlation id.
    ASSERT_FALSE(s->flows().empty());
    for (const Flow& f : s->flows()) {
        const Track& from = s->tracks()[f.fromTrack];
        const Track& to = s->tracks()[f.toTrack];
        const EventKind fk = s->kindOf(from, f.fromSlice);
        EXPECT_TRUE(fk == EventKind::Runtime || fk == EventKind::Driver);
        EXPECT_TRUE(to.gpu);
        EXPECT_EQ(from.correlation[f.fromSlice], to.correlation[f.toSlice]);
    }
}

// Issue #25: a capture recorded without the runtime finds every launch, copy and wait at the driver.
// Those driver calls are the program's CUDA calls then, and play the runtime's part: flow starts,
// the step breakdown's Runtime. With the runtime recorded, a driver call stays a driver call.
TEST(CaptureImport, DriverCallsStandForTheRuntimeInACaptureRecordedWithoutIt) {
    using namespace wscap;
    auto stream = [](uint32_t activities) {
        std::string out = fileHeader();
        auto add = [&](const auto& record) { appendRecord(out, record); };
        StreamHeaderRecord h;
        h.pid = 100;
        h.activities = activities;
        add(h);
        add(ContextRecord{1, 0, 7, 0});
        add(StringRecord{1, "cuLaunchKernel"});
        add(StringRecord{2, "cuStreamSynchronize"});
        add(StringRecord{3, "gemm"});
        ApiRecord launch;
        launch.domain = static_cast<uint8_t>(ApiDomain::Driver);
        launch.cbid = 307;
        launch.nameId = 1;
        launch.start = 1'000'000;
        launch.end = 1'005'000;
        launch.processId = launch.threadId = 100;
        launch.correlationId = 5;
        add(launch);
        KernelRecord k;
        k.start = 1'010'000;
        k.end = 1'500'000;
        k.contextId = 1;
        k.streamId = 7;
        k.correlationId = 5;
        k.nameId = 3;
        k.gridX = k.gridY = k.gridZ = k.blockX = k.blockY = k.blockZ = 1;
        add(k);
        ApiRecord wait = launch;
        wait.cbid = 125;
        wait.nameId = 2;
        wait.start = 1'006'000;
        wait.end = 1'501'000;
        wait.correlationId = 6;
        add(wait);
        FooterRecord f;
        f.timestamp = 2'000'000;
        add(f);
        return out;
    };
    for (const bool runtime : {false, true}) {
        const uint32_t activities = kDefaultActivities | (runtime ? ActRuntime : 0u);
        ImportResult r = importTraceFile(test::writeTemp(runtime ? "rt.wscap" : "drv.wscap", stream(activities)));
        ASSERT_TRUE(r.session) << r.error;
        const Session& s = *r.session;
        const EventKind expected = runtime ? EventKind::Driver : EventKind::Runtime;
        size_t calls = 0;
        for (const Track& t : s.tracks())
            for (size_t i = 0; i < t.sliceCount(); ++i)
                if (!t.gpu) {
                    EXPECT_EQ(s.kindOf(t, i), expected) << s.str(t.names[i]) << ", runtime recorded: " << runtime;
                    ++calls;
                }
        EXPECT_EQ(calls, 2u);
        ASSERT_EQ(s.flows().size(), 1u);
        EXPECT_EQ(s.str(s.tracks()[s.flows()[0].fromTrack].names[s.flows()[0].fromSlice]), "cuLaunchKernel");
    }
}

TEST(CaptureImport, ResNetKernelCountAndSteps) {
    auto s = importOk(capturePath("resnet18.wscap.gz"));
    ASSERT_TRUE(s);
    const Counts c = countKinds(*s);
    EXPECT_EQ(c.of(EventKind::Kernel), 11550u); // 385 per step x 30 (captures/README.md)
    EXPECT_EQ(c.of(EventKind::Memcpy), 184u);
    EXPECT_EQ(c.of(EventKind::Memset), 694u);
    EXPECT_EQ(c.of(EventKind::Runtime) + c.of(EventKind::Driver), 13784u);
    EXPECT_EQ(c.of(EventKind::UserAnnotation), 30u);
    EXPECT_EQ(s->memoryEvents().size(), 1052u);
    EXPECT_FALSE(s->report().truncated());
    EXPECT_EQ(s->report().count("activity records dropped by CUPTI"), 0u);
    // The per-step NVTX ranges by name.
    std::set<std::string> steps;
    for (const Track& t : s->tracks())
        for (size_t i = 0; i < t.start.size(); ++i)
            if (s->kindOf(t, i) == EventKind::UserAnnotation)
                steps.insert(std::string(s->str(t.names[i])));
    EXPECT_EQ(steps.size(), 30u);
    EXPECT_TRUE(steps.count("step 0"));
    // Allocation totals run per device and never go negative on a clean capture.
    for (const MemoryEvent& m : s->memoryEvents()) {
        EXPECT_EQ(m.deviceId, 0);
        EXPECT_GE(m.totalAllocated, 0);
    }
}

TEST(CaptureImport, KilledTargetImportsEverythingBeforeTheCut) {
    auto s = importOk(capturePath("sigkill.wscap"));
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->report().truncated());
    EXPECT_NE(s->report().toText().find("no Footer"), std::string::npos) << s->report().toText();
    const Counts c = countKinds(*s);
    EXPECT_EQ(c.of(EventKind::Kernel), 1412u);
    EXPECT_EQ(c.of(EventKind::Memcpy), 2u);

    // Cut in the middle of a record: the complete records before it still import.
    const std::string bytes = test::readFile(capturePath("sigkill.wscap"));
    const std::string cut = test::writeTemp("cut.wscap", bytes.substr(0, bytes.size() / 2 + 3));
    auto half = importOk(cut);
    ASSERT_TRUE(half);
    EXPECT_TRUE(half->report().truncated());
    const size_t kernels = countKinds(*half).of(EventKind::Kernel);
    EXPECT_GT(kernels, 100u);
    EXPECT_LT(kernels, 1412u);
}

TEST(CaptureImport, DirectoryOfTwoRanksGivesTwoProcessesAndTwoGpus) {
    const std::string dir =
        captureDir("ddp", {{"ddp_rank0.wscap.gz", "848.wscap.gz"}, {"ddp_rank1.wscap.gz", "849.wscap.gz"}});
    auto s = importOk(dir);
    ASSERT_TRUE(s);
    std::set<int64_t> hostPids;
    std::set<int> devices;
    std::set<std::string> labels;
    for (const ProcessInfo& p : s->processes()) {
        if (p.deviceId >= 0)
            devices.insert(p.deviceId);
        else
            hostPids.insert(p.pid.number);
        labels.insert(std::string(s->str(p.labels)));
    }
    EXPECT_EQ(hostPids, (std::set<int64_t>{848, 849}));
    EXPECT_EQ(devices, (std::set<int>{0, 1})); // rank r ran on GPU r
    EXPECT_TRUE(labels.count("rank 0"));
    EXPECT_TRUE(labels.count("rank 1"));
    EXPECT_EQ(s->devices().size(), 2u);
    const Counts c = countKinds(*s);
    EXPECT_EQ(c.of(EventKind::Kernel), 2 * 8870u);
    EXPECT_EQ(c.of(EventKind::Memcpy), 2 * 2841u);
    // Each rank's kernels are on its own GPU.
    std::map<int, size_t> kernelsPerDevice;
    for (const Track& t : s->tracks())
        for (size_t i = 0; i < t.start.size(); ++i)
            if (s->kindOf(t, i) == EventKind::Kernel)
                ++kernelsPerDevice[s->processes()[t.process].deviceId];
    EXPECT_EQ(kernelsPerDevice[0], 8870u);
    EXPECT_EQ(kernelsPerDevice[1], 8870u);
    // Flows stay within their own process.
    for (const Flow& f : s->flows()) {
        const Track& from = s->tracks()[f.fromTrack];
        const Track& to = s->tracks()[f.toTrack];
        const int64_t pid = s->processes()[from.process].pid.number;
        EXPECT_EQ(s->processes()[to.process].deviceId, pid == 848 ? 0 : 1);
    }

    // With the launcher's stream too: three host processes, still two GPUs; its NVML samples join
    // the same GPUs' counters.
    const std::string all = captureDir("ddp_all", {{"ddp_rank0.wscap.gz", "848.wscap.gz"},
                                                   {"ddp_rank1.wscap.gz", "849.wscap.gz"},
                                                   {"ddp_launcher.wscap.gz", "800.wscap.gz"}});
    auto s3 = importOk(all);
    ASSERT_TRUE(s3);
    size_t hosts = 0, gpus = 0;
    for (const ProcessInfo& p : s3->processes())
        (p.deviceId >= 0 ? gpus : hosts)++;
    EXPECT_EQ(hosts, 3u);
    EXPECT_EQ(gpus, 2u);
    EXPECT_EQ(s3->counters().size(), 14u); // 7 NVML metrics x 2 GPUs
}

TEST(CaptureImport, SameGpuUsedByTwoProcessesKeepsStreamsApart) {
    // The same stream twice (as if two processes shared GPU 0): one GPU, streams not merged.
    const std::string dir = captureDir("shared", {{"vector_add.wscap", "a.wscap"}, {"vector_add.wscap", "b.wscap"}});
    auto s = importOk(dir);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->devices().size(), 1u);
    EXPECT_EQ(countKinds(*s).of(EventKind::Kernel), 40u);
    std::set<std::string> streams;
    for (const Track& t : s->tracks())
        if (t.gpu)
            streams.insert(s->trackLabel(t));
    EXPECT_TRUE(streams.count("stream 13 (pid 649)")) << *streams.begin();
    EXPECT_EQ(streams.size() % 2, 0u);
}

TEST(CaptureImport, StoredSessionKeepsArguments) {
    // What `warpscope-cli import CAPTURE -o OUT.warpscope` and the session library do.
    const std::string dir =
        captureDir("store", {{"ddp_rank0.wscap.gz", "848.wscap.gz"}, {"ddp_rank1.wscap.gz", "849.wscap.gz"}});
    auto s = importOk(dir);
    ASSERT_TRUE(s);
    const std::string out = (test::tempDir() / "capture.warpscope").string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(*s, out, SessionWriteOptions{}, &error)) << error;
    auto back = SessionStore::read(out, &error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(countKinds(*back).of(EventKind::Kernel), countKinds(*s).of(EventKind::Kernel));
    EXPECT_EQ(back->flows().size(), s->flows().size());
    EXPECT_EQ(back->devices().size(), 2u);
    for (const Track& t : back->tracks())
        for (size_t i = 0; i < t.start.size(); ++i)
            if (back->kindOf(t, i) == EventKind::Kernel) {
                EXPECT_NE(back->eventJson(t, i).find("registers per thread"), std::string::npos);
                return;
            }
    ADD_FAILURE() << "no kernel";
}

TEST(CaptureImport, HostileStreamsFailOrImportPartially) {
    const std::string good = test::readFile(capturePath("vector_add.wscap"));
    ASSERT_GT(good.size(), 2000u);
    const std::string header = good.substr(0, 16);

    // Random bytes after a valid file header, several seeds: never a crash.
    for (unsigned seed = 1; seed <= 20; ++seed) {
        std::mt19937 rng(seed);
        std::string bytes = header;
        for (int i = 0; i < 4096; ++i)
            bytes.push_back(static_cast<char>(rng() & 0xff));
        ImportResult r = importTraceFile(test::writeTemp("random.wscap", bytes));
        if (r.session)
            EXPECT_FALSE(r.session->report().empty()) << "seed " << seed;
        else
            EXPECT_FALSE(r.error.empty());
    }

    // Valid records, then one claiming a 4 GB payload: everything before it imports, and the
    // report says the stream is corrupt.
    const size_t keep = 2000;
    std::string huge = good.substr(0, keep);
    // Find the record boundary at or before `keep` by walking record headers.
    size_t pos = 16, boundary = 16;
    while (pos + 8 <= keep) {
        const uint32_t size = uint32_t(uint8_t(good[pos + 4])) | uint32_t(uint8_t(good[pos + 5])) << 8 |
                              uint32_t(uint8_t(good[pos + 6])) << 16 | uint32_t(uint8_t(good[pos + 7])) << 24;
        if (pos + 8 + size > keep)
            break;
        pos += 8 + size;
        boundary = pos;
    }
    huge = good.substr(0, boundary);
    huge += std::string("\x05\x00\x00\x00\xf0\xff\xff\xff", 8);
    huge += std::string(64, '\0');
    ImportResult r = importTraceFile(test::writeTemp("huge.wscap", huge));
    ASSERT_TRUE(r.session) << r.error;
    EXPECT_NE(r.session->report().toText().find("corrupt capture stream"), std::string::npos)
        << r.session->report().toText();
    EXPECT_GT(r.session->sourceEventCount(), 5u);

    // A record of the right type whose payload is too short for its strings.
    std::string bad = good.substr(0, boundary);
    bad += std::string("\x04\x00\x00\x00\x08\x00\x00\x00", 8);           // String record, 8 bytes
    bad += std::string("\x01\x00\x00\x00\xff\xff\xff\x7f", 8);           // id 1, length 2^31-1
    r = importTraceFile(test::writeTemp("bad.wscap", bad));
    ASSERT_TRUE(r.session) << r.error;
    EXPECT_GE(r.session->report().count("malformed capture records (skipped)"), 1u);

    // Another major version, and only a magic.
    std::string v2 = good;
    v2[8] = 2;
    r = importTraceFile(test::writeTemp("v2.wscap", v2));
    EXPECT_FALSE(r.session);
    EXPECT_FALSE(r.error.empty());
    r = importTraceFile(test::writeTemp("magic.wscap", good.substr(0, 8)));
    EXPECT_FALSE(r.session);
    EXPECT_FALSE(r.error.empty());
}

bool wscapPlumbing(const std::string& file) {
    for (const char* p : {"libcupti", "libcuda.", "libcudart", "libwarpscope_inject"})
        if (file.rfind(p, 0) == 0)
            return true;
    return false;
}

/* Little-endian record bytes written by hand (the layout of capture/format/wscapformat.h), so the
 * importer is checked against the format's text, not against its own codec. */
struct StreamBytes {
    std::string bytes = std::string("WSCAP\0\r\n", 8) + std::string("\x01\x00\x01\x00\x00\x00\x00\x00", 8);
    std::string p; // payload being built
    StreamBytes& u8(uint8_t v) { p.push_back(static_cast<char>(v)); return *this; }
    StreamBytes& u32(uint32_t v) { for (int i = 0; i < 4; ++i) p.push_back(static_cast<char>(v >> (8 * i))); return *this; }
    StreamBytes& u64(uint64_t v) { for (int i = 0; i < 8; ++i) p.push_back(static_cast<char>(v >> (8 * i))); return *this; }
    StreamBytes& i32(int32_t v) { return u32(static_cast<uint32_t>(v)); }
    StreamBytes& str(const std::string& s) { u32(static_cast<uint32_t>(s.size())); p += s; return *this; }
    StreamBytes& addrs(const std::vector<uint64_t>& a) { u32(static_cast<uint32_t>(a.size())); for (uint64_t v : a) u64(v); return *this; }
    void end(uint16_t type) {
        bytes.push_back(static_cast<char>(type & 0xff));
        bytes.push_back(static_cast<char>(type >> 8));
        bytes += std::string(2, '\0');
        const auto n = static_cast<uint32_t>(p.size());
        for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<char>(n >> (8 * i)));
        bytes += p;
        p.clear();
    }
    void header(uint32_t pid) { u32(pid).u32(1).str("host").u64(0).u64(0).u32(0).u32(0).u32(0).str("").str("").i32(-1).u32(1u << 13).u32(500).u32(0).end(1); }
    void string(uint32_t id, const std::string& t) { u32(id).str(t).end(4); }
    void api(uint32_t corr, uint64_t start) { u8(0).u32(211).u32(1).u64(start).u64(start + 1000).u32(100).u32(101).u32(corr).u32(0).end(8); }
    void kernel(uint32_t corr, uint64_t start) {
        u64(start).u64(start + 500).u32(0).u32(1).u32(7).u32(corr);
        for (int i = 0; i < 6; ++i) i32(1);
        u32(16).i32(0).i32(0).u32(0).u32(2).end(5); // registers, shared, local, name id 2; the rest default
    }
    void module(uint32_t id, uint64_t bias, uint64_t start, uint64_t size, const std::string& path) { u32(id).u64(bias).u64(start).u64(size).str(path).str("").end(22); }
    void stack(uint32_t id, const std::vector<uint64_t>& a) { u32(id).addrs(a).end(23); }
    void launch(uint32_t corr, uint32_t stack) { u32(corr).u32(stack).u8(0).u32(211).u32(101).end(24); }
    void symbol(uint32_t module, uint64_t offset, uint32_t depth, const std::string& fn, const std::string& file, uint32_t line) { u32(module).u64(offset).u32(depth).str(fn).str(file).u32(line).end(25); }
    void footer() { u64(0).u8(0).u64(0).u64(0).end(19); }
    void launchWithPython(uint32_t corr, uint32_t stack, uint32_t pyStack) { u32(corr).u32(stack).u8(0).u32(211).u32(101).u32(pyStack).end(24); }
    void pyFrame(uint32_t id, uint32_t line, const std::string& fn, const std::string& file) { u32(id).u32(line).str(fn).str(file).end(26); }
    void pyStack(uint32_t id, const std::vector<uint64_t>& frames) { u32(id).addrs(frames).end(27); }
    void range(uint32_t name, uint32_t domain, uint64_t start, uint64_t end) {
        u64(start).u64(end).u32(name).u32(domain).u32(100).u32(101).u32(101).u32(0).u8(0).u32(0).u32(0).end(11);
    }
    void kernelNamed(uint32_t corr, uint64_t start, uint32_t nameId) {
        u64(start).u64(start + 500).u32(0).u32(1).u32(7).u32(corr);
        for (int i = 0; i < 6; ++i) i32(1);
        u32(16).i32(0).i32(0).u32(0).u32(nameId).end(5);
    }
    void collective(uint32_t corr, uint64_t start, uint32_t func, uint32_t dtype, uint64_t count, uint64_t comm,
                    uint32_t commName, int32_t rank, int32_t ranks) {
        u64(start).u64(start + 100).u32(101).u32(corr).u32(func).u32(dtype).u64(count).i32(-1).u64(comm).u32(commName)
            .i32(rank).i32(ranks).u8(0).end(28);
    }
};

// Builds a capture of one launch (correlation 5) with a native stack crossing the CUDA driver, a
// static cudart function, an inlined frame, code without symbols, a module without debug info and
// an address outside every module; a second launch (6) has no stack.
std::string stackCapture(bool withSymbols) {
    StreamBytes b;
    b.header(100);
    b.string(1, "cudaLaunchKernel_v7000");
    b.string(2, "_Z3fooPf");
    b.module(1, 0x10000, 0x11000, 0x5000, "/opt/app/bin/app");
    b.module(2, 0x7000000, 0x7001000, 0x100000, "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
    b.module(3, 0x9000000, 0x9001000, 0x1000, "/opt/app/lib/libnodebug.so");
    b.stack(1, {0x7001234, 0x11100, 0x11200, 0x11300, 0x9001010, 0xdead0000, 0x11400});
    b.launch(5, 1);
    b.api(5, 1000);
    b.api(6, 5000);
    b.kernel(5, 3000);
    b.kernel(6, 7000);
    b.footer();
    if (withSymbols) { // appended after the Footer, as warpscope-capture does after the run
        b.symbol(2, 0x1234, 0, "cuLaunchKernel", "", 0);
        b.symbol(1, 0x1100, 0, "cudaLaunchKernel", "", 0);
        b.symbol(1, 0x1200, 1, "run()", "/src/app.cu", 30); // inline levels in any order
        b.symbol(1, 0x1200, 0, "inl()", "/src/app.cu", 7);
        b.symbol(3, 0x1010, 0, "nd_func", "", 0);
        b.symbol(1, 0x1400, 0, "main", "/src/app.cu", 40);
    }
    return b.bytes;
}

struct Launches {
    std::map<uint32_t, std::string> stackOfCorrelation; // `Call stack` argument per launch call
    std::vector<std::pair<uint32_t, uint32_t>> kernels; // (track, slice)
};

Launches launchesOf(const Session& s) {
    Launches l;
    for (uint32_t ti = 0; ti < s.tracks().size(); ++ti) {
        const Track& t = s.tracks()[ti];
        for (uint32_t i = 0; i < t.sliceCount(); ++i) {
            const EventKind k = s.kindOf(t, i);
            if (k == EventKind::Kernel)
                l.kernels.emplace_back(ti, i);
            if (k != EventKind::Runtime && k != EventKind::Driver)
                continue;
            for (const auto& [key, value] : s.args(t, i))
                if (key == "Call stack")
                    l.stackOfCorrelation[t.correlation[i]] = value;
        }
    }
    return l;
}

TEST(CaptureImport, NativeStacksBecomeTheLaunchCallStack) {
    auto s = importOk(test::writeTemp("stacks.wscap", stackCapture(true)));
    ASSERT_TRUE(s);
    const Launches l = launchesOf(*s);
    ASSERT_EQ(l.stackOfCorrelation.size(), 1u); // the launch without a stack gets no argument
    // Innermost first; libcuda and the static cudart frame are dropped, inline levels expand.
    EXPECT_EQ(l.stackOfCorrelation.at(5), "/src/app.cu(7): inl();/src/app.cu(30): run();app(0): app+0x1300;"
                                          "libnodebug.so(0): nd_func;(unknown module)(0): 0xdead0000;"
                                          "/src/app.cu(40): main");
    EXPECT_EQ(s->report().count("native call stacks without symbols (addr2line did not run after the capture): "
                                "frames show module+offset"),
              0u);

    // The stack view of the kernel: kernel, its launch, then the native frames.
    ASSERT_EQ(l.kernels.size(), 2u);
    for (const auto& [track, slice] : l.kernels) {
        const CallStack st = callStackFor(*s, track, slice);
        const bool withStack = s->tracks()[track].correlation[slice] == 5;
        ASSERT_EQ(st.frames.size(), withStack ? 8u : 2u);
        EXPECT_EQ(st.frames[0].kind, StackFrameKind::Kernel);
        EXPECT_EQ(st.frames[1].kind, StackFrameKind::Launch);
        if (!withStack)
            continue;
        EXPECT_EQ(st.frames[2].function, "inl()");
        EXPECT_EQ(st.frames[2].file, "/src/app.cu");
        EXPECT_EQ(st.frames[2].line, 7);
        EXPECT_EQ(st.frames[2].kind, StackFrameKind::Native);
        EXPECT_EQ(st.frames[3].line, 30);
        EXPECT_EQ(st.frames[4].function, "app+0x1300");
        EXPECT_EQ(st.frames[4].file, "app");
        EXPECT_EQ(st.frames[4].line, 0);
        EXPECT_EQ(st.frames[5].function, "nd_func");
        EXPECT_EQ(st.frames[7].function, "main");
        EXPECT_EQ(st.frames[7].line, 40);
        EXPECT_EQ(st.firstSourceFrame, 2);
    }
}

TEST(CaptureImport, UnsymbolizedStacksShowModuleOffsetsAndSaySo) {
    auto s = importOk(test::writeTemp("stacks_nosym.wscap", stackCapture(false)));
    ASSERT_TRUE(s);
    const Launches l = launchesOf(*s);
    ASSERT_EQ(l.stackOfCorrelation.size(), 1u);
    // Only the driver module is recognisable without symbols.
    EXPECT_EQ(l.stackOfCorrelation.at(5), "app(0): app+0x1100;app(0): app+0x1200;app(0): app+0x1300;"
                                          "libnodebug.so(0): libnodebug.so+0x1010;(unknown module)(0): 0xdead0000;"
                                          "app(0): app+0x1400");
    EXPECT_EQ(s->report().count("native call stacks without symbols (addr2line did not run after the capture): "
                                "frames show module+offset"),
              1u)
        << s->report().toText();
}

// Python stacks (format 1.2): launch 5 has native frames down into the interpreter and a Python
// stack; launch 6 only a Python stack (native stacks off); launch 7 names a Python stack that the
// stream never defined.
TEST(CaptureImport, PythonStacksFollowTheNativeFramesAboveTheInterpreter) {
    StreamBytes b;
    b.header(100);
    b.string(1, "cudaLaunchKernel_v7000");
    b.string(2, "_Z3fooPf");
    b.module(1, 0x10000, 0x11000, 0x5000, "/usr/lib/libtorch_cuda.so");
    b.module(2, 0x20000, 0x21000, 0x5000, "/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0");
    b.stack(1, {0x11100, 0x21100, 0x11200});
    b.pyFrame(1, 12, "Linear.forward", "/m/linear.py");
    b.pyFrame(2, 40, "train_step", "/w/train.py");
    b.pyStack(1, {1, 2});
    b.launchWithPython(5, 1, 1);
    b.launchWithPython(6, 0, 1);
    b.launchWithPython(7, 0, 9);
    for (uint32_t c : {5u, 6u, 7u}) {
        b.api(c, 1000 * c);
        b.kernel(c, 1000 * c + 500);
    }
    b.footer();
    b.symbol(1, 0x1100, 0, "at::native::launch", "/src/launch.cpp", 3);
    b.symbol(2, 0x1100, 0, "_PyEval_EvalFrameDefault", "", 0);
    b.symbol(1, 0x1200, 0, "never_shown", "/src/x.cpp", 1);
    auto s = importOk(test::writeTemp("pystacks.wscap", b.bytes));
    ASSERT_TRUE(s);
    const Launches l = launchesOf(*s);
    ASSERT_EQ(l.stackOfCorrelation.size(), 2u);
    EXPECT_EQ(l.stackOfCorrelation.at(5), "/src/launch.cpp(3): at::native::launch;/m/linear.py(12): Linear.forward;"
                                          "/w/train.py(40): train_step");
    EXPECT_EQ(l.stackOfCorrelation.at(6), "/m/linear.py(12): Linear.forward;/w/train.py(40): train_step");
    EXPECT_EQ(l.stackOfCorrelation.count(7), 0u); // an undefined stack is no stack
    // The stack view's first source frame is the Python line (the native frame has a file too).
    for (const auto& [track, slice] : l.kernels) {
        if (s->tracks()[track].correlation[slice] != 6)
            continue;
        const CallStack st = callStackFor(*s, track, slice);
        ASSERT_GE(st.frames.size(), 4u);
        EXPECT_EQ(st.frames[2].file, "/m/linear.py");
        EXPECT_EQ(st.frames[2].line, 12);
        EXPECT_EQ(st.frames[3].function, "train_step");
    }
}

// Line numbers of `<<<` launches in the sample's source: the truth the recorded stacks must match.
std::map<std::string, int> launchLines() {
    std::map<std::string, int> lines;
    std::istringstream in(test::readFile(std::string(WARPSCOPE_TEST_DATA_DIR) + "/../../capture/samples/vector_add.cu"));
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
        for (const char* kernel : {"vectorAdd", "scale"})
            if (line.find(std::string(kernel) + "<<<") != std::string::npos)
                lines[kernel] = n;
    return lines;
}

TEST(CaptureImport, RealNativeLaunchStacksPointAtTheLaunchLines) {
    const std::map<std::string, int> expected = launchLines();
    ASSERT_EQ(expected.size(), 2u);
    auto s = importOk(capturePath("vector_add_stacks.wscap"));
    ASSERT_TRUE(s);
    EXPECT_FALSE(s->report().truncated());
    const Launches l = launchesOf(*s);
    EXPECT_EQ(l.stackOfCorrelation.size(), 20u); // wscap-dump: 20 CallStack records, 20 kernels
    ASSERT_EQ(l.kernels.size(), 20u);
    std::map<std::string, int> seen;
    for (const auto& [track, slice] : l.kernels) {
        const std::string kernel(s->str(s->tracks()[track].names[slice]));
        const std::string shortName = kernel.substr(0, kernel.find('('));
        const CallStack st = callStackFor(*s, track, slice);
        ASSERT_GE(st.firstSourceFrame, 0) << kernel;
        // Innermost source frame: the kernel's host stub inlined at its definition, then main's launch line.
        const StackFrame& first = st.frames[static_cast<size_t>(st.firstSourceFrame)];
        EXPECT_EQ(first.kind, StackFrameKind::Native);
        EXPECT_TRUE(first.file.ends_with("capture/samples/vector_add.cu")) << first.file;
        EXPECT_EQ(first.function.substr(0, first.function.find('(')), shortName);
        bool sawMain = false;
        for (const StackFrame& f : st.frames) {
            // Nothing of the profiler, CUPTI or the driver is left in the stack.
            EXPECT_EQ(f.file.find("libcupti"), std::string::npos);
            EXPECT_EQ(f.file.find("libcuda."), std::string::npos);
            EXPECT_EQ(f.file.find("libwarpscope_inject"), std::string::npos);
            EXPECT_EQ(f.function.rfind("__device_stub__", 0), std::string::npos) << f.function;
            if (f.function == "main" && f.file.ends_with("vector_add.cu")) {
                sawMain = true;
                seen[shortName] = f.line;
            }
        }
        EXPECT_TRUE(sawMain) << kernel;
    }
    EXPECT_EQ(seen, expected);
}

TEST(CaptureImport, EveryResNetKernelHasANativeLaunchStack) {
    auto s = importOk(capturePath("resnet18_stacks.wscap.gz"));
    ASSERT_TRUE(s);
    const Launches l = launchesOf(*s);
    EXPECT_EQ(l.kernels.size(), 11550u);            // wscap-dump: 11550 Kernel records
    EXPECT_EQ(l.stackOfCorrelation.size(), 11550u); // and 11550 CallStack records
    size_t withTorch = 0;
    for (size_t k = 0; k < l.kernels.size(); k += 97) {
        const CallStack st = callStackFor(*s, l.kernels[k].first, l.kernels[k].second);
        size_t native = 0;
        bool torch = false;
        for (const StackFrame& f : st.frames) {
            if (f.kind != StackFrameKind::Native)
                continue;
            ++native;
            EXPECT_FALSE(wscapPlumbing(f.file)) << f.file;
            torch = torch || f.file.starts_with("libtorch") || f.file.starts_with("libc10");
        }
        EXPECT_GT(native, 3u);
        withTorch += torch ? 1 : 0;
    }
    EXPECT_GT(withTorch, 0u);
}

} // namespace
} // namespace ws

namespace ws {
namespace {

// NCCL's profiler plugin in a capture (format 1.3): an all_reduce inside PyTorch's `nccl:all_reduce`
// range, and a group of two all_gathers launched by NCCL alone. Their kernels get Kineto's
// collective arguments, and the communication ops their sizes and group.
TEST(CaptureImport, NcclCollectivesGiveKernelsTheirSizes) {
    StreamBytes b;
    b.header(100);
    b.string(1, "cuLaunchKernelEx");
    b.string(2, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)");
    b.string(3, "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)");
    b.string(4, "nccl:all_reduce");
    b.string(5, "PyTorch");
    b.string(6, "AllReduce");
    b.string(7, "ncclBfloat16");
    b.string(8, "AllGather");
    b.string(9, "ncclFloat32");
    b.range(4, 5, 900, 2500);
    b.api(5, 1000); // inside the range, on its thread
    b.collective(5, 950, 6, 7, 1000, 0xabcdef, 0, 1, 2);
    b.kernelNamed(5, 3000, 2);
    b.api(6, 5000);
    b.collective(6, 4800, 8, 9, 300, 0xabcdef, 0, 1, 2);
    b.collective(6, 4900, 8, 9, 200, 0xabcdef, 0, 1, 2);
    b.kernelNamed(6, 7000, 3);
    b.collective(0, 8000, 6, 7, 5, 0xabcdef, 0, 1, 2); // never launched: describes nothing
    b.footer();
    auto s = importOk(test::writeTemp("nccl.wscap", b.bytes));
    ASSERT_TRUE(s);

    std::map<uint32_t, std::map<std::string, std::string>> kernelArgs; // by correlation
    for (const Track& t : s->tracks())
        for (uint32_t i = 0; i < t.sliceCount(); ++i)
            if (s->kindOf(t, i) == EventKind::Kernel)
                for (const auto& [k, v] : s->args(t, i))
                    kernelArgs[t.correlation[i]][k] = v;
    ASSERT_EQ(kernelArgs.size(), 2u);
    EXPECT_EQ(kernelArgs[5]["Collective name"], "AllReduce");
    EXPECT_EQ(kernelArgs[5]["In msg nelems"], "1000");
    EXPECT_EQ(kernelArgs[5]["Out msg nelems"], "1000");
    EXPECT_EQ(kernelArgs[5]["dtype"], "BFloat16");
    EXPECT_EQ(kernelArgs[5]["Group size"], "2");
    EXPECT_EQ(kernelArgs[5]["Process Group Name"], "0xabcdef");
    EXPECT_EQ(kernelArgs[5]["Rank in group"], "1");
    EXPECT_EQ(kernelArgs[5].count("Collectives"), 0u);
    // all_gather: per-rank send counts, gathered from both ranks; the group's two calls add up.
    EXPECT_EQ(kernelArgs[6]["In msg nelems"], "500");
    EXPECT_EQ(kernelArgs[6]["Out msg nelems"], "1000");
    EXPECT_EQ(kernelArgs[6]["dtype"], "Float");
    EXPECT_NE(kernelArgs[6]["Collectives"].find("AllGather(300 x Float)"), std::string::npos);

    const std::vector<CommNode> nodes = collectCommNodes(*s, {});
    ASSERT_EQ(nodes.size(), 2u);
    EXPECT_EQ(nodes[0].name, "nccl:all_reduce"); // the range, its size from the kernel it launched
    EXPECT_EQ(nodes[0].kind, CollectiveKind::AllReduce);
    ASSERT_TRUE(nodes[0].bytes);
    EXPECT_EQ(*nodes[0].bytes, 2000);
    EXPECT_EQ(nodes[0].groupSize, 2);
    EXPECT_EQ(nodes[0].processGroup, "0xabcdef");
    EXPECT_EQ(nodes[1].kind, CollectiveKind::AllGather); // the kernel alone
    ASSERT_TRUE(nodes[1].bytes);
    EXPECT_EQ(*nodes[1].bytes, 2000); // 500 floats sent
    EXPECT_EQ(nodes[1].groupSize, 2);
}

// Operators recorded in windows (issue #25): a launch after the window takes the operator its
// context had inside one, as an inferred cpu_op; without an OpsWindow record nothing is inferred.
TEST(CaptureImport, LaunchesOutsideTheOperatorWindowsTakeTheirContextsOperator) {
    for (bool windows : {true, false}) {
        StreamBytes b;
        b.header(100);
        b.string(1, "cudaLaunchKernel_v7000");
        b.string(2, "_Z3fooPf");
        b.string(3, "aten::mm");
        b.string(4, "PyTorch");
        // Inside the window [0, 10 us]: aten::mm around the launch of _Z3fooPf; after it, the same launch.
        b.range(3, 4, 900, 2100);
        for (uint32_t c : {5u, 6u}) {
            b.api(c, c == 5 ? 1000 : 20000);
            b.kernelNamed(c, c == 5 ? 3000 : 22000, 2);
        }
        if (windows)
            b.u64(0).u64(10000).u32(100).u32(101).end(30); // OpsWindow
        b.footer();
        auto s = importOk(test::writeTemp(windows ? "opswindows.wscap" : "nowindows.wscap", b.bytes));
        ASSERT_TRUE(s);
        const KernelTable table = KernelTable::build(*s, {});
        std::map<int64_t, std::string> opOfKernelAt, opArgsOfKernelAt;
        for (const KernelRow& r : table.rows()) {
            opOfKernelAt[s->tracks()[r.track].start[r.slice]] = std::string(s->str(r.op));
            if (r.opTrack < s->tracks().size())
                opArgsOfKernelAt[s->tracks()[r.track].start[r.slice]] = s->eventJson(s->tracks()[r.opTrack], r.opSlice);
        }
        ASSERT_EQ(opOfKernelAt.size(), 2u);
        EXPECT_EQ(opOfKernelAt.at(3000), "aten::mm");
        EXPECT_EQ(opOfKernelAt.at(22000), windows ? "aten::mm" : "") << (windows ? "windows" : "no windows");
        // The inferred operator says so in its arguments; the recorded one does not.
        EXPECT_EQ(opArgsOfKernelAt[3000].find("inferred"), std::string::npos);
        if (windows) {
            EXPECT_NE(opArgsOfKernelAt[22000].find("\"Operator source\":\"inferred"), std::string::npos)
                << opArgsOfKernelAt[22000];
        }
        bool noted = false;
        for (const auto& p : s->report().problems())
            noted |= p.kind.find("operators recorded in windows") != std::string::npos;
        EXPECT_EQ(noted, windows);
    }
}

// A capture that recorded only between cudaProfilerStart and Stop (--capture-range=cudaProfilerApi,
// issue #25): the time between its Recording records is unseen, not idle. A step that reaches into
// it is no step, and the Overview's device numbers are taken over the recorded pieces of its window.
TEST(CaptureImport, TimeBetweenRecordedSpansIsLeftOutOfTheStepsAndTheOverview) {
    for (bool spans : {true, false}) {
        StreamBytes b;
        b.header(100);
        b.string(1, "cudaLaunchKernel_v7000");
        b.string(2, "_Z3fooPf");
        const std::vector<std::pair<uint64_t, uint64_t>> steps = {
            {1000, 9000}, {10000, 18000}, {18500, 52000}, {52000, 60000}, {60000, 68000}};
        for (uint32_t i = 0; i < steps.size(); ++i) {
            b.string(10 + i, "step " + std::to_string(i));
            b.range(10 + i, 0, steps[i].first, steps[i].second);
            const uint64_t launch = i == 2 ? 50500 : steps[i].first + 1000; // step 2's launch after the pause
            b.api(20 + i, launch);
            b.kernelNamed(20 + i, launch + 500, 2); // 500 ns each
        }
        if (spans) { // recorded [0, 20 us] and [50 us, 70 us]; paused between
            b.u64(0).u64(20000).end(31);
            b.u64(50000).u64(70000).end(31);
        }
        b.footer();
        auto s = importOk(test::writeTemp(spans ? "recorded_spans.wscap" : "recorded_throughout.wscap", b.bytes));
        ASSERT_TRUE(s);
        const std::vector<RecordedSpan> recorded = recordedSpans(*s);
        ASSERT_EQ(recorded.size(), spans ? 2u : 0u);
        const OverviewReport r = computeOverview(*s);
        ASSERT_TRUE(r.valid);
        EXPECT_EQ(r.breakdown.steps.size(), spans ? 4u : 5u);
        EXPECT_EQ(r.unrecordedSteps, spans ? 1u : 0u);
        EXPECT_EQ(r.recordedPieces, spans ? 2u : 0u);
        EXPECT_EQ(r.windowStart, 1000);
        EXPECT_EQ(r.windowEnd, 68000);
        EXPECT_EQ(r.unrecordedNs, spans ? 30000 : 0); // (20000 - 1000) + (68000 - 50000) of 67000 recorded
        ASSERT_EQ(r.devices.size(), 1u);
        EXPECT_EQ(r.devices[0].kernelCount, 5u);
        ASSERT_TRUE(r.devices[0].gpuUtilization);
        EXPECT_NEAR(*r.devices[0].gpuUtilization, 2500.0 / (spans ? 37000.0 : 67000.0), 1e-9);
    }
    const std::vector<RecordedSpan> two = {{0, 20000}, {50000, 70000}};
    EXPECT_TRUE(insideOneSpan(two, 0, 20000));
    EXPECT_TRUE(insideOneSpan(two, 52000, 60000));
    EXPECT_FALSE(insideOneSpan(two, 18500, 52000));
    EXPECT_FALSE(insideOneSpan(two, 20000, 30000));
    EXPECT_TRUE(insideOneSpan({}, 5, 6)); // recorded throughout
    EXPECT_EQ(recordedPieces(two, 30000, 40000).size(), 0u);
    ASSERT_EQ(recordedPieces({}, 3, 9).size(), 1u);
}

// Arguments read back from a plain capture file go through a per-thread read window
// (CaptureEventText): in file order (as storing a session reads them), backwards (every read a miss),
// from another thread and interleaved with a second reader of the same file, each event's text is
// the one a gzip copy of the file (held inflated in memory, no window) gives.
TEST(CaptureImport, ArgumentsReadThroughTheReadWindowAreTheSameInAnyOrder) {
    const ImportResult a = importTraceFile(capturePath("sigkill.wscap")); // plain: read with pread
    const ImportResult b = importTraceFile(capturePath("sigkill.wscap"));
    const std::string gz = (test::tempDir() / "sigkill_copy.wscap.gz").string();
    ASSERT_EQ(std::system(("gzip -c '" + capturePath("sigkill.wscap") + "' > '" + gz + "'").c_str()), 0);
    const ImportResult inMemory = importTraceFile(gz);
    ASSERT_TRUE(a.session && b.session && inMemory.session);
    std::vector<uint64_t> refs;
    for (const Track& t : a.session->tracks())
        for (uint64_t r : t.argRef)
            if (r != Track::kNoArgs)
                refs.push_back(r);
    std::sort(refs.begin(), refs.end());
    ASSERT_GT(refs.size(), 2000u); // more than one 256 KB window of records
    std::vector<std::string> forward;
    for (uint64_t r : refs)
        forward.push_back(a.session->eventJsonAt(r));
    for (size_t i = 0; i < refs.size(); ++i)
        ASSERT_EQ(forward[i], inMemory.session->eventJsonAt(refs[i])) << i;
    for (size_t i = refs.size(); i-- > 0;)
        ASSERT_EQ(a.session->eventJsonAt(refs[i]), forward[i]) << i;
    std::vector<std::string> other(refs.size());
    std::thread([&] {
        for (size_t i = 0; i < refs.size(); ++i)
            other[i] = a.session->eventJsonAt(refs[i]);
    }).join();
    EXPECT_EQ(other, forward);
    for (size_t i = 0; i < refs.size(); i += 7) {
        ASSERT_EQ(b.session->eventJsonAt(refs[i]), forward[i]) << i;
        ASSERT_EQ(a.session->eventJsonAt(refs[i]), forward[i]) << i;
    }
    EXPECT_EQ(std::count_if(forward.begin(), forward.end(), [](const std::string& s) { return s.find("\"args\"") != std::string::npos; }),
              static_cast<std::ptrdiff_t>(forward.size()));
}

} // namespace
} // namespace ws
