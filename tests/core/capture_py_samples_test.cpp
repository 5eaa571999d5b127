// Python stack samples of a capture (format 1.4, issue #27) as python_function slices: runs of
// samples become nested slices per thread, a changed frame ends its slice and those inside it, a
// missed stretch ends everything, threads stay apart; and a real --py-sample capture of a loop that
// waits for its DataLoader and one that synchronizes read as such.

#include "test_util.h"

#include "analysis/flame_graph.h"
#include "analysis/idle_gaps.h"
#include "import/capture_py_samples.h"
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

PySampleRecord sample(uint64_t ts, uint32_t thread, uint32_t stack) {
    PySampleRecord r;
    r.timestamp = ts;
    r.threadId = thread;
    r.pyStackId = stack;
    r.periodNs = 1000;
    return r;
}

using Got = std::set<std::tuple<uint32_t, uint64_t, uint64_t, uint32_t>>; // thread, start, end, frame

Got slicesOf(const CapturePySamples& samples, const CaptureStacks& stacks) {
    Got got;
    samples.slices(stacks, [&](const CapturePySamples::Slice& s) { got.emplace(s.threadId, s.start, s.end, s.frameId); });
    return got;
}

TEST(CapturePySamples, RunsOfSamplesNestAsTheStacksDid) {
    // Stacks are innermost first: 1 = main>step>load, 2 = main>step>forward, 3 = main alone.
    const CaptureStacks stacks = stacksOf({{3, 2, 1}, {4, 2, 1}, {1}});
    CapturePySamples s;
    s.add(sample(1000, 7, 1), 0);
    s.add(sample(2000, 7, 1), 1);
    s.add(sample(3000, 7, 2), 2);
    s.add(sample(4000, 7, 3), 3);
    s.add(sample(5000, 7, 3), 4);
    // Another thread, interleaved in the file, and out of time order.
    s.add(sample(2500, 9, 3), 5);
    s.add(sample(1500, 9, 3), 6);
    const Got want{
        {7, 1000, 6000, 1}, // main: every sample, to one period after the last
        {7, 1000, 4000, 2}, // step: until the sample that no longer has it
        {7, 1000, 3000, 3}, // load
        {7, 3000, 4000, 4}, // forward
        {9, 1500, 3500, 1},
    };
    EXPECT_EQ(slicesOf(s, stacks), want);
}

TEST(CapturePySamples, AMissedStretchEndsTheSlices) {
    const CaptureStacks stacks = stacksOf({{2, 1}});
    CapturePySamples s;
    s.add(sample(1000, 7, 1), 0);
    s.add(sample(2000, 7, 1), 1);
    s.add(sample(2000 + (CapturePySamples::kMissedPeriods + 1) * 1000, 7, 1), 2); // after a long miss
    s.add(sample(7000, 7, 0), 3); // no Python: everything ends here
    const Got want{{7, 1000, 3000, 1}, {7, 1000, 3000, 2}, {7, 6000, 7000, 1}, {7, 6000, 7000, 2}};
    EXPECT_EQ(slicesOf(s, stacks), want);
}

TEST(CapturePySamples, FrameTextIsTorchProfilersPythonFunctionName) {
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
TEST(CapturePySamples, ARealCaptureGetsPythonFunctionSlices) {
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
    EXPECT_GT(gaps.totals(GapCategory::DataLoading).share, 0.75) << gaps.totals(GapCategory::DataLoading).share;
}

} // namespace
} // namespace ws
