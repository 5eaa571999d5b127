// A distributed job in the UI (issue #12): JobLoader, the Distributed tab's models and charts, the
// job timeline's linked collectives, manual clock offsets, and a folder opened from the main window.
#include "analysis/distributed.h"
#include "analysis/distributed_json.h"
#include "comm_op_model.h"
#include "distributed_view.h"
#include "distributed_worker_model.h"
#include "job_loader.h"
#include "job_page.h"
#include "job_timeline_view.h"
#include "main_window.h"
#include "model/session.h"
#include "worker_stack_chart.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace ws;

namespace {

const QString kJobDir = QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/dlrm_8ranks");

std::shared_ptr<const LoadedJob> loadJob(JobLoader& loader, const std::function<bool()>& start) {
    QSignalSpy loaded(&loader, &JobLoader::loaded);
    QSignalSpy failed(&loader, &JobLoader::failed);
    EXPECT_TRUE(start());
    if (loaded.isEmpty() && failed.isEmpty())
        loaded.wait(60000);
    EXPECT_TRUE(failed.isEmpty()) << (failed.isEmpty() ? std::string() : failed.first().at(1).toString().toStdString());
    if (loaded.isEmpty())
        return nullptr;
    return loaded.first().at(0).value<std::shared_ptr<const LoadedJob>>();
}

std::shared_ptr<const LoadedJob> dlrmJob() {
    static std::shared_ptr<const LoadedJob> job = [] {
        JobLoader loader; // no library directory: import only
        return loadJob(loader, [&] { return loader.load({kJobDir}); });
    }();
    return job;
}

} // namespace

TEST(JobLoader, LoadsEveryRankInRankOrder) {
    auto job = dlrmJob();
    ASSERT_NE(job, nullptr);
    ASSERT_EQ(job->ranks.size(), 8u);
    ASSERT_EQ(job->sessions.size(), 8u);
    for (size_t i = 0; i < 8; ++i) {
        EXPECT_EQ(job->ranks[i].rank, static_cast<int>(i));
        ASSERT_NE(job->sessions[i], nullptr);
        EXPECT_EQ(job->sessions[i]->distributedInfo()->rank, static_cast<int>(i));
    }
    EXPECT_EQ(job->clock.method, ClockAlignment::Method::TraceClocks);
    EXPECT_TRUE(job->skipped.isEmpty());
}

TEST(JobLoader, BadFilesAreSkippedAndNamed) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    ASSERT_TRUE(QFile::copy(kJobDir + QStringLiteral("/worker0_step_12.1694128201545.pt.trace.json.gz"),
                            dir.filePath(QStringLiteral("worker0.pt.trace.json.gz"))));
    QFile bad(dir.filePath(QStringLiteral("worker1.pt.trace.json")));
    ASSERT_TRUE(bad.open(QIODevice::WriteOnly));
    bad.write("{\"traceEvents\": 17}"); // JSON, but not a trace with events
    bad.close();
    JobLoader loader;
    auto job = loadJob(loader, [&] { return loader.load({dir.path()}); });
    ASSERT_NE(job, nullptr);
    EXPECT_GE(job->ranks.size(), 1u);
    EXPECT_EQ(job->ranks.front().rank, 0);
}

TEST(JobLoader, MergesSummariesWithoutTraces) {
    auto job = dlrmJob();
    ASSERT_NE(job, nullptr);
    QTemporaryDir dir;
    for (const RankDistributed& r : job->ranks) {
        QFile f(dir.filePath(QStringLiteral("rank%1.json").arg(r.rank)));
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(R"({"distributed": )" + rankDistributedToJson(r) + "}"));
    }
    JobLoader loader;
    auto merged = loadJob(loader, [&] { return loader.loadSummaries(dir.path()); });
    ASSERT_NE(merged, nullptr);
    EXPECT_TRUE(merged->fromSummaries);
    ASSERT_EQ(merged->ranks.size(), 8u);
    EXPECT_EQ(merged->sessions[3], nullptr);
    EXPECT_EQ(jobDistributedToJson(computeJobDistributed(merged->ranks)), jobDistributedToJson(computeJobDistributed(job->ranks)));
    // The job page works from summaries alone (steps and collectives, no streams).
    JobPage page(merged);
    page.resize(1400, 900);
    EXPECT_EQ(page.distributedView()->workerTable()->model()->rowCount(), 8);
}

