// Sampled stacks (a capture's Python samples, format 1.4; issue #27) as python_function slices: runs
// of samples become nested slices per thread, a changed frame ends its slice and those inside it, a
// missed stretch ends everything (a stalled sampler's is bridged), threads stay apart; and a real
// --py-sample capture of a loop that waits for its DataLoader reads as such.

#include "test_util.h"

#include "analysis/flame_graph.h"
#include "analysis/idle_gaps.h"
#include "import/stack_samples.h"
#include "import/capture_stacks.h"
#include "model/event_kind.h"

#include <set>
#include <tuple>

namespace ws {
namespace {

using namespace wscap;

CaptureStacks stacksOf(const std::vector<std::vector<uint64_t>>& stacks) {
    CaptureStacks s;
    for (uint32_t f = 1; f <= 9; ++f) {
        PyFrameRecord r;
        r.frameId = f;
        r.line = 10 * f;
        r.function = "f";
        r.function += std::to_string(f); // (not "f" + ...: GCC 12's -Wrestrict false positive)
        r.file = "t.py";
        s.addPyFrame(r);
    }
    for (size_t i = 0; i < stacks.size(); ++i)
        s.addPyStack(PyStackRecord{static_cast<uint32_t>(i + 1), stacks[i]});
    s.finish();
    return s;
}

// A sample of a 1 us sampler (as a capture's PySample records say), tagged with its index.
void sample(StackSamples& s, int64_t ts, int64_t thread, uint32_t stack, uint32_t periodNs = 1000) {
    s.add(thread, ts, stack, periodNs, s.samples());
}

using Got = std::set<std::tuple<int64_t, int64_t, int64_t, uint64_t>>; // thread, start, end, frame

Got slicesOf(const StackSamples& samples, const CaptureStacks& stacks) {
    Got got;
    samples.slices([&](uint32_t stack) { return stacks.pyStack(stack); },
                   [&](const StackSamples::Slice& s) { got.emplace(s.thread, s.start, s.end, s.frame); });
    return got;
}

TEST(StackSamples, RunsOfSamplesNestAsTheStacksDid) {
    // Stacks are innermost first: 1 = main>step>load, 2 = main>step>forward, 3 = main alone.
    const CaptureStacks stacks = stacksOf({{3, 2, 1}, {4, 2, 1}, {1}});
    StackSamples s;
    sample(s, 1000, 7, 1);
    sample(s, 2000, 7, 1);
    sample(s, 3000, 7, 2);
    sample(s, 4000, 7, 3);
    sample(s, 5000, 7, 3);
    // Another thread, interleaved in the file, and out of time order.
    sample(s, 2500, 9, 3);
    sample(s, 1500, 9, 3);
    const Got want{
        {7, 500, 5500, 1},  // main: every sample, half a period beyond the first and the last
        {7, 500, 3500, 2},  // step: to halfway to the sample that no longer has it
        {7, 500, 2500, 3},  // load
        {7, 2500, 3500, 4}, // forward
        {9, 1000, 3000, 1},
    };
    EXPECT_EQ(slicesOf(s, stacks), want);
}

// Slices of one run share start and end: the caller comes out before the callee, so a reader that
// orders equal intervals by their order in the file nests them the right way round.
TEST(StackSamples, EqualSlicesComeOutCallerFirst) {
    const CaptureStacks stacks = stacksOf({{3, 2, 1}});
    StackSamples s;
    sample(s, 1000, 7, 1);
    std::vector<uint64_t> order;
    s.slices([&](uint32_t stack) { return stacks.pyStack(stack); },
             [&](const StackSamples::Slice& slice) { order.push_back(slice.frame); });
    EXPECT_EQ(order, (std::vector<uint64_t>{1, 2, 3}));
}

TEST(StackSamples, AMissedStretchEndsTheSlices) {
    const CaptureStacks stacks = stacksOf({{2, 1}});
    StackSamples s;
    sample(s, 1000, 7, 1);
    sample(s, 2000, 7, 1);
    sample(s, 2000 + (StackSamples::kMissedPeriods + 1) * 1000, 7, 1); // after a long miss
    sample(s, 7000, 7, 0); // no Python: everything ends here
    const Got want{{7, 500, 2500, 1}, {7, 500, 2500, 2}, {7, 5500, 6500, 1}, {7, 5500, 6500, 2}};
    EXPECT_EQ(slicesOf(s, stacks), want);
}

// A sampler that records every thread at each round (a capture's): a stretch with no round at all is
// the sampler falling behind, bridged halfway; a thread missing from rounds that happened was not there.
TEST(StackSamples, AStalledSamplerIsBridgedAMissingThreadIsNot) {
    const CaptureStacks stacks = stacksOf({{2, 1}, {3}});
    StackSamples s;
    s.setEveryThreadEachRound(true);
    sample(s, 1000, 7, 1);
    sample(s, 1000, 8, 2);
    sample(s, 9000, 7, 2); // no round in between: the sampler stalled
    sample(s, 9000, 8, 2); // thread 8 ran the same code all along
    sample(s, 10000, 7, 2);
    sample(s, 10000, 8, 1);
    sample(s, 16000, 8, 1); // thread 8 alone: thread 7 was missing from a round that happened
    sample(s, 17000, 8, 1);
    sample(s, 21000, 7, 2);
    sample(s, 21000, 8, 1);
    const Got want{{7, 500, 5000, 1}, {7, 500, 5000, 2}, {7, 5000, 10500, 3}, {7, 20500, 21500, 3},
                   {8, 500, 9500, 3}, {8, 9500, 21500, 1}, {8, 9500, 21500, 2}};
    EXPECT_EQ(slicesOf(s, stacks), want);
}

// Across a stall, a sample taken inside a traced CUDA call stands for the call: no later than its end
// (the thread left it there), and a sample after the stall inside a call from the call's start.
TEST(StackSamples, ASampleInsideACudaCallStandsForTheCallAcrossAStall) {
    const CaptureStacks stacks = stacksOf({{2, 1}, {3, 1}});
    StackSamples s;
    s.setEveryThreadEachRound(true);
    s.addCall(7, 500, 1200);    // the synchronization the first sample saw
    s.addCall(7, 16000, 17500); // the blocking copy the sample after the second stall saw
    sample(s, 1000, 7, 1);
    sample(s, 9000, 7, 2);  // stall: the sample before stands until its call's end
    sample(s, 10000, 7, 2);
    sample(s, 11000, 7, 1);
    sample(s, 17000, 7, 2); // stall: the sample after stands from its call's start
    sample(s, 18000, 7, 2);
    const Got want{{7, 500, 18500, 1}, {7, 500, 1200, 2}, {7, 1200, 10500, 3}, {7, 10500, 16000, 2}, {7, 16000, 18500, 3}};
    EXPECT_EQ(slicesOf(s, stacks), want);
}

// Without a period from the sampler (an Nsight export's CPU samples), the thread's median spacing is
// the period: a run reaches half a spacing beyond its ends, and more than three spacings is a miss.
TEST(StackSamples, WithoutAPeriodTheMedianSpacingIsOne) {
    const CaptureStacks stacks = stacksOf({{2, 1}});
    StackSamples s;
    for (int64_t ts : {100, 200, 300, 400, 1000, 1100})
        sample(s, ts, 5, 1, 0);
    const Got want{{5, 50, 450, 1}, {5, 50, 450, 2}, {5, 950, 1150, 1}, {5, 950, 1150, 2}};
    EXPECT_EQ(slicesOf(s, stacks), want);
}

TEST(StackSamples, FrameTextIsTorchProfilersPythonFunctionName) {
    const CaptureStacks stacks = stacksOf({{1}});
    EXPECT_EQ(stacks.pyFrameText(3), "t.py(30): f3");
    EXPECT_EQ(stacks.pyFrameText(99), "(unknown Python frame)(0): ?");
    ASSERT_NE(stacks.pyStack(1), nullptr);
    EXPECT_EQ(stacks.pyStack(2), nullptr);
}

// Recorded with `warpscope-capture --py-sample` (default activities otherwise) on an H100
// (tests/data/captures/waits/README.md): the sampled stacks are python_function slices on the main
// thread, the flame graph's CPU weight has the training loop's lines, and the idle gaps of the loop
// that waits for its DataLoader (without workers) are data loading.
TEST(StackSamples, ARealCaptureGetsPythonFunctionSlices) {
    ImportResult r = importTraceFile(test::dataPath("captures/waits/waits_loader_pysample.wscap.gz"));
    ASSERT_TRUE(r.session) << r.error;
    const Session& session = *r.session;
    size_t python = 0;
    for (const Track& t : session.tracks())
        for (size_t i = 0; i < t.start.size(); ++i)
            python += session.kindOf(t, i) == EventKind::PythonFunction;
    EXPECT_GT(python, 1000u);

    FlameOptions options;
    options.weight = FlameWeight::Cpu;
    const FlameGraph flame = FlameGraph::build(session, options);
    EXPECT_TRUE(flame.emptyReason().empty()) << flame.emptyReason();
    const std::string folded = flame.folded();
    EXPECT_NE(folded.find("loader_step.<locals>.step (/work/main/capture/samples/waits.py:55)"), std::string::npos); // next(batches)
    EXPECT_NE(folded.find("dataloader.py"), std::string::npos);

    const IdleGapReport gaps = computeIdleGaps(session);
    ASSERT_TRUE(gaps.valid);
    EXPECT_GT(gaps.totals(GapCategory::DataLoading).share, 0.9) << gaps.totals(GapCategory::DataLoading).share;
}

} // namespace
} // namespace ws
