// Iterations from the repeating launch pattern (issue #13, part), checked against the NVTX `step i`
// ranges the sample programs mark (capture/samples/resnet_step.py, ddp_step.py): the detector does
// not look at NVTX, so those ranges are an independent answer.
#include "analysis/launch_pattern_steps.h"
#include "analysis/overview.h"
#include "store/session_store.h"
#include "analysis/step_ranges.h"
#include "test_util.h"

#include <algorithm>

using namespace ws;
using namespace ws::test;

namespace {

// |a ∩ b| / |b|
double coverage(const StepRange& a, const StepRange& b) {
    const int64_t lo = std::max(a.start, b.start), hi = std::min(a.end, b.end);
    return hi > lo ? static_cast<double>(hi - lo) / static_cast<double>(b.end - b.start) : 0.0;
}

void expectMatchesNvtxSteps(const std::string& file, uint32_t iterations) {
    ImportResult r = importTraceFile(dataPath(file));
    ASSERT_TRUE(r.session) << r.error;
    const StepRanges marked = computeStepRanges(*r.session); // from the NVTX `step i` ranges
    ASSERT_TRUE(marked.namedSteps);
    const LaunchPatternSteps found = findLaunchPatternSteps(*r.session);
    EXPECT_EQ(found.iterations, iterations) << file;
    ASSERT_EQ(found.steps.size(), iterations) << file;
    EXPECT_GE(found.periodicKernels, 3u);
    // Past the first (warm-up) step, each found iteration covers most of its marked step. Not all:
    // an iteration is found from its first kernel launch, so CPU work before it (zero_grad, DDP's
    // pre-forward, 2.6 ms of a 21 ms step in the DDP capture) falls into the previous iteration.
    size_t good = 0;
    for (size_t k = 1; k + 1 < iterations; ++k)
        good += coverage(found.steps[k], marked.steps[k]) >= 0.8;
    EXPECT_GE(good, iterations - 3) << file;
}

} // namespace

TEST(LaunchPatternSteps, ResNetTrainingStepsFromTheLaunchesAlone) {
    expectMatchesNvtxSteps("captures/resnet18.wscap.gz", 30);
}

TEST(LaunchPatternSteps, DdpRankStepsFromTheLaunchesAlone) {
    expectMatchesNvtxSteps("captures/ddp_rank0.wscap.gz", 20);
}

TEST(LaunchPatternSteps, NoPatternInAFewLaunches) {
    ImportResult r = importTraceFile(dataPath("captures/vector_add.wscap"));
    ASSERT_TRUE(r.session) << r.error;
    const LaunchPatternSteps found = findLaunchPatternSteps(*r.session);
    // vector_add launches 2 kernels 10 times: only two distinct kernels repeat, not a training loop.
    EXPECT_TRUE(found.steps.empty());
}

TEST(LaunchPatternSteps, UnmarkedTrainingLoopsGetTheirIterations) {
    // Captures of training scripts with no markers at all (capture/samples/device_steps.sh): each
    // ran 12 steps, and the Overview's steps come from the launch pattern.
    for (const char* file : {"captures/resnet18_plain.wscap.gz", "captures/transformer_plain.wscap.gz"}) {
        ImportResult r = importTraceFile(dataPath(file));
        ASSERT_TRUE(r.session) << r.error;
        const LaunchPatternSteps found = findLaunchPatternSteps(*r.session);
        EXPECT_EQ(found.iterations, 12u) << file;
        const StepRanges steps = computeStepRanges(*r.session);
        EXPECT_TRUE(steps.patternSteps) << file;
        EXPECT_FALSE(steps.namedSteps) << file;
        EXPECT_GE(steps.steps.size(), 11u) << file; // the tail step may be trimmed as cut (FORMATS.md 3.3)
        EXPECT_EQ(steps.labels.front(), "0") << file;
    }
}

TEST(LaunchPatternSteps, TheOverviewSaysWhereItsStepsComeFrom) {
    ImportResult plain = importTraceFile(dataPath("captures/transformer_plain.wscap.gz"));
    ImportResult marked = importTraceFile(dataPath("captures/resnet18.wscap.gz"));
    ASSERT_TRUE(plain.session && marked.session);
    EXPECT_EQ(computeOverview(*plain.session).stepSource, OverviewReport::StepSource::LaunchPattern);
    EXPECT_EQ(computeOverview(*marked.session).stepSource, OverviewReport::StepSource::Named);
}

TEST(LaunchPatternSteps, AStoredCaptureKeepsItsSteps) {
    // A capture stored in the library is still a capture to the step finder (sourceFormat).
    ImportResult r = importTraceFile(dataPath("captures/transformer_plain.wscap.gz"));
    ASSERT_TRUE(r.session) << r.error;
    const std::string path = (tempDir() / "transformer_plain.warpscope").string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(*r.session, path, {}, &error)) << error;
    auto stored = SessionStore::read(path, &error);
    ASSERT_TRUE(stored) << error;
    EXPECT_EQ(stored->format(), TraceFormat::WarpscopeSession);
    EXPECT_EQ(stored->sourceFormat(), TraceFormat::WarpscopeCapture);
    EXPECT_EQ(computeStepRanges(*stored).steps.size(), computeStepRanges(*r.session).steps.size());
    EXPECT_TRUE(computeStepRanges(*stored).patternSteps);
}
