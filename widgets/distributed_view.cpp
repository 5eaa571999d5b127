#include "distributed_view.h"

#include "analysis/distributed.h"
#include "comm_op_model.h"
#include "distributed_worker_model.h"
#include "format.h"
#include "job_loader.h"
#include "worker_stack_chart.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include <set>

namespace ws {

namespace {

QTableView* makeTable(QAbstractItemModel* model, QSortFilterProxyModel* proxy, const QString& name, QWidget* parent) {
    proxy->setSourceModel(model);
    proxy->setSortRole(Qt::UserRole);
    auto* table = new QTableView(parent);
    table->setObjectName(name);
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->horizontalHeader()->setStretchLastSection(true);
    table->sortByColumn(0, Qt::AscendingOrder); // by rank
    return table;
}

// Fixed colors of the two splits (tb-profiler's order: computation first, other last).
const QColor kComputation(0x4c, 0x72, 0xb0), kOverlap(0x81, 0x72, 0xb3), kCommunication(0xc4, 0x4e, 0x52),
    kOther(0x8c, 0x8c, 0x8c), kSync(0xdd, 0x84, 0x52), kTransfer(0x55, 0xa8, 0x68);

} // namespace

DistributedView::DistributedView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("distributedView"));
    m_stepSelector = new QComboBox(this);
    m_stepSelector->setObjectName(QStringLiteral("distributedStepSelector"));
    m_stepSelector->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_clockLabel = new QLabel(this);
    m_clockLabel->setObjectName(QStringLiteral("distributedClockLabel"));
    m_summaryLabel = new QLabel(this);
    m_summaryLabel->setObjectName(QStringLiteral("distributedSummary"));
    m_summaryLabel->setWordWrap(true);
    m_summaryLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* top = new QHBoxLayout();
    top->addWidget(new QLabel(tr("Steps:"), this));
    top->addWidget(m_stepSelector);
    top->addSpacing(16);
    top->addWidget(m_clockLabel, 1);

    m_overlapChart = new WorkerStackChart(QStringLiteral("distributedOverlapChart"), this);
    m_syncChart = new WorkerStackChart(QStringLiteral("distributedSyncChart"), this);
    auto* charts = new QSplitter(Qt::Horizontal, this);
    charts->addWidget(m_overlapChart);
    charts->addWidget(m_syncChart);
    charts->setStretchFactor(0, 3);
    charts->setStretchFactor(1, 2);

    m_workerModel = new DistributedWorkerModel(this);
    m_workerProxy = new QSortFilterProxyModel(this);
    m_workerTable = makeTable(m_workerModel, m_workerProxy, QStringLiteral("distributedWorkerTable"), this);
    m_workerTable->setToolTip(tr("Double-click a worker to open its trace"));
    m_opModel = new CommOpModel(this);
    m_opProxy = new QSortFilterProxyModel(this);
    m_opTable = makeTable(m_opModel, m_opProxy, QStringLiteral("distributedOpTable"), this);
    m_stragglerTable = new QTableWidget(this);
    m_stragglerTable->setObjectName(QStringLiteral("distributedStragglerTable"));
    m_stragglerTable->setColumnCount(3);
    m_stragglerTable->setHorizontalHeaderLabels({tr("Step"), tr("Straggler"), tr("Others wait (mean)")});
    m_stragglerTable->verticalHeader()->hide();
    m_stragglerTable->horizontalHeader()->setStretchLastSection(true);
    m_stragglerTable->setEditTriggers(QAbstractItemView::NoEditTriggers);

    auto* lower = new QTabWidget(this);
    lower->setObjectName(QStringLiteral("distributedTables"));
    lower->addTab(m_workerTable, tr("Workers"));
    lower->addTab(m_opTable, tr("Communication operations"));
    lower->addTab(m_stragglerTable, tr("Stragglers per step"));

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(charts);
    split->addWidget(lower);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(top);
    layout->addWidget(m_summaryLabel);
    layout->addWidget(split, 1);

    connect(m_stepSelector, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(m_workerTable, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const QString path = m_workerModel->pathOf(m_workerProxy->mapToSource(index).row());
        if (!path.isEmpty())
            emit openTraceRequested(path);
    });
}

