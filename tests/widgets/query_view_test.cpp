// The Query tab (issue #50): SQL off the GUI thread with a cancel, result rows that select their
// slice on the timeline, and a result with times and durations added to the timeline as a track.

#include "import/trace_import.h"
#include "loaded_sample.h"
#include "model/session.h"
#include "query/query_engine.h"
#include "query_result_model.h"
#include "query_view.h"
#include "session_loader.h"
#include "session_page.h"
#include "time_viewport.h"
#include "timeline_view.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTableView>

#include <gtest/gtest.h>

using namespace ws;

namespace {

using test::loadedSample;

QueryView* queryTab(SessionPage& page) {
    EXPECT_TRUE(page.showTab(QStringLiteral("query")));
    return page.findChild<QueryView*>();
}

bool waitFor(QueryView& view) {
    QElapsedTimer timer;
    timer.start();
    while (view.running() && timer.elapsed() < 60000)
        QCoreApplication::processEvents();
    return !view.running();
}

} // namespace

TEST(QueryView, RunsOffTheGuiThreadAndShowsTheRows) {
    auto loaded = loadedSample();
    SessionPage page(loaded);
    QueryView* view = queryTab(page);
    ASSERT_TRUE(view);
    QAbstractItemModelTester tester(const_cast<QueryResultModel*>(view->model()));
    view->setSql(QStringLiteral("SELECT kernel, COUNT(*) AS calls FROM kernels GROUP BY kernel ORDER BY calls DESC"));
    QSignalSpy finished(view, &QueryView::finished);
    view->run();
    EXPECT_TRUE(view->running()); // returned at once: the statement runs on its own thread
    ASSERT_TRUE(waitFor(*view));
    ASSERT_EQ(finished.count(), 1);
    // The same rows as the engine gives directly.
    QueryEngine engine(loaded->session);
    const QueryResult direct = engine.run("SELECT kernel, COUNT(*) AS calls FROM kernels GROUP BY kernel ORDER BY calls DESC");
    ASSERT_TRUE(direct.ok());
    ASSERT_EQ(view->model()->rowCount(), static_cast<int>(direct.rows.size()));
    EXPECT_EQ(view->model()->result().rows, direct.rows);
}

TEST(QueryView, CancelStopsALongStatementAndTheNextOneRuns) {
    auto loaded = loadedSample();
    SessionPage page(loaded);
    QueryView* view = queryTab(page);
    view->setSql(QStringLiteral("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000000000) SELECT COUNT(*) FROM c"));
    view->run();
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 200)
        QCoreApplication::processEvents();
    EXPECT_TRUE(view->running());
    view->cancel();
    ASSERT_TRUE(waitFor(*view));
    view->setSql(QStringLiteral("SELECT COUNT(*) FROM slices"));
    view->run();
    ASSERT_TRUE(waitFor(*view));
    ASSERT_EQ(view->model()->rowCount(), 1);
    EXPECT_EQ(view->model()->result().rows[0][0].integer, static_cast<int64_t>(loaded->session->sliceCount()));
}

TEST(QueryView, ARowSelectsItsSliceAndTheTabStays) {
    auto loaded = loadedSample();
    SessionPage page(loaded);
    QueryView* view = queryTab(page);
    view->setSql(QStringLiteral("SELECT id, kernel, start_ns, duration_ns FROM kernels ORDER BY duration_ns DESC LIMIT 5"));
    view->runNow();
    ASSERT_EQ(view->model()->rowCount(), 5);
    auto* table = view->findChild<QTableView*>();
    ASSERT_TRUE(table);
    table->selectRow(0);
    const std::optional<SliceRef> selected = page.timeViewport()->selectedSlice();
    ASSERT_TRUE(selected);
    const Track& t = loaded->session->tracks()[selected->track];
    EXPECT_EQ(loaded->session->str(t.names[selected->slice]), view->model()->result().rows[0][1].text);
    EXPECT_EQ(t.start[selected->slice], view->model()->result().rows[0][2].integer);
    EXPECT_EQ(page.findChild<QTabWidget*>()->currentWidget(), view); // the results stay in front
}

TEST(QueryView, AResultWithTimesBecomesATimelineTrack) {
    auto loaded = loadedSample();
    SessionPage page(loaded);
    QueryView* view = queryTab(page);
    // Not a track: no duration.
    view->setSql(QStringLiteral("SELECT kernel, start_ns FROM kernels"));
    view->runNow();
    QString why;
    EXPECT_FALSE(view->resultTrack(&why));
    EXPECT_FALSE(why.isEmpty());
    // The kernels of over 20 us, overlapping ones in lanes of their own.
    view->setSql(QStringLiteral("SELECT id, kernel, start_ns, duration_ns FROM kernels WHERE duration_ns > 20000"));
    view->runNow();
    const std::optional<QueryTrack> track = view->resultTrack();
    ASSERT_TRUE(track);
    ASSERT_EQ(track->intervals.size(), static_cast<size_t>(view->model()->rowCount()));
    ASSERT_GT(track->intervals.size(), 0u);
    for (const QueryTrack::Lane& lane : track->lanes)
        for (size_t i = 1; i < lane.start.size(); ++i)
            EXPECT_LE(lane.start[i - 1] + lane.dur[i - 1], lane.start[i]); // no overlap within a lane
    TimelineView* timeline = page.findChild<TimelineView*>();
    ASSERT_TRUE(timeline);
    QSignalSpy added(view, &QueryView::addTrackRequested);
    emit view->addTrackRequested(*track);
    ASSERT_EQ(timeline->queryTrackCount(), 1u);
    // Its rows come first, and each interval stands for its kernel.
    const TimelineLayout::Row& first = timeline->layout().rows().front();
    EXPECT_EQ(first.kind, TimelineLayout::RowKind::Query);
    const QueryTrack::Interval& interval = timeline->queryTrack(0).intervals.front();
    ASSERT_TRUE(interval.slice);
    const Track& t = loaded->session->tracks()[interval.slice->track];
    EXPECT_EQ(t.start[interval.slice->slice], interval.start);
    EXPECT_EQ(t.dur[interval.slice->slice], interval.dur);
    // Drawn: the query row's pixels are the track's colour where the kernel is.
    page.resize(1400, 900);
    page.setAttribute(Qt::WA_DontShowOnScreen);
    page.show();
    QCoreApplication::processEvents();
    page.timeViewport()->showRange(interval.start - interval.dur, interval.start + 2 * interval.dur);
    QImage image(timeline->size(), QImage::Format_RGB32);
    timeline->renderTo(image);
    if (const char* dir = std::getenv("WARPSCOPE_SCREENSHOT_DIR"))
        image.save(QString::fromLocal8Bit(dir) + QStringLiteral("/query_track.png"));
    const int y = TimelineView::kTopHeight + first.y + first.height / 2;
    const int x = TimelineView::kGutterWidth + static_cast<int>(page.timeViewport()->xForTime(interval.start + interval.dur / 2));
    // The first query track's hue (timeline_view.cpp: paintQueryRow), plain or folded darker.
    EXPECT_NEAR(image.pixelColor(x, y).hsvHue(), 280, 3);
}
