#include "analysis/flame_graph.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace ws {
namespace {

/*
 * Thread 1: main (0..100 us) holds f (10..50), which launches K1 (10 us) and allocates 4096 B, and a
 * built-in (60..80), which launches K2 (7 us). A launch outside any Python frame (K3, 3 us), a kernel
 * without a launch (K4, 2 us) and an allocation inside an operator only (512 B).
 */
const char* const kTrace = R"({"traceEvents":[
  {"ph":"X","cat":"python_function","name":"main.py(10): main","pid":1,"tid":1,"ts":0,"dur":100},
  {"ph":"X","cat":"python_function","name":"main.py(20): f","pid":1,"tid":1,"ts":10,"dur":40},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":20,"dur":5,"args":{"correlation":1}},
  {"ph":"X","cat":"python_function","name":"<built-in method foo>","pid":1,"tid":1,"ts":60,"dur":20},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":65,"dur":5,"args":{"correlation":2}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":150,"dur":5,"args":{"correlation":3}},
  {"ph":"X","cat":"cpu_op","name":"aten::empty","pid":1,"tid":1,"ts":110,"dur":20},
  {"ph":"X","cat":"kernel","name":"K1","pid":0,"tid":7,"ts":30,"dur":10,"args":{"correlation":1,"stream":7}},
  {"ph":"X","cat":"kernel","name":"K2","pid":0,"tid":7,"ts":80,"dur":7,"args":{"correlation":2,"stream":7}},
  {"ph":"X","cat":"kernel","name":"K3","pid":0,"tid":7,"ts":200,"dur":3,"args":{"correlation":3,"stream":7}},
  {"ph":"X","cat":"kernel","name":"K4","pid":0,"tid":7,"ts":300,"dur":2,"args":{"stream":7}},
  {"ph":"s","cat":"ac2g","id":1,"pid":1,"tid":1,"ts":20,"name":"ac2g"},
  {"ph":"f","cat":"ac2g","id":1,"pid":0,"tid":7,"ts":30,"name":"ac2g","bp":"e"},
  {"ph":"s","cat":"ac2g","id":2,"pid":1,"tid":1,"ts":65,"name":"ac2g"},
  {"ph":"f","cat":"ac2g","id":2,"pid":0,"tid":7,"ts":80,"name":"ac2g","bp":"e"},
  {"ph":"s","cat":"ac2g","id":3,"pid":1,"tid":1,"ts":150,"name":"ac2g"},
  {"ph":"f","cat":"ac2g","id":3,"pid":0,"tid":7,"ts":200,"name":"ac2g","bp":"e"},
  {"ph":"i","s":"t","cat":"cpu_instant_event","name":"[memory]","pid":1,"tid":1,"ts":25,
   "args":{"Addr":100,"Bytes":4096,"Device Type":1,"Device Id":0}},
  {"ph":"i","s":"t","cat":"cpu_instant_event","name":"[memory]","pid":1,"tid":1,"ts":120,
   "args":{"Addr":200,"Bytes":512,"Device Type":1,"Device Id":0}},
  {"ph":"i","s":"t","cat":"cpu_instant_event","name":"[memory]","pid":1,"tid":1,"ts":140,
   "args":{"Addr":100,"Bytes":-4096,"Device Type":1,"Device Id":0}}]})";

std::shared_ptr<const Session> synthetic() {
    return test::importText(kTrace, {}, "flame_synthetic.json").session;
}

FlameGraph build(const Session& s, FlameWeight w, bool bottomUp = false, int64_t from = INT64_MIN,
                 int64_t to = INT64_MAX) {
    FlameOptions o;
    o.weight = w;
    o.bottomUp = bottomUp;
    o.from = from;
    o.to = to;
    return FlameGraph::build(s, o);
}

// "a;b" -> node, from the frame texts of each node's path.
std::map<std::string, const FlameNode*> byPath(const FlameGraph& g) {
    std::map<std::string, const FlameNode*> out;
    for (uint32_t n = 1; n < g.nodes().size(); ++n) {
        std::string key;
        for (uint32_t p : g.path(n)) {
            if (!key.empty()) key += ';';
            key += g.frameText(g.nodes()[p].frame);
        }
        out[key] = &g.nodes()[n];
    }
    return out;
}

