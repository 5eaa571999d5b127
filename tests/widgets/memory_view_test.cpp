#include "analysis/memory_allocations.h"
#include "analysis/memory_curve.h"
#include "analysis/memory_op_stats.h"
#include "import/trace_import.h"
#include "memory_allocation_model.h"
#include "memory_chart.h"
#include "memory_op_stats_model.h"
#include "memory_view.h"
#include "model/session.h"

#include <QAbstractItemModelTester>
#include <QMouseEvent>
#include <QPersistentModelIndex>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

using namespace ws;

namespace {

std::shared_ptr<const Session> bert() {
    static std::shared_ptr<const Session> s = importTraceFile(WARPSCOPE_SAMPLE_TRACE).session;
    return s;
}

constexpr MemoryDevice kGpu0{1, 0};

void saveScreenshot(QWidget& view, const QString& name) {
    view.resize(1400, 900);
    view.grab().save(QStringLiteral("/tmp/%1.png").arg(name));
}

} // namespace

TEST(MemoryAllocationModel, FiltersSortsAndPassesTheModelTester) {
    auto session = bert();
    ASSERT_NE(session, nullptr);
    auto allocations = std::make_shared<const MemoryAllocations>(MemoryAllocations::build(*session));
    MemoryAllocationModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setAllocations(session, allocations);
    EXPECT_EQ(model.rowCount(), 118); // both devices
    model.setFilter(kGpu0, std::nullopt);
    ASSERT_EQ(model.rowCount(), 109);
    EXPECT_EQ(model.columnCount(), MemoryAllocationModel::ColumnCount);
    EXPECT_FALSE(model.headerData(MemoryAllocationModel::Lifetime, Qt::Horizontal).toString().isEmpty());

    // A persistent index follows its allocation through a sort by size.
    const QPersistentModelIndex first(model.index(0, 0));
    const qulonglong firstRow = model.data(first, Qt::UserRole).toULongLong();
    model.sort(MemoryAllocationModel::Size, Qt::DescendingOrder);
    ASSERT_TRUE(first.isValid());
    EXPECT_EQ(model.data(first, Qt::UserRole).toULongLong(), firstRow);
    for (int r = 1; r < model.rowCount(); ++r)
        EXPECT_GE(model.allocationAt(model.index(r - 1, 0))->bytes, model.allocationAt(model.index(r, 0))->bytes);
    model.sort(MemoryAllocationModel::Lifetime, Qt::AscendingOrder);
    for (int r = 1; r < model.rowCount(); ++r)
        EXPECT_LE(model.allocationAt(model.index(r - 1, 0))->lifetime(), model.allocationAt(model.index(r, 0))->lifetime());
    model.sort(MemoryAllocationModel::Operator, Qt::AscendingOrder);

    // A time range keeps the rows allocated or freed inside it.
    const MemoryAllocation& a = allocations->rows()[allocations->select(kGpu0, INT64_MIN, INT64_MAX)[10]];
    model.setFilter(kGpu0, std::make_pair(a.allocatedAt, a.allocatedAt + 1));
    ASSERT_GE(model.rowCount(), 1);
    for (int r = 0; r < model.rowCount(); ++r) {
        const MemoryAllocation* row = model.allocationAt(model.index(r, 0));
        EXPECT_TRUE(row->allocatedAt == a.allocatedAt || row->freedAt == a.allocatedAt);
    }
    EXPECT_EQ(model.allocationAt(model.index(model.rowCount(), 0)), nullptr);
}

TEST(MemoryAllocationModel, LeaksAreFlagged) {
    // The capture's driver allocations are never freed: every row is a leak.
    std::shared_ptr<const Session> session =
        importTraceFile(std::string(WARPSCOPE_TEST_DATA_DIR) + "/captures/resnet18.wscap.gz").session;
    ASSERT_NE(session, nullptr);
    auto allocations = std::make_shared<const MemoryAllocations>(MemoryAllocations::build(*session));
    MemoryAllocationModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setAllocations(session, allocations);
    ASSERT_EQ(model.rowCount(), 1052);
    const QModelIndex status = model.index(0, MemoryAllocationModel::Status);
    EXPECT_FALSE(model.data(status).toString().isEmpty());
    EXPECT_TRUE(model.data(status, Qt::BackgroundRole).isValid());
    EXPECT_TRUE(model.data(model.index(0, MemoryAllocationModel::FreedAt)).toString().isEmpty()); // not "0"
    EXPECT_TRUE(model.data(model.index(0, MemoryAllocationModel::Lifetime)).toString().isEmpty());
    // Sorting by free time keeps unknown values last and must not crash on them.
    model.sort(MemoryAllocationModel::FreedAt, Qt::DescendingOrder);
    EXPECT_EQ(model.rowCount(), 1052);
}

TEST(MemoryOpStatsModel, MatchesCoreAndPassesTheModelTester) {
    auto session = bert();
    auto stats = std::make_shared<const MemoryOpStats>(MemoryOpStats::build(*session));
    MemoryOpStatsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setStats(session, stats, kGpu0);
    ASSERT_EQ(model.rowCount(), static_cast<int>(stats->select(kGpu0).size()));
    EXPECT_EQ(model.columnCount(), MemoryOpStatsModel::ColumnCount);
    model.sort(MemoryOpStatsModel::SelfAllocationSize, Qt::DescendingOrder);
    for (int r = 1; r < model.rowCount(); ++r)
        EXPECT_GE(model.statAt(model.index(r - 1, 0))->selfAllocationSize, model.statAt(model.index(r, 0))->selfAllocationSize);
    // aten::empty has the largest self allocation size in this trace (reference_memory.py).
    EXPECT_EQ(model.data(model.index(0, MemoryOpStatsModel::Operator)).toString(), QStringLiteral("aten::empty"));
    model.sort(MemoryOpStatsModel::Operator, Qt::AscendingOrder);
    model.setStats(session, stats, std::nullopt);
    EXPECT_EQ(model.rowCount(), static_cast<int>(stats->size()));
}