void DistributedView::setJob(std::shared_ptr<const LoadedJob> job, std::vector<int64_t> offsetsNs) {
    m_job = std::move(job);
    m_offsets = std::move(offsetsNs);
    m_range.reset();
    fillStepSelector();
    recompute();
}

void DistributedView::setOffsets(std::vector<int64_t> offsetsNs) {
    m_offsets = std::move(offsetsNs);
    recompute();
}

void DistributedView::setRange(std::optional<std::pair<int64_t, int64_t>> range) {
    m_range = range;
    recompute();
}

void DistributedView::fillStepSelector() {
    const QSignalBlocker block(m_stepSelector);
    m_stepSelector->clear();
    m_stepSelector->addItem(tr("All steps (mean)"));
    if (!m_job || m_job->ranks.empty())
        return;
    // Steps every worker has, in the first worker's order.
    std::vector<std::set<std::string>> labels;
    for (const RankDistributed& r : m_job->ranks) {
        labels.emplace_back();
        for (const RankStep& s : r.steps)
            labels.back().insert(s.label);
    }
    for (const RankStep& s : m_job->ranks.front().steps) {
        if (s.label.empty())
            continue;
        bool everywhere = true;
        for (const auto& l : labels)
            everywhere = everywhere && l.count(s.label);
        if (everywhere)
            m_stepSelector->addItem(tr("Step %1").arg(QString::fromStdString(s.label)), QString::fromStdString(s.label));
    }
}

