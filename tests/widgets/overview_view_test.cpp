#include "stored_sample.h"
#include "analysis/idle_gaps.h"
#include "analysis/overview.h"
#include "import/trace_import.h"
#include "model/session.h"
#include "store/session_store.h"
#include "overview_view.h"
#include "stat_card.h"
#include "step_breakdown_chart.h"
#include "token_latency_chart.h"
#include "wscapfixtures.h"

#include <QCoreApplication>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTableWidget>

#include <gtest/gtest.h>

using namespace ws;

namespace {

QString cardValue(QWidget* box, int index) {
    const QList<StatCard*> cards = box->findChildren<StatCard*>();
    return index < cards.size() ? cards[index]->value() : QString();
}

QStringList evidenceTexts(const OverviewView& view) {
    QStringList out;
    for (QLabel* l : view.findChildren<QLabel*>(QStringLiteral("evidence")))
        out << l->text();
    return out;
}

// Renders at the size the brief asks to stay readable at, for a human look (PNG under /tmp).
void saveScreenshot(OverviewView& view, const QString& name) {
    view.resize(1400, 900);
    view.grab().save(QStringLiteral("/tmp/%1.png").arg(name));
}

} // namespace

TEST(OverviewView, ShowsDevicesBreakdownAndRecommendations) {
    std::shared_ptr<const Session> session = importTraceFile(WARPSCOPE_SAMPLE_TRACE).session;
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    time.setSessionRange(session->startNs(), session->endNs());
    OverviewView view(&time, session);
    view.computeNow();
    ASSERT_TRUE(view.hasReport());
    saveScreenshot(view, QStringLiteral("overview_bert"));

    auto* box = view.findChild<QGroupBox*>(QStringLiteral("deviceBox0"));
    ASSERT_NE(box, nullptr);
    EXPECT_TRUE(box->title().contains(QStringLiteral("H100")));
    // reference_overview.py: GPU utilization 6.940557..., SM efficiency 4.469..., occupancy 4.08 %.
    EXPECT_EQ(cardValue(box, 0), QStringLiteral("6.94 %"));
    EXPECT_EQ(cardValue(box, 1), QStringLiteral("4.47 %"));
    EXPECT_EQ(cardValue(box, 2), QStringLiteral("4.08 %"));
    auto* facts = box->findChild<QLabel*>(QStringLiteral("deviceFacts"));
    ASSERT_NE(facts, nullptr);
    EXPECT_TRUE(facts->text().contains(QStringLiteral("132 SMs"))) << facts->text().toStdString();

    auto* chart = view.findChild<StepBreakdownChart*>();
    ASSERT_NE(chart, nullptr);
    EXPECT_GE(chart->setCount(), 4); // Kernel, Memcpy, Runtime, CPU Exec, Other
    auto* table = view.findChild<QTableWidget*>(QStringLiteral("stepBreakdownTable"));
    ASSERT_NE(table, nullptr);
    ASSERT_EQ(table->rowCount(), 2); // step 6 + average
    EXPECT_EQ(table->item(0, 0)->text(), QStringLiteral("6"));
    EXPECT_EQ(table->item(0, 1)->text(), QStringLiteral("0.307")); // Kernel 307197 ns
    EXPECT_EQ(table->item(0, 9)->text(), QStringLiteral("4.426")); // Total 4426114 ns
    EXPECT_TRUE(table->isColumnHidden(4));                          // no communication

    const QStringList evidence = evidenceTexts(view);
    ASSERT_FALSE(evidence.isEmpty());
    EXPECT_TRUE(evidence.join('\n').contains(QStringLiteral("6.9 %"))) << evidence.join('\n').toStdString();

    // The low-utilization link selects the analysed window on the timeline; the overview keeps what
    // it shows (the recommendation stays), since that range is evidence, not a new scope.
    QPushButton* select = nullptr;
    for (QWidget* rec : view.findChildren<QWidget*>(QStringLiteral("recommendation")))
        for (QLabel* l : rec->findChildren<QLabel*>())
            if (l->text().startsWith(QStringLiteral("Low GPU utilization")))
                select = rec->findChild<QPushButton*>(QStringLiteral("selectRange"));
    ASSERT_NE(select, nullptr);
    QSignalSpy computed(&view, &OverviewView::computed);
    select->click();
    ASSERT_TRUE(time.selectedRange().has_value());
    EXPECT_EQ(time.selectedRange()->start, view.report()->windowStart);
    EXPECT_EQ(time.selectedRange()->end, view.report()->windowEnd);
    EXPECT_FALSE(computed.wait(600));
    EXPECT_FALSE(view.report()->selection);
    // A range the user selects is a new scope: the overview follows it.
    time.setSelectedRange(TimeRange{view.report()->windowStart, view.report()->windowEnd - 1});
    ASSERT_TRUE(computed.wait(10000));
    EXPECT_TRUE(view.report()->selection);
}

