#include "analysis/flame_graph.h"
#include "flame_graph_view.h"
#include "import/trace_import.h"
#include "model/session.h"
#include "session_loader.h"
#include "session_page.h"
#include "source_pane.h"
#include "stack_source_view.h"
#include "time_viewport.h"

#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <gtest/gtest.h>
#include <set>

using namespace ws;

namespace {

// A GPT step recorded by Warpscope with --py-stacks: Python stacks at every launch and allocation,
// no python_function events (so the CPU weight is empty, with a reason).
std::shared_ptr<const Session> gpt() {
    static std::shared_ptr<const Session> s =
        importTraceFile(std::string(WARPSCOPE_TEST_DATA_DIR) + "/captures/zoo/gpt.wscap.gz").session;
    return s;
}

std::set<std::string> rootChildren(const FlameGraph& g) {
    std::set<std::string> out;
    const FlameNode& r = g.root();
    for (uint32_t c = r.firstChild; c < r.firstChild + r.childCount; ++c)
        out.insert(g.frames()[g.nodes()[c].frame].function);
    return out;
}

// The first node (breadth-first) whose function contains `name`.
uint32_t findNode(const FlameGraph& g, const std::string& name) {
    for (uint32_t i = 1; i < g.nodes().size(); ++i)
        if (g.frames()[g.nodes()[i].frame].function.find(name) != std::string::npos) return i;
    return FlameNode::kNone;
}

} // namespace

TEST(FlameGraphView, GpuWeightMatchesTheModelAndBottomUpChangesTheRoots) {
    auto session = gpt();
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    FlameGraphView view(&time, session);
    view.resize(1200, 500);
    view.canvas()->resize(1200, 400);
    view.setFolding(false); // every frame: the model's graph with FlameOptions{}
    view.computeNow();
    ASSERT_NE(view.graph(), nullptr);
    ASSERT_TRUE(view.isShowingGraph());
    const FlameGraph model = FlameGraph::build(*session, FlameOptions{});
    EXPECT_EQ(view.graph()->weight(), FlameWeight::Gpu);
    EXPECT_GT(model.root().total, 0);
    EXPECT_EQ(view.graph()->root().total, model.root().total);
    EXPECT_EQ(view.graph()->nodes().size(), model.nodes().size());
    EXPECT_FALSE(view.statusText().isEmpty());
    // Level of detail: the root and its heaviest child are laid out, not every node.
    EXPECT_FALSE(view.canvas()->nodeRect(0).isEmpty());
    EXPECT_GT(view.canvas()->laidOutCount(), 1u);
    EXPECT_LE(view.canvas()->laidOutCount(), model.nodes().size());
    const auto topDownRoots = rootChildren(*view.graph());
    EXPECT_TRUE(topDownRoots.count("<module>"));

    view.setBottomUp(true);
    view.computeNow();
    ASSERT_TRUE(view.graph()->bottomUp());
    EXPECT_EQ(view.graph()->root().total, model.root().total);
    const auto bottomUpRoots = rootChildren(*view.graph());
    EXPECT_NE(bottomUpRoots, topDownRoots);
    EXPECT_FALSE(bottomUpRoots.count("<module>")); // the outermost frame is no innermost one here
    EXPECT_TRUE(bottomUpRoots.count("Linear.forward"));
    // Made lazily: the callers of what is laid out (wider than a pixel) are made, not every node.
    ASSERT_TRUE(view.graph()->isLazy());
    EXPECT_GT(view.canvas()->laidOutCount(), bottomUpRoots.size());
    for (uint32_t n = 0; n < view.graph()->nodes().size(); ++n)
        if (!view.canvas()->nodeRect(n).isEmpty()) {
            EXPECT_TRUE(view.graph()->isExpanded(n));
        }
    // A search weighs the same stacks as top-down.
    view.setSearch(QStringLiteral("forward"));
    view.grab().save(QStringLiteral("/tmp/flame_graph_bottom_up.png"));
    const int64_t bottomUpMatched = view.canvas()->matchedTotal();
    EXPECT_GT(bottomUpMatched, 0);
    view.setBottomUp(false);
    view.computeNow();
    view.setSearch(QStringLiteral("forward"));
    EXPECT_EQ(view.canvas()->matchedTotal(), bottomUpMatched);
    view.setSearch({});

    // The alloc weight is the model's too.
    view.setBottomUp(false);
    view.setWeight(FlameWeight::Alloc);
    view.computeNow();
    FlameOptions alloc;
    alloc.weight = FlameWeight::Alloc;
    EXPECT_EQ(view.graph()->root().total, FlameGraph::build(*session, alloc).root().total);
}

