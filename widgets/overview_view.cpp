#include "overview_view.h"

#include "inference_panel.h"

#include "detached_work.h"

#include "analysis/idle_gaps.h"
#include "analysis/inference_gaps.h"
#include "analysis/overview.h"
#include "analysis/session_analyses.h"
#include "analysis/session_results.h"
#include "format.h"
#include "model/session.h"
#include "stat_card.h"
#include "step_breakdown_chart.h"

#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace ws {

namespace {

void clearLayout(QLayout* layout) {
    while (QLayoutItem* item = layout->takeAt(0)) {
        if (QWidget* w = item->widget())
            w->deleteLater();
        delete item;
    }
}

QLabel* sectionTitle(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    QFont f = label->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    label->setFont(f);
    return label;
}

QString percentText(double value, int decimals = 2) {
    return QLocale().toString(value, 'f', decimals) + QStringLiteral(" %");
}

QString msText(double ns) { return QLocale().toString(ns / 1e6, 'f', 3); }

} // namespace

struct OverviewView::Result {
    std::shared_ptr<const OverviewData> data;
    std::shared_ptr<const OverviewReport> report;
    std::shared_ptr<const IdleGapReport> gaps;
    std::shared_ptr<const InferenceSteps> inference; // the whole run's, whatever the range
    std::shared_ptr<const Roofline> roofline;        // its MFU per phase and step
    std::shared_ptr<const std::vector<PhaseIdleCauses>> idleCauses; // why the GPU idles per phase
};

namespace {

OverviewView::Result computeResult(SessionAnalyses& analyses, std::shared_ptr<const OverviewData> data,
                                   const std::optional<OverviewRange>& range) {
    const Session& session = *analyses.session();
    IdleGapOptions options;
    options.range = range;
    OverviewReport computed = computeOverview(session, *data, range);
    // The inference rules need the whole run's forwards (a range's report keeps them too).
    const auto inferenceSteps = analyses.inferenceSteps();
    if (computed.valid && !inferenceSteps->empty())
        addInferenceRecommendations(computed.recommendations, *inferenceSteps);
    auto report = std::make_shared<const OverviewReport>(std::move(computed));
    auto gaps = std::make_shared<const IdleGapReport>(computeIdleGaps(session, *data, options));
    auto roofline = inferenceSteps->empty() ? nullptr : analyses.roofline();
    auto causes = inferenceSteps->empty() ? nullptr : analyses.inferenceIdleCauses();
    return {std::move(data), std::move(report), std::move(gaps), inferenceSteps, std::move(roofline), std::move(causes)};
}

} // namespace

OverviewView::OverviewView(TimeViewport* time, std::shared_ptr<const Session> session, QWidget* parent)
    : OverviewView(time, session ? std::make_shared<SessionAnalyses>(std::move(session)) : nullptr, parent) {}