TEST(DistributedView, TablesChartsAndStraggler) {
    auto job = dlrmJob();
    ASSERT_NE(job, nullptr);
    JobPage page(job);
    page.resize(1440, 900);
    page.show();
    DistributedView* view = page.distributedView();
    QAbstractItemModel* workers = view->workerTable()->model();
    QAbstractItemModel* ops = view->opTable()->model();
    QAbstractItemModelTester workerTester(workers, QAbstractItemModelTester::FailureReportingMode::Warning);
    QAbstractItemModelTester opTester(ops, QAbstractItemModelTester::FailureReportingMode::Warning);
    ASSERT_EQ(workers->rowCount(), 8);
    EXPECT_EQ(ops->rowCount(), 16); // all_reduce and all_to_all on each rank
    EXPECT_EQ(view->overlapChart()->barCount(), 8);

    // Sorted by rank; rank 7 is the straggler and the fastest, rank 3 the slowest.
    EXPECT_EQ(workers->index(0, DistributedWorkerModel::Rank).data().toInt(), 0);
    const QString mark7 = workers->index(7, DistributedWorkerModel::Mark).data().toString();
    EXPECT_TRUE(mark7.contains(QStringLiteral("straggler"))) << mark7.toStdString();
    EXPECT_TRUE(mark7.contains(QStringLiteral("fastest"))) << mark7.toStdString();
    EXPECT_EQ(workers->index(3, DistributedWorkerModel::Mark).data().toString(), QStringLiteral("slowest"));
    auto* summary = view->findChild<QLabel*>(QStringLiteral("distributedSummary"));
    ASSERT_NE(summary, nullptr);
    EXPECT_TRUE(summary->text().contains(QStringLiteral("Straggler: rank 7"))) << summary->text().toStdString();
    // What rank 7's host did meanwhile (issue #27): after its stream synchronization returned, its
    // forward pass on the CPU (issue #51: the time after a sync is the host's next work).
    EXPECT_TRUE(summary->text().contains(QStringLiteral("while they wait, its GPU idles")) &&
                summary->text().contains(QStringLiteral("Python / CPU work")) &&
                summary->text().contains(QStringLiteral("## forward ##")))
        << summary->text().toStdString();

    // Sorting by synchronizing time puts rank 1 (who waited most) on top. (Sort speed at 1,024
    // workers is measured by `warpscope --bench-job --summaries DIR`, not here.)
    view->workerTable()->sortByColumn(DistributedWorkerModel::Sync, Qt::DescendingOrder);
    EXPECT_EQ(workers->index(0, DistributedWorkerModel::Rank).data().toInt(), 1);

    auto* stragglers = view->findChild<QTableWidget*>(QStringLiteral("distributedStragglerTable"));
    ASSERT_NE(stragglers, nullptr);
    ASSERT_EQ(stragglers->rowCount(), 1);
    EXPECT_EQ(stragglers->item(0, 0)->text(), QStringLiteral("10"));
    EXPECT_TRUE(stragglers->item(0, 1)->text().startsWith(QStringLiteral("rank 7")));

    // Double-clicking a worker asks to open its trace.
    QSignalSpy open(&page, &JobPage::openTraceRequested);
    emit view->workerTable()->doubleClicked(workers->index(0, 0));
    ASSERT_EQ(open.size(), 1);
    EXPECT_TRUE(open.first().at(0).toString().endsWith(QStringLiteral(".pt.trace.json.gz")));
    page.grab().save(QStringLiteral("/tmp/job_page_dlrm.png"));
}

