// Comparing two runs (issue #15): kernel names normalized so renames that do not matter match, a
// run compared with itself changes nothing, and the tables flag what is new or gone and sort by
// the size of the change. The numbers themselves are checked against tests/core/reference_diff.py
// by the cli.diff_matches_reference test.
#include "analysis/session_diff.h"
#include "analysis/memory_overlay.h"
#include "analysis/session_analyses.h"
#include "analysis/session_diff_text.h"
#include "import/trace_import.h"
#include "test_util.h"

#include <cstdlib>

using namespace ws;
using namespace ws::test;

TEST(SessionDiff, KernelNamesNormalizeAwayConfigurationNotMeaning) {
    EXPECT_EQ(normalizeKernelName("sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_"
                                  "execute_segment_k_off_kernel__5x_cublas"),
              "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_*_*_execute_segment_k_off_kernel__*_cublas");
    // Tile shapes that differ between runs match; the layout (nn/nt) still tells kernels apart.
    EXPECT_EQ(normalizeKernelName("volta_sgemm_128x64_nn"), normalizeKernelName("volta_sgemm_64x32_nn"));
    EXPECT_NE(normalizeKernelName("volta_sgemm_128x64_nn"), normalizeKernelName("volta_sgemm_128x64_nt"));
    EXPECT_EQ(normalizeKernelName("volta_sgemm_128x64_sliced1x4_nn"), "volta_sgemm_*_*_nn");
    // Template arguments keep the functor and the types; their numbers and the parameters go.
    EXPECT_EQ(normalizeKernelName("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
                                  "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)"),
              "at::native::vectorized_elementwise_kernel<*, at::native::CUDAFunctor_add<float>, std::array<char*, *> >");
    EXPECT_EQ(normalizeKernelName("void at::native::vectorized_elementwise_kernel<2, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul> >(int)"),
              normalizeKernelName("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul> >(int)"));
    EXPECT_NE(normalizeKernelName("vectorized_elementwise_kernel<4, CUDAFunctor_add<float> >"),
              normalizeKernelName("vectorized_elementwise_kernel<4, CUDAFunctor_add<c10::Half> >"));
    // Numbers that are part of a name stay: sm90, f32, float4, int8.
    EXPECT_EQ(normalizeKernelName("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"),
              "ncclKernel_AllReduce_RING_LL_Sum_float");
    EXPECT_EQ(normalizeKernelName("kernel<float4, int8_t>"), "kernel<float4, int8_t>");
}