// Issue #51: "Fold dispatch frames" (on by default, saved) builds the model's folded graph: the same
// weight, fewer nodes, no nn.Module dispatch frame, and the status says how many were folded.
TEST(FlameGraphView, FoldingDispatchFramesIsOneClick) {
    auto session = gpt();
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    FlameGraphView view(&time, session);
    view.resize(1200, 500);
    view.canvas()->resize(1200, 400);
    view.setFolding(true);
    view.computeNow();
    ASSERT_NE(view.graph(), nullptr);
    FlameOptions folded;
    folded.fold = FrameFolding::defaults();
    const FlameGraph model = FlameGraph::build(*session, folded);
    const FlameGraph all = FlameGraph::build(*session, FlameOptions{});
    EXPECT_EQ(view.graph()->nodes().size(), model.nodes().size());
    EXPECT_LT(model.nodes().size(), all.nodes().size());
    EXPECT_EQ(view.graph()->root().total, all.root().total);
    EXPECT_EQ(findNode(*view.graph(), "Module._call_impl"), FlameNode::kNone);
    EXPECT_NE(findNode(all, "Module._call_impl"), FlameNode::kNone);
    EXPECT_TRUE(view.statusText().contains(QStringLiteral("dispatch frame"))) << view.statusText().toStdString();
    view.grab().save(QStringLiteral("/tmp/flame_graph_folded.png"));
    // The choice is the saved setting: a new view starts with it.
    view.setFolding(false);
    view.computeNow();
    EXPECT_EQ(view.graph()->nodes().size(), all.nodes().size());
    EXPECT_FALSE(view.statusText().contains(QStringLiteral("dispatch frame")));
    FlameGraphView next(&time, session);
    EXPECT_FALSE(next.isFolding());
    view.setFolding(true);
    FlameGraphView third(&time, session);
    EXPECT_TRUE(third.isFolding());
}

TEST(FlameGraphView, SearchHighlightsClickZoomsDoubleClickAsksForSource) {
    auto session = gpt();
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    FlameGraphView view(&time, session);
    view.resize(1200, 500);
    FlameGraphCanvas* canvas = view.canvas();
    canvas->resize(1200, 400);
    view.computeNow();
    const FlameGraph& g = *view.graph();

    const uint32_t block = findNode(g, "Block.forward");
    ASSERT_NE(block, FlameNode::kNone);
    EXPECT_FALSE(canvas->isMatch(block));
    view.setSearch(QStringLiteral("block.FORWARD"));
    EXPECT_TRUE(canvas->isMatch(block));
    EXPECT_GT(canvas->matchCount(), 0);
    EXPECT_GT(canvas->matchedTotal(), 0);
    EXPECT_LE(canvas->matchedTotal(), g.root().total);
    EXPECT_FALSE(canvas->isMatch(findNode(g, "<module>")));
    EXPECT_TRUE(view.statusText().contains(QStringLiteral("%")));
    view.setSearch(QStringLiteral("no such function anywhere"));
    EXPECT_EQ(canvas->matchCount(), 0);
    EXPECT_FALSE(canvas->isMatch(block));
    view.setSearch({});

    // Hover text: the function, its file:line and the totals.
    const QString tip = canvas->toolTipFor(block);
    EXPECT_TRUE(tip.contains(QStringLiteral("Block.forward")));
    EXPECT_TRUE(tip.contains(QStringLiteral("zoo.py:")));

    // Clicking <module> zooms into it: it fills the width, on its row.
    const uint32_t module = findNode(g, "<module>");
    ASSERT_NE(module, FlameNode::kNone);
    const QRectF before = canvas->nodeRect(module);
    ASSERT_FALSE(before.isEmpty());
    EXPECT_LT(before.width(), canvas->width());
    QTest::mouseClick(canvas, Qt::LeftButton, {}, before.center().toPoint());
    EXPECT_EQ(canvas->zoomNode(), module);
    const QRectF after = canvas->nodeRect(module);
    EXPECT_EQ(after.top(), before.top());
    EXPECT_DOUBLE_EQ(after.width(), canvas->width());
    EXPECT_TRUE(view.breadcrumbText().contains(QStringLiteral("<module>")));
    EXPECT_EQ(canvas->nodeAt(after.center().toPoint()), module);

    view.setSearch(QStringLiteral("forward"));
    view.grab().save(QStringLiteral("/tmp/flame_graph_zoomed.png"));
    view.setSearch({});

    // Double-clicking a frame with a location asks for its source.
    QSignalSpy source(&view, &FlameGraphView::sourceRequested);
    QTest::mouseDClick(canvas, Qt::LeftButton, {}, after.center().toPoint());
    ASSERT_EQ(source.count(), 1);
    EXPECT_TRUE(source[0][0].toString().endsWith(QStringLiteral("zoo.py")));
    EXPECT_EQ(source[0][1].toInt(), g.frames()[g.nodes()[module].frame].line);
    EXPECT_FALSE(source[0][2].toBool());

    // Clicking the root row zooms out again.
    QTest::mouseClick(canvas, Qt::LeftButton, {}, canvas->nodeRect(0).center().toPoint());
    EXPECT_EQ(canvas->zoomNode(), 0u);
}

