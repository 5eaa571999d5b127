// Steps from PyTorch's optimizer ranges (issue #25): a torch.compile training loop captured with
// --torch-ops has no ProfilerStep#N and no `step N` range, and Inductor's autotuning and
// compilation launches hide its launch pattern, but PyTorch annotates every optimizer.step() and
// zero_grad() (`Optimizer.step#AdamW.step`, `Optimizer.zero_grad#AdamW.zero_grad`).
#include "analysis/overview.h"
#include "analysis/step_ranges.h"
#include "test_util.h"

#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

using namespace ws;
using namespace ws::test;

namespace {

// An Nsight Systems export (nsys export --type sqlite) of a training loop with PyTorch's NVTX
// ranges on thread 1 of process 1, built event by event (times in us, stored in ns).
constexpr int64_t kUs = 1000;
constexpr const char* kThread = "281474993487873"; // globalTid of pid 1, tid 1
constexpr const char* kProcess = "281474993487872";

struct Loop {
    std::string nvtx, runtime, kernels;
    int correlation = 100;

    static std::string row(std::initializer_list<std::string> values) {
        std::string out = "(";
        for (const std::string& v : values)
            out += (out.size() > 1 ? ", " : "") + v;
        return out + ")";
    }
    static void add(std::string& table, const std::string& r) { table += (table.empty() ? "" : ",\n") + r; }

    void range(const std::string& name, int64_t ts, int64_t dur, const std::string& thread = kThread) {
        add(nvtx, row({std::to_string(ts * kUs), std::to_string((ts + dur) * kUs), "59", "'" + name + "'", thread}));
    }
    // A launch at `ts` (5 us) of a kernel running [kernelTs, kernelTs + kernelDur).
    void launch(int64_t ts, int64_t kernelTs, int64_t kernelDur) {
        const std::string c = std::to_string(++correlation);
        add(runtime, row({std::to_string(ts * kUs), std::to_string((ts + 5) * kUs), "0", kThread, c, "2"}));
        add(kernels, row({std::to_string(kernelTs * kUs), std::to_string((kernelTs + kernelDur) * kUs), "0", "7", c,
                          kProcess, "1", "1", "1", "1"}));
    }
    // One iteration starting at t0 (1000 us long): zero_grad first (or last), a forward kernel of
    // 300 us, and an optimizer step at t0 + 700 whose kernel ends 120 us after the step returns.
    void iteration(int64_t t0, bool optimizerStep = true, bool zeroGradFirst = true) {
        if (zeroGradFirst)
            range("Optimizer.zero_grad#AdamW.zero_grad", t0, 10);
        launch(t0 + 100, t0 + 150, 300);
        if (optimizerStep) {
            range("Optimizer.step#AdamW.step", t0 + 700, 100);
            launch(t0 + 710, t0 + 820, 100);
        }
        if (!zeroGradFirst)
            range("Optimizer.zero_grad#AdamW.zero_grad", t0 + 850, 10);
    }

    ImportResult import(const std::string& name) const {
        const std::string path = (tempDir() / name).string();
        std::filesystem::remove(path);
        sqlite3* db = nullptr;
        EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        std::string sql = R"(
            CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);
            INSERT INTO StringIds VALUES (1, 'kernel'), (2, 'cudaLaunchKernel_v7000');
            CREATE TABLE TARGET_INFO_GPU(id INTEGER, name TEXT, smCount INTEGER, totalMemory INTEGER);
            INSERT INTO TARGET_INFO_GPU VALUES (0, 'GPU', 132, 85899345920);
            CREATE TABLE PROCESSES(globalPid INTEGER, pid INTEGER, name TEXT);
            INSERT INTO PROCESSES VALUES (281474993487872, 1, 'python');
            CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER, end INTEGER, deviceId INTEGER, streamId INTEGER,
                correlationId INTEGER, globalPid INTEGER, shortName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER);
            CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER,
                correlationId INTEGER, nameId INTEGER);
            CREATE TABLE NVTX_EVENTS(start INTEGER, end INTEGER, eventType INTEGER, text TEXT, globalTid INTEGER);
        )";
        if (!kernels.empty())
            sql += "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES " + kernels + ";\n";
        if (!runtime.empty())
            sql += "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES " + runtime + ";\n";
        if (!nvtx.empty())
            sql += "INSERT INTO NVTX_EVENTS VALUES " + nvtx + ";\n";
        char* message = nullptr;
        EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message), SQLITE_OK) << (message ? message : "");
        sqlite3_free(message);
        sqlite3_close(db);
        return importTraceFile(path);
    }
};


} // namespace

