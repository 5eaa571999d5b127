// Memory view analyses (FORMATS.md 3.10) on real traces of the three sources. Expected numbers come
// from tests/core/reference_memory.py (independent Python over the same files; run it to see them),
// except the synthetic nsys rows, whose numbers follow from the rows written below.
#include "analysis/memory_allocations.h"
#include "analysis/memory_curve.h"
#include "analysis/memory_op_stats.h"
#include "test_util.h"

#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>

namespace ws {
namespace {

constexpr MemoryDevice kCpu{0, -1};
constexpr MemoryDevice kGpu0{1, 0};

std::shared_ptr<const Session> load(const std::string& path) {
    static std::map<std::string, std::shared_ptr<const Session>> cache;
    auto& s = cache[path];
    if (!s)
        s = importTraceFile(path).session;
    return s;
}

std::shared_ptr<const Session> bert() { return load(test::dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz")); }

const MemoryOpStat* findStat(const Session& s, const MemoryOpStats& stats, MemoryDevice device, std::string_view name) {
    for (const MemoryOpStat& r : stats.rows())
        if (r.device == device && s.str(r.name) == name)
            return &r;
    return nullptr;
}

int64_t firstRecordTs(const MemoryCurve& c) { return c.ts.front(); }

TEST(MemoryAnalysis, KinetoBertCurvesMatchReference) {
    auto s = bert();
    ASSERT_NE(s, nullptr);
    const MemoryCurves curves = MemoryCurves::build(*s);
    ASSERT_EQ(curves.devices().size(), 2u);
    EXPECT_EQ(curves.devices()[0].device, kCpu);
    EXPECT_EQ(curves.devices()[1].device, kGpu0);

    const MemoryCurve& gpu = *curves.find(kGpu0);
    EXPECT_EQ(gpu.records, 218u);
    EXPECT_TRUE(gpu.allocatedFromTotals);
    EXPECT_EQ(gpu.peakAllocated.value, 101305344);
    EXPECT_NEAR(static_cast<double>(gpu.peakAllocated.ts - firstRecordTs(gpu)), 3875557.0, 2.0);
    ASSERT_TRUE(gpu.hasReserved());
    EXPECT_EQ(gpu.peakReserved.value, 121634816);
    ASSERT_TRUE(gpu.capacity.has_value());
    EXPECT_EQ(*gpu.capacity, 85018279936); // deviceProperties totalGlobalMem of the H100

    const MemoryCurve& cpu = *curves.find(kCpu);
    EXPECT_EQ(cpu.records, 18u);
    EXPECT_EQ(cpu.peakAllocated.value, 16);
    EXPECT_NEAR(static_cast<double>(cpu.peakAllocated.ts - firstRecordTs(cpu)), 464087.0, 2.0);
    EXPECT_FALSE(cpu.capacity.has_value()); // no host capacity in the trace: "not in this trace"
}

TEST(MemoryAnalysis, KinetoBertAllocationsMatchReference) {
    auto s = bert();
    const MemoryAllocations a = MemoryAllocations::build(*s);
    const auto gpu = a.counts(kGpu0);
    EXPECT_EQ(gpu.allocations, 109u);
    EXPECT_EQ(gpu.frees, 109u);
    EXPECT_EQ(gpu.leaks, 0u);
    EXPECT_EQ(gpu.unmatchedFrees, 0u);
    const auto cpu = a.counts(kCpu);
    EXPECT_EQ(cpu.allocations, 9u);
    EXPECT_EQ(cpu.frees, 9u);
    EXPECT_EQ(a.size(), 118u);
    for (const MemoryAllocation& r : a.rows()) {
        EXPECT_GT(r.bytes, 0);
        ASSERT_NE(r.lifetime(), MemoryEvent::kUnknown);
        EXPECT_GE(r.lifetime(), 0);
        // A free inherits its allocation's size: the records agree.
        EXPECT_EQ(s->memoryEvents()[r.freeRecord].bytes, -r.bytes);
    }
    // aten::empty allocations are shown under their parent op.
    size_t emptyRows = 0;
    for (const MemoryAllocation& r : a.rows()) {
        const std::string text = MemoryAllocations::opText(*s, r);
        if (r.device == kGpu0 && s->str(r.opName) == "aten::empty") {
            ++emptyRows;
            EXPECT_NE(r.parentOpName, kEmptyString);
            EXPECT_EQ(text, std::string(s->str(r.parentOpName)) + " (aten::empty)");
        }
    }
    EXPECT_EQ(emptyRows, 60u); // reference: GPU0|aten::empty self_allocation_count
}

TEST(MemoryAnalysis, KinetoBertOperatorStatsMatchReference) {
    auto s = bert();
    const MemoryOpStats stats = MemoryOpStats::build(*s);
    const MemoryOpStat* addmm = findStat(*s, stats, kGpu0, "aten::addmm");
    ASSERT_NE(addmm, nullptr);
    EXPECT_EQ(addmm->selfAllocationCount, 26u);
    EXPECT_EQ(addmm->selfAllocationSize, 13949440);
    EXPECT_EQ(addmm->selfSizeIncrease, -13313536);
    EXPECT_EQ(addmm->allocationCount, 52u);
    EXPECT_EQ(addmm->allocationSize, 41212416);
    EXPECT_EQ(addmm->sizeIncrease, 13949440);
    const MemoryOpStat* linear = findStat(*s, stats, kGpu0, "aten::linear");
    ASSERT_NE(linear, nullptr);
    EXPECT_EQ(linear->selfAllocationCount, 0u);
    EXPECT_EQ(linear->allocationSize, 41212416);
    const MemoryOpStat* step = findStat(*s, stats, kGpu0, "ProfilerStep#6");
    ASSERT_NE(step, nullptr);
    EXPECT_EQ(step->allocationCount, 109u); // every GPU allocation is inside the step
    EXPECT_EQ(step->allocationSize, 47460864);
    EXPECT_EQ(step->selfSizeIncrease, -20158976);
    EXPECT_EQ(step->sizeIncrease, 0);
    EXPECT_EQ(step->calls, 1u);
    EXPECT_EQ(stats.select(kGpu0).size() + stats.select(kCpu).size(), stats.size());
    // Rows of a device are sorted by allocation size, largest first.
    const auto gpuRows = stats.select(kGpu0);
    ASSERT_FALSE(gpuRows.empty());
    EXPECT_EQ(stats.rows()[gpuRows.front()].name, step->name);
}

TEST(MemoryAnalysis, TimeRangeRestrictsEverything) {
    auto s = bert();
    const MemoryCurves curves = MemoryCurves::build(*s);
    const MemoryCurve& gpu = *curves.find(kGpu0);
    const int64_t peak = gpu.peakAllocated.ts;
    // A window that ends just before the peak cannot contain it; one around it must.
    EXPECT_LT(gpu.peakAllocatedIn(gpu.ts.front(), peak).value, gpu.peakAllocated.value);
    EXPECT_EQ(gpu.peakAllocatedIn(peak, peak + 1).value, gpu.peakAllocated.value);
    // A window inside a flat stretch still has the level holding at its start.
    const MemoryPeak held = gpu.peakAllocatedIn(peak + 1, peak + 2);
    EXPECT_TRUE(held.known());
    EXPECT_EQ(held.ts, peak + 1);

    // Op stats over the first half of the records equal the same sums done by hand.
    const int64_t mid = gpu.ts[gpu.ts.size() / 2];
    const MemoryOpStats half = MemoryOpStats::build(*s, {}, s->startNs(), mid);
    int64_t selfSum = 0, expected = 0;
    for (uint32_t i : half.select(kGpu0))
        selfSum += half.rows()[i].selfAllocationSize;
    const std::vector<uint32_t> ops = memoryRecordOps(*s);
    for (size_t i = 0; i < s->memoryEvents().size(); ++i) {
        const MemoryEvent& m = s->memoryEvents()[i];
        if (m.ts < mid && m.deviceType == 1 && m.bytes > 0 && ops[i] != Track::kNoId)
            expected += m.bytes;
    }
    EXPECT_GT(expected, 0);
    EXPECT_EQ(selfSum, expected);

    const MemoryAllocations a = MemoryAllocations::build(*s, ops);
    const auto rows = a.select(kGpu0, s->startNs(), mid);
    EXPECT_GT(rows.size(), 0u);
    EXPECT_LT(rows.size(), a.select(kGpu0, INT64_MIN, INT64_MAX).size());
    for (uint32_t i : rows) {
        const MemoryAllocation& r = a.rows()[i];
        EXPECT_TRUE(r.allocatedAt < mid || r.freedAt < mid);
    }
}

TEST(MemoryAnalysis, DecimationKeepsThePeakExactly) {
    auto s = bert();
    const MemoryCurves curves = MemoryCurves::build(*s);
    const MemoryCurve& gpu = *curves.find(kGpu0);
    // Fits: every point comes back unchanged.
    const auto all = decimateMemoryCurve(gpu, gpu.allocated, s->startNs(), s->endNs() + 1, 10000);
    ASSERT_EQ(all.size(), gpu.ts.size());
    EXPECT_EQ(all.front().ts, gpu.ts.front());

    // A long random walk: 1 M points down to 800.
    MemoryCurve big;
    std::mt19937_64 rng(42);
    int64_t v = 1 << 30;
    for (int64_t i = 0; i < 1000000; ++i) {
        v = std::max<int64_t>(0, v + static_cast<int64_t>(rng() % 2000001) - 1000000);
        big.ts.push_back(i * 1000 + static_cast<int64_t>(rng() % 500));
        big.allocated.push_back(v);
    }
    for (auto [from, to] : {std::pair<int64_t, int64_t>{0, 1000000000}, {123456789, 234567890}, {5000, 9000000}}) {
        const auto pts = decimateMemoryCurve(big, big.allocated, from, to, 800);
        ASSERT_FALSE(pts.empty());
        EXPECT_LE(pts.size(), 800u);
        const MemoryPeak peak = big.peakAllocatedIn(from, to);
        int64_t maxV = INT64_MIN, minV = INT64_MAX, minFull = INT64_MAX;
        for (const MemoryPoint& p : pts) {
            EXPECT_GE(p.ts, from);
            EXPECT_LT(p.ts, to);
            maxV = std::max(maxV, p.value);
            minV = std::min(minV, p.value);
        }
        auto first = std::upper_bound(big.ts.begin(), big.ts.end(), from) - big.ts.begin();
        first = std::max<ptrdiff_t>(0, first - 1);
        const auto last = std::lower_bound(big.ts.begin(), big.ts.end(), to) - big.ts.begin();
        for (auto i = first; i < last; ++i)
            minFull = std::min(minFull, big.allocated[static_cast<size_t>(i)]);
        EXPECT_EQ(maxV, peak.value);
        EXPECT_EQ(minV, minFull);
        // The peak point itself, at its time.
        EXPECT_TRUE(std::any_of(pts.begin(), pts.end(), [&](const MemoryPoint& p) {
            return p.value == peak.value && p.ts == peak.ts;
        }));
        EXPECT_TRUE(std::is_sorted(pts.begin(), pts.end(), [](auto& a, auto& b) { return a.ts < b.ts; }));
    }
}

TEST(MemoryAnalysis, CaptureResnet18MatchesReference) {
    auto s = load(test::dataPath("captures/resnet18.wscap.gz"));
    ASSERT_NE(s, nullptr);
    const MemoryCurves curves = MemoryCurves::build(*s);
    ASSERT_EQ(curves.devices().size(), 1u);
    const MemoryCurve& gpu = curves.devices()[0];
    EXPECT_EQ(gpu.device, kGpu0);
    EXPECT_EQ(gpu.records, 1052u);
    EXPECT_EQ(gpu.peakAllocated.value, 2943068137);
    EXPECT_NEAR(static_cast<double>(gpu.peakAllocated.ts - firstRecordTs(gpu)), 722107657.0, 2.0);
    EXPECT_FALSE(gpu.hasReserved()); // driver allocations only: reserved is not in this trace
    EXPECT_FALSE(gpu.peakReserved.known());
    ASSERT_TRUE(gpu.capacity.has_value());
    EXPECT_GT(*gpu.capacity, int64_t(100) << 30); // an H200
    const MemoryAllocations a = MemoryAllocations::build(*s);
    const auto n = a.counts(kGpu0);
    EXPECT_EQ(n.allocations, 1052u);
    EXPECT_EQ(n.frees, 0u);
    EXPECT_EQ(n.leaks, 1052u); // the caching allocator never gave a segment back
    EXPECT_EQ(n.unmatchedFrees, 0u);
}

TEST(MemoryAnalysis, SharedKinetoTraceWithThousandsOfRecords) {
    const std::string path = test::sharedPath("pytorch_kineto/hta/df_index_resolver_rank1_memory_nccl.json.gz");
    if (!std::filesystem::exists(path))
        GTEST_SKIP() << "shared test data not present: " << path;
    auto s = load(path);
    ASSERT_NE(s, nullptr);
    const MemoryCurves curves = MemoryCurves::build(*s);
    const MemoryCurve* gpu = curves.find(MemoryDevice{1, 1});
    ASSERT_NE(gpu, nullptr);
    EXPECT_EQ(gpu->records, 26770u);
    EXPECT_EQ(gpu->peakAllocated.value, 6629508096);
    EXPECT_NEAR(static_cast<double>(gpu->peakAllocated.ts - firstRecordTs(*gpu)), 175037000.0, 2.0);
    EXPECT_EQ(gpu->peakReserved.value, 12782141440);
    const MemoryAllocations a = MemoryAllocations::build(*s);
    const auto n = a.counts(MemoryDevice{1, 1});
    EXPECT_EQ(n.allocations, 13385u);
    EXPECT_EQ(n.frees, 13385u);
    EXPECT_EQ(n.leaks, 0u);
    EXPECT_EQ(curves.find(kCpu)->records, 1240u);
    const MemoryOpStats stats = MemoryOpStats::build(*s);
    const MemoryDevice gpu1{1, 1};
    const MemoryOpStat* mul = findStat(*s, stats, gpu1, "aten::mul");
    ASSERT_NE(mul, nullptr);
    EXPECT_EQ(mul->selfAllocationCount, 2295u);
    EXPECT_EQ(mul->selfAllocationSize, 12402728960);
    const MemoryOpStat* mm = findStat(*s, stats, gpu1, "aten::mm");
    ASSERT_NE(mm, nullptr);
    EXPECT_EQ(mm->selfAllocationCount, 1470u);
    EXPECT_EQ(mm->selfAllocationSize, 8921169920);
    const MemoryOpStat* backward = findStat(*s, stats, gpu1, "CompiledFunctionBackward");
    ASSERT_NE(backward, nullptr);
    EXPECT_EQ(backward->allocationCount, 9090u);
    EXPECT_EQ(backward->allocationSize, 36852474880);
    EXPECT_EQ(backward->selfSizeIncrease, -37197803520);
    EXPECT_EQ(backward->sizeIncrease, -1179074560);
    // Decimated to a plot width, the peak survives.
    const auto pts = decimateMemoryCurve(*gpu, gpu->allocated, s->startNs(), s->endNs() + 1, 1000);
    EXPECT_LE(pts.size(), 1000u);
    EXPECT_EQ(std::max_element(pts.begin(), pts.end(), [](auto& x, auto& y) { return x.value < y.value; })->value,
              gpu->peakAllocated.value);
}

void exec(sqlite3* db, const std::string& sql) {
    char* message = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message), SQLITE_OK) << (message ? message : "");
    sqlite3_free(message);
}

// The real nsys export carries no CUDA memory usage rows (no --cuda-memory-usage); add some to a
// copy, with a known outcome: running total 1000, 4000, 3000, 3500, 3300, 300.
TEST(MemoryAnalysis, NsysMemoryUsageEvents) {
    const auto copy = test::tempDir() / "nsys_memory.sqlite";
    std::filesystem::copy_file(test::dataPath("nsys/nvfuser_report2_h200_nsys2024.6.sqlite"), copy,
                               std::filesystem::copy_options::overwrite_existing);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(copy.string().c_str(), &db), SQLITE_OK);
    exec(db, "CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start INTEGER NOT NULL, globalPid INTEGER, "
             "deviceId INTEGER, contextId INTEGER, address INTEGER, pc INTEGER, bytes INTEGER, memKind INTEGER, "
             "memoryOperationType INTEGER, name INTEGER, correlationId INTEGER, streamId INTEGER)");
    const char* rows[] = {"800000000, 4096, 1000, 0", "800000010, 8192, 3000, 0", "800000020, 4096, 1000, 1",
                          "800000030, 12288, 500, 0", "800000040, 36864, 200, 1", "800000050, 8192, 3000, 1"};
    for (const char* r : rows)
        exec(db, std::string("INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS (start, address, bytes, memoryOperationType, "
                             "globalPid, deviceId, contextId, memKind) VALUES (") +
                     r + ", 281987872980992, 0, 1, 2)");
    sqlite3_close(db);