TEST(DistributedView, FollowsTheSelectedStepAndRange) {
    auto job = dlrmJob();
    ASSERT_NE(job, nullptr);
    JobPage page(job);
    DistributedView* view = page.distributedView();
    auto* selector = view->findChild<QComboBox*>(QStringLiteral("distributedStepSelector"));
    ASSERT_NE(selector, nullptr);
    ASSERT_EQ(selector->count(), 2); // all steps, step 10
    selector->setCurrentIndex(1);
    ASSERT_NE(view->result(), nullptr);
    EXPECT_EQ(view->result()->workers[0].steps.size(), 1u);
    // A range before every step leaves nothing to analyse; the whole job brings the step back.
    view->setRange(std::make_pair(int64_t(0), int64_t(1)));
    EXPECT_TRUE(view->result()->workers[0].steps.empty());
    EXPECT_EQ(view->workerTable()->model()->index(0, DistributedWorkerModel::Steps).data().toInt(), 0);
    view->setRange(std::nullopt);
    EXPECT_EQ(view->result()->workers[0].steps.size(), 1u);
}

TEST(JobTimeline, LinksTheSameCollectiveOnEveryRank) {
    auto job = dlrmJob();
    ASSERT_NE(job, nullptr);
    JobPage page(job);
    page.resize(1400, 900);
    JobTimelineView* timeline = page.timeline();
    // On open the collective with the largest arrival skew is selected on all 8 ranks.
    ASSERT_EQ(timeline->selectedNodes().size(), 8u);
    for (int n : timeline->selectedNodes())
        EXPECT_GE(n, 0);
    EXPECT_TRUE(timeline->selectionText().contains(QStringLiteral("on 8 of 8 ranks"))) << timeline->selectionText().toStdString();

    // Rank 2's third op is the third op of the same name everywhere.
    const auto& nodes2 = job->ranks[2].nodes;
    ASSERT_GE(nodes2.size(), 3u);
    QSignalSpy changed(timeline, &JobTimelineView::selectionChanged);
    ASSERT_TRUE(timeline->selectCollective(2, 2));
    EXPECT_EQ(changed.size(), 1);
    for (size_t w = 0; w < 8; ++w) {
        const int n = timeline->selectedNodes()[w];
        ASSERT_GE(n, 0) << w;
        EXPECT_EQ(job->ranks[w].nodes[static_cast<size_t>(n)].name, nodes2[2].name) << w;
    }
    EXPECT_TRUE(timeline->selectionText().contains(QStringLiteral("arrival skew")));
    EXPECT_FALSE(timeline->selectCollective(9, 0));
}

TEST(JobTimeline, ManualOffsetsReachBothViews) {
    auto job = dlrmJob();
    ASSERT_NE(job, nullptr);
    JobPage page(job);
    JobTimelineView* timeline = page.timeline();
    emit timeline->offsetEdited(3, 5'000'000);
    EXPECT_EQ(timeline->offsets()[3], 5'000'000);
    auto* clock = page.distributedView()->findChild<QLabel*>(QStringLiteral("distributedClockLabel"));
    ASSERT_NE(clock, nullptr);
    EXPECT_TRUE(clock->text().contains(QStringLiteral("manual"))) << clock->text().toStdString();
    emit timeline->offsetsResetRequested();
    EXPECT_EQ(timeline->offsets()[3], 0);
    EXPECT_FALSE(clock->text().contains(QStringLiteral("manual")));
}

TEST(MainWindow, AFolderOfRankTracesOpensAsOneJob) {
    MainWindow w;
    QSignalSpy spy(&w, &MainWindow::loadingFinished);
    w.openFiles({kJobDir});
    if (spy.isEmpty()) {
        ASSERT_TRUE(spy.wait(60000));
    }
    EXPECT_TRUE(spy.first().at(0).toBool()) << w.lastError().toStdString();
    EXPECT_EQ(w.sessionCount(), 1);
    EXPECT_EQ(w.jobCount(), 1);
    auto* page = w.findChild<JobPage*>();
    ASSERT_NE(page, nullptr);
    EXPECT_EQ(page->job()->ranks.size(), 8u);
}