OverviewView::OverviewView(TimeViewport* time, std::shared_ptr<SessionAnalyses> analyses, QWidget* parent)
    : QWidget(parent), m_time(time), m_analyses(std::move(analyses)),
      m_session(m_analyses ? m_analyses->session() : nullptr), m_debounce(new QTimer(this)),
      m_status(new QLabel(this)), m_wholeTrace(new QPushButton(tr("Show whole trace"), this)) {
    setObjectName(QStringLiteral("overviewView"));
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(200);
    connect(m_debounce, &QTimer::timeout, this, &OverviewView::requestCompute);
    connect(m_time, &TimeViewport::selectedRangeChanged, this, [this] {
        // A range selected from one of our own recommendations is evidence to look at on the
        // timeline, not a new scope: recomputing for it would replace the recommendation.
        if (m_ownSelection && m_time->selectedRange() == m_ownSelection)
            return;
        m_ownSelection.reset();
        if (m_started)
            m_debounce->start();
    });
    m_status->setObjectName(QStringLiteral("overviewStatus"));
    m_status->setText(tr("The overview is computed when this tab is first shown."));
    m_status->setWordWrap(true);
    m_wholeTrace->setVisible(false);
    connect(m_wholeTrace, &QPushButton::clicked, this, [this] { m_time->setSelectedRange(std::nullopt); });

    auto* content = new QWidget(this);
    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(8, 8, 8, 8);
    contentLayout->setSpacing(8);

    contentLayout->addWidget(sectionTitle(tr("Devices"), content));
    m_devices = new QWidget(content);
    m_devicesLayout = new QVBoxLayout(m_devices);
    m_devicesLayout->setContentsMargins(0, 0, 0, 0);
    contentLayout->addWidget(m_devices);

    m_inferenceTitle = sectionTitle(tr("Inference"), content);
    m_inferenceTitle->setVisible(false);
    contentLayout->addWidget(m_inferenceTitle);
    m_inference = new InferencePanel(m_time, content);
    connect(m_inference, &InferencePanel::revealRequested, this, &OverviewView::revealRequested);
    contentLayout->addWidget(m_inference);

    contentLayout->addWidget(sectionTitle(tr("Step time breakdown"), content));
    m_chart = new StepBreakdownChart(content);
    m_chart->setMinimumHeight(300);
    contentLayout->addWidget(m_chart);
    m_table = new QTableWidget(content);
    m_table->setObjectName(QStringLiteral("stepBreakdownTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(false);
    contentLayout->addWidget(m_table);
    // Double-click a step row: select that step on the timeline.
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        if (!m_report || row < 0 || static_cast<size_t>(row) >= m_report->breakdown.steps.size())
            return;
        const StepCosts& st = m_report->breakdown.steps[static_cast<size_t>(row)];
        m_time->showRange(st.start, st.end);
    });

    contentLayout->addWidget(sectionTitle(tr("Why the GPU waits"), content));
    m_gapsNote = new QLabel(content);
    m_gapsNote->setObjectName(QStringLiteral("idleGapsNote"));
    m_gapsNote->setWordWrap(true);
    contentLayout->addWidget(m_gapsNote);
    m_gapsTable = new QTableWidget(content);
    m_gapsTable->setObjectName(QStringLiteral("idleGapsTable"));
    m_gapsTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_gapsTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_gapsTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_gapsTable->verticalHeader()->hide();
    m_gapsTable->setColumnCount(5);
    m_gapsTable->setHorizontalHeaderLabels({tr("Cause"), tr("Per step (ms)"), tr("Share"), tr("Gaps"), tr("Top lines")});
    m_gapsTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_gapsTable->horizontalHeader()->setStretchLastSection(true);
    contentLayout->addWidget(m_gapsTable);
    // A row selects its gaps on the timeline.
    connect(m_gapsTable, &QTableWidget::cellClicked, this, [this](int row, int) { selectGapCategory(row); });

    contentLayout->addWidget(sectionTitle(tr("Recommendations"), content));
    m_recommendations = new QWidget(content);
    m_recommendations->setObjectName(QStringLiteral("overviewRecommendations"));
    m_recommendationsLayout = new QVBoxLayout(m_recommendations);
    m_recommendationsLayout->setContentsMargins(0, 0, 0, 0);
    contentLayout->addWidget(m_recommendations);
    contentLayout->addStretch(1);

    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(content);

    auto* header = new QHBoxLayout();
    header->addWidget(m_status, 1);
    header->addWidget(m_wholeTrace);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(header);
    layout->addWidget(scroll, 1);
}

// The worker is never waited for (startDetached): closing the tab returns at once.
OverviewView::~OverviewView() = default;

void OverviewView::showEvent(QShowEvent* event) {
    if (!m_started && m_session) {
        m_started = true;
        showStoredReport();
        requestCompute();
    }
    QWidget::showEvent(event);
}

void OverviewView::showStoredReport() {
    const auto selected = m_time->selectedRange();
    if (!m_analyses || (selected && selected->end > selected->start))
        return; // a range's Overview is computed
    // Decoding is a few hundred microseconds of a small blob: fine on the GUI thread.
    const std::shared_ptr<const SessionResults> stored = m_analyses->storedResults();
    if (!stored)
        return;
    m_gapsPending = true;
    showReport({nullptr, std::make_shared<const OverviewReport>(stored->run.overview), nullptr, nullptr, nullptr, nullptr},
               false);
}

void OverviewView::requestCompute() {
    if (m_busy) {
        m_pending = true;
        return;
    }
    startWorker();
}

static std::optional<OverviewRange> toRange(const std::optional<TimeRange>& r) {
    if (!r || r->end <= r->start)
        return std::nullopt;
    return OverviewRange{r->start, r->end};
}

void OverviewView::startWorker() {
    m_busy = true;
    m_pending = false;
    if (!m_gapsPending) // else the stored report stays in view meanwhile
        m_status->setText(tr("Computing the overview…"));
    // The first run prepares the session's data (a few passes over every slice); later runs for a
    // new selection only recompute the report from it. Both stay off the GUI thread.
    const uint64_t generation = ++m_generation;
    startDetached(
        this,
        [analyses = m_analyses, data = m_data, range = toRange(m_time->selectedRange())] {
            std::shared_ptr<const OverviewData> d = data ? data : analyses->overviewData();
            return computeResult(*analyses, std::move(d), range);
        },
        [generation](OverviewView& view, auto result) {
            view.m_busy = false;
            if (generation == view.m_generation) // else computeNow() showed a newer one meanwhile
                view.showReport(result);
            if (view.m_pending)
                view.startWorker();
        });
}