TEST(OptimizerSteps, EachStepEndsWithItsOptimizerStepsDeviceWork) {
    Loop loop;
    for (int k = 0; k < 4; ++k)
        loop.iteration(1000 + 1000 * k);
    const ImportResult r = loop.import("optimizer_steps.sqlite");
    ASSERT_TRUE(r.session) << r.error;
    const StepRanges steps = computeStepRanges(*r.session);
    EXPECT_TRUE(steps.optimizerSteps);
    EXPECT_TRUE(steps.namedSteps);
    EXPECT_FALSE(steps.patternSteps);
    EXPECT_FALSE(steps.startup); // not a capture
    ASSERT_EQ(steps.steps.size(), 4u);
    EXPECT_EQ(steps.labels, (std::vector<std::string>{"0", "1", "2", "3"}));
    // The first starts at its zero_grad; each ends when its optimizer step's kernel does (120 us
    // after the step returns) and the next starts there.
    const int64_t base = steps.steps[0].start - 1000 * kUs;
    for (size_t k = 0; k < 4; ++k) {
        const int64_t t0 = base + (1000 + 1000 * static_cast<int64_t>(k)) * kUs;
        EXPECT_EQ(steps.steps[k].start, k == 0 ? t0 : t0 - 80 * kUs) << k;
        EXPECT_EQ(steps.steps[k].end, t0 + 920 * kUs) << k;
    }
    const OverviewReport o = computeOverview(*r.session);
    EXPECT_EQ(o.stepSource, OverviewReport::StepSource::Optimizer);
    EXPECT_EQ(o.breakdown.steps.size(), 4u);
}

TEST(OptimizerSteps, WithoutAZeroGradBeforeItTheFirstOptimizerStepOnlyOpensTheNext) {
    // `forward; backward; step(); zero_grad()`: where the first iteration starts is not marked.
    Loop loop;
    for (int k = 0; k < 4; ++k)
        loop.iteration(1000 + 1000 * k, true, false);
    const ImportResult r = loop.import("optimizer_steps_late_zero_grad.sqlite");
    ASSERT_TRUE(r.session) << r.error;
    const StepRanges steps = computeStepRanges(*r.session);
    EXPECT_TRUE(steps.optimizerSteps);
    ASSERT_EQ(steps.steps.size(), 3u);
    EXPECT_EQ(steps.labels, (std::vector<std::string>{"1", "2", "3"}));
    for (size_t k = 0; k + 1 < steps.steps.size(); ++k) {
        EXPECT_EQ(steps.steps[k].end, steps.steps[k + 1].start);
        EXPECT_EQ(steps.steps[k + 1].end - steps.steps[k].end, 1000 * kUs);
    }
}

TEST(OptimizerSteps, ASkippedOptimizerStepIsSplitAtTheNextZeroGrad) {
    // GradScaler skips optimizer.step() after an overflow: iterations 0 and 2 have none.
    Loop loop;
    for (int k = 0; k < 6; ++k)
        loop.iteration(1000 + 1000 * k, k != 0 && k != 2);
    const ImportResult r = loop.import("optimizer_steps_skipped.sqlite");
    ASSERT_TRUE(r.session) << r.error;
    const StepRanges steps = computeStepRanges(*r.session);
    EXPECT_TRUE(steps.optimizerSteps);
    ASSERT_EQ(steps.steps.size(), 6u);
    const int64_t base = steps.steps[0].start - 1000 * kUs;
    // Iterations 0 and 2 end where the next one's zero_grad starts.
    EXPECT_EQ(steps.steps[0].end, base + 2000 * kUs);
    EXPECT_EQ(steps.steps[1].start, base + 2000 * kUs);
    EXPECT_EQ(steps.steps[2].end, base + 4000 * kUs);
    EXPECT_EQ(steps.steps[3].start, base + 4000 * kUs);
    for (size_t k = 0; k < steps.steps.size(); ++k) {
        const int64_t length = steps.steps[k].end - steps.steps[k].start;
        EXPECT_GT(length, 800 * kUs) << k;
        EXPECT_LT(length, 1200 * kUs) << k;
    }
}