TEST(MainWindow, ACaptureFolderOfRanksOpensAsAJob) {
    // One stream per rank (RANK in the headers) plus the launcher's: a job of two workers.
    QTemporaryDir dir;
    for (const char* f : {"ddp_rank0.wscap.gz", "ddp_rank1.wscap.gz", "ddp_launcher.wscap.gz"})
        ASSERT_TRUE(QFile::copy(QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/captures/") + QLatin1String(f), dir.filePath(QLatin1String(f))));
    MainWindow w;
    QSignalSpy spy(&w, &MainWindow::loadingFinished);
    w.openFiles({dir.path()});
    if (spy.isEmpty()) {
        ASSERT_TRUE(spy.wait(60000));
    }
    EXPECT_EQ(w.jobCount(), 1);
    auto* page = w.findChild<JobPage*>();
    ASSERT_NE(page, nullptr);
    ASSERT_EQ(page->job()->ranks.size(), 2u);
    EXPECT_EQ(page->job()->ranks[1].rank, 1);
    EXPECT_FALSE(page->distributedView()->result()->ops.empty()); // the NCCL kernels
}

// A job recorded on an H100 (issue #18): 2 DDP ranks over Gloo sharing one GPU, rank 1 sleeping
// 30 ms before each forward (capture/samples/gloo_job_step.py), once as torch.profiler traces and
// once as a warpscope-capture --torch-ops folder. Both must name rank 1 and show rank 0 waiting.
// The same job over NCCL on two H100s (tests/data/nccl_job) waits in the AllReduce kernels.
TEST(RecordedJob, GlooAndNcclTracesAndCapturesNameTheSlowRankAndLinkCollectives) {
    for (const char* folder : {"gloo_job/traces", "gloo_job/capture", "nccl_job/traces", "nccl_job/capture"}) {
        SCOPED_TRACE(folder);
        JobLoader loader;
        const QString dir = QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/") + QLatin1String(folder);
        auto job = loadJob(loader, [&] { return loader.load({dir}); });
        ASSERT_NE(job, nullptr);
        ASSERT_EQ(job->ranks.size(), 2u); // the capture's launcher stream is not a worker
        JobPage page(job);
        page.resize(1440, 900);
        page.show();
        DistributedView* view = page.distributedView();
        const JobDistributed* result = view->result();
        ASSERT_NE(result, nullptr);
        ASSERT_TRUE(result->straggler.has_value());
        EXPECT_EQ(result->workers[*result->straggler].rank, 1);
        // Rank 0 waits for the sleep inside the all-reduce: about 30 ms a step (1.1 ms of GPU work).
        EXPECT_GT(result->steps[0].meanSync, 20e6);
        EXPECT_LT(result->steps[0].meanSync, 40e6);
        EXPECT_LT(result->steps[1].meanSync, 2e6);
        auto* summary = view->findChild<QLabel*>(QStringLiteral("distributedSummary"));
        ASSERT_NE(summary, nullptr);
        EXPECT_TRUE(summary->text().contains(QStringLiteral("Straggler: rank 1"))) << summary->text().toStdString();

        // The collectives are linked across both ranks on the job timeline.
        JobTimelineView* timeline = page.timeline();
        ASSERT_EQ(timeline->selectedNodes().size(), 2u);
        for (int n : timeline->selectedNodes())
            EXPECT_GE(n, 0);
        EXPECT_TRUE(timeline->selectionText().contains(QStringLiteral("on 2 of 2 ranks"))) << timeline->selectionText().toStdString();
        EXPECT_EQ(result->unmatchedNodes, 0u);
        page.grab().save(QStringLiteral("/tmp/job_page_%1.png").arg(QString::fromLatin1(folder).replace(QLatin1Char('/'), QLatin1Char('_'))));
    }
}