void OverviewView::computeNow() {
    if (!m_session)
        return;
    ++m_generation; // a worker still running delivers nothing over this
    m_started = true;
    if (!m_data)
        m_data = m_analyses->overviewData();
    showReport(computeResult(*m_analyses, m_data, toRange(m_time->selectedRange())));
}

void OverviewView::showReport(const Result& result, bool complete) {
    if (complete)
        m_gapsPending = false;
    m_data = result.data;
    m_report = result.report;
    m_gaps = result.gaps;
    if (result.inference) { // a stored report alone comes without it: the last one stays
        m_inference->setSteps(result.inference, result.roofline, result.idleCauses);
        m_inferenceTitle->setVisible(!result.inference->empty());
    }
    const OverviewReport& r = *m_report;
    m_wholeTrace->setVisible(r.selection);
    if (!r.valid) {
        m_status->setText(tr("Nothing to analyse: the trace has no events in this range."));
    } else {
        const QString span = formatDuration(r.windowEnd - r.windowStart);
        const int steps = static_cast<int>(r.breakdown.steps.size());
        QString what;
        if (r.selection)
            what = r.profilerSteps ? tr("Selected range: %n profiler step(s) inside it, clipped to it, %1", nullptr, steps).arg(span)
                                   : tr("Selected range: %1 (no profiler step inside it)").arg(span);
        else
            what = r.profilerSteps ? tr("Whole trace: %n profiler step(s), %1", nullptr, steps).arg(span)
                                   : tr("Whole trace: no profiler steps, the trace's %1 counts as one step").arg(span);
        if (r.stepSource == OverviewReport::StepSource::Named)
            what += tr(" · the steps are ranges named like steps (e.g. NVTX \"step 3\")");
        else if (r.stepSource == OverviewReport::StepSource::Optimizer)
            what += tr(" · the steps run from one optimizer step to the next (PyTorch's Optimizer.step ranges)");
        else if (r.stepSource == OverviewReport::StepSource::LaunchPattern)
            what += tr(" · the steps were found from the repeating kernel launch pattern");
        if (r.startup)
            what += tr(" · the first step (%1, more than twice the others: CUDA loading, library handles, "
                       "autotuning) is left out as start-up")
                        .arg(formatDuration(r.startup->end - r.startup->start));
        if (r.recordedPieces > 0)
            what += tr(" · recorded only between cudaProfilerStart and cudaProfilerStop: %1 unseen between the "
                       "recorded spans and %n step(s) that reached into it are left out",
                       nullptr, static_cast<int>(r.unrecordedSteps))
                        .arg(formatDuration(r.unrecordedNs));
        m_status->setText(what);
    }
    rebuildDevices();
    m_chart->setBreakdown(r.breakdown);
    rebuildTable();
    rebuildGaps();
    rebuildRecommendations();
    if (complete)
        emit computed();
}