// Issue #51: the long-gap advice names what the host did (the loader-bound capture's next(batches),
// after the synchronization that drained the queue) in the user's language, with its advice.
TEST(OverviewView, LongIdleGapAdviceNamesTheCause) {
    std::shared_ptr<const Session> session =
        importTraceFile(WARPSCOPE_TEST_DATA_DIR "/captures/waits/waits_loader.wscap.gz").session;
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    time.setSessionRange(session->startNs(), session->endNs());
    OverviewView view(&time, session);
    view.computeNow();
    ASSERT_TRUE(view.hasReport());
    const QString evidence = evidenceTexts(view).join('\n');
    EXPECT_TRUE(evidence.contains(QStringLiteral("Meanwhile the host was in data loading at enumerate(DataLoader)")))
        << evidence.toStdString();
    EXPECT_TRUE(evidence.contains(QStringLiteral("after cudaDeviceSynchronize drained the GPU's queue")));
    EXPECT_TRUE(evidence.contains(QStringLiteral("num_workers")));
    EXPECT_FALSE(evidence.contains(QStringLiteral("Select the gap to see what the CPU was doing")));
    view.resize(1400, 2600);
    view.grab().save(QStringLiteral("/tmp/overview_long_gap.png"));
}

TEST(OverviewView, ComputesOffTheGuiThreadOnFirstShowAndFollowsTheSelection) {
    std::shared_ptr<const Session> session = importTraceFile(WARPSCOPE_SAMPLE_TRACE).session;
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    time.setSessionRange(session->startNs(), session->endNs());
    OverviewView view(&time, session);
    QSignalSpy computed(&view, &OverviewView::computed);
    EXPECT_FALSE(view.hasReport());
    view.show();
    ASSERT_TRUE(computed.wait(10000));
    ASSERT_TRUE(view.hasReport());
    EXPECT_FALSE(view.report()->selection);
    const int64_t start = view.report()->windowStart, end = view.report()->windowEnd;
    // Three quick selection changes: debounced into one computation for the last one.
    time.setSelectedRange(TimeRange{start, start + (end - start) / 4});
    time.setSelectedRange(TimeRange{start, start + (end - start) / 3});
    time.setSelectedRange(TimeRange{start, start + (end - start) / 2});
    ASSERT_TRUE(computed.wait(10000));
    EXPECT_TRUE(view.report()->selection);
    EXPECT_EQ(view.report()->windowEnd, start + (end - start) / 2);
    auto* whole = view.findChild<QLabel*>(QStringLiteral("overviewStatus"));
    ASSERT_NE(whole, nullptr);
    EXPECT_TRUE(whole->text().startsWith(QStringLiteral("Selected range"))) << whole->text().toStdString();
    time.setSelectedRange(std::nullopt);
    ASSERT_TRUE(computed.wait(10000));
    EXPECT_FALSE(view.report()->selection);
    EXPECT_EQ(view.report()->windowEnd, end);
}

TEST(OverviewView, SaysWhatTheTraceCannotGive) {
    // nsys export: no blocks per SM, no occupancy, no allocator events.
    std::shared_ptr<const Session> session =
        importTraceFile(std::string(WARPSCOPE_TEST_DATA_DIR) + "/nsys/nvfuser_report2_h200_nsys2024.6.sqlite").session;
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    OverviewView view(&time, session);
    view.computeNow();
    saveScreenshot(view, QStringLiteral("overview_nsys"));
    auto* box = view.findChild<QGroupBox*>(QStringLiteral("deviceBox0"));
    ASSERT_NE(box, nullptr);
    EXPECT_NE(cardValue(box, 0), QStringLiteral("not in this trace"));
    EXPECT_NE(cardValue(box, 1), QStringLiteral("not in this trace")); // blocks per SM from the grid sizes
    // Occupancy from the kernels' launch geometry (cuda_occupancy_test.cpp has the numbers).
    EXPECT_NE(cardValue(box, 2), QStringLiteral("not in this trace"));
    EXPECT_TRUE(box->findChild<QLabel*>(QStringLiteral("deviceFacts"))->text().contains(QStringLiteral("peak allocated: not in this trace")));
    EXPECT_TRUE(box->findChildren<StatCard*>(QStringLiteral("measuredCard")).isEmpty()); // no PM sampling

    // ROCm Kineto trace: kernels carry neither blocks per SM nor register counts; the card says
    // occupancy cannot be computed for AMD from this trace, under the AMD names of the metrics.
    std::shared_ptr<const Session> rocm =
        importTraceFile(std::string(WARPSCOPE_TEST_DATA_DIR) + "/mi250_minitoy_train_ROCm6_2_kineto.json.gz").session;
    ASSERT_NE(rocm, nullptr);
    OverviewView rocmView(&time, rocm);
    rocmView.computeNow();
    auto* gpu2 = rocmView.findChild<QGroupBox*>(QStringLiteral("deviceBox2"));
    ASSERT_NE(gpu2, nullptr);
    EXPECT_EQ(cardValue(gpu2, 0), QStringLiteral("1.19 %")); // reference_overview.py: 0.011937718
    EXPECT_EQ(cardValue(gpu2, 1), QStringLiteral("not in this trace"));
    EXPECT_EQ(cardValue(gpu2, 2), QStringLiteral("cannot be computed"));
    EXPECT_EQ(gpu2->title(), QStringLiteral("GPU 2: AMD Radeon Graphics"));
    EXPECT_TRUE(gpu2->findChild<QLabel*>(QStringLiteral("deviceFacts"))->text().contains(QStringLiteral("104 compute units")));
}

