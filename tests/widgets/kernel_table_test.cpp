#include "analysis/kernel_display_name.h"
#include "stored_sample.h"
#include "analysis/kernel_csv.h"
#include "analysis/kernel_groups.h"
#include "analysis/kernel_table.h"
#include "import/trace_import.h"
#include "kernel_group_model.h"
#include "kernel_pie_chart.h"
#include "kernel_table_model.h"
#include "kernel_table_view.h"
#include "model/session.h"
#include "store/session_store.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QPersistentModelIndex>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>

#include <QSet>
#include <gtest/gtest.h>

#include <sstream>

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
    // Long titles are cut to their column: the tooltip tells them whole.
    for (int c = 0; c < model.columnCount(); ++c)
        EXPECT_EQ(model.headerData(c, Qt::Horizontal, Qt::ToolTipRole), model.headerData(c, Qt::Horizontal)) << c;

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

// The context menu's Nsight Compute command for a call of a capture: that call's launch of its
// function name, the capture's own program (issue #49).
TEST(KernelTableView, TheNcuCommandOfACallSkipsToItsLaunch) {
    std::shared_ptr<const Session> session =
        importTraceFile(std::string(WARPSCOPE_TEST_DATA_DIR) + "/inference/hf_pm_shapes.wscap.gz").session;
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    KernelTableView view(&time, session);
    view.ensureBuilt();
    ASSERT_NE(view.model()->table(), nullptr);
    const KernelTable& t = *view.model()->table();
    // The third launch of the LM head's kernel family (rows are in start order).
    uint32_t seen = 0, row = 0;
    for (uint32_t r = 0; r < t.size(); ++r)
        if (session->str(t.row(r).name) == "nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT" && seen++ == 2) {
            row = r;
            break;
        }
    const QString command = view.ncuCommandText(row);
    EXPECT_TRUE(command.startsWith(QStringLiteral("ncu --kernel-name-base function --kernel-name "
                                                  "'regex:^nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT$' --launch-skip 2 "
                                                  "--launch-count 1 ")))
        << command.toStdString();
    EXPECT_TRUE(command.contains(QStringLiteral(" python3 capture/samples/hf_generate.py eager plain\n")));
}

// Nsight Compute's exports attached to the Kernels tab: ncu columns on three calls of the kernel it
// profiled (the first launches whose grids and blocks agree: a decode loop repeats them, and the CSV
// does not say ncu's launch skip), which sort first by ncu duration.
TEST(KernelTableView, NsightComputeResultsBecomeColumnsOfTheCallsItProfiled) {
    std::shared_ptr<const Session> session =
        importTraceFile(std::string(WARPSCOPE_TEST_DATA_DIR) + "/inference/hf_pm_shapes.wscap.gz").session;
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    KernelTableView view(&time, session);
    const std::string ncu = std::string(WARPSCOPE_TEST_DATA_DIR) + "/ncu/hf_nvjet_";
    QString error;
    EXPECT_FALSE(view.attachNcu({QStringLiteral("/nonexistent.csv")}, &error));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_EQ(view.model()->columnCount(), static_cast<int>(kKernelColumnCount));
    ASSERT_TRUE(view.attachNcu({QString::fromStdString(ncu + "raw.csv.gz"), QString::fromStdString(ncu + "details.csv.gz")},
                               &error))
        << error.toStdString();
    KernelTableModel* model = view.model();
    ASSERT_EQ(model->columnCount(), static_cast<int>(kKernelColumnCount) + KernelTableModel::kNcuColumnCount);
    EXPECT_EQ(model->measuredCalls(), 3u);
    const int duration = static_cast<int>(kKernelColumnCount);
    EXPECT_EQ(model->headerData(duration, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("ncu duration"));
    model->sort(duration, Qt::DescendingOrder);
    for (int r = 0; r < 3; ++r) {
        EXPECT_EQ(QString::fromStdString(std::string(session->str(model->kernelAt(model->index(r, 0))->name))),
                  QStringLiteral("nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT"));
        EXPECT_FALSE(model->data(model->index(r, duration), Qt::DisplayRole).toString().isEmpty());
        EXPECT_EQ(model->data(model->index(r, duration + 3), Qt::DisplayRole).toString(), QStringLiteral("latency"));
    }
    EXPECT_TRUE(model->data(model->index(3, duration), Qt::DisplayRole).toString().isEmpty());
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);
}