void OverviewView::rebuildDevices() {
    clearLayout(m_devicesLayout);
    const OverviewReport& r = *m_report;
    const QString absent = tr("not in this trace");
    if (r.devices.empty()) {
        m_devicesLayout->addWidget(new QLabel(tr("No GPU in this trace."), m_devices));
        return;
    }
    for (const DeviceOverview& d : r.devices) {
        auto* box = new QGroupBox(d.name.empty() ? tr("GPU %1").arg(d.id)
                                                 : tr("GPU %1: %2").arg(d.id).arg(QString::fromStdString(d.name)),
                                  m_devices);
        box->setObjectName(QStringLiteral("deviceBox%1").arg(d.id));
        auto* grid = new QGridLayout(box);
        auto addCard = [&](int column, const QString& caption, const QString& value, const QString& detail, int row = 0) {
            auto* card = new StatCard(caption, box);
            card->setObjectName(row == 0 ? QStringLiteral("card") : QStringLiteral("measuredCard"));
            card->setValue(value, detail);
            grid->addWidget(card, row, column);
        };
        const QString noKernels = d.kernelCount == 0 ? tr("no kernels in this range") : absent;
        addCard(0, tr("GPU Utilization"), d.gpuUtilization ? percentText(*d.gpuUtilization * 100) : noKernels,
                d.graphSpanNs > 0 ? tr("kernel busy time / steps time, leaving out %1 of CUDA graph replays recorded "
                                       "as one span each (--graph-trace=graph: what ran inside them is not traced)")
                                        .arg(formatDuration(d.graphSpanNs))
                                  : tr("kernel busy time / steps time"));
        if (d.amd) {
            addCard(1, tr("Est. CU Efficiency"), d.smEfficiency ? percentText(*d.smEfficiency * 100) : absent,
                    d.smEfficiency ? tr("from workgroups per compute unit") : tr("needs grid and block kernel args"));
            addCard(2, tr("Est. Achieved Occupancy"), d.achievedOccupancy ? percentText(*d.achievedOccupancy) : tr("cannot be computed"),
                    d.achievedOccupancy ? tr("wavefronts, kernel-time weighted")
                                        : tr("no register counts for AMD kernels in this trace (rocprofiler-sdk JSON has them)"));
            addCard(3, tr("Kernel time using matrix cores"), d.tensorCoreShare ? percentText(*d.tensorCoreShare * 100, 1) : noKernels,
                    tr("MFMA kernels, by kernel name"));
        } else {
            addCard(1, tr("Est. SM Efficiency"), d.smEfficiency ? percentText(*d.smEfficiency * 100) : absent,
                    d.smEfficiency ? tr("estimate from blocks per SM") : tr("needs \"blocks per SM\" kernel args"));
            addCard(2, tr("Est. Achieved Occupancy"), d.achievedOccupancy ? percentText(*d.achievedOccupancy) : absent,
                    !d.achievedOccupancy   ? tr("needs occupancy or launch geometry kernel args")
                    : d.occupancyComputed ? tr("from launch geometry and device limits, kernel-time weighted")
                                          : tr("kernel-time weighted"));
            addCard(3, tr("Kernel time using Tensor Cores"), d.tensorCoreShare ? percentText(*d.tensorCoreShare * 100, 1) : noKernels,
                    tr("by kernel name"));
            // Measured by the GPU (a capture's PM sampling), under the estimates they correspond to.
            auto addMeasured = [&](MeasuredCounter c, int column, const QString& caption) {
                if (const std::optional<double>& v = d.measuredValue(c))
                    addCard(column, caption, percentText(*v), tr("measured (PM sampling), % of peak"), 1);
            };
            addMeasured(MeasuredCounter::SmActive, 1, tr("SM Active"));
            addMeasured(MeasuredCounter::DramBandwidth, 2, tr("DRAM Bandwidth"));
            addMeasured(MeasuredCounter::TensorActive, 3, tr("Tensor Active"));
        }
        QStringList facts;
        if (d.amd) {
            facts << (d.smCount ? tr("%1 compute units").arg(*d.smCount) : tr("compute units: %1").arg(absent));
            facts << (d.memoryBytes ? tr("%1 memory").arg(formatBytes(*d.memoryBytes)) : tr("memory: %1").arg(absent));
            facts << (d.computeMajor ? tr("GFX version %1.%2").arg(*d.computeMajor).arg(d.computeMinor.value_or(0))
                                     : tr("GFX version: %1").arg(absent));
        } else {
            facts << (d.smCount ? tr("%1 SMs").arg(*d.smCount) : tr("SMs: %1").arg(absent));
            facts << (d.memoryBytes ? tr("%1 memory").arg(formatBytes(*d.memoryBytes)) : tr("memory: %1").arg(absent));
            facts << (d.computeMajor ? tr("compute capability %1.%2").arg(*d.computeMajor).arg(d.computeMinor.value_or(0))
                                     : tr("compute capability: %1").arg(absent));
        }
        facts << tr("%1 kernels, %2").arg(formatCount(d.kernelCount), formatDuration(d.kernelNs));
        facts << (d.peakAllocatedBytes ? tr("peak allocated %1").arg(formatBytes(*d.peakAllocatedBytes))
                                       : tr("peak allocated: %1").arg(absent));
        auto* info = new QLabel(facts.join(QStringLiteral("  ·  ")), box);
        info->setObjectName(QStringLiteral("deviceFacts"));
        info->setWordWrap(true);
        grid->addWidget(info, 2, 0, 1, 4);
        m_devicesLayout->addWidget(box);
    }
}

