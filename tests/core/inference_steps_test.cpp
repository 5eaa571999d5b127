// Inference steps (issue #49): forwards cut at the LM head, prefill or decode, and the latencies of
// real generate() loops recorded on an H200 (tests/data/inference/README.md and
// tests/data/captures/graphs/README.md).

#include "test_util.h"

#include "analysis/inference_counters.h"
#include "analysis/inference_gaps.h"
#include "analysis/inference_steps.h"
#include "analysis/kernel_table.h"
#include "analysis/recommendations.h"

#include <filesystem>
#include <string>

namespace ws {
namespace {

struct AnalysedRun {
    std::shared_ptr<const Session> session;
    KernelTable table;
    InferenceSteps steps;
};

AnalysedRun analyse(const std::string& relative) {
    AnalysedRun r;
    ImportResult imported = importTraceFile(test::dataPath(relative));
    EXPECT_TRUE(imported.session) << relative << ": " << imported.error;
    r.session = imported.session;
    if (r.session) {
        r.table = KernelTable::build(*r.session);
        r.steps = InferenceSteps::build(*r.session, r.table);
    }
    return r;
}

// Every request of these programs: one prefill, then decodes of one token per sequence.
void expectGenerations(const InferenceSteps& s, size_t requests, uint32_t stepsPerRequest, size_t firstFull = 0) {
    ASSERT_EQ(s.requests().size(), requests);
    for (size_t i = firstFull; i < requests; ++i) {
        const InferenceRequest& r = s.requests()[i];
        EXPECT_TRUE(r.hasPrefill) << i;
        EXPECT_EQ(r.steps, stepsPerRequest) << i;
        EXPECT_EQ(s.steps()[r.firstStep].phase, InferencePhase::Prefill) << i;
        for (uint32_t k = 1; k < r.steps; ++k)
            EXPECT_EQ(s.steps()[r.firstStep + k].phase, InferencePhase::Decode) << i << " step " << k;
        EXPECT_GT(r.ttftNs(), 0);
        EXPECT_LT(r.firstTokenEnd, r.end);
    }
}

TEST(InferenceSteps, ATraceWithShapesIsCutAtTheVocabularyGemm) {
    // transformers' generate(): 4 prompts of 64 tokens, 24 new tokens, 2 calls under torch.profiler.
    const AnalysedRun r = analyse("inference/hf_eager_shapes.pt.trace.json.gz");
    ASSERT_TRUE(r.session);
    const InferenceSteps& s = r.steps;
    EXPECT_EQ(s.source(), ForwardSource::HeadShapes);
    EXPECT_EQ(s.phaseSource(), PhaseSource::AttentionShapes);
    EXPECT_EQ(s.vocabulary(), 32000u);
    ASSERT_EQ(s.steps().size(), 48u);
    expectGenerations(s, 2, 24);
    const InferenceStep& prefill = s.steps()[0];
    EXPECT_EQ(prefill.tokens, 256u);
    EXPECT_EQ(prefill.batch, 4u);
    EXPECT_EQ(prefill.queryLength, 64u);
    // The cache grows by one position a token: the k-th decode attends to 64 + k keys.
    for (uint32_t k = 1; k < 24; ++k) {
        EXPECT_EQ(s.steps()[k].queryLength, 1u);
        EXPECT_EQ(s.steps()[k].tokens, 4u);
        EXPECT_EQ(s.steps()[k].context, 64u + k);
    }
    EXPECT_EQ(s.requests()[0].promptTokens, 64u);
    EXPECT_EQ(s.requests()[0].newTokens, 24u);
    // A launch-bound eager decode: about 13-25 ms a token under the profiler, with the GPU mostly idle.
    const LatencyStats tpot = s.timePerToken();
    EXPECT_EQ(tpot.count, 46u);
    EXPECT_GT(tpot.p50, 5'000'000);
    EXPECT_LT(tpot.p50, 60'000'000);
    const PhaseTotals decode = s.totals(InferencePhase::Decode);
    EXPECT_LT(decode.busyNs * 4, decode.spanNs);
    EXPECT_GT(s.tokensPerSecond(), 0);
}

TEST(InferenceSteps, ACaptureWithStacksIsCutAtTheHeadsLineAndToldApartByItsKernels) {
    // The same generate() captured with --torch-ops --py-stacks: no shapes, 3 calls (1 warm-up).
    const AnalysedRun r = analyse("inference/hf_eager_stacks.wscap.gz");
    ASSERT_TRUE(r.session);
    const InferenceSteps& s = r.steps;
    EXPECT_EQ(s.source(), ForwardSource::HeadLine);
    EXPECT_EQ(s.phaseSource(), PhaseSource::GemmKernels);
    EXPECT_NE(s.headLabel().find("LlamaForCausalLM.forward"), std::string::npos) << s.headLabel();
    ASSERT_EQ(s.steps().size(), 72u);
    expectGenerations(s, 3, 24);
}

TEST(InferenceSteps, GraphReplaysAreDecodesBetweenEagerPrefills) {
    // graph_decode.py: 3 eager warm-up decodes, then 6 steps of a prefill and 32 replayed decodes.
    const AnalysedRun r = analyse("captures/graphs/graph.wscap.gz");
    ASSERT_TRUE(r.session);
    const InferenceSteps& s = r.steps;
    ASSERT_EQ(s.steps().size(), 3u + 6u * 33u);
    ASSERT_EQ(s.requests().size(), 7u);
    EXPECT_FALSE(s.requests()[0].hasPrefill);
    expectGenerations(s, 7, 33, 1);
    // A replayed token takes about 0.58 ms on the GPU.
    const LatencyStats tpot = s.timePerToken();
    EXPECT_GT(tpot.p50, 400'000);
    EXPECT_LT(tpot.p50, 800'000);
}

TEST(InferenceSteps, AKinetoTracesGraphReplaysAddTheirOwnHeads) {
    // The graphed decoder under torch.profiler with shapes: the eager prefills' heads by shape, the
    // replays' (no shapes under cudaGraphLaunch) by their costliest GEMM node.
    const AnalysedRun r = analyse("inference/graph_shapes.pt.trace.json.gz");
    ASSERT_TRUE(r.session);
    ASSERT_EQ(r.steps.steps().size(), 2u * 33u);
    expectGenerations(r.steps, 2, 33);
}

TEST(InferenceSteps, TransformersStaticCacheDecodesReplayCompiledGraphs) {
    // generate(cache_implementation="static"): eager prefills, decodes from CUDA graph trees.
    const AnalysedRun r = analyse("captures/graphs/hf_static.wscap.gz");
    ASSERT_TRUE(r.session);
    const InferenceSteps& s = r.steps;
    size_t prefills = 0;
    for (const InferenceStep& st : s.steps())
        prefills += st.phase == InferencePhase::Prefill;
    EXPECT_EQ(prefills, 7u); // 6 calls; the first call's prefill ran twice (compilation)
    // The 4 measured calls: a prefill and 23 replayed decodes each, a few ms a token.
    expectGenerations(s, s.requests().size(), 24, s.requests().size() - 4);
    EXPECT_LT(s.timePerToken().p50, 5'000'000);
}

TEST(InferenceSteps, TrainingIsNotInference) {
    const AnalysedRun r = analyse("captures/zoo/gpt.wscap.gz");
    ASSERT_TRUE(r.session);
    EXPECT_TRUE(r.steps.empty());
    EXPECT_TRUE(r.steps.training());
}

TEST(InferenceSteps, AModelWithoutAnLmHeadIsNotInference) {
    // TraceLens' Qwen1.5-0.5B forward on an H100 (record_shapes): the bare model, no vocabulary GEMM.
    // Its widest GEMM (the MLP's 2,816 columns) comes twice a layer, gate and up side by side with
    // no other GEMM between them: not the cut between forwards.
    const std::string path = test::sharedPath("pytorch_kineto/tracelens/h100_Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz");
    if (!std::filesystem::exists(path))
        GTEST_SKIP() << "not present: " << path;
    ImportResult imported = importTraceFile(path);
    ASSERT_TRUE(imported.session) << imported.error;
    const KernelTable table = KernelTable::build(*imported.session);
    const InferenceSteps s = InferenceSteps::build(*imported.session, table);
    EXPECT_TRUE(s.empty());
    EXPECT_FALSE(s.training());
}

TEST(InferenceSteps, LatencyPercentilesAreNearestRank) {
    const LatencyStats s = latencyStats({5, 1, 4, 2, 3, 10, 6, 7, 8, 9});
    EXPECT_EQ(s.count, 10u);
    EXPECT_EQ(s.min, 1);
    EXPECT_EQ(s.p50, 5);
    EXPECT_EQ(s.p90, 9);
    EXPECT_EQ(s.p99, 10);
    EXPECT_EQ(s.max, 10);
    EXPECT_DOUBLE_EQ(s.mean, 5.5);
    EXPECT_EQ(latencyStats({}).count, 0u);
}

// The Overview's advice for a generate loop (issue #49): a host-bound decode, not "increase the batch
// size, overlap data loading"; for a loop that replays CUDA graphs already, not "use CUDA graphs".
TEST(InferenceSteps, AHostBoundDecodeReplacesTheTrainingAdvice) {
    struct Case {
        const char* file;
        uint64_t graphed;
    };
    for (const Case& c : {Case{"inference/hf_eager_stacks.wscap.gz", 0}, Case{"captures/graphs/hf_static.wscap.gz", 1}}) {
        const AnalysedRun r = analyse(c.file);
        ASSERT_TRUE(r.session) << c.file;
        std::vector<Recommendation> recs;
        Recommendation low;
        low.kind = RecommendationKind::LowGpuUtilization;
        low.severity = RecommendationSeverity::Warning;
        recs.push_back(low);
        Recommendation info;
        info.kind = RecommendationKind::PageableCopies;
        recs.push_back(info);
        addInferenceRecommendations(recs, r.steps);
        ASSERT_EQ(recs.size(), 2u) << c.file;
        const Recommendation& d = recs[0];
        EXPECT_EQ(d.kind, RecommendationKind::HostBoundDecode) << c.file;
        EXPECT_EQ(recs[1].kind, RecommendationKind::PageableCopies);
        EXPECT_LT(d.share, kHostBoundDecodeThreshold);
        EXPECT_EQ(d.count, r.steps.totals(InferencePhase::Decode).steps);
        EXPECT_EQ(d.total, c.graphed) << c.file;
        ASSERT_TRUE(d.range);
        EXPECT_GT(d.range->end, d.range->start);
        const std::string evidence = recommendationEvidence(d);
        EXPECT_NE(evidence.find(c.graphed ? "already replays CUDA graphs" : "capture the decode step in CUDA graphs"),
                  std::string::npos)
            << evidence;
    }
    // A training run keeps its advice.
    const AnalysedRun training = analyse("captures/zoo/gpt.wscap.gz");
    ASSERT_TRUE(training.session);
    std::vector<Recommendation> recs(1);
    recs[0].kind = RecommendationKind::LowGpuUtilization;
    addInferenceRecommendations(recs, training.steps);
    ASSERT_EQ(recs.size(), 1u);
    EXPECT_EQ(recs[0].kind, RecommendationKind::LowGpuUtilization);
}

// Why the GPU idles per phase (inference_gaps.h): the idle-gap analysis over each phase's forwards;
// its gaps and the shorter ones between kernels make up the phase's idle time. The eager decode
// loop waits for the host: its Python (CPU work, on the capture's launch stacks) and the generate
// loop's synchronizations (item() on the stopping criteria).
TEST(InferenceSteps, TheIdleTimeOfEachPhaseHasItsCauses) {
    const AnalysedRun r = analyse("inference/hf_eager_stacks.wscap.gz");
    ASSERT_TRUE(r.session);
    const std::vector<PhaseIdleCauses> causes = inferenceIdleCauses(*r.session, r.steps);
    ASSERT_EQ(causes.size(), 2u);
    EXPECT_EQ(causes[0].phase, InferencePhase::Prefill);
    EXPECT_EQ(causes[1].phase, InferencePhase::Decode);
    for (const PhaseIdleCauses& c : causes) {
        EXPECT_EQ(c.forwards, r.steps.totals(c.phase).steps);
        EXPECT_GT(c.idleNs(), 0);
        int64_t categorized = 0;
        for (const GapCategoryTotals& t : c.gaps.categories)
            categorized += t.ns;
        EXPECT_EQ(categorized, c.gaps.gapNs);
        // The gaps lie inside the forwards; kernels and copies are a little more than busyNs counts.
        EXPECT_LE(c.gaps.gapNs, c.idleNs());
        EXPECT_EQ(c.shortGapNs, c.idleNs() - c.gaps.gapNs);
        EXPECT_GT(c.gaps.categories[size_t(GapCategory::CpuWork)].ns, c.idleNs() / 10) << inferencePhaseName(c.phase);
        EXPECT_GT(c.gaps.categories[size_t(GapCategory::Sync)].ns, 0) << inferencePhaseName(c.phase);
    }
    // Launch overhead: a decode's kernels come every ~15 us, so many of its gaps are too short to classify.
    EXPECT_GT(causes[1].shortGapNs, causes[1].idleNs() / 10);
}

// The phases as timeline rows under the GPU: 2 over a prefill, 1 over a decode, 0 after each
// forward; the time per token over each decode.
TEST(InferenceSteps, ThePhasesAreCounterRowsUnderTheGpu) {
    const AnalysedRun r = analyse("inference/hf_eager_shapes.pt.trace.json.gz");
    ASSERT_TRUE(r.session);
    const std::vector<DerivedCounter> rows = inferenceCounters(*r.session, r.steps);
    ASSERT_EQ(rows.size(), 2u);
    const DerivedCounter& phase = rows[0];
    const DerivedCounter& latency = rows[1];
    EXPECT_EQ(phase.name, "Inference Phase");
    EXPECT_EQ(r.session->processes()[phase.process].deviceId, r.steps.device());
    EXPECT_TRUE(std::is_sorted(phase.ts.begin(), phase.ts.end()));
    EXPECT_EQ(std::count(phase.value.begin(), phase.value.end(), 2.0), 2);
    EXPECT_EQ(std::count(phase.value.begin(), phase.value.end(), 1.0), 46);
    EXPECT_EQ(phase.value.back(), 0.0);
    int64_t worstDecode = 0;
    for (const InferenceStep& st : r.steps.steps())
        if (st.phase == InferencePhase::Decode)
            worstDecode = std::max(worstDecode, st.latencyNs);
    bool seen = false;
    for (double v : latency.value)
        seen |= std::abs(v - static_cast<double>(worstDecode) / 1e6) < 1e-9;
    EXPECT_TRUE(seen);
    // A training run has none.
    const AnalysedRun training = analyse("captures/zoo/gpt.wscap.gz");
    EXPECT_TRUE(inferenceCounters(*training.session, training.steps).empty());
}

} // namespace
} // namespace ws