TEST(FlameGraph, GpuWeightAttributesKernelsToTheirLaunchStack) {
    auto s = synthetic();
    ASSERT_NE(s, nullptr);
    const FlameGraph g = build(*s, FlameWeight::Gpu);
    EXPECT_TRUE(g.emptyReason().empty());
    EXPECT_EQ(g.root().total, 22000); // every kernel: 10 + 7 + 3 + 2 us
    EXPECT_EQ(g.sampleCount(), 4u);
    const auto p = byPath(g);
    ASSERT_EQ(p.size(), 4u);
    EXPECT_EQ(p.at("main (main.py:10)")->total, 17000);
    EXPECT_EQ(p.at("main (main.py:10)")->self, 0);
    EXPECT_EQ(p.at("main (main.py:10);f (main.py:20)")->self, 10000);
    EXPECT_EQ(p.at("main (main.py:10);<built-in method foo>")->self, 7000);
    EXPECT_EQ(p.at("(no stack)")->total, 5000);
    EXPECT_EQ(g.folded(), "main (main.py:10);f (main.py:20) 10000\n"
                          "main (main.py:10);<built-in method foo> 7000\n"
                          "(no stack) 5000\n");
    // The root's children: heaviest first.
    ASSERT_EQ(g.root().childCount, 2u);
    EXPECT_EQ(g.frameText(g.nodes()[g.root().firstChild].frame), "main (main.py:10)");
    EXPECT_EQ(g.frameText(g.nodes()[g.root().firstChild + 1].frame), "(no stack)");
    const FlameFrame& f =
        g.frames()[g.nodes()[p.at("main (main.py:10);f (main.py:20)") - g.nodes().data()].frame];
    EXPECT_EQ(f.function, "f");
    EXPECT_EQ(f.file, "main.py");
    EXPECT_EQ(f.line, 20);
}

TEST(FlameGraph, CpuWeightIsSelfTimeOfPythonFunctions) {
    auto s = synthetic();
    ASSERT_NE(s, nullptr);
    const FlameGraph g = build(*s, FlameWeight::Cpu);
    EXPECT_EQ(g.root().total, 100000);
    EXPECT_EQ(g.sampleCount(), 3u);
    const auto p = byPath(g);
    EXPECT_EQ(p.at("main (main.py:10)")->self, 40000);
    EXPECT_EQ(p.at("main (main.py:10)")->total, 100000);
    EXPECT_EQ(p.at("main (main.py:10);f (main.py:20)")->self, 40000);
    EXPECT_EQ(p.at("main (main.py:10);<built-in method foo>")->self, 20000);

    // Bottom-up: each innermost frame is a root child carrying its self time.
    const FlameGraph up = build(*s, FlameWeight::Cpu, true);
    EXPECT_TRUE(up.bottomUp());
    EXPECT_EQ(up.root().total, 100000);
    EXPECT_TRUE(up.isLazy());
    EXPECT_EQ(up.nodes().size(), 4u); // the root and the innermost frames; callers on demand
    up.expandAll();
    const auto u = byPath(up);
    ASSERT_EQ(u.size(), 5u);
    EXPECT_EQ(u.at("main (main.py:10)")->total, 40000);
    EXPECT_EQ(u.at("main (main.py:10)")->self, 40000);
    EXPECT_EQ(u.at("f (main.py:20)")->total, 40000);
    EXPECT_EQ(u.at("f (main.py:20)")->self, 0);
    EXPECT_EQ(u.at("f (main.py:20);main (main.py:10)")->self, 40000);
    EXPECT_EQ(u.at("<built-in method foo>;main (main.py:10)")->self, 20000);
    // Inverting twice gives the top-down graph back.
    EXPECT_EQ(up.inverted().folded(), g.folded());
}

TEST(FlameGraph, RangeKeepsWhatStartsInside) {
    auto s = synthetic();
    ASSERT_NE(s, nullptr);
    const int64_t t0 = s->startNs(); // the trace's zero on the session clock
    const FlameGraph g = build(*s, FlameWeight::Gpu, false, t0 + 25000, t0 + 100000); // K1 at 30, K2 at 80 us
    EXPECT_EQ(g.root().total, 17000);
    EXPECT_EQ(byPath(g).count("(no stack)"), 0u);
    const FlameGraph cpu = build(*s, FlameWeight::Cpu, false, t0 + 5000, t0 + 70000); // f and the built-in
    EXPECT_EQ(cpu.root().total, 60000);
    const FlameGraph none = build(*s, FlameWeight::Gpu, false, t0 + 400000, t0 + 500000);
    EXPECT_EQ(none.root().total, 0);
    EXPECT_EQ(none.folded(), "");
    EXPECT_FALSE(none.emptyReason().empty());
}

