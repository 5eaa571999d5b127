#include "analysis/kernel_table.h"
#include "import/trace_import.h"
#include "kernel_table_model.h"
#include "kernel_table_view.h"
#include "model/session.h"

#include <QAbstractItemModelTester>
#include <QPersistentModelIndex>
#include <QSignalSpy>
#include <QTableView>

#include <gtest/gtest.h>

using namespace ws;

TEST(KernelTableModel, SortsAndFiltersInCoreAndPassesTheModelTester) {
    std::shared_ptr<const Session> session = importTraceFile(WARPSCOPE_SAMPLE_TRACE).session;
    ASSERT_NE(session, nullptr);
    auto table = std::make_shared<const KernelTable>(KernelTable::build(*session));
    KernelTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setTable(session, table);
    ASSERT_EQ(model.rowCount(), 60);
    EXPECT_EQ(model.columnCount(), static_cast<int>(kKernelColumnCount));
    EXPECT_FALSE(model.headerData(0, Qt::Horizontal).toString().isEmpty());

    // A persistent index follows its kernel through a sort.
    const QPersistentModelIndex first(model.index(0, 0));
    const qulonglong firstRow = model.data(first, Qt::UserRole).toULongLong();
    model.sort(static_cast<int>(KernelColumn::Duration), Qt::DescendingOrder);
    ASSERT_TRUE(first.isValid());
    EXPECT_EQ(model.data(first, Qt::UserRole).toULongLong(), firstRow);
    for (int r = 1; r < model.rowCount(); ++r)
        EXPECT_GE(model.kernelAt(model.index(r - 1, 0))->dur, model.kernelAt(model.index(r, 0))->dur);

    model.setNameFilter(QStringLiteral("GEMM"));
    ASSERT_GT(model.rowCount(), 0);
    ASSERT_LT(model.rowCount(), 60);
    for (int r = 0; r < model.rowCount(); ++r) {
        EXPECT_TRUE(model.data(model.index(r, 0)).toString().contains(QStringLiteral("gemm"), Qt::CaseInsensitive));
        if (r > 0) {
            EXPECT_GE(model.kernelAt(model.index(r - 1, 0))->dur, model.kernelAt(model.index(r, 0))->dur);
        }
    }
    model.setNameFilter({});
    EXPECT_EQ(model.rowCount(), 60);
    EXPECT_EQ(model.kernelAt(model.index(60, 0)), nullptr);
}

TEST(KernelTableView, DoubleClickSelectsTheKernelOnTheTimeline) {
    std::shared_ptr<const Session> session = importTraceFile(WARPSCOPE_SAMPLE_TRACE).session;
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    KernelTableView view(&time, session);
    QSignalSpy reveal(&view, &KernelTableView::revealRequested);
    view.ensureBuilt();
    auto* table = view.findChild<QTableView*>(QStringLiteral("kernelTable"));
    ASSERT_NE(table, nullptr);
    ASSERT_EQ(view.model()->rowCount(), 60);
    const QModelIndex index = view.model()->index(3, 0);
    emit table->doubleClicked(index);
    const KernelRow* row = view.model()->kernelAt(index);
    ASSERT_TRUE(time.selectedSlice().has_value());
    EXPECT_EQ(time.selectedSlice()->track, row->track);
    EXPECT_EQ(time.selectedSlice()->slice, row->slice);
    EXPECT_EQ(session->kindOf(session->tracks()[row->track], row->slice), EventKind::Kernel);
    EXPECT_EQ(reveal.count(), 1);
}