TEST(KernelTableView, GroupViewsPieRangeAndCsvExport) {
    std::shared_ptr<const Session> session = importTraceFile(WARPSCOPE_SAMPLE_TRACE).session;
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    KernelTableView view(&time, session);
    QAbstractItemModelTester tester(view.groupModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    view.ensureBuilt();
    view.setMode(KernelTableView::Mode::ByName);
    KernelGroupModel* groups = view.groupModel();
    ASSERT_GT(groups->rowCount(), 0);
    EXPECT_EQ(groups->columnCount(), 10);
    // Group calls add up to every call; the pie adds up to all kernel time.
    uint64_t calls = 0;
    int64_t total = 0;
    for (const KernelGroup& g : groups->groups()) {
        calls += g.calls;
        total += g.totalNs;
    }
    EXPECT_EQ(calls, 60u);
    EXPECT_EQ(total, view.model()->table()->totalNs());
    const std::vector<double> pie = view.pieChart()->sliceValues();
    ASSERT_FALSE(pie.empty());
    EXPECT_LE(pie.size(), KernelPieChart::kTopN + 1);
    double pieTotal = 0;
    for (double v : pie)
        pieTotal += v;
    EXPECT_DOUBLE_EQ(pieTotal, static_cast<double>(total));
    // Issue #51: the legend shows short names (no "void", namespaces, template arguments or
    // parameters), distinct, with the full name as the slice's tooltip.
    const QStringList labels = view.pieChart()->sliceLabels();
    QSet<QString> distinct;
    for (int i = 0; i < labels.size(); ++i) {
        EXPECT_FALSE(labels[i].startsWith(QStringLiteral("void "))) << labels[i].toStdString();
        EXPECT_FALSE(labels[i].contains(QStringLiteral("::"))) << labels[i].toStdString();
        EXPECT_FALSE(labels[i].section(QStringLiteral(" ("), 0, 0).contains(QLatin1Char('('))) << labels[i].toStdString();
        distinct.insert(labels[i]);
        const QString full = view.pieChart()->fullName(i);
        if (labels[i].startsWith(QStringLiteral("Other (")))
            continue;
        ASSERT_FALSE(full.isEmpty()) << i;
        EXPECT_TRUE(labels[i].startsWith(QString::fromStdString(shortKernelName(full.toStdString())).left(40)))
            << labels[i].toStdString() << " / " << full.toStdString();
    }
    EXPECT_EQ(distinct.size(), labels.size());

    // Sorting by calls puts the most called group first.
    ASSERT_EQ(groups->headerData(1, Qt::Horizontal).toString(), QStringLiteral("Calls")); // name grouping
    for (int c = 0; c < groups->columnCount(); ++c)
        EXPECT_EQ(groups->headerData(c, Qt::Horizontal, Qt::ToolTipRole), groups->headerData(c, Qt::Horizontal)) << c;
    groups->sort(1, Qt::DescendingOrder);
    for (int r = 1; r < groups->rowCount(); ++r)
        EXPECT_GE(groups->groups()[size_t(r - 1)].calls, groups->groups()[size_t(r)].calls);

    view.setMode(KernelTableView::Mode::ByNameOpGridBlock);
    EXPECT_EQ(groups->columnCount(), 13);
    EXPECT_GE(groups->rowCount(), static_cast<int>(groupKernels(*view.model()->table(), KernelGrouping::Name).size()));

    // A selected range keeps only the kernels overlapping it, in both views.
    const KernelTable& table = *view.model()->table();
    const TimeRange range{table.row(10).start, table.row(19).start + 1};
    time.setSelectedRange(range);
    size_t expected = 0;
    for (const KernelRow& r : table.rows())
        expected += r.start < range.end && r.start + r.dur > range.start;
    EXPECT_EQ(view.model()->rowCount(), static_cast<int>(expected));
    calls = 0;
    for (const KernelGroup& g : groups->groups())
        calls += g.calls;
    EXPECT_EQ(calls, expected);

    // CSV of the group view, then of the calls view: header plus one line per row shown.
    const QString dir = QDir::tempPath() + QStringLiteral("/warpscope_kernel_csv_%1").arg(QCoreApplication::applicationPid());
    QDir().mkpath(dir);
    QString error;
    ASSERT_TRUE(view.exportCsv(dir + QStringLiteral("/groups.csv"), &error)) << error.toStdString();
    QFile groupsCsv(dir + QStringLiteral("/groups.csv"));
    ASSERT_TRUE(groupsCsv.open(QIODevice::ReadOnly));
    const QList<QByteArray> groupLines = groupsCsv.readAll().trimmed().split('\n');
    EXPECT_TRUE(groupLines.front().startsWith("kernel,operator,grid,block,calls"));
    EXPECT_EQ(groupLines.size(), groups->rowCount() + 1);
    view.setMode(KernelTableView::Mode::Calls);
    ASSERT_TRUE(view.exportCsv(dir + QStringLiteral("/calls.csv"), &error)) << error.toStdString();
    QFile callsCsv(dir + QStringLiteral("/calls.csv"));
    ASSERT_TRUE(callsCsv.open(QIODevice::ReadOnly));
    EXPECT_EQ(callsCsv.readAll().trimmed().split('\n').size(), static_cast<qsizetype>(expected + 1));
    EXPECT_FALSE(view.exportCsv(dir + QStringLiteral("/no/such/dir/x.csv"), &error));
    EXPECT_FALSE(error.isEmpty());
    QDir(dir).removeRecursively();
}

TEST(KernelTableView, AStoredSessionOpensOnItsStoredGroupsThenTheComputedOnes) {
    std::shared_ptr<const Session> imported = importTraceFile(WARPSCOPE_SAMPLE_TRACE).session;
    ASSERT_NE(imported, nullptr);
    {
        // A session without stored results opens on every call, as before.
        TimeViewport time;
        KernelTableView view(&time, imported);
        view.show();
        EXPECT_FALSE(view.showsStoredGroups());
        EXPECT_EQ(view.mode(), KernelTableView::Mode::Calls);
    }
    QTemporaryDir dir;
    std::string error;
    std::shared_ptr<const Session> session = test::storedAndReadBack(*imported, dir, &error);
    ASSERT_NE(session, nullptr) << error;
    TimeViewport time;
    time.setSessionRange(session->startNs(), session->endNs());
    KernelTableView view(&time, session);
    view.show();
    // Before any event is processed (the table's reader cannot have delivered): the file's groups.
    ASSERT_TRUE(view.showsStoredGroups());
    EXPECT_EQ(view.mode(), KernelTableView::Mode::ByName);
    const std::vector<KernelGroup> stored = view.groupModel()->groups();
    ASSERT_FALSE(stored.empty());
    EXPECT_EQ(view.groupModel()->rowCount(), static_cast<int>(stored.size()));
    std::ostringstream storedCsv;
    writeKernelGroupCsv(storedCsv, *session, stored, KernelGrouping::Name);

    view.ensureBuilt();
    EXPECT_FALSE(view.showsStoredGroups());
    const std::vector<KernelGroup>& computed = view.groupModel()->groups();
    ASSERT_EQ(computed.size(), stored.size());
    for (size_t i = 0; i < stored.size(); ++i) {
        EXPECT_EQ(computed[i].name, stored[i].name) << i;
        EXPECT_EQ(computed[i].firstRow, stored[i].firstRow) << i;
        EXPECT_EQ(computed[i].calls, stored[i].calls) << i;
        EXPECT_EQ(computed[i].totalNs, stored[i].totalNs) << i;
    }
    std::ostringstream computedCsv;
    writeKernelGroupCsv(computedCsv, *session, computed, KernelGrouping::Name);
    EXPECT_EQ(computedCsv.str(), storedCsv.str()) << "the stored groups are what computing gives";
    EXPECT_EQ(view.mode(), KernelTableView::Mode::ByName);
}