TEST(MemoryView, FollowsTheSharedSelectionAndSelectsAllocations) {
    auto session = bert();
    TimeViewport time;
    time.setSessionRange(session->startNs(), session->endNs());
    MemoryView view(&time, session);
    view.computeNow();
    ASSERT_TRUE(view.isReady());
    ASSERT_EQ(view.deviceCount(), 2);
    // Starts on the GPU.
    EXPECT_TRUE(view.summaryText().contains(QStringLiteral("96.6 MiB")) ||
                view.summaryText().contains(QStringLiteral("96.61 MiB")))
        << view.summaryText().toStdString();
    EXPECT_EQ(view.allocationModel()->rowCount(), 109);
    saveScreenshot(view, QStringLiteral("memory_view_bert"));
    if (auto* tabs = view.findChild<QTabWidget*>()) {
        tabs->setCurrentIndex(1); // operator statistics
        saveScreenshot(view, QStringLiteral("memory_view_bert_operators"));
        tabs->setCurrentIndex(0);
    }
    // Never more points than a few per pixel of the plot.
    EXPECT_LE(view.chart()->allocatedPointCount(), 4 * 1400 + 8);

    // A selection on the timeline zooms the chart and filters the tables.
    const MemoryCurve curve = MemoryCurves::build(*session).devices()[1];
    const int64_t from = curve.ts[20], to = curve.ts[60];
    time.setSelectedRange(TimeRange{from, to});
    EXPECT_EQ(view.chart()->window(), std::make_pair(from, to));
    EXPECT_LT(view.allocationModel()->rowCount(), 109);
    EXPECT_GT(view.allocationModel()->rowCount(), 0);
    EXPECT_TRUE(view.summaryText().contains(QStringLiteral("selection")));
    saveScreenshot(view, QStringLiteral("memory_view_bert_selection"));

    // Double-clicking an allocation selects its lifetime on the timeline.
    QTableView* table = view.allocationTable();
    const QModelIndex index = view.allocationModel()->index(0, 0);
    const MemoryAllocation row = *view.allocationModel()->allocationAt(index);
    emit table->doubleClicked(index);
    ASSERT_TRUE(time.selectedRange().has_value());
    EXPECT_EQ(time.selectedRange()->start, row.allocatedAt);
    EXPECT_EQ(time.selectedRange()->end, row.freedAt);

    // Clearing the selection shows everything again.
    time.setSelectedRange(std::nullopt);
    EXPECT_EQ(view.allocationModel()->rowCount(), 109);
    view.setDeviceIndex(0);
    EXPECT_EQ(view.allocationModel()->rowCount(), 9);
    EXPECT_TRUE(view.summaryText().contains(QStringLiteral("Capacity: not in this trace")));
}

TEST(MemoryView, DragOnTheChartSetsTheSelection) {
    auto session = bert();
    TimeViewport time;
    time.setSessionRange(session->startNs(), session->endNs());
    MemoryView view(&time, session);
    view.computeNow();
    view.resize(1200, 800);
    view.show();
    QCoreApplication::processEvents();
    MemoryChart* chart = view.chart();
    const QRect r = chart->viewport()->rect();
    const QPoint a(r.width() / 3, r.height() / 2), b(2 * r.width() / 3, r.height() / 2);
    QTest::mousePress(chart->viewport(), Qt::LeftButton, {}, a);
    QTest::mouseMove(chart->viewport(), b);
    QTest::mouseRelease(chart->viewport(), Qt::LeftButton, {}, b);
    ASSERT_TRUE(time.selectedRange().has_value());
    EXPECT_LT(time.selectedRange()->start, time.selectedRange()->end);
    EXPECT_GT(time.selectedRange()->start, session->startNs());
    EXPECT_LT(time.selectedRange()->end, session->endNs());
    // A click without a drag clears it.
    QTest::mouseClick(chart->viewport(), Qt::LeftButton, {}, a);
    EXPECT_FALSE(time.selectedRange().has_value());
}

TEST(MemoryView, CaptureWithoutReservedAndTraceWithoutMemory) {
    std::shared_ptr<const Session> capture =
        importTraceFile(std::string(WARPSCOPE_TEST_DATA_DIR) + "/captures/resnet18.wscap.gz").session;
    ASSERT_NE(capture, nullptr);
    TimeViewport time;
    time.setSessionRange(capture->startNs(), capture->endNs());
    MemoryView view(&time, capture);
    QSignalSpy ready(&view, &MemoryView::ready);
    view.show(); // computes on a worker thread
    ASSERT_TRUE(ready.wait(20000));
    EXPECT_TRUE(view.isReady());
    EXPECT_TRUE(view.summaryText().contains(QStringLiteral("Reserved: not in this trace")));
    EXPECT_EQ(view.allocationModel()->rowCount(), 1052);
    saveScreenshot(view, QStringLiteral("memory_view_capture"));

    std::shared_ptr<const Session> none =
        importTraceFile(std::string(WARPSCOPE_TEST_DATA_DIR) + "/mi250_minitoy_train_ROCm6_2_kineto.json.gz").session;
    ASSERT_NE(none, nullptr);
    MemoryView empty(&time, none);
    empty.computeNow();
    EXPECT_TRUE(empty.statusText().contains(QStringLiteral("No memory events in this trace")));
    EXPECT_EQ(empty.deviceCount(), 0);
}