void OverviewView::rebuildTable() {
    const StepBreakdown& b = m_report->breakdown;
    const int rows = static_cast<int>(b.steps.size()) + (b.steps.empty() ? 0 : 1);
    m_table->clear();
    m_table->setRowCount(rows);
    m_table->setColumnCount(static_cast<int>(kStepRoleCount) + 2);
    QStringList headers{tr("Step")};
    for (size_t role = 0; role < kStepRoleCount; ++role)
        headers << tr("%1 (ms)").arg(StepBreakdownChart::roleTitle(role));
    headers << tr("Total (ms)");
    m_table->setHorizontalHeaderLabels(headers);
    auto cell = [&](int row, int column, const QString& text) {
        auto* item = new QTableWidgetItem(text);
        item->setTextAlignment(column == 0 ? (Qt::AlignLeft | Qt::AlignVCenter) : (Qt::AlignRight | Qt::AlignVCenter));
        m_table->setItem(row, column, item);
        return item;
    };
    for (size_t i = 0; i < b.steps.size(); ++i) {
        const StepCosts& st = b.steps[i];
        const int row = static_cast<int>(i);
        cell(row, 0, st.label.empty() ? (b.steps.size() == 1 ? tr("All") : QString::number(i + 1)) : QString::fromStdString(st.label));
        for (size_t role = 0; role < kStepRoleCount; ++role)
            cell(row, static_cast<int>(role) + 1, msText(static_cast<double>(st.cost[role])));
        cell(row, static_cast<int>(kStepRoleCount) + 1, msText(static_cast<double>(st.total())));
    }
    if (!b.steps.empty()) {
        const int row = rows - 1;
        QFont bold = m_table->font();
        bold.setBold(true);
        cell(row, 0, tr("Average"))->setFont(bold);
        for (size_t role = 0; role < kStepRoleCount; ++role)
            cell(row, static_cast<int>(role) + 1,
                 tr("%1 (%2)").arg(msText(b.average[role]), percentText(b.averageShare(static_cast<StepRole>(role)) * 100, 1)))
                ->setFont(bold);
        cell(row, static_cast<int>(kStepRoleCount) + 1, msText(b.averageTotal))->setFont(bold);
    }
    // As torch-tb-profiler: device columns only when the trace has device activity, Communication
    // only when it communicates.
    for (StepRole role : {StepRole::Kernel, StepRole::Memcpy, StepRole::Memset, StepRole::Runtime})
        m_table->setColumnHidden(static_cast<int>(role) + 1, !b.anyDeviceActivity);
    m_table->setColumnHidden(static_cast<int>(StepRole::Communication) + 1, !b.anyCommunication);
    // Tall enough for up to 12 rows without an inner scroll bar for small step counts.
    const int visibleRows = std::min(rows, 12);
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() +
                              visibleRows * m_table->verticalHeader()->defaultSectionSize() + 4);
    m_table->setMaximumHeight(m_table->minimumHeight());
}

namespace {

// A line as the table shows it: the call, range or operator, then file:line and function; the
// lines core words itself (no event, busy workers) in the user's language.
QString gapLineTitle(const GapLine& l) {
    QString what = QString::fromStdString(l.what);
    if (l.what == "no event on the launching thread")
        what = OverviewView::tr("no event on the launching thread");
    else if (l.what == "no launch recorded for the GPU work after the gap")
        what = OverviewView::tr("no launch recorded for the GPU work after the gap");
    else if (l.what == "DataLoader worker processes busy (host_cpu_children)")
        what = OverviewView::tr("DataLoader worker processes busy (their CPU use)");
    QString where;
    if (!l.file.empty()) {
        QString file = QString::fromStdString(l.file);
        file = file.mid(file.lastIndexOf(QLatin1Char('/')) + 1); // the full path is in the tooltip
        where = l.line > 0 ? QStringLiteral("%1:%2").arg(file).arg(l.line) : file;
        if (!l.function.empty())
            where += QLatin1Char(' ') + QString::fromStdString(l.function);
    }
    if (what.isEmpty())
        return where.isEmpty() ? OverviewView::tr("(unknown)") : where;
    return where.isEmpty() ? what : QStringLiteral("%1 (%2)").arg(what, where);
}

} // namespace