TEST(SessionDiff, ARunComparedWithItselfChangesNothing) {
    const ImportResult r = importTraceFile(dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz"));
    ASSERT_TRUE(r.session) << r.error;
    const SessionDiff d = computeSessionDiff(*r.session, *r.session);
    ASSERT_FALSE(d.operators.empty());
    ASSERT_FALSE(d.kernels.empty());
    for (const OperatorDiffRow& o : d.operators) {
        EXPECT_EQ(o.deltaNs, 0) << o.name;
        EXPECT_EQ(o.presence, DiffPresence::Both);
        EXPECT_EQ(o.calls[0], o.calls[1]);
    }
    for (const KernelDiffRow& k : d.kernels) {
        EXPECT_EQ(k.deltaNs, 0) << k.key;
        EXPECT_EQ(k.names[0], k.names[1]);
    }
    for (const DiffMetric& m : d.headline) {
        EXPECT_EQ(m.value[0], m.value[1]) << m.name;
        if (m.percentChange()) {
            EXPECT_EQ(*m.percentChange(), 0.0) << m.name;
        }
    }
    EXPECT_TRUE(d.deviceTimes);
}

TEST(SessionDiff, NewAndVanishedGroupsAreFlaggedAndTablesSortByChange) {
    // The same BERT on an H100 and on an MI300: NVIDIA's kernels vanish, AMD's are new.
    const ImportResult h100 = importTraceFile(dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz"));
    const ImportResult mi300 = importTraceFile(dataPath("mi300_gaunernst_bert-small-uncased__1016001.json.gz"));
    ASSERT_TRUE(h100.session && mi300.session);
    const SessionDiff d = computeSessionDiff(*h100.session, *mi300.session);
    size_t fresh = 0, gone = 0;
    for (const KernelDiffRow& k : d.kernels) {
        fresh += k.presence == DiffPresence::New;
        gone += k.presence == DiffPresence::Vanished;
        if (k.presence == DiffPresence::New) {
            EXPECT_EQ(k.calls[0], 0u);
            EXPECT_TRUE(k.names[0].empty());
            EXPECT_EQ(k.deltaNs, k.totalNs[1]);
        }
    }
    EXPECT_GT(fresh, 0u);
    EXPECT_GT(gone, 0u);
    for (size_t i = 1; i < d.kernels.size(); ++i)
        EXPECT_GE(std::llabs(d.kernels[i - 1].deltaNs), std::llabs(d.kernels[i].deltaNs));
    for (size_t i = 1; i < d.operators.size(); ++i)
        EXPECT_GE(std::llabs(d.operators[i - 1].deltaNs), std::llabs(d.operators[i].deltaNs));
    // Same model: the same operators by name on both, the same step count.
    EXPECT_EQ(d.steps[0], d.steps[1]);
    const std::string csv = sessionDiffCsv(d, DiffTable::Operators);
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "name,input_shapes,input_types,call_stack,presence,calls_a,calls_b,host_total_ns_a,host_total_ns_b,"
              "host_self_ns_a,host_self_ns_b,device_total_ns_a,device_total_ns_b,device_self_ns_a,device_self_ns_b,delta_ns");
    // Grouped by input shape, an operator splits into more rows than by name.
    SessionDiffOptions byShape;
    byShape.operatorGrouping = OperatorGrouping::NameAndInputShape;
    EXPECT_GT(computeSessionDiff(*h100.session, *mi300.session, byShape).operators.size(), d.operators.size());
}

TEST(SessionDiff, TwoStepsOfOneRun) {
    // Three ProfilerSteps (#4, #5, #6) of one rank.
    const ImportResult r = importTraceFile(dataPath("nccl_data_rank0.json.gz"));
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    const auto first = stepWindow(s, "#1"), four = stepWindow(s, "4");
    ASSERT_TRUE(first && four);
    EXPECT_EQ(first->from, four->from);
    EXPECT_EQ(first->to, four->to);
    EXPECT_FALSE(stepWindow(s, "99"));
    EXPECT_FALSE(stepWindow(s, "#0"));

    const SessionDiff whole = computeSessionDiff(s, s);
    uint64_t allKernels = 0;
    for (const KernelDiffRow& k : whole.kernels)
        allKernels += k.calls[0];
    uint64_t inSteps = 0;
    for (const char* step : {"4", "5", "6"}) {
        SessionDiffOptions o;
        o.window = {stepWindow(s, step), stepWindow(s, "5")};
        const SessionDiff d = computeSessionDiff(s, s, o);
        EXPECT_EQ(d.steps[0], 1u) << step;
        EXPECT_EQ(d.steps[1], 1u) << step;
        uint64_t calls = 0;
        for (const KernelDiffRow& k : d.kernels)
            calls += k.calls[0];
        EXPECT_GT(calls, 0u) << step;
        inSteps += calls;
        if (std::string(step) == "5") { // a step against itself
            for (const KernelDiffRow& k : d.kernels)
                EXPECT_EQ(k.deltaNs, 0) << k.key;
        }
    }
    // The steps hold (nearly) every kernel, and none twice.
    EXPECT_LE(inSteps, allKernels);
    EXPECT_GE(inSteps * 10, allKernels * 9);
}

TEST(SessionDiff, MemoryOverlayStartsAtTheWindowAndKeepsThePeak) {
    const ImportResult r = importTraceFile(dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz"));
    ASSERT_TRUE(r.session) << r.error;
    const MemoryOverlayCurve whole = memoryOverlayCurve(*r.session, std::nullopt, 64);
    ASSERT_TRUE(whole.found);
    EXPECT_EQ(whole.device.type, 1); // the GPU, not the host
    EXPECT_LE(whole.points.size(), 64u);
    EXPECT_EQ(whole.peak.value, MemoryCurves::build(*r.session).find(whole.device)->peakAllocated.value);
    bool peakDrawn = false;
    for (const MemoryPoint& p : whole.points) {
        EXPECT_GE(p.ts, 0);
        peakDrawn |= p.value == whole.peak.value;
    }
    EXPECT_TRUE(peakDrawn); // decimation keeps the peak
    // A window: times from its start.
    const DiffWindow w{r.session->startNs() + 1000000, r.session->endNs()};
    const MemoryOverlayCurve part = memoryOverlayCurve(*r.session, w, 64);
    ASSERT_FALSE(part.points.empty());
    EXPECT_EQ(part.points.front().ts, 0); // the value holding at the window's start
    // The MI300 run has host memory records only: no GPU curve.
    const ImportResult mi300 = importTraceFile(dataPath("mi300_gaunernst_bert-small-uncased__1016001.json.gz"));
    ASSERT_TRUE(mi300.session);
    EXPECT_FALSE(memoryOverlayCurve(*mi300.session, std::nullopt).found);
}

namespace {

// A one-step Kineto trace: an aten::mm whose runtime call launches a GEMM, and a kernel launched
// after the step, outside any operator; `stack` is the mm's "Call stack" argument ("" for none).
std::string tinyTrace(const std::string& gemm, int64_t gemmUs, const std::string& stack) {
    const std::string stackArg = stack.empty() ? "" : R"(, "Call stack": ")" + stack + R"(")";
    return R"({"traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 1000},
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 100, "args": {"External id": 1)" +
           stackArg + R"(}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 20, "dur": 5, "args": {"correlation": 7, "External id": 1}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1500, "dur": 5, "args": {"correlation": 8}},
 {"ph": "X", "cat": "kernel", "name": ")" + gemm + R"(", "pid": 0, "tid": 7, "ts": 30, "dur": )" + std::to_string(gemmUs) +
           R"(, "args": {"correlation": 7, "device": 0, "stream": 7}},
 {"ph": "X", "cat": "kernel", "name": "fill_kernel", "pid": 0, "tid": 7, "ts": 1600, "dur": 10, "args": {"correlation": 8, "device": 0, "stream": 7}},
 {"ph": "f", "id": 7, "pid": 0, "tid": 7, "ts": 30, "cat": "ac2g", "name": "ac2g", "bp": "e"},
 {"ph": "s", "id": 7, "pid": 1, "tid": 1, "ts": 20, "cat": "ac2g", "name": "ac2g"},
 {"ph": "f", "id": 8, "pid": 0, "tid": 7, "ts": 1600, "cat": "ac2g", "name": "ac2g", "bp": "e"},
 {"ph": "s", "id": 8, "pid": 1, "tid": 1, "ts": 1500, "cat": "ac2g", "name": "ac2g"}
]})";
}

} // namespace

