// CUDA graphs seen through (issue #48): captures of capture/samples/graph_decode.py recorded on an
// H200 (tests/data/captures/graphs/README.md) give each replayed kernel, copy and set the operator and
// Python line of the launch that captured it, group the replays by graph, and keep the graph
// launch as what launched them (when, on which thread).

#include "test_util.h"

#include "analysis/call_stack.h"
#include "analysis/flame_graph.h"
#include "analysis/graph_csv.h"
#include "analysis/graph_replays.h"
#include "analysis/kernel_table.h"
#include "analysis/launch_flows.h"
#include "analysis/operator_tree.h"
#include "library/open_trace.h"
#include "model/event_kind.h"
#include "store/session_store.h"

#include <map>
#include <set>
#include <sstream>

namespace ws {
namespace {

std::shared_ptr<const Session> graphCapture(const std::string& name) {
    ImportResult r = importTraceFile(test::dataPath("captures/graphs/" + name));
    EXPECT_TRUE(r.session) << name << ": " << r.error;
    return r.session;
}

size_t countKind(const Session& s, EventKind kind) {
    size_t n = 0;
    for (const Track& t : s.tracks())
        for (size_t i = 0; i < t.sliceCount(); ++i)
            n += s.kindOf(t, i) == kind;
    return n;
}

TEST(CaptureGraphs, EveryReplayedKernelCarriesTheOperatorAndLineThatCapturedIt) {
    auto s = graphCapture("graph.wscap.gz");
    ASSERT_TRUE(s);
    // One graph_node slice per node the program captured: 8 layers and the head of one token's forward.
    EXPECT_EQ(countKind(*s, EventKind::GraphNode), 174u);
    const KernelTable table = KernelTable::build(*s);
    size_t replayed = 0, withOp = 0;
    std::map<std::string, size_t> ops;
    for (const KernelRow& r : table.rows()) {
        if (r.graph == 0)
            continue;
        ++replayed;
        withOp += r.op != kEmptyString;
        ++ops[std::string(s->str(r.op))];
        EXPECT_EQ(r.graph, 1u);
        EXPECT_GE(r.graphNode, 1u);
        EXPECT_LE(r.graphNode, 174u);
    }
    // 6 steps (2 warm-up) of 32 tokens, each token 173 kernels (and one copy) replayed.
    EXPECT_EQ(replayed, 6u * 32u * 173u);
    EXPECT_EQ(withOp, replayed);
    EXPECT_GT(ops["aten::mm"], replayed / 4);
    EXPECT_GT(ops["aten::_cudnn_attention_forward"], 0u);
    // The CSV has the graph and node of a replayed kernel.
    EXPECT_EQ(table.text(*s, 0, KernelColumn::Graph), table.row(0).graph ? "1" : "");
}

TEST(CaptureGraphs, TransformersStaticCacheGenerateIsSeenThrough) {
    // transformers' own generate(cache_implementation="static"): it compiles the decoding forward with
    // mode="reduce-overhead", so each decoded token replays a CUDA graph tree (2 graphs of 151 nodes).
    auto s = graphCapture("hf_static.wscap.gz");
    ASSERT_TRUE(s);
    const GraphReplays r = GraphReplays::build(*s);
    ASSERT_EQ(r.graphs().size(), 2u);
    EXPECT_EQ(r.attributedActivities(), r.replayedActivities());
    for (const GraphRow& g : r.graphs()) {
        EXPECT_EQ(g.nodes.size(), 151u);
        // Named by transformers' frame that called the compiled forward, not by torch's frames around
        // the recording: the GPU machine's virtual environment lies under /opt/torch/, which once made
        // every installed package look like PyTorch's own.
        EXPECT_NE(g.file.find("/transformers/"), std::string::npos) << g.label();
        for (const GraphNodeRow& n : g.nodes)
            EXPECT_FALSE(isTorchPackageFile(n.file)) << n.file;
    }
    const KernelTable table = KernelTable::build(*s);
    size_t replayed = 0, withOp = 0;
    for (const KernelRow& k : table.rows()) {
        replayed += k.graph != 0;
        withOp += k.graph != 0 && k.op != kEmptyString;
    }
    EXPECT_GT(replayed, 20000u);
    EXPECT_EQ(withOp, replayed);
}

TEST(CaptureGraphs, ReplaysGroupIntoOneGraphNamedByTheLineThatCapturedIt) {
    auto s = graphCapture("graph.wscap.gz");
    ASSERT_TRUE(s);
    const GraphReplays r = GraphReplays::build(*s);
    ASSERT_EQ(r.graphs().size(), 1u);
    const GraphRow& g = r.graphs()[0];
    EXPECT_EQ(g.replays, 192u);
    EXPECT_EQ(g.nodes.size(), 174u);
    EXPECT_EQ(g.attributedNodes, 174u);
    EXPECT_EQ(r.attributedActivities(), r.replayedActivities());
    // `next_token()` inside `with torch.cuda.graph(graph):` in decode_step.
    EXPECT_EQ(g.label(), "decode_step (graph_decode.py:107)");
    EXPECT_GT(g.meanReplayNs(), 100'000);
    EXPECT_LT(g.meanReplayNs(), 5'000'000);
    // Every node's line is in the model's code, and the slowest node is the vocabulary head's matmul.
    for (const GraphNodeRow& n : g.nodes) {
        EXPECT_EQ(n.calls, 192u);
        EXPECT_NE(n.file.find("graph_decode.py"), std::string::npos) << s->str(n.name);
    }
    const GraphNodeRow& slowest = g.nodes[r.slowestNodes(0).front()];
    EXPECT_EQ(s->str(slowest.op), "aten::mm");
    EXPECT_EQ(slowest.line, 79); // return self.head(self.norm(x))
    std::ostringstream csv;
    writeGraphNodeCsv(csv, *s, r);
    const std::string text = csv.str();
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 175);
    // A replayed kernel knows its node; a kernel of the eager prompt knows none.
    EXPECT_TRUE(r.nodeOf(slowest.firstTrack, slowest.firstSlice));
}

TEST(CaptureGraphs, TheGraphLaunchStaysWhatLaunchedTheReplay) {
    auto s = graphCapture("graph.wscap.gz");
    ASSERT_TRUE(s);
    const LaunchFlows launch = LaunchFlows::build(*s, LaunchFlows::Follow::Launch);
    const LaunchFlows attribution = LaunchFlows::build(*s, LaunchFlows::Follow::Attribution);
    size_t replayed = 0;
    for (uint32_t ti = 0; ti < s->tracks().size(); ++ti) {
        const Track& t = s->tracks()[ti];
        if (!t.gpu)
            continue;
        for (uint32_t i = 0; i < t.sliceCount(); ++i) {
            const uint32_t lf = launch.flowOf(ti, i), af = attribution.flowOf(ti, i);
            if (lf == LaunchFlows::kNone || af == LaunchFlows::kNone || lf == af)
                continue;
            ++replayed;
            const Flow& l = s->flows()[lf];
            const Flow& a = s->flows()[af];
            EXPECT_EQ(s->str(s->tracks()[l.fromTrack].names[l.fromSlice]), "cuGraphLaunch: decode_step (graph_decode.py:107)");
            EXPECT_EQ(s->kindOf(s->tracks()[a.fromTrack], a.fromSlice), EventKind::GraphNode);
            // Captured before the replay, on the same thread.
            EXPECT_LT(s->tracks()[a.fromTrack].start[a.fromSlice], s->tracks()[l.fromTrack].start[l.fromSlice]);
        }
    }
    EXPECT_EQ(replayed, 6u * 32u * 174u);
}

TEST(CaptureGraphs, FlameGraphAndStackPutReplayedTimeUnderTheModelCode) {
    auto s = graphCapture("graph.wscap.gz");
    ASSERT_TRUE(s);
    FlameOptions o;
    o.weight = FlameWeight::Gpu;
    const FlameGraph g = FlameGraph::build(*s, o);
    g.expandAll();
    const std::string folded = g.folded();
    EXPECT_EQ(folded.find("CUDAGraph.replay"), std::string::npos);
    EXPECT_NE(folded.find("Layer.forward"), std::string::npos);
    EXPECT_EQ(g.withoutStackTotal(), 0);
    // The Stack tab of a replayed kernel: its captured launch's Python frames.
    const KernelTable table = KernelTable::build(*s);
    const auto replayed = std::find_if(table.rows().begin(), table.rows().end(), [](const KernelRow& r) { return r.graph; });
    ASSERT_NE(replayed, table.rows().end());
    const CallStack stack = callStackFor(*s, replayed->track, replayed->slice);
    ASSERT_GE(stack.firstSourceFrame, 0);
    EXPECT_TRUE(std::any_of(stack.frames.begin(), stack.frames.end(),
                            [](const StackFrame& f) { return f.file.find("graph_decode.py") != std::string::npos; }));
    EXPECT_FALSE(std::any_of(stack.frames.begin(), stack.frames.end(),
                             [](const StackFrame& f) { return f.function.find("CUDAGraph.replay") != std::string::npos; }));
}

TEST(CaptureGraphs, OperatorDeviceTimeCountsReplayedKernelsOnce) {
    auto s = graphCapture("graph.wscap.gz");
    ASSERT_TRUE(s);
    const OperatorTree tree = OperatorTree::build(*s);
    const OperatorTreeStats& st = tree.stats();
    // Every GPU activity reaches an operator once: the prompt's through its launches, the replays'
    // through where they were captured (not a second time through the graph launch).
    EXPECT_EQ(st.gpuActivitiesAttributed, tree.launches().size());
    EXPECT_GE(static_cast<double>(st.gpuNsAttributed), 0.99 * static_cast<double>(st.gpuNs));
}

TEST(CaptureGraphs, CopyAndSetNodesOfASideStreamGraph) {
    auto s = graphCapture("sidestream.wscap.gz");
    ASSERT_TRUE(s);
    const GraphReplays r = GraphReplays::build(*s);
    // Adjacent nodes overlap by a few ns on CUPTI's clock: each still keeps its own flows.
    ASSERT_EQ(r.graphs().size(), 1u);
    const GraphRow& g = r.graphs()[0];
    EXPECT_EQ(g.replays, 6u * 64u);
    ASSERT_EQ(g.nodes.size(), 5u);
    std::map<EventKind, const GraphNodeRow*> byKind;
    for (const GraphNodeRow& n : g.nodes)
        byKind[n.kind] = &n;
    ASSERT_TRUE(byKind.count(EventKind::Memcpy));
    ASSERT_TRUE(byKind.count(EventKind::Memset));
    EXPECT_EQ(s->str(byKind[EventKind::Memcpy]->op), "aten::copy_"); // dst.copy_(src)
    EXPECT_EQ(byKind[EventKind::Memcpy]->line, 148);
    EXPECT_EQ(s->str(byKind[EventKind::Memset]->op), ""); // cuMemsetD32Async from ctypes: no operator
    EXPECT_EQ(byKind[EventKind::Memset]->line, 149);
    // The node slices are named by what the replays run (the driver says "kernel" for all three).
    std::set<std::string> names;
    for (const Track& t : s->tracks())
        for (size_t i = 0; i < t.sliceCount(); ++i)
            if (s->kindOf(t, i) == EventKind::GraphNode)
                names.insert(std::string(s->str(t.names[i])));
    EXPECT_EQ(names, (std::set<std::string>{"graph node: kernel", "graph node: memcpy", "graph node: memset"}));
}

TEST(CaptureGraphs, AGraphCapturedWhileRecordingWasPausedKeepsItsLines) {
    // --capture-range=cudaProfilerApi: the graph was captured before the first cudaProfilerStart.
    auto s = graphCapture("graph_range.wscap.gz");
    ASSERT_TRUE(s);
    const GraphReplays r = GraphReplays::build(*s);
    ASSERT_EQ(r.graphs().size(), 1u);
    EXPECT_EQ(r.attributedActivities(), r.replayedActivities());
    EXPECT_EQ(r.graphs()[0].label(), "decode_step (graph_decode.py:107)");
    for (const GraphNodeRow& n : r.graphs()[0].nodes)
        EXPECT_GT(n.line, 0);
    // A replay in flight at cudaProfilerStop ends at the pause, not 150 ms later in the next range.
    EXPECT_LT(r.graphs()[0].maxReplayNs, 90'000'000);
    EXPECT_NE(s->report().toText().find("still running when recording paused"), std::string::npos);
}

TEST(CaptureGraphs, TorchCompileCudaGraphTrees) {
    auto s = graphCapture("compile.wscap.gz");
    ASSERT_TRUE(s);
    const GraphReplays r = GraphReplays::build(*s);
    ASSERT_GE(r.graphs().size(), 1u);
    EXPECT_EQ(r.attributedActivities(), r.replayedActivities());
    const KernelTable table = KernelTable::build(*s);
    size_t triton = 0, replayed = 0;
    for (const KernelRow& row : table.rows()) {
        if (!row.graph)
            continue;
        ++replayed;
        EXPECT_NE(row.op, kEmptyString) << s->str(row.name);
        triton += s->str(row.op).rfind("triton_", 0) == 0;
    }
    EXPECT_GT(replayed, 2000u);
    EXPECT_GT(triton, replayed / 4); // Inductor's kernels keep their triton_* operator ranges
}

TEST(CaptureGraphs, GraphLevelRecordingShowsEachReplayAsOneSpan) {
    auto s = graphCapture("graph_trace.wscap.gz");
    ASSERT_TRUE(s);
    EXPECT_EQ(countKind(*s, EventKind::GpuGraph), 6u * 32u);
    const GraphReplays r = GraphReplays::build(*s);
    ASSERT_EQ(r.graphs().size(), 1u);
    EXPECT_EQ(r.graphs()[0].replays, 192u);
    EXPECT_EQ(r.graphs()[0].nodes.size(), 1u);
    EXPECT_EQ(r.graphs()[0].nodes[0].kind, EventKind::GpuGraph);
}

TEST(CaptureGraphs, GraphLevelReplaysOutsideTheRecordedRangesAreNotCounted) {
    // GRAPH_TRACE stays on through the pauses of --capture-range: its records of the replays between
    // the ranges take no time, and have no launch recorded.
    auto s = graphCapture("graph_trace_range.wscap.gz");
    ASSERT_TRUE(s);
    EXPECT_EQ(countKind(*s, EventKind::GpuGraph), 1024u);
    size_t inside = 0;
    for (const Track& t : s->tracks())
        for (size_t i = 0; i < t.sliceCount(); ++i)
            inside += s->kindOf(t, i) == EventKind::GpuGraph && t.dur[i] > 0;
    EXPECT_EQ(inside, 3u * 5u * 32u);
    const GraphReplays r = GraphReplays::build(*s);
    ASSERT_EQ(r.graphs().size(), 1u);
    EXPECT_EQ(r.graphs()[0].replays, 3u * 5u * 32u);
}

TEST(CaptureGraphs, KinetoReplaysGroupByTheirNodesInOrder) {
    // torch.profiler's trace of the same graphed program: no node ids, no capture phase.
    auto s = graphCapture("graph.pt.trace.json.gz");
    ASSERT_TRUE(s);
    const GraphReplays r = GraphReplays::build(*s);
    ASSERT_EQ(r.graphs().size(), 1u);
    EXPECT_EQ(r.graphs()[0].replays, 4u * 32u);
    EXPECT_EQ(r.graphs()[0].attributedNodes, 0u);
    EXPECT_GE(r.graphs()[0].nodes.size(), 174u); // torch.profiler lists the copy as a kernel too
    EXPECT_EQ(r.graphs()[0].label(), "graph 1"); // traced without with_stack: nothing names it
}

TEST(CaptureGraphs, AStoredSessionKeepsTheAttribution) {
    auto s = graphCapture("sidestream.wscap.gz");
    ASSERT_TRUE(s);
    const std::string path = (test::tempDir() / "graphs.warpscope").string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(*s, path, {}, &error)) << error;
    ImportResult reopened = openTraceFile(path);
    ASSERT_TRUE(reopened.session) << reopened.error;
    const GraphReplays a = GraphReplays::build(*s), b = GraphReplays::build(*reopened.session);
    ASSERT_EQ(b.graphs().size(), a.graphs().size());
    EXPECT_EQ(b.attributedActivities(), a.attributedActivities());
    EXPECT_EQ(b.graphs()[0].label(), a.graphs()[0].label());
    for (size_t n = 0; n < a.graphs()[0].nodes.size(); ++n)
        EXPECT_EQ(b.graphs()[0].nodes[n].line, a.graphs()[0].nodes[n].line);
}

TEST(CaptureGraphs, SessionsWithoutGraphsHaveNone) {
    auto s = graphCapture("eager.pt.trace.json.gz");
    ASSERT_TRUE(s);
    EXPECT_TRUE(GraphReplays::build(*s).graphs().empty());
    const KernelTable table = KernelTable::build(*s);
    for (const KernelRow& r : table.rows())
        ASSERT_EQ(r.graph, 0u);
}

} // namespace
} // namespace ws
