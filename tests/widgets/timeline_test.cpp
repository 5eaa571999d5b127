#include "analysis/recorded_spans.h"
#include "import/trace_import.h"
#include "model/session.h"
#include "time_viewport.h"
#include "timeline_layout.h"
#include "timeline_view.h"

#include <QImage>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include <set>

using namespace ws;

namespace {

std::shared_ptr<const Session> sampleSession() {
    static std::shared_ptr<const Session> session = importTraceFile(WARPSCOPE_SAMPLE_TRACE).session;
    return session;
}

// A timeline laid out like a shown window (viewport geometry, scroll ranges) but never on screen.
struct ShownTimeline {
    TimeViewport time;
    TimelineView view{&time};
    ShownTimeline(int width, int height, std::shared_ptr<const Session> session) {
        view.resize(width, height);
        view.setAttribute(Qt::WA_DontShowOnScreen);
        view.show();
        view.setSession(std::move(session));
    }
};

} // namespace

TEST(TimeViewport, ZoomKeepsTheTimeUnderTheCursor) {
    TimeViewport v;
    v.setWidthPx(1000);
    v.setSessionRange(1'000'000, 2'000'000);
    const int64_t before = v.timeForX(250);
    v.zoomAt(250, 4);
    EXPECT_NEAR(static_cast<double>(v.timeForX(250)), static_cast<double>(before), 1.0);
    EXPECT_NEAR(v.t1() - v.t0(), 1'040'000 / 4, 2);
    v.zoomAt(250, 1e-9); // zooming out stops at the whole session plus margins
    EXPECT_LE(v.t0(), 1'000'000);
    EXPECT_GE(v.t1(), 2'000'000);
    v.zoomAt(0, 1e12); // zooming in stops at 1 ns per 100 px
    EXPECT_DOUBLE_EQ(v.nsPerPx(), 0.01);
}

