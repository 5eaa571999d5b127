#include "import/trace_import.h"
#include "loaded_sample.h"
#include "model/session.h"
#include "range_summary_model.h"
#include "range_summary_view.h"
#include "search_bar.h"
#include "session_loader.h"
#include "session_page.h"
#include "slice_details_view.h"
#include "time_viewport.h"
#include "timeline_view.h"
#include "detached_work.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QElapsedTimer>

#include "flame_graph_view.h"
#include <QSettings>
#include <QSplitter>
#include <QToolButton>
#include <gtest/gtest.h>

#include <cstdio>

using namespace ws;

namespace {

using test::loadedSample;

} // namespace

TEST(SearchBar, FindsKernelsAndStepsThroughThemInTimeOrder) {
    auto loaded = loadedSample();
    SessionPage page(loaded);
    SearchBar* bar = page.searchBar();
    bar->setPattern(QStringLiteral("gemm"), false);
    ASSERT_GT(bar->matchCount(), 1u);
    bar->next();
    const auto first = page.timeViewport()->selectedSlice();
    ASSERT_TRUE(first.has_value());
    const Session& s = *loaded->session;
    EXPECT_NE(QString::fromUtf8(s.str(s.tracks()[first->track].names[first->slice]).data()).toLower().indexOf(QStringLiteral("gemm")),
              -1);
    bar->next();
    const auto second = page.timeViewport()->selectedSlice();
    ASSERT_TRUE(second.has_value());
    EXPECT_LE(s.tracks()[first->track].start[first->slice], s.tracks()[second->track].start[second->slice]);
    EXPECT_TRUE(bar->statusText().contains(QStringLiteral(" of ")));
    bar->previous();
    EXPECT_EQ(page.timeViewport()->selectedSlice(), first);
    bar->setPattern(QStringLiteral("(["), true);
    EXPECT_EQ(bar->matchCount(), 0u);
    EXPECT_FALSE(bar->statusText().isEmpty());
}

TEST(RangeSummaryView, FollowsTheSelectedRangeAndPassesTheModelTester) {
    auto loaded = loadedSample();
    SessionPage page(loaded);
    RangeSummaryModel* model = page.rangeSummary()->model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(model->rowCount(), 0);
    const Session& s = *loaded->session;
    page.timeViewport()->setSelectedRange(TimeRange{s.startNs(), s.endNs()});
    ASSERT_GT(model->rowCount(), 10);
    // Rows come sorted by total time, and totals match the durations of the slices of that name.
    const QString top = model->data(model->index(0, RangeSummaryModel::Name)).toString();
    int64_t expected = 0;
    for (const Track& t : s.tracks())
        for (size_t i = 0; i < t.sliceCount(); ++i)
            if (QString::fromUtf8(s.str(t.names[i]).data(), static_cast<qsizetype>(s.str(t.names[i]).size())) == top)
                expected += t.dur[i];
    EXPECT_EQ(model->data(model->index(0, RangeSummaryModel::Total), Qt::UserRole).toLongLong(), expected);
    page.timeViewport()->setSelectedRange(std::nullopt);
    EXPECT_EQ(model->rowCount(), 0);
}

TEST(SliceDetailsView, ShowsArgumentsAndFlowLinksOfTheSelection) {
    auto loaded = loadedSample();
    SessionPage page(loaded);
    const Session& s = *loaded->session;
    ASSERT_FALSE(s.flows().empty());
    const Flow& f = s.flows().front();
    page.timeViewport()->setSelectedSlice(SliceRef{f.toTrack, f.toSlice});
    const QString text = page.details()->toPlainText();
    EXPECT_TRUE(text.contains(QStringLiteral("Linked events")));
    EXPECT_TRUE(text.contains(QStringLiteral("correlation"))) << text.toStdString(); // a GPU kernel's args
}

