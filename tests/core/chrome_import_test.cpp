#include "analysis/session_dump.h"
#include "analysis/trace_summary.h"
#include "test_util.h"

#include <numeric>
#include <random>
#include <chrono>

using namespace ws;
using ws::test::findTrack;
using ws::test::importText;

namespace {

const char* kKinetoLike = R"J({
  "schemaVersion": 1,
  "deviceProperties": [{"id": 0, "name": "Test GPU", "totalGlobalMem": 1000, "numSms": 10}],
  "distributedInfo": {"backend": "nccl", "rank": 1, "world_size": 2},
  "displayTimeUnit": "ms",
  "baseTimeNanoseconds": 1700000000000000000,
  "traceEvents": [
  {"ph": "M", "name": "process_name", "pid": 7, "tid": 0, "args": {"name": "python3"}},
  {"ph": "M", "name": "process_labels", "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}},
  {"ph": "M", "name": "thread_name", "pid": 7, "tid": 70, "args": {"name": "thread 70 (python3)"}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 7, "tid": 70, "ts": 10.000, "dur": 100.000, "args": {"External id": 1}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 7, "tid": 70, "ts": 20.500, "dur": 30.250, "args": {"External id": 2}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": 70, "ts": 25.000, "dur": 5.000, "args": {"External id": 2, "correlation": 99}},
  {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 40.000, "dur": 50.000,
   "args": {"External id": 2, "device": 0, "stream": 7, "correlation": 99, "blocks per SM": 0.5, "est. achieved occupancy %": 25}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD", "pid": 0, "tid": 7, "ts": 95.000, "dur": 2.000, "args": {"bytes": 4096, "correlation": 100}},
  {"ph": "s", "id": 99, "pid": 7, "tid": 70, "ts": 25.000, "cat": "ac2g", "name": "ac2g"},
  {"ph": "f", "id": 99, "pid": 0, "tid": 7, "ts": 40.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 7, "tid": 70, "ts": 21.000, "s": "t",
   "args": {"Device Type": 1, "Device Id": 0, "Addr": 123, "Bytes": 512, "Total Allocated": 2048, "Total Reserved": 4096}},
  {"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans", "tid": "PyTorch Profiler", "ts": 0.000, "dur": 200.000},
  {"ph": "i", "name": "Record Window End", "pid": "", "tid": "", "ts": 200.000, "s": "g"}
  ],
  "traceName": "x.pt.trace.json"
})J";

} // namespace

TEST(ChromeImport, KinetoBasics) {
    ImportResult r = importText(kKinetoLike);
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    EXPECT_EQ(s.format(), TraceFormat::ChromeJson);
    EXPECT_EQ(s.sourceEventCount(), 13u);
    EXPECT_EQ(s.baseTimeNs(), 1700000000000000000LL);
    EXPECT_EQ(s.displayTimeUnit(), "ms");
    ASSERT_EQ(s.devices().size(), 1u);
    EXPECT_EQ(s.devices()[0].name, "Test GPU");
    ASSERT_TRUE(s.distributedInfo());
    EXPECT_EQ(s.distributedInfo()->rank, 1);

    const Track* cpu = findTrack(s, "thread 70 (python3)");
    ASSERT_TRUE(cpu);
    EXPECT_FALSE(cpu->gpu);
    ASSERT_EQ(cpu->sliceCount(), 3u);
    EXPECT_EQ(cpu->rowCount(), 3u); // step > mm > launch
    // Row 0 holds the step, at absolute epoch ns.
    EXPECT_EQ(cpu->start[cpu->rowBegin[0]], 1700000000000010000LL);
    const uint32_t mm = cpu->rowBegin[1];
    EXPECT_EQ(s.str(cpu->names[mm]), "aten::mm");
    EXPECT_EQ(cpu->dur[mm], 30250);
    EXPECT_EQ(cpu->externalId[mm], 2u);

    const Track* gpu = findTrack(s, "stream 7");
    ASSERT_TRUE(gpu);
    EXPECT_TRUE(gpu->gpu);
    EXPECT_EQ(s.processes()[gpu->process].deviceId, 0);
    ASSERT_EQ(s.flows().size(), 1u);
    const Flow& f = s.flows()[0];
    EXPECT_EQ(s.str(s.tracks()[f.fromTrack].names[f.fromSlice]), "cudaLaunchKernel");
    EXPECT_EQ(s.str(s.tracks()[f.toTrack].names[f.toSlice]), "gemm");
    EXPECT_EQ(s.flowsOf(f.toTrack, f.toSlice), std::vector<uint32_t>{0});
    EXPECT_EQ(s.flowsOf(f.fromTrack, f.fromSlice), std::vector<uint32_t>{0});
    EXPECT_TRUE(s.flowsOf(f.toTrack, f.toSlice + 1).empty());
    ASSERT_EQ(s.memoryEvents().size(), 1u);
    EXPECT_EQ(s.memoryEvents()[0].totalReserved, 4096);

    // Lazily decoded args: the event text comes back from the source.
    const std::string json = s.eventJson(*cpu, mm);
    EXPECT_NE(json.find("\"External id\": 2"), std::string::npos) << json;
    const auto gemmArgs = s.args(*findTrack(s, "stream 7"), 0);
    ASSERT_GE(gemmArgs.size(), 6u);
    EXPECT_EQ(gemmArgs[0], (std::pair<std::string, std::string>("External id", "2")));
    EXPECT_EQ(gemmArgs[4].first, "blocks per SM");
    EXPECT_EQ(gemmArgs[4].second, "0.5");

    const TraceSummary sum = summarizeSession(s);
    EXPECT_EQ(sum.kernelCount, 1u);
    EXPECT_EQ(sum.kernelTotalNs, 50000);
    EXPECT_EQ(sum.memcpyBytes, 4096);
    EXPECT_EQ(sum.runtimeCalls, 1u);
    EXPECT_EQ(sum.steps, 1u);
    ASSERT_EQ(sum.devices.size(), 1u);
    // Step [10, 110] us widened to the kernel end (90 us) -> stays [10, 110]; busy 50 of 100 us.
    ASSERT_TRUE(sum.devices[0].gpuUtilization);
    EXPECT_DOUBLE_EQ(*sum.devices[0].gpuUtilization, 0.5);
    EXPECT_DOUBLE_EQ(*sum.devices[0].estSmEfficiency, 0.25);
    EXPECT_DOUBLE_EQ(*sum.devices[0].estAchievedOccupancy, 25.0);
    EXPECT_EQ(sum.devices[0].peakAllocatedBytes, 2048);
    const std::string js = summaryToJson(sum);
    EXPECT_NE(js.find("\"gpu_utilization\": 0.5"), std::string::npos);
}

TEST(ChromeImport, SameResultForAnyThreadCountAndBlockSize) {
    ImportControl one;
    one.threads = 1;
    ImportResult a = importText(kKinetoLike, one);
    ASSERT_TRUE(a.session);
    for (unsigned threads : {2u, 3u, 8u})
        for (size_t block : {64u, 200u, 1000u}) {
            ImportControl c;
            c.threads = threads;
            c.blockBytes = block;
            ImportResult b = importText(kKinetoLike, c);
            ASSERT_TRUE(b.session);
            EXPECT_EQ(dumpSession(*a.session, 100), dumpSession(*b.session, 100)) << threads << " " << block;
        }
}

// The finder the flow binding and the kernel table use answers as enclosingSlice and ancestors
// do, whatever the order of the lookups, on a thread of nested, partially overlapping (spilled into lanes) and zero-length slices.
TEST(ChromeImport, EnclosingSliceFinderAnswersAsEnclosingSlice) {
    std::mt19937 rng(25);
    for (int round = 0; round < 20; ++round) {
        std::string json = "[";
        for (int i = 0; i < 400; ++i) {
            const int ts = int(rng() % 2000), dur = rng() % 10 == 0 ? 0 : int(rng() % (rng() % 4 == 0 ? 400 : 30));
            json += std::string(i ? "," : "") + R"({"ph":"X","cat":"cpu_op","name":"s","pid":1,"tid":1,"ts":)" +
                    std::to_string(ts) + ",\"dur\":" + std::to_string(dur) + "}";
        }
        json += "]";
        ImportResult r = importText(json);
        ASSERT_TRUE(r.session) << r.error;
        const Track& t = r.session->tracks()[0];
        std::vector<int64_t> probes;
        for (size_t i = 0; i < t.sliceCount(); ++i)
            for (int64_t d : {-1, 0, 1})
                probes.push_back(t.start[i] + d), probes.push_back(t.end(i) + d);
        for (int k = 0; k < 2000; ++k)
            probes.push_back(int64_t(rng() % 2'500'000) - 100'000);
        std::vector<int64_t> ascending = probes;
        std::sort(ascending.begin(), ascending.end());
        for (const std::vector<int64_t>* order : {&ascending, &probes}) {
            EnclosingSliceFinder finder;
            for (int64_t ts : *order)
                ASSERT_EQ(finder.find(t, ts), t.enclosingSlice(ts)) << "round " << round << " ts " << ts;
        }
        // Ancestors, slices by start and in index order, interleaved with finds as the kernel
        // table's lookups are.
        std::vector<uint32_t> byStart(t.sliceCount());
        std::iota(byStart.begin(), byStart.end(), 0u);
        std::sort(byStart.begin(), byStart.end(), [&](uint32_t a, uint32_t b) { return t.start[a] < t.start[b]; });
        std::vector<uint32_t> inOrder(t.sliceCount());
        std::iota(inOrder.begin(), inOrder.end(), 0u);
        for (const std::vector<uint32_t>* order : {&byStart, &inOrder}) {
            EnclosingSliceFinder finder;
            std::vector<uint32_t> got;
            for (uint32_t slice : *order) {
                finder.ancestors(t, slice, got);
                ASSERT_EQ(got, r.session->ancestors(t, slice)) << "round " << round << " slice " << slice;
                ASSERT_EQ(finder.find(t, t.start[slice]), t.enclosingSlice(t.start[slice]));
            }
        }
        if (round == 0) {
            EXPECT_GT(t.laneCount, 1u); // the case has spilled lanes
        }
    }
}

TEST(ChromeImport, OverlappingSlicesSpillIntoLanesNeverDropped) {
    // Three kernels on one stream: b overlaps a partially, c nests in b.
    ImportResult r = importText(R"J([
      {"ph":"X","cat":"kernel","name":"a","pid":0,"tid":1,"ts":0,"dur":10},
      {"ph":"X","cat":"kernel","name":"b","pid":0,"tid":1,"ts":5,"dur":10},
      {"ph":"X","cat":"kernel","name":"c","pid":0,"tid":1,"ts":6,"dur":2},
      {"ph":"X","cat":"kernel","name":"d","pid":0,"tid":1,"ts":20,"dur":1}
    ])J");
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    ASSERT_EQ(s.tracks().size(), 1u);
    const Track& t = s.tracks()[0];
    EXPECT_EQ(t.sliceCount(), 4u);
    EXPECT_EQ(t.laneCount, 2u);
    EXPECT_EQ(s.report().count("overlapping slices moved to extra lanes"), 1u);
    // Invariant: each row sorted and non-overlapping.
    for (size_t row = 0; row < t.rowCount(); ++row)
        for (uint32_t i = t.rowBegin[row] + 1; i < t.rowBegin[row + 1]; ++i)
            EXPECT_LE(t.end(i - 1), t.start[i]);
    EXPECT_EQ(s.str(t.names[t.enclosingSlice(7000)]), "c");
}

TEST(ChromeImport, BeginEndAsyncCountersInstantsAndStringIds) {
    ImportResult r = importText(R"J({"displayTimeUnit":"ns","traceEvents":[
      {"ph":"B","name":"outer","pid":1,"tid":"main","ts":0},
      {"ph":"B","name":"inner","pid":1,"tid":"main","ts":1},
      {"ph":"E","pid":1,"tid":"main","ts":2},
      {"ph":"E","pid":1,"tid":"main","ts":5},
      {"ph":"E","pid":1,"tid":"main","ts":6},
      {"ph":"B","name":"open","pid":1,"tid":"main","ts":7},
      {"ph":"b","cat":"net","name":"req","id":"0x10","pid":1,"ts":1},
      {"ph":"e","cat":"net","name":"req","id":"0x10","pid":1,"ts":4},
      {"ph":"C","name":"mem","pid":1,"ts":0,"args":{"used":1,"free":9}},
      {"ph":"C","name":"mem","pid":1,"ts":3,"args":{"used":2.5,"free":8}},
      {"ph":"i","name":"mark","pid":1,"tid":"main","ts":3},
      {"ph":"I","name":"proc","pid":1,"tid":"main","ts":3,"s":"p"},
      {"ph":"X","name":"x","pid":"1","tid":2,"ts":3,"dur":1}
    ]})J");
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    const Track* main = findTrack(s, "main");
    ASSERT_TRUE(main);
    EXPECT_EQ(main->sliceCount(), 3u);
    EXPECT_EQ(s.report().count("E without B (dropped)"), 1u);
    EXPECT_EQ(s.report().count("B without E (closed at the track's last time)"), 1u);
    EXPECT_EQ(main->instantTs.size(), 1u);
    const Track* async = findTrack(s, "async net");
    ASSERT_TRUE(async);
    ASSERT_EQ(async->sliceCount(), 1u);
    EXPECT_EQ(async->dur[0], 3000);
    ASSERT_EQ(s.counters().size(), 2u);
    EXPECT_EQ(s.counters()[0].value.size(), 2u);
    EXPECT_DOUBLE_EQ(s.counters()[0].value[1], 2.5);
    EXPECT_TRUE(findTrack(s, "pid 1 instants"));
    // "1" and 1 are the same process.
    EXPECT_EQ(s.processes().size(), 1u);
}