void OverviewView::rebuildGaps() {
    m_gapsTable->clearContents();
    m_gapsTable->setRowCount(0);
    const IdleGapReport* r = m_gaps.get();
    if (!r && m_gapsPending) {
        m_gapsNote->setText(tr("Looking for GPU idle gaps…"));
        m_gapsTable->setVisible(false);
        return;
    }
    if (!r || !r->valid) {
        m_gapsNote->setText(tr("No steps to look for GPU idle gaps in."));
        m_gapsTable->setVisible(false);
        return;
    }
    const QString threshold = formatDuration(r->thresholdNs);
    const int steps = static_cast<int>(r->steps.size());
    if (r->gaps.empty()) {
        m_gapsNote->setText(tr("No GPU idle gap of at least %1 inside the steps.").arg(threshold));
        m_gapsTable->setVisible(false);
        return;
    }
    m_gapsTable->setVisible(true);
    m_gapsNote->setText(
        tr("%n GPU idle gap(s) of at least %1 inside the steps: %2 per step, %3 of the steps' time, "
           "classified by what the thread that launched the next GPU work did meanwhile. Click a row to mark "
           "its gaps on the timeline.",
           nullptr, static_cast<int>(r->gaps.size()))
            .arg(threshold, formatDuration(static_cast<int64_t>(static_cast<double>(r->gapNs) / steps)),
                 percentText(100.0 * static_cast<double>(r->gapNs) / static_cast<double>(r->stepsNs), 1)));
    std::vector<size_t> order;
    for (size_t k = 0; k < kGapCategoryCount; ++k)
        if (r->categories[k].ns > 0)
            order.push_back(k);
    std::stable_sort(order.begin(), order.end(), [r](size_t a, size_t b) { return r->categories[a].ns > r->categories[b].ns; });
    m_gapsTable->setRowCount(static_cast<int>(order.size()));
    for (int row = 0; row < static_cast<int>(order.size()); ++row) {
        const GapCategory c = static_cast<GapCategory>(order[static_cast<size_t>(row)]);
        const GapCategoryTotals& t = r->totals(c);
        auto* name = new QTableWidgetItem(formatGapCategory(c));
        name->setData(Qt::UserRole, static_cast<int>(c));
        m_gapsTable->setItem(row, 0, name);
        auto right = [&](int column, const QString& text) {
            auto* item = new QTableWidgetItem(text);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_gapsTable->setItem(row, column, item);
        };
        right(1, msText(t.perStepNs));
        right(2, percentText(100.0 * t.share, 1));
        right(3, formatCount(t.gaps));
        QStringList shown, tip;
        for (size_t i = 0; i < t.lines.size() && i < 10; ++i) {
            const GapLine& l = r->lines[t.lines[i]];
            const QString share = percentText(100.0 * static_cast<double>(l.ns) / static_cast<double>(t.ns), 0);
            // The three heaviest, leaving out those too small to show a share.
            if (shown.size() < 3 && (shown.isEmpty() || 200 * l.ns >= t.ns))
                shown << tr("%1 · %2").arg(gapLineTitle(l), share);
            tip << tr("%1 ms per step · %2 · %3")
                       .arg(msText(static_cast<double>(l.ns) / steps), share, QString::fromStdString(gapLineText(l)).toHtmlEscaped());
        }
        auto* lines = new QTableWidgetItem(shown.join(QStringLiteral(";  ")));
        lines->setToolTip(tip.join(QStringLiteral("<br>")));
        m_gapsTable->setItem(row, 4, lines);
    }
    const int visibleRows = static_cast<int>(order.size());
    m_gapsTable->setMinimumHeight(m_gapsTable->horizontalHeader()->sizeHint().height() +
                                  visibleRows * m_gapsTable->verticalHeader()->defaultSectionSize() + 4);
    m_gapsTable->setMaximumHeight(m_gapsTable->minimumHeight());
}

void OverviewView::selectGapCategory(int row) {
    const QTableWidgetItem* item = m_gapsTable->item(row, 0);
    if (!m_gaps || !item)
        return;
    const auto c = static_cast<GapCategory>(item->data(Qt::UserRole).toInt());
    std::vector<TimeRange> marks;
    TimeRange longest;
    for (const IdleGap& g : m_gaps->gaps)
        if (g.category == c) {
            marks.push_back({g.start, g.end});
            if (g.duration() > longest.length())
                longest = {g.start, g.end};
        }
    if (marks.empty())
        return;
    std::sort(marks.begin(), marks.end(), [](const TimeRange& a, const TimeRange& b) { return a.start < b.start; });
    m_time->setMarkedRanges(std::move(marks));
    // Evidence to look at, not a new scope (as a recommendation's range).
    m_ownSelection = longest;
    m_time->setSelectedRange(longest);
    m_time->showRange(longest.start, longest.end);
}

QString OverviewView::recommendationTitle(const Recommendation& r) const {
    const QString gpu = r.device >= 0 ? tr("GPU %1").arg(r.device) : tr("the GPU");
    switch (r.kind) {
    case RecommendationKind::DataLoader: return tr("Data loading takes a large share of each step");
    case RecommendationKind::LowGpuUtilization: return tr("Low GPU utilization on %1").arg(gpu);
    case RecommendationKind::EnableAmp: return tr("Tensor Cores are idle on %1: try automatic mixed precision").arg(gpu);
    case RecommendationKind::MemoryNearCapacity: return tr("Memory use is near capacity on %1").arg(gpu);
    case RecommendationKind::Communication: return tr("Communication takes a large share of each step");
    case RecommendationKind::LaunchBoundKernels: return tr("Many short kernels are launch-bound on %1").arg(gpu);
    case RecommendationKind::SynchronousCalls: return tr("The CPU waits in synchronous copies and synchronization");
    case RecommendationKind::PageableCopies: return tr("Copies use pageable host memory");
    case RecommendationKind::LongIdleGap: return tr("Long GPU idle gap on %1").arg(gpu);
    case RecommendationKind::BusyDataLoaderWorkers: return tr("DataLoader workers are busy while the GPU waits");
    case RecommendationKind::HostBoundDecode: return tr("Decode is host-bound on %1").arg(gpu);
    }
    return {};
}