// An inference run (issue #49): once its forwards are found, the timeline shows its phases and time
// per output token as rows under the GPU, and a collapsed group stays collapsed.
TEST(SessionPage, AnInferenceRunGetsItsPhaseRowsUnderTheGpu) {
    auto loaded = std::make_shared<LoadedSession>();
    loaded->path = QString::fromStdString(std::string(WARPSCOPE_TEST_DATA_DIR) + "/inference/hf_eager_shapes.pt.trace.json.gz");
    loaded->session = importTraceFile(loaded->path.toStdString()).session;
    ASSERT_NE(loaded->session, nullptr);
    loaded->summary = summarizeSession(*loaded->session);
    SessionPage page(loaded);
    TimelineView* timeline = page.timeline();
    const size_t before = timeline->counterRowSources();
    // Collapse the host process's group meanwhile: the rows' arrival keeps it so.
    int host = -1;
    for (int g = 0; g < static_cast<int>(timeline->layout().groups().size()); ++g)
        if (!timeline->layout().groups()[static_cast<size_t>(g)].gpu)
            host = g;
    ASSERT_GE(host, 0);
    const uint32_t hostProcess = timeline->layout().groups()[static_cast<size_t>(host)].process;
    timeline->mutableLayout().setCollapsed(host, true);
    timeline->relayoutRows();
    QElapsedTimer timer;
    timer.start();
    while (detachedWorkRunning() > 0 && timer.elapsed() < 60000)
        QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    ASSERT_EQ(timeline->counterRowSources(), before + 2);
    EXPECT_EQ(timeline->counterLabel(static_cast<uint32_t>(before)), QStringLiteral("Inference Phase"));
    EXPECT_EQ(timeline->counterLabel(static_cast<uint32_t>(before + 1)), QStringLiteral("Time per Output Token (ms)"));
    bool collapsed = false;
    for (const TimelineLayout::Group& g : timeline->layout().groups())
        if (g.process == hostProcess)
            collapsed = g.collapsed;
    EXPECT_TRUE(collapsed);
}

// Issue #51: the bottom tabs can fill the page (a deep flame graph: at least 30 rows at 1440x900),
// and the split the user chose is remembered for the next page.
TEST(SessionPage, BottomTabsMaximizeAndTheSplitIsRemembered) {
    QSettings().remove(QLatin1String(SessionPage::kSplitKey));
    auto loaded = std::make_shared<LoadedSession>();
    loaded->path = QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/inference/hf_eager_stacks.wscap.gz");
    loaded->session = importTraceFile(loaded->path.toStdString()).session;
    ASSERT_NE(loaded->session, nullptr);
    {
        SessionPage page(loaded);
        page.resize(1440, 790); // a 1440x900 window less its menu, session tabs and status bar
        page.show();
        ASSERT_TRUE(page.showTab(QStringLiteral("flame"), true));
        QCoreApplication::processEvents();
        auto* flame = page.findChild<FlameGraphView*>();
        ASSERT_NE(flame, nullptr);
        auto* canvasViewport = flame->canvas()->parentWidget();
        ASSERT_NE(canvasViewport, nullptr);
        const int rowsBefore = canvasViewport->height() / FlameGraphCanvas::kRowHeight;
        page.setBottomMaximized(true);
        QCoreApplication::processEvents();
        EXPECT_TRUE(page.isBottomMaximized());
        EXPECT_FALSE(page.timeline()->isVisible());
        const int rows = canvasViewport->height() / FlameGraphCanvas::kRowHeight;
        std::printf("flame graph rows: %d maximized, %d before\n", rows, rowsBefore);
        EXPECT_GE(rows, 30) << "rows before: " << rowsBefore;
        EXPECT_GT(rows, rowsBefore);
        page.grab().save(QStringLiteral("/tmp/flame_maximized.png"));
        auto* button = page.findChild<QToolButton*>(QStringLiteral("maximizeBottomTabs"));
        ASSERT_NE(button, nullptr);
        EXPECT_TRUE(button->isChecked());
        button->click();
        EXPECT_FALSE(page.isBottomMaximized());
        EXPECT_TRUE(page.timeline()->isVisible());
        // The user drags the split: saved, and the next page opens with it.
        page.splitter()->setSizes({300, 490});
        emit page.splitter()->splitterMoved(300, 1);
    }
    EXPECT_FALSE(QSettings().value(QLatin1String(SessionPage::kSplitKey)).toByteArray().isEmpty());
    SessionPage next(loaded);
    next.resize(1440, 790);
    next.show();
    QCoreApplication::processEvents();
    const QList<int> sizes = next.splitter()->sizes();
    ASSERT_EQ(sizes.size(), 2);
    EXPECT_NEAR(sizes[0], 300, 30);
    // An analysis tab shown first keeps the chosen split (no growing to half the page).
    ASSERT_TRUE(next.showTab(QStringLiteral("kernels")));
    QCoreApplication::processEvents();
    EXPECT_NEAR(next.splitter()->sizes()[0], 300, 30);
    QSettings().remove(QLatin1String(SessionPage::kSplitKey));
}