TEST(SessionDiff, KernelsMatchByLaunchingOperatorToo) {
    const ImportResult a = importText(tinyTrace("volta_sgemm_128x64_nn", 40, ""), {}, "diff_a.json");
    const ImportResult b = importText(tinyTrace("volta_sgemm_64x32_nn", 70, ""), {}, "diff_b.json");
    ASSERT_TRUE(a.session && b.session) << a.error << b.error;
    const SessionDiff d = computeSessionDiff(*a.session, *b.session);
    ASSERT_EQ(d.operatorKernels.size(), 2u);
    // The GEMM, renamed by its tile, matches under aten::mm and is the biggest change.
    const KernelDiffRow& gemm = d.operatorKernels[0];
    EXPECT_EQ(gemm.op, "aten::mm");
    EXPECT_EQ(gemm.key, "volta_sgemm_*_nn");
    EXPECT_EQ(gemm.names[0], "volta_sgemm_128x64_nn");
    EXPECT_EQ(gemm.names[1], "volta_sgemm_64x32_nn");
    EXPECT_EQ(gemm.deltaNs, 30000);
    EXPECT_EQ(gemm.presence, DiffPresence::Both);
    // The launch outside any operator has none.
    EXPECT_EQ(d.operatorKernels[1].op, "");
    EXPECT_EQ(d.operatorKernels[1].key, "fill_kernel");
    EXPECT_EQ(d.operatorKernels[1].calls[0], 1u);
    const std::string csv = sessionDiffCsv(d, DiffTable::OperatorKernels);
    EXPECT_EQ(csv.substr(0, csv.find(',')), "operator");
    EXPECT_NE(csv.find("aten::mm,volta_sgemm_*_nn,both,"), std::string::npos) << csv;
}