// A capture with PM sampling (issue #25): the measured SM Active, DRAM Bandwidth and Tensor Active
// under the estimates, with the numbers core computes (capture_overview_test.cpp).
TEST(OverviewView, MeasuredCountersOfACaptureBesideTheEstimates) {
    const std::string path = wstest::tempPath("pm_overview.wscap");
    wstest::writeFile(path, wstest::pmSamplingStream());
    std::shared_ptr<const Session> session = importTraceFile(path).session;
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    time.setSessionRange(session->startNs(), session->endNs());
    OverviewView view(&time, session);
    view.computeNow();
    saveScreenshot(view, QStringLiteral("overview_pm"));
    auto* box = view.findChild<QGroupBox*>(QStringLiteral("deviceBox0"));
    ASSERT_NE(box, nullptr);
    EXPECT_EQ(cardValue(box, 2), QStringLiteral("29.17 %")); // occupancy: (25 + 12.5 + 50) / 3
    const QList<StatCard*> measured = box->findChildren<StatCard*>(QStringLiteral("measuredCard"));
    ASSERT_EQ(measured.size(), 3);
    EXPECT_EQ(measured[0]->value(), QStringLiteral("39.18 %")); // SM Active: 572 / 14.6
    EXPECT_EQ(measured[1]->value(), QStringLiteral("16.81 %")); // DRAM Bandwidth: 245.4 / 14.6
    EXPECT_EQ(measured[2]->value(), QStringLiteral("25.00 %")); // Tensor Active
    // The selected range recomputes them: [T0 + 2 ms, T0 + 10 ms) averages 40 % SM Active.
    time.setSelectedRange(TimeRange{static_cast<int64_t>(wstest::kPmT0 + 2 * wstest::kPmMs),
                                    static_cast<int64_t>(wstest::kPmT0 + 10 * wstest::kPmMs)});
    view.computeNow();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete); // the previous report's boxes
    box = view.findChild<QGroupBox*>(QStringLiteral("deviceBox0"));
    ASSERT_NE(box, nullptr);
    EXPECT_EQ(box->findChildren<StatCard*>(QStringLiteral("measuredCard")).value(0)->value(), QStringLiteral("40.00 %"));
}

// An unmarked capture: the steps come from the launch pattern and the first (start-up) one is left
// out, which the status line says.
TEST(OverviewView, SaysTheStartUpStepIsLeftOut) {
    std::shared_ptr<const Session> session =
        importTraceFile(std::string(WARPSCOPE_TEST_DATA_DIR) + "/captures/resnet18_plain.wscap.gz").session;
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    OverviewView view(&time, session);
    view.computeNow();
    saveScreenshot(view, QStringLiteral("overview_resnet18_plain"));
    auto* status = view.findChild<QLabel*>(QStringLiteral("overviewStatus"));
    ASSERT_NE(status, nullptr);
    EXPECT_TRUE(status->text().contains(QStringLiteral("11 profiler step"))) << status->text().toStdString();
    EXPECT_TRUE(status->text().contains(QStringLiteral("left out as start-up"))) << status->text().toStdString();
    auto* box = view.findChild<QGroupBox*>(QStringLiteral("deviceBox0"));
    ASSERT_NE(box, nullptr);
    EXPECT_EQ(cardValue(box, 0), QStringLiteral("85.83 %")); // warpscope-cli overview (H100 recording of session 23)
}