    ImportResult imported = importTraceFile(copy.string());
    ASSERT_NE(imported.session, nullptr) << imported.error;
    const Session& s = *imported.session;
    ASSERT_EQ(s.memoryEvents().size(), 6u);
    const MemoryCurves curves = MemoryCurves::build(s);
    ASSERT_EQ(curves.devices().size(), 1u);
    const MemoryCurve& gpu = curves.devices()[0];
    EXPECT_EQ(gpu.device, kGpu0);
    EXPECT_EQ(gpu.allocated, (std::vector<int64_t>{1000, 4000, 3000, 3500, 3300, 300}));
    EXPECT_EQ(gpu.peakAllocated.value, 4000);
    EXPECT_EQ(gpu.peakAllocated.ts - gpu.ts.front(), 10);
    EXPECT_FALSE(gpu.hasReserved());
    ASSERT_TRUE(gpu.capacity.has_value());
    EXPECT_EQ(*gpu.capacity, 150137864192); // TARGET_INFO_GPU totalMemory
    const MemoryAllocations a = MemoryAllocations::build(s);
    const auto n = a.counts(kGpu0);
    EXPECT_EQ(n.allocations, 3u);
    EXPECT_EQ(n.frees, 3u);
    EXPECT_EQ(n.leaks, 1u);
    EXPECT_EQ(n.unmatchedFrees, 1u);
    ASSERT_EQ(a.size(), 4u);
    EXPECT_EQ(a.rows()[0].lifetime(), 20);
    EXPECT_EQ(a.rows()[1].lifetime(), 40);
    EXPECT_TRUE(a.rows()[2].leaked());
    EXPECT_TRUE(a.rows()[3].unmatchedFree());
    EXPECT_EQ(a.rows()[3].bytes, 200);
}

// Op attribution through python_function slices, aten::empty naming, a free that inherits its
// allocation's op, an unmatched free and a leak; old-style records without totals.
TEST(MemoryAnalysis, SyntheticAttributionAndNetCurve) {
    const char* trace = R"({"traceEvents":[
  {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":0,"dur":100},
  {"ph":"X","cat":"python_function","name":"torch/nn/functional.py(1): linear","pid":1,"tid":1,"ts":5,"dur":60},
  {"ph":"X","cat":"cpu_op","name":"aten::empty_strided","pid":1,"tid":1,"ts":10,"dur":10},
  {"ph":"X","cat":"cpu_op","name":"aten::relu","pid":1,"tid":1,"ts":200,"dur":50},
  {"ph":"i","s":"t","cat":"cpu_instant_event","name":"[memory]","pid":1,"tid":1,"ts":12,
   "args":{"Addr":100,"Bytes":512,"Device Type":1,"Device Id":0}},
  {"ph":"i","s":"t","cat":"cpu_instant_event","name":"[memory]","pid":1,"tid":1,"ts":30,
   "args":{"Addr":200,"Bytes":256,"Device Type":1,"Device Id":0}},
  {"ph":"i","s":"t","cat":"cpu_instant_event","name":"[memory]","pid":1,"tid":1,"ts":210,
   "args":{"Addr":100,"Bytes":-512,"Device Type":1,"Device Id":0}},
  {"ph":"i","s":"t","cat":"cpu_instant_event","name":"[memory]","pid":1,"tid":1,"ts":220,
   "args":{"Addr":300,"Bytes":-64,"Device Type":1,"Device Id":0}},
  {"ph":"i","s":"t","cat":"cpu_instant_event","name":"[memory]","pid":1,"tid":1,"ts":300,
   "args":{"Addr":400,"Bytes":8,"Device Type":0,"Device Id":-1}}]})";
    auto s = test::importText(trace, {}, "memory_synthetic.json").session;
    ASSERT_NE(s, nullptr);
    ASSERT_EQ(s->memoryEvents().size(), 5u);
    const MemoryCurves curves = MemoryCurves::build(*s);
    const MemoryCurve& gpu = *curves.find(kGpu0);
    EXPECT_FALSE(gpu.allocatedFromTotals);
    EXPECT_EQ(gpu.allocated, (std::vector<int64_t>{512, 768, 256, 192}));
    EXPECT_EQ(gpu.peakAllocated.value, 768);
    EXPECT_FALSE(gpu.hasReserved());

    const MemoryAllocations a = MemoryAllocations::build(*s);
    ASSERT_EQ(a.size(), 4u);
    EXPECT_EQ(MemoryAllocations::opText(*s, a.rows()[0]), "aten::linear (aten::empty_strided)");
    EXPECT_EQ(a.rows()[0].freedAt - a.rows()[0].allocatedAt, 198000);
    EXPECT_EQ(MemoryAllocations::opText(*s, a.rows()[1]), "aten::linear"); // inside python_function only
    EXPECT_TRUE(a.rows()[1].leaked());
    EXPECT_TRUE(a.rows()[2].unmatchedFree());
    EXPECT_EQ(MemoryAllocations::opText(*s, a.rows()[2]), "");
    EXPECT_EQ(a.rows()[3].device, kCpu);
    EXPECT_EQ(MemoryAllocations::opText(*s, a.rows()[3]), ""); // outside any op

    const MemoryOpStats stats = MemoryOpStats::build(*s);
    const MemoryOpStat* linear = findStat(*s, stats, kGpu0, "aten::linear");
    ASSERT_NE(linear, nullptr);
    EXPECT_EQ(linear->calls, 1u);
    EXPECT_EQ(linear->allocationCount, 2u);
    EXPECT_EQ(linear->allocationSize, 768);
    EXPECT_EQ(linear->selfAllocationCount, 1u);
    EXPECT_EQ(linear->selfAllocationSize, 256);
    const MemoryOpStat* relu = findStat(*s, stats, kGpu0, "aten::relu");
    ASSERT_NE(relu, nullptr);
    EXPECT_EQ(relu->selfSizeIncrease, -576); // frees count where they happen
    EXPECT_EQ(relu->allocationCount, 0u);
    EXPECT_EQ(findStat(*s, stats, kCpu, "aten::relu"), nullptr);
}

TEST(MemoryAnalysis, NoMemoryEvents) {
    auto s = load(test::dataPath("mi250_minitoy_train_ROCm6_2_kineto.json.gz"));
    ASSERT_NE(s, nullptr);
    EXPECT_TRUE(MemoryCurves::build(*s).empty());
    EXPECT_EQ(MemoryAllocations::build(*s).size(), 0u);
    EXPECT_EQ(MemoryOpStats::build(*s).size(), 0u);
}

} // namespace
} // namespace ws
