// The Compare tab (issue #15): its models pass QAbstractItemModelTester, the view shows core's
// SessionDiff (rows, sorting by change, grouping), the waterfall walks from A's kernel time to
// B's, and File > Compare / --compare open it from two open sessions.
#include "analysis/session_analyses.h"
#include "compare_view.h"
#include "diff_memory_chart.h"
#include "diff_models.h"
#include "job_page.h"
#include "job_timeline_view.h"
#include "diff_waterfall_chart.h"
#include "import/trace_import.h"
#include "main_window.h"
#include "model/session.h"
#include "session_library_dialog.h"
#include "session_loader.h"
#include "session_page.h"
#include "time_viewport.h"
#include "step_breakdown_chart.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTest>
#include <QTableView>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace ws;

namespace {

const std::string kH100 = WARPSCOPE_TEST_DATA_DIR "/h100_gaunernst_bert-small-uncased__1016001.json.gz";
const std::string kMi300 = WARPSCOPE_TEST_DATA_DIR "/mi300_gaunernst_bert-small-uncased__1016001.json.gz";

std::shared_ptr<const Session> load(const std::string& path) {
    ImportResult r = importTraceFile(path);
    EXPECT_TRUE(r.session) << r.error;
    return r.session;
}

} // namespace

TEST(CompareModels, PassTheModelTester) {
    const auto a = load(kH100), b = load(kMi300);
    ASSERT_TRUE(a && b);
    auto diff = std::make_shared<const SessionDiff>(computeSessionDiff(*a, *b));
    HeadlineDiffModel headline;
    OperatorDiffModel operators;
    KernelDiffModel kernels;
    QAbstractItemModelTester t1(&headline, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester t2(&operators, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester t3(&kernels, QAbstractItemModelTester::FailureReportingMode::Fatal);
    headline.setDiff(diff);
    operators.setDiff(diff);
    kernels.setDiff(diff);
    EXPECT_EQ(headline.rowCount(), static_cast<int>(diff->headline.size()));
    EXPECT_EQ(operators.rowCount(), static_cast<int>(diff->operators.size()));
    EXPECT_EQ(kernels.rowCount(), static_cast<int>(diff->kernels.size()));
    // The delta column's sort key is the signed delta; its text is signed too.
    const KernelDiffRow& first = diff->kernels.front();
    EXPECT_EQ(kernels.data(kernels.index(0, KernelDiffModel::Delta), Qt::UserRole).toLongLong(), first.deltaNs);
    EXPECT_TRUE(kernels.data(kernels.index(0, KernelDiffModel::Delta), Qt::DisplayRole).toString().startsWith(
        first.deltaNs > 0 ? QStringLiteral("+") : QStringLiteral("−")));
    // Headline: the step time row says how much it changed.
    EXPECT_EQ(headline.data(headline.index(1, HeadlineDiffModel::Metric), Qt::DisplayRole).toString(),
              QStringLiteral("Step time (mean)"));
    EXPECT_NEAR(headline.data(headline.index(1, HeadlineDiffModel::Change), Qt::UserRole).toDouble(),
                *diff->stepTimeChangePercent, 1e-9);
    // Kernels present only in one run say which.
    bool flagged = false;
    for (int r = 0; r < kernels.rowCount(); ++r)
        flagged |= !kernels.data(kernels.index(r, KernelDiffModel::Presence), Qt::DisplayRole).toString().isEmpty();
    EXPECT_TRUE(flagged);
    operators.setDiff(nullptr);
    EXPECT_EQ(operators.rowCount(), 0);
}

TEST(CompareView, ShowsTheDiffSortsAndRegroups) {
    const auto a = load(kH100), b = load(kMi300);
    ASSERT_TRUE(a && b);
    CompareView view;
    view.resize(1400, 900);
    QSignalSpy computed(&view, &CompareView::computed);
    view.setRuns(a, QStringLiteral("h100"), b, QStringLiteral("mi300"));
    ASSERT_TRUE(computed.wait(30000));
    const auto diff = view.diff();
    ASSERT_TRUE(diff);
    auto* ops = view.findChild<QTableView*>(QStringLiteral("operatorDiffTable"));
    auto* kernels = view.findChild<QTableView*>(QStringLiteral("kernelDiffTable"));
    ASSERT_TRUE(ops && kernels);
    EXPECT_EQ(ops->model()->rowCount(), static_cast<int>(diff->operators.size()));
    // Rows start largest change first (the core's order); a header click sorts by the delta.
    EXPECT_EQ(ops->model()->index(0, OperatorDiffModel::Name).data().toString().toStdString(), diff->operators[0].name);
    ops->sortByColumn(OperatorDiffModel::Delta, Qt::AscendingOrder);
    for (int r = 1; r < ops->model()->rowCount(); ++r)
        EXPECT_LE(ops->model()->index(r - 1, OperatorDiffModel::Delta).data(Qt::UserRole).toLongLong(),
                  ops->model()->index(r, OperatorDiffModel::Delta).data(Qt::UserRole).toLongLong());
    EXPECT_TRUE(ops->isColumnHidden(OperatorDiffModel::Shapes));
    // Grouped by input shape: recomputed, more rows, the shapes column shown.
    auto* grouping = view.findChild<QComboBox*>(QStringLiteral("compareGrouping"));
    ASSERT_NE(grouping, nullptr);
    grouping->setCurrentIndex(1);
    ASSERT_TRUE(computed.wait(30000));
    EXPECT_GT(ops->model()->rowCount(), static_cast<int>(diff->operators.size()));
    EXPECT_FALSE(ops->isColumnHidden(OperatorDiffModel::Shapes));

    // The waterfall: A's kernel time, the biggest changes, the rest, B's kernel time.
    auto* waterfall = view.findChild<DiffWaterfallChart*>();
    ASSERT_NE(waterfall, nullptr);
    const auto& bars = waterfall->bars();
    ASSERT_GE(bars.size(), 3u);
    int64_t totalA = 0, totalB = 0;
    for (const KernelDiffRow& k : view.diff()->kernels) {
        totalA += k.totalNs[0];
        totalB += k.totalNs[1];
    }
    EXPECT_TRUE(bars.front().total);
    EXPECT_EQ(bars.front().to, totalA);
    EXPECT_TRUE(bars.back().total);
    EXPECT_EQ(bars.back().to, totalB);
    int64_t running = totalA;
    for (size_t i = 1; i + 1 < bars.size(); ++i) {
        EXPECT_EQ(bars[i].from, running);
        running = bars[i].to;
    }
    EXPECT_EQ(running, totalB);
    // Kernels by launching operator: the operator column appears, the rows and bars follow.
    auto* kernelGrouping = view.findChild<QComboBox*>(QStringLiteral("compareKernelGrouping"));
    ASSERT_NE(kernelGrouping, nullptr);
    EXPECT_TRUE(kernels->isColumnHidden(KernelDiffModel::Operator));
    EXPECT_EQ(kernels->model()->rowCount(), static_cast<int>(view.diff()->kernels.size()));
    kernelGrouping->setCurrentIndex(1);
    EXPECT_FALSE(kernels->isColumnHidden(KernelDiffModel::Operator));
    ASSERT_EQ(kernels->model()->rowCount(), static_cast<int>(view.diff()->operatorKernels.size()));
    EXPECT_GT(view.diff()->operatorKernels.size(), view.diff()->kernels.size()); // a kernel under several operators
    EXPECT_EQ(kernels->model()->index(0, KernelDiffModel::Operator).data().toString().toStdString(),
              view.diff()->operatorKernels[0].op.empty() ? "(no operator)" : view.diff()->operatorKernels[0].op);
    EXPECT_TRUE(waterfall->bars()[1].label.contains(QStringLiteral(" · ")));
    if (const QByteArray shot = qgetenv("WARPSCOPE_SCREENSHOT_DIR"); !shot.isEmpty()) {
        view.findChild<QTabWidget*>(QStringLiteral("compareTabs"))->setCurrentIndex(1);
        view.show();
        QTest::qWait(300);
        view.grab().save(QString::fromLocal8Bit(shot) + QStringLiteral("/compare_kernels_by_operator.png"));
    }
    kernelGrouping->setCurrentIndex(0);
    EXPECT_TRUE(kernels->isColumnHidden(KernelDiffModel::Operator));
    // Timelines: the two runs as a job of two, each starting at 0.
    ASSERT_EQ(view.timelines()->offsets().size(), 2u);
    EXPECT_EQ(view.timelines()->offsets()[0], -a->startNs());
    EXPECT_EQ(view.timelines()->offsets()[1], -b->startNs());
    // Memory: H100's GPU allocator records are drawn; the MI300 run has none on the GPU and says so.
    EXPECT_FALSE(memoryOverlayCurve(*b, std::nullopt).found);
    auto* memory = view.findChild<DiffMemoryChart*>();
    ASSERT_NE(memory, nullptr);
    EXPECT_GT(memory->pointCount(0), 10);
    const MemoryOverlayCurve h100Curve = memoryOverlayCurve(*a, std::nullopt);
    ASSERT_TRUE(h100Curve.found);
    EXPECT_EQ(memory->pointCount(0), static_cast<int>(h100Curve.points.size() * 2 - 1));
    EXPECT_EQ(h100Curve.peak.value, 101305344); // warpscope-cli memory's peak of the same trace
    for (const MemoryPoint& p : h100Curve.points)
        EXPECT_LE(p.value, h100Curve.peak.value);
    // Steps: each run's breakdown on its own chart.
    EXPECT_NE(view.findChild<StepBreakdownChart*>(QStringLiteral("stepsA")), nullptr);
    EXPECT_EQ(view.diff()->breakdown[0].steps.size(), view.diff()->steps[0]);
    if (const QByteArray shot = qgetenv("WARPSCOPE_SCREENSHOT_DIR"); !shot.isEmpty()) {
        view.findChild<QTabWidget*>(QStringLiteral("compareTabs"))->setCurrentIndex(2);
        view.show();
        QTest::qWait(300); // the charts lay out once shown
        view.grab().save(QString::fromLocal8Bit(shot) + QStringLiteral("/compare_steps.png"));
        view.findChild<QTabWidget*>(QStringLiteral("compareTabs"))->setCurrentIndex(3);
        QTest::qWait(300);
        view.grab().save(QString::fromLocal8Bit(shot) + QStringLiteral("/compare_memory.png"));
        view.findChild<QTabWidget*>(QStringLiteral("compareTabs"))->setCurrentIndex(1);
        view.show();
        view.grab().save(QString::fromLocal8Bit(shot) + QStringLiteral("/compare_kernels.png"));
    }
}

TEST(MainWindow, ComparesTwoOpenSessionsInATab) {
    // A library of its own: sessions another run stored (with their analyses' results) would reopen
    // with B's analyses already there, and the test checks that the comparison computes them.
    QTemporaryDir library;
    ASSERT_TRUE(library.isValid());
    const QString before = SessionLibraryDialog::libraryDirectory();
    SessionLibraryDialog::setLibraryDirectory(library.path());
    struct Restore {
        QString dir;
        ~Restore() { SessionLibraryDialog::setLibraryDirectory(dir); }
    } restore{before};
    MainWindow w;
    QSignalSpy loaded(&w, &MainWindow::loadingFinished);
    w.openFiles({QString::fromStdString(kH100), QString::fromStdString(kMi300)});
    if (loaded.isEmpty()) {
        ASSERT_TRUE(loaded.wait(60000));
    }
    ASSERT_EQ(w.sessionCount(), 2);
    EXPECT_FALSE(w.compareTabs(0, 0)); // a run is not compared with itself
    // A range selected on A's timeline narrows A to it.
    auto* pageA = qobject_cast<SessionPage*>(w.findChild<QTabWidget*>()->widget(0));
    ASSERT_NE(pageA, nullptr);
    // A's Overview tab has prepared its data: the comparison uses that, not a copy of its own.
    ASSERT_TRUE(pageA->showTab(QStringLiteral("overview"), true));
    const auto preparedA = pageA->analyses()->overviewDataIfReady();
    ASSERT_TRUE(preparedA);
    const auto sessionA = pageA->session()->session;
    const int64_t mid = sessionA->startNs() + (sessionA->endNs() - sessionA->startNs()) / 2;
    pageA->timeViewport()->setSelectedRange(TimeRange{sessionA->startNs(), mid});
    ASSERT_TRUE(w.compareFirstTwo());
    auto* view = w.findChild<CompareView*>();
    ASSERT_NE(view, nullptr);
    EXPECT_TRUE(w.isComparing() || view->diff());
    QSignalSpy computed(view, &CompareView::computed);
    if (!view->diff()) {
        ASSERT_TRUE(computed.wait(30000));
    }
    EXPECT_FALSE(w.isComparing());
    EXPECT_EQ(pageA->analyses()->overviewDataIfReady(), preparedA);
    // ... and B's tab gets what the comparison computed for it.
    auto* pageB = qobject_cast<SessionPage*>(w.findChild<QTabWidget*>()->widget(1));
    EXPECT_TRUE(pageB->analyses()->overviewDataIfReady());
    EXPECT_TRUE(pageB->analyses()->operatorTreeIfReady(false));
    auto* stepA = view->findChild<QComboBox*>(QStringLiteral("stepA"));
    auto* stepB = view->findChild<QComboBox*>(QStringLiteral("stepB"));
    EXPECT_TRUE(stepA->currentText().startsWith(QStringLiteral("Selected range"))) << stepA->currentText().toStdString();
    EXPECT_EQ(stepB->currentIndex(), 0); // B had no selection: all of it
    SessionDiffOptions o;
    o.window[0] = DiffWindow{sessionA->startNs(), mid};
    const auto sessionB = qobject_cast<SessionPage*>(w.findChild<QTabWidget*>()->widget(1))->session()->session;
    const SessionDiff expected = computeSessionDiff(*sessionA, *sessionB, o);
    ASSERT_EQ(view->diff()->kernels.size(), expected.kernels.size());
    for (size_t i = 0; i < expected.kernels.size(); ++i)
        EXPECT_EQ(view->diff()->kernels[i].calls[0], expected.kernels[i].calls[0]);
    auto* tabs = w.findChild<QTabWidget*>();
    ASSERT_NE(tabs, nullptr);
    EXPECT_EQ(tabs->currentWidget(), view);
    EXPECT_TRUE(tabs->tabText(tabs->currentIndex()).contains(QStringLiteral(" vs ")));
}

TEST(CompareView, ComparesTwoStepsOfOneRun) {
    const auto run = load(WARPSCOPE_TEST_DATA_DIR "/nccl_data_rank0.json.gz");
    ASSERT_TRUE(run);
    CompareView view;
    QSignalSpy computed(&view, &CompareView::computed);
    view.setRuns(run, QStringLiteral("rank0"), run, QStringLiteral("rank0"));
    ASSERT_TRUE(computed.wait(30000));
    EXPECT_EQ(view.diff()->steps[0], 3u); // all steps
    auto* stepA = view.findChild<QComboBox*>(QStringLiteral("stepA"));
    auto* stepB = view.findChild<QComboBox*>(QStringLiteral("stepB"));
    ASSERT_TRUE(stepA && stepB);
    ASSERT_EQ(stepA->count(), 4); // all, 4, 5, 6
    EXPECT_EQ(stepA->itemText(1), QStringLiteral("Step 4"));
    stepA->setCurrentIndex(1);
    stepB->setCurrentIndex(3);
    emit stepB->activated(3);
    ASSERT_TRUE(computed.wait(30000));
    const auto d = view.diff();
    EXPECT_EQ(d->steps[0], 1u);
    EXPECT_EQ(d->steps[1], 1u);
    SessionDiffOptions o;
    o.window = {stepWindow(*run, "4"), stepWindow(*run, "6")};
    const SessionDiff expected = computeSessionDiff(*run, *run, o);
    // The timelines line the two steps' starts up at 0.
    ASSERT_EQ(view.timelines()->offsets().size(), 2u);
    EXPECT_EQ(view.timelines()->offsets()[0], -o.window[0]->from);
    EXPECT_EQ(view.timelines()->offsets()[1], -o.window[1]->from);
    if (const QByteArray shot = qgetenv("WARPSCOPE_SCREENSHOT_DIR"); !shot.isEmpty()) {
        view.resize(1400, 900);
        view.findChild<QTabWidget*>(QStringLiteral("compareTabs"))->setCurrentIndex(4);
        view.show();
        QTest::qWait(300);
        view.grab().save(QString::fromLocal8Bit(shot) + QStringLiteral("/compare_timelines.png"));
    }
    ASSERT_EQ(d->kernels.size(), expected.kernels.size());
    for (size_t i = 0; i < d->kernels.size(); ++i)
        EXPECT_EQ(d->kernels[i].deltaNs, expected.kernels[i].deltaNs);
}

TEST(MainWindow, ComparesTwoRanksOfAnOpenJob) {
    MainWindow w;
    QSignalSpy loaded(&w, &MainWindow::loadingFinished);
    w.openJob({QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/dlrm_8ranks")});
    if (loaded.isEmpty()) {
        ASSERT_TRUE(loaded.wait(120000));
    }
    auto* page = w.findChild<JobPage*>();
    ASSERT_NE(page, nullptr);
    emit page->compareRanksRequested(0, 1); // what the rank header's "Compare Rank 1 With" does
    auto* view = w.findChild<CompareView*>();
    ASSERT_NE(view, nullptr);
    QSignalSpy computed(view, &CompareView::computed);
    if (!view->diff()) {
        ASSERT_TRUE(computed.wait(60000));
    }
    // Rank 1's step is 28.6 % longer than rank 0's (as `warpscope-cli diff` says of the two files).
    ASSERT_TRUE(view->diff()->stepTimeChangePercent);
    EXPECT_NEAR(*view->diff()->stepTimeChangePercent, 28.6, 0.05);
    auto* tabs = w.findChild<QTabWidget*>();
    EXPECT_EQ(tabs->tabText(tabs->currentIndex()), QStringLiteral("rank 1 vs rank 0"));
}