QString OverviewView::recommendationEvidence(const Recommendation& r) const {
    const QString share = percentText(r.share * 100, 1), threshold = percentText(r.threshold * 100, 0);
    switch (r.kind) {
    case RecommendationKind::DataLoader:
        return tr("DataLoader takes %1 of the average step (%2, threshold %3). Use DataLoader(num_workers > 0, "
                  "pin_memory=True) or prefetching so loading overlaps compute.")
            .arg(formatDuration(r.ns), share, threshold);
    case RecommendationKind::LowGpuUtilization:
        return tr("Kernels run during %1 of the steps (threshold %2). Increase the batch size, overlap data loading, "
                  "or reduce CPU work between kernels.")
            .arg(share, threshold);
    case RecommendationKind::EnableAmp:
        return tr("%1 GEMM/convolution kernels take %2 (%3 of kernel time) and no kernel uses Tensor Cores. "
                  "torch.autocast with float16/bfloat16 runs them on Tensor Cores. Longest: %4")
            .arg(formatCount(r.count), formatDuration(r.ns), share, QString::fromStdString(r.name));
    case RecommendationKind::MemoryNearCapacity:
        return tr("Peak allocated memory is %1 of %2 (%3, threshold %4). Reduce the batch size, use activation "
                  "checkpointing, or free unused tensors.")
            .arg(formatBytes(r.bytes), formatBytes(r.capacityBytes), share, threshold);
    case RecommendationKind::Communication:
        return tr("Communication takes %1 of the average step (%2, threshold %3). Overlap it with compute "
                  "(gradient bucketing), compress gradients, or check the interconnect.")
            .arg(formatDuration(r.ns), share, threshold);
    case RecommendationKind::LaunchBoundKernels:
        return tr("%1 of %2 kernels are shorter than %3 (mean %4) and start after the GPU went idle for at most %5; "
                  "the GPU waits %6 for them (%7 of the time). Fuse them (torch.compile) or use CUDA Graphs.")
            .arg(formatCount(r.count), formatCount(r.total), formatDuration(kShortKernelNs),
                 formatDuration(r.meanKernelNs), formatDuration(kLaunchGapMaxNs), formatDuration(r.ns), share);
    case RecommendationKind::SynchronousCalls:
        return tr("%1 blocking calls take %2 (%3 of the time, threshold %4), most in %5. Use asynchronous copies "
                  "(non_blocking=True) and avoid .item()/.cpu() inside the step.")
            .arg(formatCount(r.count), formatDuration(r.ns), share, threshold, QString::fromStdString(r.name));
    case RecommendationKind::PageableCopies:
        return (r.bytes > 0 ? tr("%1 copies from or to pageable host memory take %2 for %3.")
                                  .arg(formatCount(r.count), formatDuration(r.ns), formatBytes(r.bytes))
                            : tr("%1 copies from or to pageable host memory take %2.")
                                  .arg(formatCount(r.count), formatDuration(r.ns))) +
               QLatin1Char(' ') + tr("Pinned memory (pin_memory=True) makes them faster and asynchronous.");
    case RecommendationKind::LongIdleGap:
        return tr("The GPU is idle for %1 at once (%2 of the average step); in all it is idle %3 between its "
                  "operations.")
                   .arg(formatDuration(r.ns), share, formatDuration(static_cast<int64_t>(r.total))) +
               QLatin1Char(' ') + longIdleGapCause(r);
    case RecommendationKind::BusyDataLoaderWorkers:
        return tr("The program's worker processes use %1 % of a core on average (threshold %2 %) while GPU "
                  "utilization is %3: preparing the input likely limits the step. Add DataLoader workers "
                  "(num_workers), move augmentation to the GPU, or cache decoded samples.")
            .arg(QString::number(r.cpuPercent, 'f', 0), QString::number(r.threshold, 'f', 0), share);
    case RecommendationKind::HostBoundDecode:
        return tr("%1 decode forwards keep the GPU busy %2 of their time (threshold %3): a token takes %4 (p50) and "
                  "its kernels %5. The host sets the pace: %6")
            .arg(formatCount(r.count), share, threshold, formatDuration(r.ns), formatDuration(r.meanKernelNs),
                 r.total ? tr("the decode already replays CUDA graphs, so the Python between the replays (sampling, "
                              "the generate loop) is the cost; decode more sequences per step or move the sampling "
                              "into the graph.")
                         : tr("capture the decode step in CUDA graphs (torch.compile(mode=\"reduce-overhead\"), "
                              "transformers' cache_implementation=\"static\", vLLM or SGLang's graphs), or decode "
                              "more sequences per step."));
    }
    return {};
}