TEST(OptimizerSteps, MarkedStepsComeFirst) {
    Loop loop;
    for (int k = 0; k < 3; ++k) {
        loop.iteration(1000 + 1000 * k);
        loop.range("step " + std::to_string(k), 1000 + 1000 * k, 1000);
    }
    const ImportResult r = loop.import("optimizer_steps_named.sqlite");
    ASSERT_TRUE(r.session) << r.error;
    const StepRanges steps = computeStepRanges(*r.session);
    EXPECT_TRUE(steps.namedSteps);
    EXPECT_FALSE(steps.optimizerSteps);
    ASSERT_EQ(steps.steps.size(), 3u);

    Loop profiled;
    for (int k = 0; k < 3; ++k) {
        profiled.iteration(1000 + 1000 * k);
        profiled.range("ProfilerStep#" + std::to_string(10 + k), 1000 + 1000 * k, 1000);
    }
    const ImportResult p = profiled.import("optimizer_steps_profiler.sqlite");
    ASSERT_TRUE(p.session) << p.error;
    const StepRanges ps = computeStepRanges(*p.session);
    EXPECT_FALSE(ps.optimizerSteps);
    EXPECT_FALSE(ps.namedSteps);
    EXPECT_EQ(ps.labels.front(), "10");
}

TEST(OptimizerSteps, NestedOptimizerStepsAndOtherThreads) {
    // A wrapper optimizer stepping an inner one (Lookahead) on the main thread; a thread with
    // fewer optimizer steps is not the loop.
    Loop loop;
    for (int k = 0; k < 4; ++k) {
        loop.iteration(1000 + 1000 * k);
        loop.range("Optimizer.step#SGD.step", 1000 + 1000 * k + 710, 50);
    }
    loop.range("Optimizer.step#AdamW.step", 1500, 10, "281474993487874"); // tid 2
    const ImportResult r = loop.import("optimizer_steps_nested.sqlite");
    ASSERT_TRUE(r.session) << r.error;
    const StepRanges steps = computeStepRanges(*r.session);
    EXPECT_TRUE(steps.optimizerSteps);
    EXPECT_EQ(steps.steps.size(), 4u);
}

TEST(OptimizerSteps, NotWhenMostDeviceWorkFollowsTheLastOptimizerStep) {
    // The eager warm-up of a step that a CUDA graph then replays: the ranges mark only the warm-up.
    Loop loop;
    for (int k = 0; k < 3; ++k)
        loop.iteration(1000 + 1000 * k);
    for (int k = 0; k < 6; ++k)
        loop.launch(4000 + 500 * k, 4050 + 500 * k, 400);
    const ImportResult r = loop.import("optimizer_steps_graph.sqlite");
    ASSERT_TRUE(r.session) << r.error;
    const StepRanges steps = computeStepRanges(*r.session);
    EXPECT_FALSE(steps.optimizerSteps);
    EXPECT_EQ(steps.hostStepCount, 0u); // not a capture: no launch pattern, the whole trace is one step
    ASSERT_EQ(steps.steps.size(), 1u);
}

TEST(OptimizerSteps, OneOptimizerStepIsNoLoop) {
    Loop loop;
    loop.iteration(1000);
    const ImportResult r = loop.import("optimizer_steps_one.sqlite");
    ASSERT_TRUE(r.session) << r.error;
    const StepRanges steps = computeStepRanges(*r.session);
    EXPECT_FALSE(steps.optimizerSteps);
    EXPECT_EQ(steps.hostStepCount, 0u);
}

TEST(OptimizerSteps, NotInATorchProfilerTrace) {
    // torch.profiler without a schedule records no ProfilerStep#N: its profiled region is one step,
    // as torch-tb-profiler has it, though PyTorch's optimizer ranges are there.
    std::string events;
    for (int k = 0; k < 3; ++k) {
        const std::string t0 = std::to_string(1000 + 1000 * k), step = std::to_string(1700 + 1000 * k);
        events += R"({"ph": "X", "cat": "user_annotation", "name": "Optimizer.zero_grad#AdamW.zero_grad", "pid": 1, "tid": 1, "ts": )" +
                  t0 + R"(, "dur": 10},
                  {"ph": "X", "cat": "user_annotation", "name": "Optimizer.step#AdamW.step", "pid": 1, "tid": 1, "ts": )" +
                  step + R"(, "dur": 100},
                  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": )" + t0 + R"(, "dur": 500},
)";
    }
    const ImportResult r = importText(R"({"traceEvents": [)" + events + R"({"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "python"}}]})",
                                      {}, "optimizer_steps_kineto.json");
    ASSERT_TRUE(r.session) << r.error;
    const StepRanges steps = computeStepRanges(*r.session);
    EXPECT_FALSE(steps.optimizerSteps);
    EXPECT_EQ(steps.hostStepCount, 0u);
    EXPECT_EQ(steps.steps.size(), 1u);
}