TEST(OverviewView, ManyStepsAndSliceLinks) {
    const QString path = QStringLiteral(WARPSCOPE_TEST_DATA_DIR) +
                         QStringLiteral("/../../../shared/testdata/pytorch_kineto/kineto_tb_plugin/"
                                        "resnet50_num_workers_0_worker0.1623143089861.pt.trace.json.gz");
    if (!QFile::exists(path))
        GTEST_SKIP() << "no shared testdata";
    std::shared_ptr<const Session> session = importTraceFile(path.toStdString()).session;
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    OverviewView view(&time, session);
    QSignalSpy reveal(&view, &OverviewView::revealRequested);
    view.computeNow();
    saveScreenshot(view, QStringLiteral("overview_resnet50"));
    auto* table = view.findChild<QTableWidget*>(QStringLiteral("stepBreakdownTable"));
    ASSERT_EQ(table->rowCount(), 7); // 6 steps + average
    EXPECT_EQ(table->item(0, 6)->text(), QStringLiteral("69.317")); // DataLoader of step 5
    EXPECT_TRUE(evidenceTexts(view).join('\n').contains(QStringLiteral("33.4 %")));
    QPushButton* show = view.findChild<QPushButton*>(QStringLiteral("showSlice"));
    ASSERT_NE(show, nullptr);
    show->click();
    ASSERT_EQ(reveal.count(), 1);
    ASSERT_TRUE(time.selectedSlice().has_value());
}

// "Why the GPU waits" (issue #27): the zoo's DataLoader-bound capture waits for data; a row marks
// its gaps on the timeline and selects the longest without recomputing the Overview for it.
TEST(OverviewView, WhyTheGpuWaitsTableSelectsItsGaps) {
    std::shared_ptr<const Session> session =
        importTraceFile(std::string(WARPSCOPE_TEST_DATA_DIR) + "/captures/zoo/loader.wscap.gz").session;
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    time.setSessionRange(session->startNs(), session->endNs());
    OverviewView view(&time, session);
    view.computeNow();
    ASSERT_NE(view.idleGaps(), nullptr);
    const IdleGapReport& gaps = *view.idleGaps();
    EXPECT_GT(gaps.totals(GapCategory::DataLoading).share, 0.95);

    auto* table = view.findChild<QTableWidget*>(QStringLiteral("idleGapsTable"));
    ASSERT_NE(table, nullptr);
    ASSERT_GE(table->rowCount(), 2);
    EXPECT_EQ(table->item(0, 0)->text(), QStringLiteral("Data loading")); // heaviest first
    // warpscope-cli gaps: 98.65 % (26 steps); the main thread's last moments before each launch are its
    // Python (host_gaps.h), not the workers'.
    EXPECT_EQ(table->item(0, 2)->text(), QStringLiteral("98.7 %"));
    EXPECT_TRUE(table->item(0, 4)->text().contains(QStringLiteral("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__")));
    EXPECT_FALSE(table->item(0, 4)->toolTip().isEmpty());
    auto* note = view.findChild<QLabel*>(QStringLiteral("idleGapsNote"));
    ASSERT_NE(note, nullptr);
    EXPECT_TRUE(note->text().contains(QStringLiteral("798 GPU idle gap(s) of at least 50.0 µs"))) << note->text().toStdString();

    QSignalSpy computed(&view, &OverviewView::computed);
    QSignalSpy marked(&time, &TimeViewport::markedRangesChanged);
    view.selectGapCategory(0);
    EXPECT_EQ(marked.count(), 1);
    size_t dataGaps = 0;
    int64_t longest = 0;
    for (const IdleGap& g : gaps.gaps)
        if (g.category == GapCategory::DataLoading) {
            ++dataGaps;
            longest = std::max(longest, g.duration());
        }
    EXPECT_EQ(time.markedRanges().size(), dataGaps);
    ASSERT_TRUE(time.selectedRange().has_value());
    EXPECT_EQ(time.selectedRange()->length(), longest);
    QCoreApplication::processEvents();
    EXPECT_EQ(computed.count(), 0); // evidence on the timeline, not a new scope

    // For a human look: the table scrolled into view.
    view.resize(1400, 900);
    if (auto* scroll = view.findChild<QScrollArea*>())
        scroll->ensureWidgetVisible(table);
    view.grab().save(QStringLiteral("/tmp/overview_idle_gaps.png"));
}