TEST(ChromeImport, PythonFramesFromFunctionNames) {
    ImportResult r = importText(R"J({"traceEvents":[
      {"ph":"X","cat":"python_function","name":"model.py(42): forward","pid":1,"tid":1,"ts":0,"dur":10},
      {"ph":"X","cat":"python_function","name":"<built-in method mm>","pid":1,"tid":1,"ts":1,"dur":1}
    ]})J");
    ASSERT_TRUE(r.session);
    const Session& s = *r.session;
    const Track& t = s.tracks()[0];
    const SourceFrame* f = s.frameForName(t.names[t.rowBegin[0]]);
    ASSERT_TRUE(f);
    EXPECT_EQ(s.str(f->file), "model.py");
    EXPECT_EQ(f->line, 42);
    EXPECT_EQ(s.str(f->function), "forward");
    EXPECT_FALSE(s.frameForName(t.names[t.rowBegin[1]]));
}

TEST(ChromeImport, AncestorsAndCallStack) {
    ImportResult r = importText(R"J({"traceEvents":[
      {"ph":"X","cat":"python_function","name":"train.py(10): main","pid":1,"tid":1,"ts":0,"dur":100},
      {"ph":"X","cat":"python_function","name":"model.py(42): forward","pid":1,"tid":1,"ts":10,"dur":50},
      {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":20,"dur":5,
       "args":{"Call stack":"model.py(42): forward;train.py(10): main;<built-in>"}},
      {"ph":"X","cat":"cpu_op","name":"later","pid":1,"tid":1,"ts":70,"dur":5}
    ]})J");
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    const Track& t = s.tracks()[0];
    const uint32_t mm = t.rowBegin[2];
    ASSERT_EQ(s.str(t.names[mm]), "aten::mm");
    const auto up = s.ancestors(t, mm);
    ASSERT_EQ(up.size(), 2u);
    EXPECT_EQ(s.str(t.names[up[0]]), "train.py(10): main");
    EXPECT_EQ(s.str(t.names[up[1]]), "model.py(42): forward");
    const auto frames = s.callStack(t, mm);
    ASSERT_EQ(frames.size(), 3u);
    EXPECT_EQ(frames[0].file, "model.py");
    EXPECT_EQ(frames[0].line, 42);
    EXPECT_EQ(frames[0].function, "forward");
    EXPECT_EQ(frames[2].function, "<built-in>");
    EXPECT_EQ(s.ancestors(t, t.rowBegin[1] + 1).size(), 1u); // "later" sits under main only
}

TEST(ChromeImport, PathologicalOverlapStaysFastAndKeepsEverything) {
    // 20000 slices that all partially overlap each other: nested lanes run out and the rest go to
    // flat overflow lanes; nothing is dropped and every row stays sorted and non-overlapping.
    std::string text = "[";
    const int n = 20000;
    for (int i = 0; i < n; ++i)
        text += std::string(i ? "," : "") + "{\"ph\":\"X\",\"name\":\"k\",\"pid\":0,\"tid\":1,\"ts\":" + std::to_string(i) +
                ",\"dur\":" + std::to_string(n) + "}";
    text += "]";
    const auto t0 = std::chrono::steady_clock::now();
    ImportResult r = importText(text);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
    ASSERT_TRUE(r.session) << r.error;
    const Track& t = r.session->tracks()[0];
    EXPECT_EQ(t.sliceCount(), static_cast<size_t>(n));
    for (size_t row = 0; row < t.rowCount(); ++row)
        for (uint32_t i = t.rowBegin[row] + 1; i < t.rowBegin[row + 1]; ++i)
            ASSERT_LE(t.end(i - 1), t.start[i]);
}
