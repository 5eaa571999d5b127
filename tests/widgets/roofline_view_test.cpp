// The Roofline tab (issue #49): a transformers generate() captured with shapes and PM sampling on an
// H200, placed on the H200's roofline, another GPU's peaks on request, the ncu command for a kernel
// and Nsight Compute's exports attached to it (tests/data/inference, tests/data/ncu).

#include "analysis/ncu_match.h"
#include "analysis/roofline.h"
#include "analysis/session_analyses.h"
#include "detached_work.h"
#include "import/trace_import.h"
#include "model/session.h"
#include "roofline_chart.h"
#include "roofline_group_model.h"
#include "roofline_view.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSignalSpy>

#include <gtest/gtest.h>

using namespace ws;

namespace {

std::string data(const char* relative) { return std::string(WARPSCOPE_TEST_DATA_DIR) + "/" + relative; }

void waitReady(RooflineView& view) {
    view.computeNow();
    QElapsedTimer timer;
    timer.start();
    while (!view.ready() && timer.elapsed() < 60000)
        QCoreApplication::processEvents();
    QCoreApplication::processEvents();
}

int rowOf(const RooflineGroupModel& model, const QString& needle) {
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.data(model.index(r, RooflineGroupModel::Kernel), Qt::DisplayRole).toString().contains(needle))
            return r;
    return -1;
}

} // namespace

TEST(RooflineView, PlacesAGenerateLoopOnItsGpusRoofline) {
    auto session = importTraceFile(data("inference/hf_pm_shapes.wscap.gz")).session;
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    time.setSessionRange(session->startNs(), session->endNs());
    RooflineView view(&time, std::make_shared<SessionAnalyses>(session));
    waitReady(view);
    ASSERT_TRUE(view.ready());
    view.resize(1400, 600);
    view.grab().save(QStringLiteral("/tmp/roofline_view.png"));
    const QString summary = view.summaryText();
    EXPECT_TRUE(summary.contains(QStringLiteral("NVIDIA H200 as NVIDIA H200 SXM"))) << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("decode: MFU"))) << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("PM sampling: DRAM"))) << summary.toStdString();
    // A point for every kernel name with an estimate, and a ring for each phase.
    size_t phases = 0, kernels = 0;
    for (const RooflineChart::Point& p : view.chart()->points()) {
        phases += p.phase;
        kernels += !p.phase && !p.measured;
        EXPECT_GT(p.intensity, 0);
        EXPECT_GT(p.tflops, 0);
    }
    EXPECT_EQ(phases, 2u);
    EXPECT_GT(kernels, 20u);
    // The decode GEMM that reads its weights once per token reaches the memory roof.
    const int gemm = rowOf(*view.model(), QStringLiteral("nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT"));
    ASSERT_GE(gemm, 0);
    EXPECT_EQ(view.model()->data(view.model()->index(gemm, RooflineGroupModel::BoundColumn), Qt::DisplayRole).toString(),
              QStringLiteral("memory"));
    // Its ncu command: the capture's program, the function name and a launch to skip to.
    const QString command = view.ncuCommandFor(gemm);
    EXPECT_TRUE(command.startsWith(QStringLiteral("ncu --kernel-name-base function --kernel-name "
                                                  "'regex:^nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT$' --launch-skip ")))
        << command.toStdString();
    EXPECT_TRUE(command.contains(QStringLiteral("python3 capture/samples/hf_generate.py eager plain")));
    EXPECT_TRUE(command.contains(QStringLiteral("--csv --page raw")));
    // A click on its point selects its row.
    for (const RooflineChart::Point& p : view.chart()->points())
        if (p.id == gemm && !p.phase)
            emit view.chart()->pointClicked(p.id);
}

TEST(RooflineView, NsightComputeResultsSitBesideTheEstimates) {
    auto session = importTraceFile(data("inference/hf_pm_shapes.wscap.gz")).session;
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    time.setSessionRange(session->startNs(), session->endNs());
    RooflineView view(&time, std::make_shared<SessionAnalyses>(session));
    waitReady(view);
    QString error;
    EXPECT_FALSE(view.attachNcu({QString::fromStdString(data("inference/README.md"))}, &error));
    EXPECT_TRUE(error.contains(QStringLiteral("Nsight Compute"))) << error.toStdString();
    ASSERT_TRUE(view.attachNcu({QString::fromStdString(data("ncu/hf_nvjet_raw.csv.gz")),
                                QString::fromStdString(data("ncu/hf_nvjet_details.csv.gz"))},
                               &error))
        << error.toStdString();
    EXPECT_EQ(view.model()->columnCount(), RooflineGroupModel::ColumnCount);
    const int gemm = rowOf(*view.model(), QStringLiteral("nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT"));
    ASSERT_GE(gemm, 0);
    const NcuKernelMeasure* m = view.model()->measureOf(gemm);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->launches, 3u);
    EXPECT_GT(m->durationNs, 6000);
    // ncu's speed of light: under 60 % of both roofs, latency-bound where the estimate said memory.
    EXPECT_EQ(view.model()->data(view.model()->index(gemm, RooflineGroupModel::NcuBound), Qt::DisplayRole).toString(),
              QStringLiteral("latency"));
    size_t measured = 0;
    for (const RooflineChart::Point& p : view.chart()->points())
        measured += p.measured;
    EXPECT_EQ(measured, 1u);
    EXPECT_TRUE(view.summaryText().contains(QStringLiteral("Nsight Compute: 3 launch(es) attached.")));
    view.resize(1400, 600);
    view.grab().save(QStringLiteral("/tmp/roofline_view_ncu.png"));
}

TEST(RooflineView, AnotherGpusPeaksCanBeChosen) {
    auto session = importTraceFile(data("inference/graph_shapes.pt.trace.json.gz")).session;
    ASSERT_NE(session, nullptr);
    TimeViewport time;
    time.setSessionRange(session->startNs(), session->endNs());
    RooflineView view(&time, std::make_shared<SessionAnalyses>(session));
    waitReady(view);
    view.setGpu(QStringLiteral("NVIDIA A100 SXM 80GB"));
    ASSERT_NE(view.roofline(), nullptr);
    ASSERT_TRUE(view.roofline()->peaks());
    EXPECT_STREQ(view.roofline()->peaks()->name, "NVIDIA A100 SXM 80GB");
    EXPECT_TRUE(view.summaryText().contains(QStringLiteral("as NVIDIA A100 SXM 80GB: 312.0 TFLOP/s")))
        << view.summaryText().toStdString();
}
