#include "analysis/idle_gaps.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ws {
namespace {

/* Small Kineto-like traces: host threads of pid 1, GPU 0 (pid 0, stream 7), times in us. */
class Trace {
public:
    void x(int tid, const std::string& cat, const std::string& name, double ts, double dur, const std::string& args = "") {
        add("{\"ph\":\"X\",\"cat\":\"" + cat + "\",\"name\":\"" + name + "\",\"pid\":1,\"tid\":" + std::to_string(tid) +
            ",\"ts\":" + num(ts) + ",\"dur\":" + num(dur) + (args.empty() ? "" : ",\"args\":{" + args + "}") + "}");
    }
    // A cudaLaunchKernel on `tid` at `launch` (5 us) and its kernel on the GPU.
    void kernel(int tid, double launch, double start, double dur) {
        const std::string id = std::to_string(++m_corr);
        x(tid, "cuda_runtime", "cudaLaunchKernel", launch, 5, "\"correlation\":" + id);
        add("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"K" + id + "\",\"pid\":0,\"tid\":7,\"ts\":" + num(start) +
            ",\"dur\":" + num(dur) + ",\"args\":{\"correlation\":" + id + ",\"stream\":7}}");
        add("{\"ph\":\"s\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":" + id + ",\"pid\":1,\"tid\":" + std::to_string(tid) +
            ",\"ts\":" + num(launch) + "}");
        add("{\"ph\":\"f\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":" + id + ",\"pid\":0,\"tid\":7,\"ts\":" + num(start) +
            ",\"bp\":\"e\"}");
    }
    void counter(const std::string& name, double ts, double value) {
        add("{\"ph\":\"C\",\"cat\":\"host\",\"name\":\"" + name + "\",\"pid\":1,\"ts\":" + num(ts) + ",\"args\":{\"%\":" +
            num(value) + "}}");
    }
    std::shared_ptr<const Session> session(const std::string& name) const {
        return test::importText("{\"traceEvents\":[" + m_events + "]}", {}, name).session;
    }

private:
    static std::string num(double v) {
        std::string s = std::to_string(v);
        s.erase(s.find_last_not_of('0') + 1);
        if (s.back() == '.')
            s.pop_back();
        return s;
    }
    void add(const std::string& e) { m_events += (m_events.empty() ? "" : ",") + e; }
    std::string m_events;
    int m_corr = 0;
};

int64_t catNs(const IdleGapReport& r, GapCategory c) { return r.totals(c).ns; }

// The heaviest line of a category (an empty line when it has none).
GapLine top(const IdleGapReport& r, GapCategory c) {
    const auto& lines = r.totals(c).lines;
    return lines.empty() ? GapLine{} : r.lines[lines.front()];
}

/*
 * One step, five gaps of 200 us, one per cause:
 *   20..220   a DataLoader range, then the launch
 *   230..430  an operator, a cudaDeviceSynchronize on the idle GPU, more work: the sync's 10 us are
 *             host synchronization, the work after it the host's (the sync only drained the queue)
 *   800..1000 an nccl:all_reduce range
 *   1010..1210 Python: step() (train.py:42) calling library code
 *   1500..1700 nothing on the thread but the launch
 */
std::shared_ptr<const Session> everyCause() {
    Trace t;
    t.x(1, "user_annotation", "ProfilerStep#1", 0, 2000);
    t.kernel(1, 5, 10, 10);
    t.x(1, "user_annotation", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 20, 190);
    t.kernel(1, 212, 220, 10);
    t.x(1, "cpu_op", "aten::foo", 232, 68);
    t.x(1, "cuda_runtime", "cudaDeviceSynchronize", 300, 10);
    t.x(1, "cpu_op", "aten::bar", 310, 110);
    t.kernel(1, 421, 430, 370);
    t.x(1, "cpu_op", "nccl:all_reduce", 800, 190);
    t.kernel(1, 992, 1000, 10);
    t.x(1, "python_function", "train.py(42): step", 1000, 300);
    t.x(1, "python_function", "torch/nn/modules/module.py(10): _call_impl", 1020, 180);
    t.kernel(1, 1202, 1210, 290);
    t.kernel(1, 1695, 1700, 10);
    return t.session("idle_gaps_every_cause.json");
}

TEST(IdleGaps, ClassifiesEachCauseByWhatTheLaunchingThreadDid) {
    auto s = everyCause();
    ASSERT_NE(s, nullptr);
    const IdleGapReport r = computeIdleGaps(*s);
    ASSERT_TRUE(r.valid);
    ASSERT_EQ(r.steps.size(), 1u);
    ASSERT_EQ(r.gaps.size(), 5u);
    EXPECT_EQ(r.gapNs, 1'000'000);
    EXPECT_EQ(catNs(r, GapCategory::DataLoading), 190'000);
    EXPECT_EQ(catNs(r, GapCategory::Sync), 10'000); // the call only; the work after it is the host's
    EXPECT_EQ(catNs(r, GapCategory::Collective), 190'000);
    EXPECT_EQ(catNs(r, GapCategory::CpuWork), 398'000);
    EXPECT_EQ(catNs(r, GapCategory::Nothing), 212'000);
    const GapCategory expected[] = {GapCategory::DataLoading, GapCategory::CpuWork, GapCategory::Collective,
                                    GapCategory::CpuWork, GapCategory::Nothing};
    for (size_t i = 0; i < 5; ++i)
        EXPECT_EQ(r.gaps[i].category, expected[i]) << i;
    EXPECT_EQ(r.gaps[1].ns[size_t(GapCategory::Sync)], 10'000);
    EXPECT_EQ(r.gaps[1].ns[size_t(GapCategory::Nothing)], 7'000);
    EXPECT_EQ(r.gaps[1].ns[size_t(GapCategory::CpuWork)], 183'000);
    EXPECT_DOUBLE_EQ(r.totals(GapCategory::Sync).share, 0.01);
    EXPECT_DOUBLE_EQ(r.totals(GapCategory::Sync).perStepNs, 10'000.0);

    EXPECT_EQ(top(r, GapCategory::DataLoading).what, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
    EXPECT_EQ(top(r, GapCategory::Sync).what, "cudaDeviceSynchronize");
    EXPECT_EQ(top(r, GapCategory::Collective).what, "nccl:all_reduce");
    // The Python work is charged to the user's line, not to the library frame it was in.
    const GapLine py = top(r, GapCategory::CpuWork);
    EXPECT_EQ(py.file, "train.py");
    EXPECT_EQ(py.line, 42);
    EXPECT_EQ(py.function, "step");
    EXPECT_EQ(py.ns, 200'000);
    EXPECT_EQ(gapLineText(py), "train.py:42 step");
    EXPECT_EQ(r.causeText(r.gaps[3]), "Python / CPU work: train.py:42 step");
    EXPECT_EQ(r.causeText(r.gaps[1]), "Python / CPU work: aten::bar, after cudaDeviceSynchronize drained the GPU's queue");

    const std::string csv = idleGapsCsv(*s, r);
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "step,device,start_ns,end_ns,duration_ns,category,sync_ns,collective_ns,data_ns,cpu_ns,none_ns,thread,cause");
    EXPECT_NE(csv.find("1,0,"), std::string::npos);
    EXPECT_NE(csv.find(",data,0,0,190000,5000,5000,"), std::string::npos);
}

TEST(IdleGaps, ThresholdAndSteps) {
    Trace t;
    t.x(1, "user_annotation", "ProfilerStep#1", 0, 100);
    t.x(1, "user_annotation", "ProfilerStep#2", 100, 100);
    t.kernel(1, 1, 5, 10);   // 5..15
    t.kernel(1, 40, 55, 5);  // 40 us gap: 15..55
    t.kernel(1, 150, 160, 5); // 100 us gap across the step boundary: 60..160
    t.kernel(1, 170, 175, 5); // step 2 launches as much as step 1 (else it would be trimmed)
    t.kernel(1, 180, 185, 5);
    auto s = t.session("idle_gaps_steps.json");
    ASSERT_NE(s, nullptr);
    IdleGapOptions o;
    IdleGapReport r = computeIdleGaps(*s, o);
    ASSERT_EQ(r.steps.size(), 2u);
    ASSERT_EQ(r.gaps.size(), 2u); // the long gap, one piece per step
    EXPECT_EQ(r.gaps[0].step, 0u);
    EXPECT_EQ(r.gaps[1].step, 1u);
    EXPECT_EQ(r.gaps[0].duration() + r.gaps[1].duration(), 100'000);
    EXPECT_EQ(r.gaps[0].end, r.gaps[1].start);
    EXPECT_DOUBLE_EQ(r.totals(GapCategory::Nothing).perStepNs + r.totals(GapCategory::CpuWork).perStepNs, 50'000.0);
    o.thresholdNs = 30'000;
    r = computeIdleGaps(*s, o);
    EXPECT_EQ(r.gaps.size(), 3u);
    // A selected range keeps the steps inside it, clipped.
    o.range = OverviewRange{s->startNs() + 120'000, s->startNs() + 200'000};
    r = computeIdleGaps(*s, o);
    ASSERT_EQ(r.steps.size(), 1u);
    ASSERT_EQ(r.gaps.size(), 1u);
    EXPECT_EQ(r.gaps[0].duration(), 40'000);
}

/*
 * `loss.item()` on the main thread (100..150 us, its cudaStreamSynchronize inside) drains the GPU;
 * the backward that follows is launched by the autograd thread. Of the gap after it, only the
 * synchronization's last 5 us are host synchronization: the rest is what the threads did next, with
 * the synchronization named as what drained the queue; the next gap, in its wake (the GPU worked only
 * 10 us since), names it too; after a long kernel the host is ahead again and the last gap is plain
 * CPU work.
 */
TEST(IdleGaps, ASyncOnTheMainThreadDrainsTheQueueOfTheAutogradThreadsGaps) {
    Trace t;
    t.x(1, "user_annotation", "ProfilerStep#1", 0, 1200);
    t.kernel(1, 20, 30, 115); // 30..145
    t.x(1, "cpu_op", "aten::item", 100, 50);
    t.x(1, "cpu_op", "aten::_local_scalar_dense", 105, 45);
    t.x(1, "cuda_runtime", "cudaStreamSynchronize", 110, 40);
    t.x(2, "cpu_op", "autograd::engine::evaluate_function: XBackward0", 250, 55);
    t.kernel(2, 300, 310, 10); // gap 145..310
    t.x(2, "cpu_op", "autograd::engine::evaluate_function: YBackward0", 320, 175);
    t.kernel(2, 490, 500, 400); // gap 320..500, in the wake
    t.x(2, "cpu_op", "autograd::engine::evaluate_function: ZBackward0", 900, 195);
    t.kernel(2, 1090, 1100, 10); // gap 900..1100: the host's own work
    auto s = t.session("idle_gaps_drain.json");
    ASSERT_NE(s, nullptr);
    const IdleGapReport r = computeIdleGaps(*s);
    ASSERT_EQ(r.gaps.size(), 3u);
    EXPECT_EQ(r.gaps[0].ns[size_t(GapCategory::Sync)], 5'000); // 145..150, the main thread blocked
    EXPECT_EQ(r.gaps[0].ns[size_t(GapCategory::CpuWork)], 55'000);
    EXPECT_EQ(r.gaps[0].ns[size_t(GapCategory::Nothing)], 105'000);
    EXPECT_EQ(r.gaps[1].category, GapCategory::CpuWork);
    EXPECT_EQ(r.gaps[1].ns[size_t(GapCategory::CpuWork)], 175'000);
    EXPECT_EQ(r.gaps[2].category, GapCategory::CpuWork);
    EXPECT_EQ(r.gaps[2].ns[size_t(GapCategory::CpuWork)], 195'000);
    EXPECT_EQ(top(r, GapCategory::Sync).what, "aten::item");
    // The first two name the synchronization that drained the queue; the third does not.
    EXPECT_NE(r.causeText(r.gaps[0]).find("after aten::item drained the GPU's queue"), std::string::npos) << r.causeText(r.gaps[0]);
    EXPECT_NE(r.causeText(r.gaps[1]).find("after aten::item drained the GPU's queue"), std::string::npos) << r.causeText(r.gaps[1]);
    EXPECT_EQ(r.gaps[2].drainedBy, IdleGap::kNone);

    // Without the wake rule, the second gap names no synchronization: it is far from it.
    IdleGapOptions o;
    o.wakeNs = 0;
    const IdleGapReport noWake = computeIdleGaps(*s, o);
    EXPECT_EQ(noWake.gaps[1].drainedBy, IdleGap::kNone);
    EXPECT_NE(noWake.gaps[0].drainedBy, IdleGap::kNone);
}

/*
 * The step of issue #51: `.cpu()` of the logits synchronizes for 5 us, then the host sleeps 4 ms
 * (`<built-in function sleep>`, recorded with_stack) before the next launch. The GPU waited for the
 * sleep, not for the synchronization: almost all of the gap is the sleeping frame's CPU work.
 */
TEST(IdleGaps, WorkAfterASyncIsTheHostsOwn) {
    Trace t;
    t.x(1, "user_annotation", "ProfilerStep#1", 0, 40000);
    t.kernel(1, 1, 5, 100); // 5..105
    t.x(1, "python_function", "train.py(30): step", 40, 4300);
    t.x(1, "cpu_op", "aten::to", 50, 56);
    t.x(1, "cuda_runtime", "cudaStreamSynchronize", 100, 5); // returns at 105, as the GPU drains
    t.x(1, "python_function", "<built-in function sleep>", 110, 4082);
    t.x(1, "cuda_runtime", "cudaLaunchKernel", 4200, 10);
    t.kernel(1, 4200, 4215, 10);
    t.x(1, "user_annotation", "slow_input", 5000, 29870); // ~30 ms of other work
    t.kernel(1, 34875, 34885, 10);
    auto s = t.session("idle_gaps_sync_then_sleep.json");
    ASSERT_NE(s, nullptr);
    const IdleGapReport r = computeIdleGaps(*s);
    ASSERT_EQ(r.gaps.size(), 2u);
    const IdleGap& sleep = r.gaps[0];
    EXPECT_EQ(sleep.category, GapCategory::CpuWork);
    EXPECT_EQ(sleep.ns[size_t(GapCategory::Sync)], 0); // the sync returned as the GPU went idle
    EXPECT_GE(double(sleep.ns[size_t(GapCategory::CpuWork)]), 0.9 * double(sleep.duration()));
    EXPECT_EQ(r.causeText(sleep), "Python / CPU work: <built-in function sleep> (train.py:30 step), after cudaStreamSynchronize drained the GPU's queue");
    // The long range after it is the host's too (in the synchronization's wake: the GPU ran 10 us since).
    EXPECT_EQ(r.gaps[1].category, GapCategory::CpuWork);
    EXPECT_GE(double(r.gaps[1].ns[size_t(GapCategory::CpuWork)]), 0.97 * double(r.gaps[1].duration()));
}

TEST(IdleGaps, DataLoadingFromACapturesStackAndFromBusyWorkers) {
    Trace t;
    t.x(1, "user_annotation", "step 1", 0, 1000);
    t.x(1, "user_annotation", "step 2", 1000, 1000);
    t.kernel(1, 1, 5, 10); // 5..15
    // A pinning call whose Python stack runs through torch/utils/data (a capture's --py-stacks).
    t.x(1, "cuda_runtime", "cudaHostAlloc", 20, 180,
        "\"Call stack\":\"/venv/lib/python3.12/site-packages/torch/utils/data/_utils/pin_memory.py(57): pin_memory;"
        "/home/u/train.py(10): main\"");
    t.kernel(1, 205, 215, 600); // gap 15..215, 815..
    // Nothing on the thread, but the worker processes use 180 % of a core.
    t.counter("host_cpu_children", 700, 180);
    t.counter("host_cpu_children", 900, 180);
    t.counter("host_cpu_children", 1100, 180);
    t.kernel(1, 1095, 1100, 10); // gap 815..1100
    t.kernel(3, 1096, 1110, 10); // step 2 launches as much as step 1 (else it would be trimmed)
    auto s = t.session("idle_gaps_stack_data.json");
    ASSERT_NE(s, nullptr);
    const IdleGapReport r = computeIdleGaps(*s);
    ASSERT_EQ(r.steps.size(), 2u);
    ASSERT_EQ(r.gaps.size(), 3u);
    EXPECT_TRUE(r.callStacksRead);
    EXPECT_EQ(r.gaps[0].ns[size_t(GapCategory::DataLoading)], 180'000);
    EXPECT_EQ(catNs(r, GapCategory::DataLoading), 180'000 + 285'000 - 5'000);
    bool pinLine = false;
    for (uint32_t i : r.totals(GapCategory::DataLoading).lines)
        pinLine |= r.lines[i].what == "cudaHostAlloc" && r.lines[i].file == "/home/u/train.py" && r.lines[i].line == 10;
    EXPECT_TRUE(pinLine);
    // Without reading the stacks the pinning call is plain CPU work.
    IdleGapOptions o;
    o.readCallStacks = false;
    const IdleGapReport bare = computeIdleGaps(*s, o);
    EXPECT_EQ(bare.gaps[0].ns[size_t(GapCategory::CpuWork)], 185'000);
}

TEST(IdleGaps, EmptyWithoutGpuWork) {
    Trace t;
    t.x(1, "cpu_op", "aten::foo", 0, 100);
    auto s = t.session("idle_gaps_cpu_only.json");
    ASSERT_NE(s, nullptr);
    const IdleGapReport r = computeIdleGaps(*s);
    EXPECT_TRUE(r.gaps.empty());
    EXPECT_FALSE(r.emptyReason.empty());
}

// The zoo's DataLoader-bound capture (tests/data/captures/zoo): data loading, with its line.
TEST(IdleGaps, ZooLoaderCaptureWaitsForData) {
    const ImportResult res = importTraceFile(test::dataPath("captures/zoo/loader.wscap.gz"), {});
    ASSERT_NE(res.session, nullptr);
    const IdleGapReport r = computeIdleGaps(*res.session);
    EXPECT_EQ(r.steps.size(), 26u); // 3 warm-up and 24 measured iterations, the first left out
    EXPECT_GT(r.totals(GapCategory::DataLoading).share, 0.95);
    EXPECT_EQ(top(r, GapCategory::DataLoading).what, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__");
}

// The shared H100 ResNet-18 (with_stack): launch overhead only, charged to the user's lines.
TEST(IdleGaps, SharedResnetIsPythonWork) {
    const std::string path = test::sharedPath("pytorch-h100/resnet18_train.pt.trace.json.gz");
    if (!std::filesystem::exists(path))
        GTEST_SKIP() << "shared test data absent: " << path;
    const ImportResult res = importTraceFile(path, {});
    ASSERT_NE(res.session, nullptr);
    const IdleGapReport r = computeIdleGaps(*res.session);
    EXPECT_EQ(r.steps.size(), 3u);
    EXPECT_GT(r.totals(GapCategory::CpuWork).share, 0.95);
    EXPECT_EQ(top(r, GapCategory::CpuWork).file, "resnet_trace.py");
}

} // namespace
} // namespace ws