TEST(FlameGraph, AllocWeightFallsBackToOperators) {
    auto s = synthetic();
    ASSERT_NE(s, nullptr);
    const FlameGraph g = build(*s, FlameWeight::Alloc);
    EXPECT_EQ(g.root().total, 4096 + 512); // frees do not count
    const auto p = byPath(g);
    EXPECT_EQ(p.at("main (main.py:10);f (main.py:20)")->self, 4096);
    EXPECT_EQ(p.at("aten::empty")->self, 512);
}

TEST(FlameGraph, EmptyWithAReason) {
    auto s = test::importText(R"({"traceEvents":[
        {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":100}]})",
                              {}, "flame_empty.json")
                 .session;
    ASSERT_NE(s, nullptr);
    for (FlameWeight w : {FlameWeight::Cpu, FlameWeight::Gpu, FlameWeight::Alloc}) {
        const FlameGraph g = build(*s, w);
        EXPECT_EQ(g.root().total, 0);
        EXPECT_EQ(g.nodes().size(), 1u);
        EXPECT_FALSE(g.emptyReason().empty()) << flameWeightName(w);
        EXPECT_EQ(flameWeightFromName(flameWeightName(w)), w);
    }
    EXPECT_FALSE(flameWeightFromName("wall"));
}

// Legacy with_stack traces: the `Call stack` argument of the op enclosing the launch.
TEST(FlameGraph, LegacyCallStackArgument) {
    auto s = test::importText(R"({"traceEvents":[
        {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":100,
         "args":{"Call stack":"/w/model.py(42): forward;train.py(3): <module>"}},
        {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":5,
         "args":{"correlation":5}},
        {"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":20,"dur":30,"args":{"correlation":5,"stream":7}},
        {"ph":"s","cat":"ac2g","id":5,"pid":1,"tid":1,"ts":10,"name":"ac2g"},
        {"ph":"f","cat":"ac2g","id":5,"pid":0,"tid":7,"ts":20,"name":"ac2g","bp":"e"}]})",
                              {}, "flame_legacy.json")
                 .session;
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(build(*s, FlameWeight::Gpu).folded(), "<module> (train.py:3);forward (/w/model.py:42) 30000\n");
}

/*
 * Folding (issue #51): two model frames reached through different dispatch chains
 * (Module._wrapped_call_impl > Module._call_impl, and a decorator's wrapper) merge into one path under
 * their caller; a folded frame's own weight goes to its caller; the outermost frame stays even when
 * it matches. Every weight is kept.
 */
