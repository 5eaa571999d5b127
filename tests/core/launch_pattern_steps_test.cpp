// Iterations from the repeating launch pattern (issue #13, part), checked against the NVTX `step i`
// ranges the sample programs mark (capture/samples/resnet_step.py, ddp_step.py): the detector does
// not look at NVTX, so those ranges are an independent answer.
#include "analysis/launch_pattern_steps.h"
#include "analysis/overview.h"
#include "store/session_store.h"
#include "analysis/step_ranges.h"
#include "test_util.h"

#include <algorithm>
#include <string>
#include <vector>

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
    // Each found iteration past the first covers nearly all of its marked step (paired by the step
    // number, since the marked start-up step 0 is left out of `marked`): an iteration starts at its
    // own first launch (issue #25), so only the CPU work before that launch (zero_grad, DDP's
    // pre-forward) falls into the previous iteration.
    size_t good = 0, compared = 0;
    for (size_t j = 0; j < marked.steps.size(); ++j) {
        const size_t k = std::stoul(marked.labels[j]);
        if (k == 0 || k + 1 >= iterations)
            continue;
        ++compared;
        good += coverage(found.steps[k], marked.steps[j]) >= 0.9;
    }
    EXPECT_EQ(compared, iterations - 2) << file;
    EXPECT_GE(good, compared - 1) << file;
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
        // Iteration 0 is start-up and left out; the others are all steps (the last one included:
        // it ends with its own last launch, so it is not cut).
        EXPECT_EQ(steps.steps.size(), 11u) << file;
        EXPECT_EQ(steps.labels.front(), "1") << file;
        EXPECT_EQ(steps.labels.back(), "11") << file;
    }
}

// Issue #25: the first iteration of an unmarked program carries its start-up (lazy CUDA module
// loading, cuBLAS/cuDNN handles, cuDNN autotuning): 0.75 s (ResNet-18) and 2.4 s (transformer) in the
// H200 recordings of session 16, 0.51 s each in the H100 recordings of session 23, against steps of
// 15-35 ms. It used to be step 0 and set GPU utilization at 17.6 % and 1.2 % (session 16's recordings);
// the steady steps read 85.8 % and 8.8 % in session 23's.
TEST(LaunchPatternSteps, StepsStartAfterStartUp) {
    struct Case {
        const char* file;
        double minUtilization, maxUtilization; // of the steady steps, from their kernel time
    };
    for (const Case& c : {Case{"captures/resnet18_plain.wscap.gz", 0.65, 0.92},
                          Case{"captures/transformer_plain.wscap.gz", 0.05, 0.12}}) {
        ImportResult r = importTraceFile(dataPath(c.file));
        ASSERT_TRUE(r.session) << r.error;
        const StepRanges steps = computeStepRanges(*r.session);
        ASSERT_TRUE(steps.startup) << c.file;
        std::vector<int64_t> lengths;
        for (const StepRange& st : steps.steps)
            lengths.push_back(st.end - st.start);
        std::sort(lengths.begin(), lengths.end());
        const int64_t median = lengths[lengths.size() / 2];
        EXPECT_GT(steps.startup->end - steps.startup->start, 20 * median) << c.file;
        EXPECT_LE(steps.startup->end, steps.steps.front().start) << c.file;
        // The steps are alike: none lasts twice the median.
        EXPECT_LT(lengths.back(), 2 * median) << c.file;
        const OverviewReport o = computeOverview(*r.session);
        ASSERT_EQ(o.devices.size(), 1u);
        ASSERT_TRUE(o.devices[0].gpuUtilization);
        EXPECT_GT(*o.devices[0].gpuUtilization, c.minUtilization) << c.file;
        EXPECT_LT(*o.devices[0].gpuUtilization, c.maxUtilization) << c.file;
        EXPECT_EQ(o.breakdown.steps.size(), 11u) << c.file;
        ASSERT_TRUE(o.startup);
        EXPECT_EQ(o.startup->start, steps.startup->start);
    }
}

// The iterations found from the launches start where the program's own steps start: the capture
// with `--step-function train_step` marks each call (capture/samples/overhead_step.py), and each
// found iteration past the first begins at the first launch of its step, within 2 ms of the mark
// (the Python of zero_grad and the step's first lines before any launch).
TEST(LaunchPatternSteps, IterationsStartAtTheirFirstLaunch) {
    for (const char* file : {"captures/transformer_ops_pystacks.wscap.gz", "captures/resnet18.wscap.gz"}) {
        ImportResult r = importTraceFile(dataPath(file));
        ASSERT_TRUE(r.session) << r.error;
        const StepRanges marked = computeStepRanges(*r.session);
        const LaunchPatternSteps found = findLaunchPatternSteps(*r.session);
        EXPECT_GT(found.leadLaunches, 0u) << file;
        ASSERT_FALSE(marked.steps.empty());
        for (size_t j = 0; j < marked.steps.size(); ++j) {
            const size_t k = std::stoul(marked.labels[j]);
            ASSERT_LT(k, found.steps.size());
            EXPECT_GE(found.steps[k].start, marked.steps[j].start) << file << " step " << k;
            EXPECT_LT(found.steps[k].start - marked.steps[j].start, 2'000'000) << file << " step " << k;
        }
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