TEST(TimeViewport, PanIsClampedAndConversionsRoundTrip) {
    TimeViewport v;
    v.setWidthPx(800);
    v.setSessionRange(0, 800'000);
    v.zoomAt(400, 10);
    v.panPx(1e9); // far past the end: a tenth of the window stays on the session
    EXPECT_LE(v.t0(), 800'000);
    EXPECT_GT(v.t1(), 800'000);
    for (double x : {0.0, 17.5, 400.0, 799.0})
        EXPECT_NEAR(v.xForTime(v.timeForX(x)), x, 0.01);
    QSignalSpy spy(&v, &TimeViewport::selectedSliceChanged);
    v.setSelectedSlice(SliceRef{1, 2});
    v.setSelectedSlice(SliceRef{1, 2});
    EXPECT_EQ(spy.count(), 1);
}

TEST(TimelineLayout, GpuGroupsFirstRowsContiguousAndRowAtAgreesWithAScan) {
    auto session = sampleSession();
    ASSERT_NE(session, nullptr);
    TimelineLayout layout;
    layout.build(*session, {});
    ASSERT_FALSE(layout.groups().empty());
    EXPECT_TRUE(layout.groups().front().gpu);
    int y = 0;
    for (const auto& row : layout.rows()) {
        EXPECT_EQ(row.y, y);
        y += row.height;
    }
    EXPECT_EQ(layout.totalHeight(), y);
    for (int probe = -5; probe < y + 5; probe += 3) {
        int expected = -1;
        for (size_t r = 0; r < layout.rows().size(); ++r)
            if (probe >= layout.rows()[r].y && probe < layout.rows()[r].y + layout.rows()[r].height)
                expected = static_cast<int>(r);
        EXPECT_EQ(layout.rowAt(probe), expected) << probe;
    }
    // Every slice row of every shown track is laid out once.
    size_t sliceRows = 0, expectedRows = 0;
    for (const auto& row : layout.rows())
        sliceRows += row.kind == TimelineLayout::RowKind::Slices;
    for (const auto& g : layout.groups())
        for (uint32_t t : g.tracks)
            expectedRows += session->tracks()[t].rowCount();
    EXPECT_EQ(sliceRows, expectedRows);
}

TEST(TimelineLayout, CollapsingAGroupLeavesOnlyItsHeader) {
    auto session = sampleSession();
    TimelineLayout layout;
    layout.build(*session, {});
    const size_t before = layout.rows().size();
    layout.setCollapsed(0, true);
    EXPECT_LT(layout.rows().size(), before);
    EXPECT_EQ(layout.rows()[0].kind, TimelineLayout::RowKind::GroupHeader);
    EXPECT_EQ(layout.rows()[1].group, 1);
    for (uint32_t t : layout.groups()[0].tracks)
        EXPECT_EQ(layout.firstRowOfTrack(t), -1);
    layout.setCollapsed(0, false);
    EXPECT_EQ(layout.rows().size(), before);
}

TEST(TimelineView, HitTestFindsTheSliceDrawnUnderThePoint) {
    auto session = sampleSession();
    ShownTimeline shown(1600, 4000, session); // tall enough to show every row without scrolling
    TimeViewport& time = shown.time;
    TimelineView& view = shown.view;
    int checked = 0;
    for (uint32_t ti = 0; ti < session->tracks().size(); ++ti) {
        const Track& t = session->tracks()[ti];
        for (uint32_t i = 0; i < t.sliceCount(); ++i) {
            const int row = view.layout().rowOfSlice(*session, ti, i);
            if (row < 0)
                continue;
            const double x0 = TimelineView::kGutterWidth + time.xForTime(t.start[i]);
            const double x1 = TimelineView::kGutterWidth + time.xForTime(t.end(i));
            if (x1 - x0 < 6)
                continue; // too narrow to aim at reliably
            const auto& r = view.layout().rows()[static_cast<size_t>(row)];
            const QPoint pos(static_cast<int>((x0 + x1) / 2), TimelineView::kTopHeight + r.y + r.height / 2);
            const auto hit = view.sliceAt(pos);
            ASSERT_TRUE(hit.has_value()) << ti << "/" << i;
            EXPECT_EQ(hit->track, ti);
            EXPECT_EQ(hit->slice, i);
            ++checked;
        }
    }
    EXPECT_GT(checked, 50);
    // The ruler, the label gutter and the space after the last row hit nothing.
    EXPECT_FALSE(view.sliceAt(QPoint(10, 300)).has_value());
    EXPECT_FALSE(view.sliceAt(QPoint(800, 5)).has_value());
    EXPECT_FALSE(view.sliceAt(QPoint(800, 3990)).has_value());
}

TEST(TimelineView, RendersARealPictureAtEveryZoom) {
    auto session = sampleSession();
    ShownTimeline shown(1200, 700, session);
    TimeViewport& time = shown.time;
    TimelineView& view = shown.view;
    QImage image(1200, 700, QImage::Format_ARGB32_Premultiplied);
    for (int zoom = 0; zoom < 6; ++zoom) {
        view.renderTo(image);
        // Count colours in the rows area only (below the ruler, right of the labels), so a view that
        // draws its ruler but no rows fails.
        std::set<QRgb> colours;
        for (int y = TimelineView::kTopHeight + 2; y < image.height(); y += 3)
            for (int x = TimelineView::kGutterWidth + 2; x < image.width(); x += 3)
                colours.insert(image.pixel(x, y));
        EXPECT_GT(colours.size(), 8u) << "zoom step " << zoom;
        time.zoomAt(700, 6);
    }
}

TEST(TimelineView, SelectingALaunchFindsItsFlowsAndRevealOpensCollapsedGroups) {
    auto session = sampleSession();
    ASSERT_FALSE(session->flows().empty());
    ShownTimeline shown(1200, 700, session);
    TimeViewport& time = shown.time;
    TimelineView& view = shown.view;
    const Flow& f = session->flows().front();
    const_cast<TimelineLayout&>(view.layout()).setAllCollapsed(true);
    EXPECT_EQ(view.layout().rowOfSlice(*session, f.toTrack, f.toSlice), -1);
    view.revealSlice({f.toTrack, f.toSlice});
    EXPECT_GE(view.layout().rowOfSlice(*session, f.toTrack, f.toSlice), 0);
    const Track& gpu = session->tracks()[f.toTrack];
    EXPECT_LE(time.t0(), gpu.start[f.toSlice]);
    EXPECT_GE(time.t1(), gpu.end(f.toSlice));
}

TEST(TimelineLayout, PinnedGroupsComeFirstAndMovesStayInTheirBand) {
    auto session = sampleSession();
    TimelineLayout layout;
    layout.build(*session, {});
    ASSERT_GE(layout.groups().size(), 3u);
    EXPECT_EQ(layout.pinnedHeight(), 0);
    const int last = static_cast<int>(layout.groups().size()) - 1;
    layout.setPinned(last, true);
    EXPECT_EQ(layout.rows().front().group, last);
    EXPECT_GT(layout.pinnedHeight(), 0);
    for (const auto& row : layout.rows())
        EXPECT_EQ(row.y < layout.pinnedHeight(), row.group == last);
    // Moving the first unpinned group up does not cross into the pinned band.
    layout.moveGroup(0, -1);
    EXPECT_EQ(layout.rows().front().group, last);
    layout.moveGroup(0, +1);
    const auto secondHeader = std::find_if(layout.rows().begin(), layout.rows().end(), [&](const auto& r) {
        return r.kind == TimelineLayout::RowKind::GroupHeader && r.y >= layout.pinnedHeight();
    });
    ASSERT_NE(secondHeader, layout.rows().end());
    EXPECT_NE(secondHeader->group, 0); // group 0 moved down one place
    layout.setPinned(last, false);
    EXPECT_EQ(layout.pinnedHeight(), 0);
}

TEST(TimelineView, PinnedRowsStayPutWhileTheRestScrolls) {
    auto session = sampleSession();
    ShownTimeline shown(1200, 300, session);
    TimeViewport& time = shown.time;
    TimelineView& view = shown.view;
    view.mutableLayout().setPinned(0, true);
    view.relayoutRows();
    const auto pinnedRow = view.layout().rows()[1];
    ASSERT_LT(pinnedRow.y, view.layout().pinnedHeight());
    view.verticalScrollBar()->setValue(view.verticalScrollBar()->maximum());
    ASSERT_GT(view.verticalScrollBar()->value(), 0);
    // A point on the pinned row still hits the pinned row's track after scrolling.
    const Track& t = session->tracks()[pinnedRow.track];
    const uint32_t slice = t.rowBegin[pinnedRow.trackRow];
    const double x = TimelineView::kGutterWidth + time.xForTime(t.start[slice] + t.dur[slice] / 2);
    const auto hit = view.sliceAt(QPoint(static_cast<int>(x), TimelineView::kTopHeight + pinnedRow.y + pinnedRow.height / 2));
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->track, pinnedRow.track);
}

// Marked ranges (the Overview's idle gaps of one cause) are drawn as bands over the rows, a short one
// at least 2 px wide, and changing them repaints.
TEST(TimelineView, DrawsMarkedRangesAsBands) {
    auto session = sampleSession();
    ShownTimeline shown(1200, 700, session);
    TimeViewport& time = shown.time;
    QImage before(1200, 700, QImage::Format_ARGB32_Premultiplied), after(before);
    shown.view.renderTo(before);
    const int64_t t0 = time.t0(), span = time.t1() - time.t0();
    QSignalSpy changed(&time, &TimeViewport::markedRangesChanged);
    time.setMarkedRanges({{t0 + span / 4, t0 + span / 4 + span / 10}, {t0 + span / 2, t0 + span / 2 + 1}});
    time.setMarkedRanges({{t0 + span / 4, t0 + span / 4 + span / 10}, {t0 + span / 2, t0 + span / 2 + 1}});
    EXPECT_EQ(changed.count(), 1);
    shown.view.renderTo(after);
    auto differs = [&](double at) {
        const int x = static_cast<int>(TimelineView::kGutterWidth + time.xForTime(static_cast<int64_t>(t0 + at * span)));
        int n = 0;
        for (int y = TimelineView::kTopHeight + 2; y < after.height(); y += 5)
            n += before.pixel(x, y) != after.pixel(x, y);
        return n;
    };
    EXPECT_GT(differs(0.30), 50); // inside the wide band, down the whole height
    EXPECT_GT(differs(0.5), 50);  // the 1 ns one
    EXPECT_EQ(differs(0.75), 0);  // nothing marked there
    after.save(QStringLiteral("/tmp/timeline_marked.png"));
}

// A capture recorded only between cudaProfilerStart and Stop (issue #25) opens on its recorded spans
// and draws the time between them hatched: unseen, not idle. A session recorded throughout has no hatch.
TEST(TimelineView, HatchesTheTimeACaptureDidNotRecord) {
    const std::shared_ptr<const Session> range =
        importTraceFile(WARPSCOPE_TEST_DATA_DIR "/captures/range/gpt_range.wscap.gz").session;
    ASSERT_TRUE(range);
    const std::vector<RecordedSpan> spans = recordedSpans(*range);
    ASSERT_EQ(spans.size(), 3u);
    const QRgb hatch = qRgb(120, 120, 120);
    auto hatchedPixels = [&](ShownTimeline& shown, int64_t t) {
        QImage image(1200, 700, QImage::Format_ARGB32_Premultiplied);
        shown.view.renderTo(image);
        const int x = static_cast<int>(TimelineView::kGutterWidth + shown.time.xForTime(t));
        int n = 0;
        for (int dx = 0; dx < 4; ++dx) // a diagonal hatch crosses any few columns
            for (int y = TimelineView::kTopHeight + 2; y < image.height(); ++y)
                n += (image.pixel(x + dx, y) & 0xffffff) == (hatch & 0xffffff);
        return n;
    };
    ShownTimeline shown(1200, 700, range);
    EXPECT_EQ(shown.time.t0() <= spans.front().start && shown.time.t1() >= spans.back().end, true); // opens on them
    EXPECT_LT(shown.time.t1() - shown.time.t0(), (range->endNs() - range->startNs()) / 4);
    EXPECT_GT(hatchedPixels(shown, (spans[0].end + spans[1].start) / 2), 20); // the pause
    EXPECT_EQ(hatchedPixels(shown, (spans[1].start + spans[1].end) / 2), 0);  // a recorded span
    ShownTimeline whole(1200, 700, sampleSession());
    EXPECT_EQ(hatchedPixels(whole, (whole.time.t0() + whole.time.t1()) / 2), 0);
}