void DistributedView::recompute() {
    if (!m_job)
        return;
    const QString step = m_stepSelector->currentData().toString();
    const std::string label = step.toStdString();
    StepFilter keep;
    if (!step.isEmpty() || m_range)
        keep = [&](size_t w, const RankStep& s) {
            if (!step.isEmpty() && s.label != label)
                return false;
            const int64_t offset = w < m_offsets.size() ? m_offsets[w] : 0;
            return !m_range || (s.start + offset < m_range->second && s.end + offset > m_range->first);
        };
    auto result = std::make_shared<JobDistributed>(computeJobDistributed(m_job->ranks, keep));
    m_result = result;
    m_workerModel->setJob(result);
    m_opModel->setJob(result);
    m_workerTable->resizeColumnsToContents();
    m_opTable->resizeColumnsToContents();

    QStringList workers;
    std::vector<WorkerStackChart::Part> overlap = {{tr("Computation"), kComputation, {}},
                                                   {tr("Overlap"), kOverlap, {}},
                                                   {tr("Communication"), kCommunication, {}},
                                                   {tr("Other"), kOther, {}}};
    std::vector<WorkerStackChart::Part> sync = {{tr("Synchronizing"), kSync, {}}, {tr("Transfer"), kTransfer, {}}};
    for (size_t w = 0; w < result->workers.size(); ++w) {
        const RankDistributed& r = result->workers[w];
        const WorkerSteps& s = result->steps[w];
        workers << (r.rank >= 0 ? QString::number(r.rank) : QString::fromStdString(r.worker));
        overlap[0].ms.push_back((s.meanComputation - s.meanOverlap) / 1e6);
        overlap[1].ms.push_back(s.meanOverlap / 1e6);
        overlap[2].ms.push_back((s.meanCommunication - s.meanOverlap) / 1e6);
        overlap[3].ms.push_back(s.meanOther / 1e6);
        sync[0].ms.push_back(s.meanSync / 1e6);
        sync[1].ms.push_back(s.meanTransfer / 1e6);
    }
    const QString scope = step.isEmpty() ? tr("mean per step") : tr("step %1").arg(step);
    m_overlapChart->setData(workers, overlap, tr("Computation and communication (%1)").arg(scope));
    m_syncChart->setData(workers, sync, tr("Communication: synchronizing vs transfer (%1)").arg(scope));

    m_stragglerTable->setRowCount(static_cast<int>(result->stragglers.size()));
    for (int i = 0; i < static_cast<int>(result->stragglers.size()); ++i) {
        const StepStraggler& s = result->stragglers[static_cast<size_t>(i)];
        const RankDistributed& r = result->workers[s.worker];
        m_stragglerTable->setItem(i, 0, new QTableWidgetItem(QString::fromStdString(s.step)));
        m_stragglerTable->setItem(i, 1, new QTableWidgetItem(tr("rank %1 (%2)").arg(r.rank).arg(QString::fromStdString(r.worker))));
        m_stragglerTable->setItem(i, 2, new QTableWidgetItem(formatDuration(static_cast<int64_t>(s.waitNs))));
    }

    // Headline: who waits for whom.
    QStringList lines;
    lines << tr("%n worker(s)", nullptr, static_cast<int>(result->workers.size()));
    if (result->straggler) {
        const RankDistributed& r = result->workers[*result->straggler];
        lines << tr("<b>Straggler: rank %1</b> (%2): the other ranks wait %3 for it per step on average")
                     .arg(r.rank)
                     .arg(QString::fromStdString(r.worker).toHtmlEscaped(),
                          formatDuration(static_cast<int64_t>(result->stragglerMeanWaitNs)));
        // What its host did meanwhile: its GPU's idle time by cause in the steps it straggled.
        QStringList causes;
        double idle = 0;
        for (double v : result->stragglerIdleNs)
            idle += v;
        for (GapCategory c : stragglerIdleCauses(*result)) {
            const std::string& line = r.idleTopLine[size_t(c)];
            const QString cause = tr("%1 %2").arg(formatGapCategory(c),
                                                  formatDuration(static_cast<int64_t>(result->stragglerIdleNs[size_t(c)])));
            causes << (line.empty() ? cause : tr("%1 (%2)").arg(cause, QString::fromStdString(line).toHtmlEscaped()));
        }
        if (!causes.isEmpty())
            lines << tr("while they wait, its GPU idles %1 per step: %2")
                         .arg(formatDuration(static_cast<int64_t>(idle)), causes.join(QStringLiteral(", ")));
    }
    if (result->slowestWorker && result->fastestWorker)
        lines << tr("slowest step time: rank %1 (%2), fastest: rank %3 (%4)")
                     .arg(result->workers[*result->slowestWorker].rank)
                     .arg(formatDuration(static_cast<int64_t>(result->steps[*result->slowestWorker].meanStepNs)))
                     .arg(result->workers[*result->fastestWorker].rank)
                     .arg(formatDuration(static_cast<int64_t>(result->steps[*result->fastestWorker].meanStepNs)));
    if (m_range)
        lines << tr("steps overlapping the selected range only");
    if (result->ops.empty() && result->workers.size() > 1)
        lines << tr("no collective recorded on any worker (NCCL kernels or nccl:*/gloo:* ranges), so no waits: "
                    "a capture records Gloo's collectives only with --torch-ops");
    if (result->unmatchedNodes > 0)
        lines << tr("%n communication op(s) are not on every worker: their waiting time is not split", nullptr,
                    static_cast<int>(result->unmatchedNodes));
    if (!m_job->skipped.isEmpty())
        lines << tr("skipped: %1").arg(m_job->skipped.join(QStringLiteral("; ")).toHtmlEscaped());
    m_summaryLabel->setText(lines.join(QStringLiteral(" · ")));

    const ClockAlignment& c = m_job->clock;
    QString clock;
    if (m_offsets != c.offsetNs) {
        clock = tr("Clocks: manual offsets");
    } else {
        switch (c.method) {
        case ClockAlignment::Method::TraceClocks:
            clock = tr("Clocks: as recorded (the first common event is %1 apart across ranks)").arg(formatDuration(c.spreadNs));
            break;
        case ClockAlignment::Method::FirstCollective:
            clock = tr("Clocks: aligned on the end of the first common collective %1 (it was %2 apart)")
                        .arg(QString::fromStdString(c.reference), formatDuration(c.spreadNs));
            break;
        case ClockAlignment::Method::FirstStep:
            clock = tr("Clocks: aligned on the start of the first common step %1 (it was %2 apart)")
                        .arg(QString::fromStdString(c.reference), formatDuration(c.spreadNs));
            break;
        case ClockAlignment::Method::Manual: clock = tr("Clocks: manual offsets"); break;
        }
    }
    m_clockLabel->setText(clock);
}

} // namespace ws