// The capture of the issue (tests/data/captures/zoo/README.md): `zoo.py compile`, a GPT compiled by
// torch.compile, 3 warm-up and 24 measured steps, recorded with --torch-ops --py-stacks (operators in
// windows; the optimizer's ranges outside them are NVTX ranges). It used to have no steps at all: a
// 21 s window, 13.5 s of it compilation, at 1.06 % GPU utilization.
TEST(OptimizerSteps, TheTorchCompileCaptureGetsItsIterations) {
    ImportResult r = importTraceFile(dataPath("captures/zoo/compile.wscap.gz"));
    ASSERT_TRUE(r.session) << r.error;
    const StepRanges steps = computeStepRanges(*r.session);
    EXPECT_TRUE(steps.optimizerSteps);
    EXPECT_FALSE(steps.patternSteps);
    // 27 iterations; the first (compilation, 21.6 s in session 24's recording) is start-up.
    ASSERT_TRUE(steps.startup);
    EXPECT_GT(steps.startup->end - steps.startup->start, 10'000'000'000);
    ASSERT_EQ(steps.steps.size(), 26u);
    EXPECT_EQ(steps.labels.front(), "1");
    EXPECT_EQ(steps.labels.back(), "26");
    for (const StepRange& st : steps.steps)
        EXPECT_GT(st.end - st.start, 8'000'000);
    const OverviewReport o = computeOverview(*r.session);
    // Each step is one iteration: the same GPU work (5.9 ms of kernels), however long the host took
    // (12-38 ms: one step of the recording waited 24 ms on the host).
    ASSERT_EQ(o.breakdown.steps.size(), 26u);
    const double kernels0 = static_cast<double>(o.breakdown.steps[0].cost[static_cast<size_t>(StepRole::Kernel)]);
    for (const StepCosts& st : o.breakdown.steps)
        EXPECT_NEAR(static_cast<double>(st.cost[static_cast<size_t>(StepRole::Kernel)]), kernels0, 0.02 * kernels0);
    ASSERT_EQ(o.devices.size(), 1u);
    // The host's speed sets it: 37.7 % in session 23's recording, 28.2 % in session 24's (the same
    // machine type); with the compilation counted it read 1.06 %.
    ASSERT_TRUE(o.devices[0].gpuUtilization);
    EXPECT_GT(*o.devices[0].gpuUtilization, 0.20);
    EXPECT_LT(*o.devices[0].gpuUtilization, 0.45);
}

// Captures whose steps came from the launch pattern before keep them as many and as long: the
// optimizer's iterations of the zoo's GPT, ResNet-50 (AMP: GradScaler skips the first 3 optimizer
// steps) and DataLoader-bound ResNet-18. The CUDA-graphed step marks only its eager warm-up and
// keeps the launch pattern's steps.
TEST(OptimizerSteps, ZooCapturesKeepTheirSteps) {
    for (const char* name : {"gpt", "resnet50", "loader", "ddp_rank0"}) {
        ImportResult r = importTraceFile(dataPath(std::string("captures/zoo/") + name + ".wscap.gz"));
        ASSERT_TRUE(r.session) << r.error;
        const StepRanges steps = computeStepRanges(*r.session);
        EXPECT_TRUE(steps.optimizerSteps) << name;
        EXPECT_TRUE(steps.startup) << name;
        // 3 warm-up and 24 measured iterations (recorded with operator windows), the first left out
        // as start-up.
        EXPECT_EQ(steps.steps.size(), 26u) << name;
    }
    ImportResult graph = importTraceFile(dataPath("captures/zoo/graph.wscap.gz"));
    ASSERT_TRUE(graph.session) << graph.error;
    const StepRanges steps = computeStepRanges(*graph.session);
    EXPECT_FALSE(steps.optimizerSteps);
    EXPECT_TRUE(steps.patternSteps);
}