TEST(OverviewView, AStoredSessionShowsItsStoredReportAtOnceThenTheComputedOne) {
    std::shared_ptr<const Session> imported = importTraceFile(WARPSCOPE_SAMPLE_TRACE).session;
    ASSERT_NE(imported, nullptr);
    QTemporaryDir dir;
    std::string error;
    std::shared_ptr<const Session> session = test::storedAndReadBack(*imported, dir, &error);
    ASSERT_NE(session, nullptr) << error;
    TimeViewport time;
    time.setSessionRange(session->startNs(), session->endNs());
    OverviewView view(&time, session);
    QSignalSpy computed(&view, &OverviewView::computed);
    view.show();
    // Before any event is processed (the worker cannot have delivered): the file's report.
    ASSERT_TRUE(view.hasReport());
    const std::string stored = overviewToJson(*session, *view.report());
    auto* gapsNote = view.findChild<QLabel*>(QStringLiteral("idleGapsNote"));
    ASSERT_NE(gapsNote, nullptr);
    EXPECT_EQ(gapsNote->text(), QStringLiteral("Looking for GPU idle gaps…"));
    EXPECT_EQ(computed.count(), 0);
    ASSERT_TRUE(computed.wait(10000));
    EXPECT_EQ(overviewToJson(*session, *view.report()), stored) << "the stored report is what computing gives";
    EXPECT_NE(gapsNote->text(), QStringLiteral("Looking for GPU idle gaps…"));
}

// An inference run (issue #49): the Inference section says the latencies per phase, and the slowest
// decode's row selects that forward and its LM head kernel on the timeline.
TEST(OverviewView, ShowsTheInferencePhasesAndClicksThroughToTheSlowestDecode) {
    std::shared_ptr<const Session> session =
        importTraceFile(std::string(WARPSCOPE_TEST_DATA_DIR) + "/inference/hf_eager_shapes.pt.trace.json.gz").session;
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    time.setSessionRange(session->startNs(), session->endNs());
    OverviewView view(&time, session);
    view.computeNow();
    saveScreenshot(view, QStringLiteral("overview_inference"));
    auto* summary = view.findChild<QLabel*>(QStringLiteral("inferenceSummary"));
    ASSERT_NE(summary, nullptr);
    EXPECT_TRUE(summary->text().startsWith(QStringLiteral("48 forward(s) in 2 request(s)"))) << summary->text().toStdString();
    auto* table = view.findChild<QTableWidget*>(QStringLiteral("inferenceTable"));
    ASSERT_NE(table, nullptr);
    ASSERT_EQ(table->rowCount(), 4); // prefill, decode, the slowest of each
    EXPECT_EQ(table->item(0, 1)->text(), QStringLiteral("2"));
    EXPECT_EQ(table->item(1, 1)->text(), QStringLiteral("46"));
    EXPECT_EQ(table->item(1, 2)->text(), QStringLiteral("4.0"));
    QSignalSpy reveal(&view, &OverviewView::revealRequested);
    emit table->cellClicked(3, 0);
    ASSERT_EQ(reveal.count(), 1);
    ASSERT_TRUE(time.selectedSlice().has_value());
    const Track& head = session->tracks()[time.selectedSlice()->track];
    EXPECT_TRUE(head.gpu);
    // Each forward is a bar of the latency chart (2 prefills mark the requests); a bar selects its
    // forward's LM head.
    auto* chart = view.findChild<TokenLatencyChart*>(QStringLiteral("tokenLatencyChart"));
    ASSERT_NE(chart, nullptr);
    ASSERT_EQ(chart->bars().size(), 48u);
    EXPECT_EQ(std::count_if(chart->bars().begin(), chart->bars().end(), [](const auto& b) { return b.prefill; }), 2);
    emit chart->stepClicked(chart->bars()[10].id);
    EXPECT_EQ(reveal.count(), 2);
    // MFU and MBU per phase, and why the GPU idles, from the trace's shapes.
    EXPECT_FALSE(table->item(1, 7)->text().isEmpty());
    EXPECT_FALSE(table->item(1, 9)->text().isEmpty());
}

// A training run has no Inference section.
TEST(OverviewView, HidesTheInferenceSectionForTraining) {
    std::shared_ptr<const Session> session =
        importTraceFile(std::string(WARPSCOPE_TEST_DATA_DIR) + "/captures/zoo/gpt.wscap.gz").session;
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    time.setSessionRange(session->startNs(), session->endNs());
    OverviewView view(&time, session);
    view.computeNow();
    auto* table = view.findChild<QTableWidget*>(QStringLiteral("inferenceTable"));
    ASSERT_NE(table, nullptr);
    EXPECT_FALSE(table->isVisibleTo(&view));
}