TEST(FlameGraphView, EmptyWeightShowsTheModelsReasonAndFollowsTheRange) {
    // A trace without python_function events has no CPU weight (a capture has: its host time
    // between CUDA calls on their stacks).
    {
        auto trace = importTraceFile(std::string(WARPSCOPE_TEST_DATA_DIR) + "/nccl_data_rank0.json.gz").session;
        ASSERT_NE(trace, nullptr);
        TimeViewport time;
        FlameGraphView view(&time, trace);
        view.setWeight(FlameWeight::Cpu);
        view.computeNow();
        FlameOptions cpu;
        cpu.weight = FlameWeight::Cpu;
        const FlameGraph model = FlameGraph::build(*trace, cpu);
        ASSERT_FALSE(model.emptyReason().empty());
        EXPECT_FALSE(view.isShowingGraph());
        EXPECT_TRUE(view.messageText().contains(QString::fromStdString(model.emptyReason())));
    }
    auto session = gpt();
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    FlameGraphView view(&time, session);

    // A selected range: the graph is the model's for that range.
    view.setWeight(FlameWeight::Gpu);
    const int64_t mid = (session->startNs() + session->endNs()) / 2;
    time.setSelectedRange(TimeRange{session->startNs(), mid});
    view.computeNow();
    FlameOptions ranged;
    ranged.from = session->startNs();
    ranged.to = mid;
    EXPECT_EQ(view.graph()->root().total, FlameGraph::build(*session, ranged).root().total);
    EXPECT_LT(view.graph()->root().total, FlameGraph::build(*session, FlameOptions{}).root().total);
}

TEST(FlameGraphView, ASessionWithoutStacksSaysHowToRecordThem) {
    // The same GPT step captured without --py-stacks: every kernel is "(no stack)".
    auto plain = importTraceFile(std::string(WARPSCOPE_TEST_DATA_DIR) + "/captures/zoo/gpt_pm.wscap.gz").session;
    ASSERT_NE(plain, nullptr);
    TimeViewport time;
    FlameGraphView view(&time, plain);
    view.computeNow();
    ASSERT_TRUE(view.isShowingGraph());
    EXPECT_GT(view.graph()->root().total, 0);
    EXPECT_EQ(view.graph()->withoutStackTotal(), view.graph()->root().total);
    EXPECT_TRUE(view.breadcrumbText().contains(QStringLiteral("--py-stacks"))) << view.breadcrumbText().toStdString();
    // With stacks, the usual hint; only some kernels without one do not make it a stack-less session.
    FlameGraphView withStacks(&time, gpt());
    time.setSelectedRange(std::nullopt);
    withStacks.computeNow();
    EXPECT_LT(withStacks.graph()->withoutStackTotal(), withStacks.graph()->root().total);
    EXPECT_FALSE(withStacks.breadcrumbText().contains(QStringLiteral("--py-stacks")));
}

TEST(FlameGraphView, SessionPageHasTheTabAndSendsSourceToTheStackTab) {
    auto loaded = std::make_shared<LoadedSession>();
    loaded->path = QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/captures/zoo/gpt.wscap.gz");
    loaded->session = gpt();
    ASSERT_NE(loaded->session, nullptr);
    SessionPage page(loaded);
    ASSERT_TRUE(page.tabKeys().contains(QStringLiteral("flame")));
    ASSERT_TRUE(page.showTab(QStringLiteral("flame"), true));
    auto* view = page.findChild<FlameGraphView*>();
    ASSERT_NE(view, nullptr);
    auto* tabs = page.findChild<QTabWidget*>();
    ASSERT_NE(tabs, nullptr);
    EXPECT_EQ(tabs->currentWidget(), view);
    EXPECT_EQ(tabs->tabText(tabs->currentIndex()), QStringLiteral("Flame Graph"));
    ASSERT_NE(view->graph(), nullptr);
    EXPECT_GT(view->graph()->root().total, 0);

    auto* stack = page.findChild<StackSourceView*>();
    ASSERT_NE(stack, nullptr);
    emit view->sourceRequested(QStringLiteral("/nowhere/zoo.py"), 49, false);
    EXPECT_EQ(tabs->currentWidget(), stack);
    EXPECT_EQ(stack->sourcePane()->recordedFile(), QStringLiteral("/nowhere/zoo.py"));
    EXPECT_EQ(stack->sourcePane()->line(), 49);
}