QString OverviewView::longIdleGapCause(const Recommendation& r) const {
    const std::optional<GapCategory> category = longIdleGapCategory(r);
    if (!category || *category == GapCategory::Nothing)
        return tr("Nothing was recorded on the host then (a capture records what the host runs with Python "
                  "sampling, warpscope-capture --py-sample); select the gap to see the timeline around it.");
    QString cause = formatGapCategoryInSentence(*category);
    if (!r.name.empty())
        cause = tr("%1 at %2").arg(cause, QString::fromStdString(r.name));
    if (!r.detail.empty())
        cause = tr("%1, after %2 drained the GPU's queue").arg(cause, QString::fromStdString(r.detail));
    QString advice;
    switch (*category) {
    case GapCategory::Sync:
        advice = tr("Avoid .item(), .cpu() and synchronize() inside the step, or move them after the next launches.");
        break;
    case GapCategory::Collective:
        advice = tr("Overlap the communication with compute (gradient bucketing, asynchronous collectives).");
        break;
    case GapCategory::DataLoading:
        advice = tr("Overlap data loading with compute: DataLoader(num_workers > 0, pin_memory=True) or prefetching.");
        break;
    case GapCategory::CpuWork:
        advice = tr("The host's work there delays the next launch: move it out of the step, or queue more GPU work "
                    "before it (CUDA graphs, torch.compile).");
        break;
    case GapCategory::Nothing: break;
    }
    return tr("Meanwhile the host was in %1. %2").arg(cause, advice);
}

QWidget* OverviewView::recommendationWidget(const Recommendation& r) {
    auto* frame = new QFrame(m_recommendations);
    frame->setObjectName(QStringLiteral("recommendation"));
    frame->setFrameShape(QFrame::StyledPanel);
    auto* layout = new QGridLayout(frame);
    const bool warning = r.severity == RecommendationSeverity::Warning;
    auto* tag = new QLabel(warning ? tr("Warning") : tr("Info"), frame);
    tag->setStyleSheet(warning ? QStringLiteral("color: white; background: #c0392b; padding: 2px 6px; border-radius: 3px;")
                               : QStringLiteral("color: white; background: #2e86c1; padding: 2px 6px; border-radius: 3px;"));
    tag->setAlignment(Qt::AlignCenter);
    tag->setMinimumWidth(tag->fontMetrics().horizontalAdvance(tr("Warning")) + 16); // titles line up
    auto* title = new QLabel(recommendationTitle(r), frame);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    auto* evidence = new QLabel(recommendationEvidence(r), frame);
    evidence->setObjectName(QStringLiteral("evidence"));
    evidence->setWordWrap(true);
    evidence->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(tag, 0, 0, Qt::AlignTop);
    layout->addWidget(title, 0, 1);
    layout->addWidget(evidence, 1, 1);
    auto* buttons = new QHBoxLayout();
    if (r.range) {
        auto* select = new QPushButton(tr("Select on timeline"), frame);
        select->setObjectName(QStringLiteral("selectRange"));
        const RecommendationRange range = *r.range;
        connect(select, &QPushButton::clicked, this, [this, range] {
            m_ownSelection = TimeRange{range.start, range.end};
            m_time->setSelectedRange(m_ownSelection);
            m_time->showRange(range.start, range.end);
        });
        buttons->addWidget(select);
    }
    if (r.slice) {
        auto* show = new QPushButton(tr("Show slice"), frame);
        show->setObjectName(QStringLiteral("showSlice"));
        const SliceRef ref{r.slice->track, r.slice->slice};
        connect(show, &QPushButton::clicked, this, [this, ref] {
            m_time->setSelectedSlice(ref);
            emit revealRequested(ref);
        });
        buttons->addWidget(show);
    }
    buttons->addStretch(1);
    layout->addLayout(buttons, 2, 1);
    layout->setColumnStretch(1, 1);
    return frame;
}

void OverviewView::rebuildRecommendations() {
    clearLayout(m_recommendationsLayout);
    if (m_report->recommendations.empty()) {
        m_recommendationsLayout->addWidget(new QLabel(tr("No recommendation: no rule found a problem here."), m_recommendations));
        return;
    }
    for (const Recommendation& r : m_report->recommendations)
        m_recommendationsLayout->addWidget(recommendationWidget(r));
}

} // namespace ws