TEST(FlameGraph, FoldingMergesPathsThroughDispatchFrames) {
    auto s = test::importText(R"({"traceEvents":[
        {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":10,
         "args":{"Call stack":"m.py(5): Net.forward;torch/nn/modules/module.py(1790): Module._call_impl;torch/nn/modules/module.py(1779): Module._wrapped_call_impl;train.py(3): <module>"}},
        {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":20,"dur":10,
         "args":{"Call stack":"m.py(5): Net.forward;g.py(9): cached.<locals>.wrapper;train.py(3): <module>"}},
        {"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":40,"dur":10,
         "args":{"Call stack":"g.py(9): cached.<locals>.wrapper;train.py(3): <module>"}},
        {"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":60,"dur":10,
         "args":{"Call stack":"o.py(2): Outer.__call__"}},
        {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":1,"dur":1,"args":{"correlation":1}},
        {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":21,"dur":1,"args":{"correlation":2}},
        {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":41,"dur":1,"args":{"correlation":3}},
        {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":61,"dur":1,"args":{"correlation":4}},
        {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":100,"dur":30,"args":{"correlation":1,"stream":7}},
        {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":200,"dur":20,"args":{"correlation":2,"stream":7}},
        {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":300,"dur":5,"args":{"correlation":3,"stream":7}},
        {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":400,"dur":4,"args":{"correlation":4,"stream":7}},
        {"ph":"s","cat":"ac2g","id":1,"pid":1,"tid":1,"ts":1,"name":"ac2g"},
        {"ph":"f","cat":"ac2g","id":1,"pid":0,"tid":7,"ts":100,"name":"ac2g","bp":"e"},
        {"ph":"s","cat":"ac2g","id":2,"pid":1,"tid":1,"ts":21,"name":"ac2g"},
        {"ph":"f","cat":"ac2g","id":2,"pid":0,"tid":7,"ts":200,"name":"ac2g","bp":"e"},
        {"ph":"s","cat":"ac2g","id":3,"pid":1,"tid":1,"ts":41,"name":"ac2g"},
        {"ph":"f","cat":"ac2g","id":3,"pid":0,"tid":7,"ts":300,"name":"ac2g","bp":"e"},
        {"ph":"s","cat":"ac2g","id":4,"pid":1,"tid":1,"ts":61,"name":"ac2g"},
        {"ph":"f","cat":"ac2g","id":4,"pid":0,"tid":7,"ts":400,"name":"ac2g","bp":"e"}]})",
                              {}, "flame_fold.json")
                 .session;
    ASSERT_NE(s, nullptr);
    FlameOptions o;
    const FlameGraph all = FlameGraph::build(*s, o);
    EXPECT_EQ(all.foldedFrameCount(), 0u);
    EXPECT_NE(all.folded().find("Module._call_impl"), std::string::npos);
    o.fold = FrameFolding::defaults();
    const FlameGraph g = FlameGraph::build(*s, o);
    EXPECT_EQ(g.folded(), "<module> (train.py:3) 5000\n"
                          "<module> (train.py:3);Net.forward (m.py:5) 50000\n"
                          "Outer.__call__ (o.py:2) 4000\n");
    EXPECT_EQ(g.root().total, all.root().total);
    EXPECT_EQ(g.foldedFrameCount(), 3u); // _wrapped_call_impl, _call_impl, the wrapper
    // Bottom-up keeps the folding.
    o.bottomUp = true;
    const FlameGraph up = FlameGraph::build(*s, o);
    EXPECT_EQ(up.folded(), "Net.forward (m.py:5);<module> (train.py:3) 50000\n"
                           "<module> (train.py:3) 5000\n"
                           "Outer.__call__ (o.py:2) 4000\n");
    EXPECT_EQ(up.foldedFrameCount(), 3u);
}

TEST(FrameFolding, PatternsMatchTheLastPartOrAGlob) {
    EXPECT_TRUE(framePatternMatches("wrapper", "can_return_tuple.<locals>.wrapper"));
    EXPECT_TRUE(framePatternMatches("wrapper", "wrapper"));
    EXPECT_FALSE(framePatternMatches("wrapper", "wrapper_fn"));
    EXPECT_FALSE(framePatternMatches("wrapper", "wrapper.forward"));
    EXPECT_TRUE(framePatternMatches("__call__", "GradientCheckpointingLayer.__call__"));
    EXPECT_TRUE(framePatternMatches("Module.*call_impl", "Module._wrapped_call_impl"));
    EXPECT_FALSE(framePatternMatches("Module.*call_impl", "MyModule._call_impl_x"));
    EXPECT_TRUE(framePatternMatches("torch._dynamo.*", "torch._dynamo.eval_frame._fn"));
    EXPECT_TRUE(framePatternMatches("*", "anything"));
    EXPECT_FALSE(framePatternMatches("", "x"));
    const FrameFolding d = FrameFolding::defaults();
    EXPECT_TRUE(d.folds("Module._call_impl"));
    EXPECT_TRUE(d.folds("context_decorator.<locals>.decorate_context"));
    EXPECT_FALSE(d.folds("LlamaAttention.forward"));
    EXPECT_FALSE(d.folds("GenerationMixin.generate"));
    EXPECT_FALSE(d.folds("nn.Module: Linear_0"));
    const FrameFolding p = FrameFolding::parse(" a, b;c\td ,, ");
    EXPECT_EQ(p.patterns, (std::vector<std::string>{"a", "b", "c", "d"}));
    EXPECT_EQ(p.text(), "a, b, c, d");
    EXPECT_EQ(FrameFolding::parse(d.text()).patterns, d.patterns);
}

int64_t kernelNs(const Session& s) {
    int64_t total = 0;
    for (const Track& t : s.tracks())
        for (size_t i = 0; i < t.sliceCount(); ++i)
            if (t.gpu && s.kindOf(t, i) == EventKind::Kernel) total += t.dur[i];
    return total;
}

bool hasFunction(const FlameGraph& g, const std::string& function, const std::string& fileSuffix) {
    for (uint32_t n = 1; n < g.nodes().size(); ++n) {
        const FlameFrame& f = g.frames()[g.nodes()[n].frame];
        if (f.function == function && f.file.size() >= fileSuffix.size() &&
            f.file.compare(f.file.size() - fileSuffix.size(), fileSuffix.size(), fileSuffix) == 0 &&
            g.nodes()[n].total > 0)
            return true;
    }
    return false;
}

// A Warpscope capture with --py-stacks: kernels reach the user's train_step through their launch's
// `Call stack`; the root is exactly the kernel time; the allocation records find stacks too.
TEST(FlameGraph, CaptureWithPythonStacks) {
    auto r = importTraceFile(test::dataPath("captures/transformer_ops_pystacks.wscap.gz"));
    ASSERT_NE(r.session, nullptr);
    const Session& s = *r.session;
    const FlameGraph g = build(s, FlameWeight::Gpu);
    EXPECT_EQ(g.root().total, kernelNs(s));
    EXPECT_TRUE(hasFunction(g, "train_step", "overhead_step.py"));
    const FlameGraph up = build(s, FlameWeight::Gpu, true);
    EXPECT_EQ(up.root().total, g.root().total);
    // The cpu weight of a capture without Python samples: the CUDA calls and the host time before
    // each (gaps under 1 ms) on the calls' stacks: the user's train_step again, and the root is that
    // time, counted here from the calls themselves.
    const FlameGraph cpu = build(s, FlameWeight::Cpu);
    int64_t host = 0;
    for (const Track& t : s.tracks()) {
        if (t.gpu) continue;
        std::vector<std::pair<int64_t, int64_t>> calls;
        for (size_t i = 0; i < t.sliceCount(); ++i)
            if (s.kindOf(t, i) == EventKind::Runtime) calls.emplace_back(t.start[i], t.end(i));
        // By start, the longer first: a call nested in another starts with it or after.
        std::sort(calls.begin(), calls.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first < b.first : a.second > b.second;
        });
        int64_t reach = -1;
        for (const auto& [start, end] : calls) {
            if (end <= reach) continue; // a driver call inside its runtime call
            host += end - start;
            if (reach >= 0 && start > reach && start - reach <= 1'000'000) host += start - reach;
            reach = std::max(reach, end);
        }
    }
    EXPECT_GT(host, 0);
    EXPECT_EQ(cpu.root().total, host);
    EXPECT_TRUE(hasFunction(cpu, "train_step", "overhead_step.py"));
}

// torch.profiler with_stack=True (the H100 ResNet-18 trace): the root is the kernel time and the
// user's step() appears; cpu weight is the python_function self time.
TEST(FlameGraph, KinetoTraceWithStacks) {
    auto r = importTraceFile(test::dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz"));
    ASSERT_NE(r.session, nullptr);
    const Session& s = *r.session;
    const FlameGraph g = build(s, FlameWeight::Gpu);
    EXPECT_EQ(g.root().total, kernelNs(s));
    size_t python = 0;
    for (const FlameFrame& f : g.frames())
        python += f.file.size() > 3 && f.file.compare(f.file.size() - 3, 3, ".py") == 0;
    EXPECT_GT(python, 10u);
    const FlameGraph cpu = build(s, FlameWeight::Cpu);
    EXPECT_GT(cpu.root().total, 0);
    EXPECT_TRUE(cpu.emptyReason().empty());
    EXPECT_EQ(cpu.inverted().root().total, cpu.root().total);
}

// The folded lines of a graph as path -> weight, each path's frames reversed when `reverse`.
std::map<std::string, int64_t> foldedLines(const std::string& folded, bool reverse) {
    std::map<std::string, int64_t> out;
    size_t at = 0;
    while (at < folded.size()) {
        const size_t end = folded.find('\n', at);
        const std::string line = folded.substr(at, end - at);
        at = end + 1;
        const size_t space = line.rfind(' ');
        std::vector<std::string> frames;
        for (size_t b = 0; b <= space;) {
            const size_t e = std::min(line.find(';', b), space);
            frames.push_back(line.substr(b, e - b));
            b = e + 1;
        }
        if (reverse) std::reverse(frames.begin(), frames.end());
        std::string key;
        for (const std::string& f : frames)
            key += (key.empty() ? "" : ";") + f;
        out[key] += std::stoll(line.substr(space + 1));
    }
    return out;
}

// The lazy bottom-up graph (callers made on demand) against the eager inversion and against the
// top-down graph's stacks read backwards, on real recordings: every weight, and its partial
// expansion (what a view shows) equal to the eager tree's top levels node for node.
void expectLazyEqualsEager(const Session& s, FlameWeight weight) {
    SCOPED_TRACE(flameWeightName(weight));
    const FlameGraph top = build(s, weight);
    const FlameGraph eager = top.inverted();
    ASSERT_FALSE(eager.isLazy());
    const FlameGraph lazy = build(s, weight, true);
    ASSERT_TRUE(lazy.isLazy());
    EXPECT_EQ(lazy.root().total, top.root().total);
    EXPECT_EQ(lazy.root().total, eager.root().total);
    EXPECT_EQ(lazy.sampleCount(), top.sampleCount());
    EXPECT_EQ(lazy.root().childCount, eager.root().childCount);

    EXPECT_EQ(lazy.nodes().size(), 1u + lazy.root().childCount);
    EXPECT_LT(lazy.nodes().size(), eager.nodes().size());

    // Expanded down to 1/200 of the total: each made node's children are the eager node's, in order.
    const int64_t threshold = lazy.root().total / 200;
    lazy.expandAtLeast(threshold);
    std::vector<std::pair<uint32_t, uint32_t>> todo{{0, 0}}; // lazy node, eager node
    size_t compared = 0;
    while (!todo.empty()) {
        const auto [l, e] = todo.back();
        todo.pop_back();
        const FlameNode& a = lazy.nodes()[l];
        const FlameNode& b = eager.nodes()[e];
        ASSERT_EQ(lazy.frameText(a.frame), eager.frameText(b.frame));
        ASSERT_EQ(a.total, b.total);
        ASSERT_EQ(a.self, b.self);
        ++compared;
        if (!lazy.isExpanded(l)) {
            ASSERT_LT(a.total, threshold);
            continue;
        }
        ASSERT_EQ(a.childCount, b.childCount) << lazy.frameText(a.frame);
        for (uint32_t k = 0; k < a.childCount; ++k)
            todo.push_back({a.firstChild + k, b.firstChild + k});
    }
    EXPECT_GT(compared, lazy.root().childCount);

    // Fully expanded: the same tree, and the top-down stacks backwards.
    EXPECT_EQ(lazy.folded(), eager.folded());
    EXPECT_EQ(lazy.nodes().size(), eager.nodes().size());
    EXPECT_EQ(foldedLines(lazy.folded(), false), foldedLines(top.folded(), true));
    EXPECT_EQ(lazy.inverted().folded(), top.folded());
}

TEST(FlameGraph, LazyBottomUpEqualsTheEagerInversionOnRecordings) {
    auto capture = importTraceFile(test::dataPath("captures/transformer_ops_pystacks.wscap.gz"));
    ASSERT_NE(capture.session, nullptr);
    expectLazyEqualsEager(*capture.session, FlameWeight::Gpu);
    expectLazyEqualsEager(*capture.session, FlameWeight::Alloc);
    auto kineto = importTraceFile(test::dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz"));
    ASSERT_NE(kineto.session, nullptr);
    expectLazyEqualsEager(*kineto.session, FlameWeight::Gpu);
    expectLazyEqualsEager(*kineto.session, FlameWeight::Cpu);
}

// A search's matched weight is that of the stacks through a matching frame, whichever the
// direction and however far a lazy graph is expanded: checked against the folded lines.
TEST(FlameGraph, MatchIsTheWeightOfTheStacksThroughAMatchingFrame) {
    auto r = importTraceFile(test::dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz"));
    ASSERT_NE(r.session, nullptr);
    const FlameGraph top = build(*r.session, FlameWeight::Cpu);
    const FlameGraph lazy = build(*r.session, FlameWeight::Cpu, true);
    for (const std::string needle : {"forward", "linear", "no such function"}) {
        std::vector<bool> frameMatches(top.frames().size());
        for (size_t f = 0; f < frameMatches.size(); ++f)
            frameMatches[f] = top.frames()[f].function.find(needle) != std::string::npos;
        int64_t expected = 0;
        for (const auto& [path, weight] : foldedLines(top.folded(), false)) {
            size_t b = 0;
            bool hit = false;
            while (b <= path.size() && !hit) {
                const size_t e = std::min(path.find(';', b), path.size());
                const std::string frame = path.substr(b, e - b);
                hit = frame.substr(0, frame.find(" (")).find(needle) != std::string::npos;
                b = e + 1;
            }
            if (hit) expected += weight;
        }
        SCOPED_TRACE(needle);
        EXPECT_EQ(top.match(frameMatches).total, expected);
        EXPECT_EQ(lazy.match(frameMatches).total, expected);
        EXPECT_EQ(lazy.match(frameMatches).frames, top.match(frameMatches).frames);
        EXPECT_EQ(top.inverted().match(frameMatches).total, expected);
        EXPECT_EQ(expected == 0, top.match(frameMatches).frames == 0);
    }
}

} // namespace
} // namespace ws