TEST(SessionDiff, ByCallStackFallsBackToNameWhenARunHasNoStacks) {
    // Distinct files: the arguments are read from the source when the tree needs them.
    const ImportResult withStacks = importText(tinyTrace("gemm", 40, "model.py(10): forward"), {}, "stack_a.json");
    const ImportResult other = importText(tinyTrace("gemm", 40, "model.py(12): forward"), {}, "stack_b.json");
    const ImportResult without = importText(tinyTrace("gemm", 50, ""), {}, "stack_none.json");
    ASSERT_TRUE(withStacks.session && other.session && without.session);
    SessionDiffOptions byStack;
    byStack.operatorGrouping = OperatorGrouping::NameAndCallStack;
    // Both runs have stacks: the moved call is a different row on each side.
    const SessionDiff both = computeSessionDiff(*withStacks.session, *other.session, byStack);
    EXPECT_EQ(both.operatorGrouping, OperatorGrouping::NameAndCallStack);
    ASSERT_EQ(both.operators.size(), 2u);
    EXPECT_NE(both.operators[0].presence, DiffPresence::Both);
    // One run has none: matched by name, one row, a change of 10 us.
    const SessionDiff one = computeSessionDiff(*withStacks.session, *without.session, byStack);
    EXPECT_EQ(one.operatorGrouping, OperatorGrouping::Name);
    EXPECT_TRUE(one.callStacks[0]);
    EXPECT_FALSE(one.callStacks[1]);
    ASSERT_EQ(one.operators.size(), 1u);
    EXPECT_EQ(one.operators[0].presence, DiffPresence::Both);
    EXPECT_EQ(one.operators[0].deltaNs, 10000);
    EXPECT_NE(sessionDiffJson(one).find("\"operator_grouping\": \"name\""), std::string::npos);
}

TEST(SessionDiff, AnalysesOfOpenSessionsAreComputedOnceAndShared) {
    const ImportResult r = importTraceFile(dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz"));
    ASSERT_TRUE(r.session) << r.error;
    SessionAnalyses a(r.session), b(r.session);
    EXPECT_FALSE(a.overviewDataIfReady());
    EXPECT_FALSE(a.operatorTreeIfReady(false));
    const SessionDiff first = computeSessionDiff(a, b);
    // The comparison filled the caches; a second one reuses them and gives the same tables.
    const auto data = a.overviewDataIfReady();
    const auto tree = a.operatorTreeIfReady(false);
    ASSERT_TRUE(data && tree);
    EXPECT_FALSE(tree->argsLoaded());
    const SessionDiff second = computeSessionDiff(a, b);
    EXPECT_EQ(a.overviewData(), data);
    EXPECT_EQ(a.operatorTree(false), tree);
    ASSERT_EQ(first.operators.size(), second.operators.size());
    ASSERT_EQ(first.operatorKernels.size(), second.operatorKernels.size());
    EXPECT_EQ(sessionDiffJson(first), sessionDiffJson(second));
    // The tree with arguments, once built, serves the by-name grouping too.
    const auto full = a.operatorTree(true);
    EXPECT_TRUE(full->argsLoaded());
    EXPECT_EQ(a.operatorTree(false), full);
    // Uncached, the same result.
    EXPECT_EQ(sessionDiffJson(computeSessionDiff(*r.session, *r.session)), sessionDiffJson(first));
}
