#include "compare_view.h"

#include "diff_models.h"
#include "analysis/step_ranges.h"
#include "analysis/distributed.h"
#include "analysis/session_analyses.h"
#include "diff_memory_chart.h"
#include "job_loader.h"
#include "model/session.h"
#include "job_timeline_view.h"
#include "time_viewport.h"
#include "diff_waterfall_chart.h"
#include "format.h"
#include "snapshot_diff_view.h"
#include "step_breakdown_chart.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <thread>

namespace ws {

namespace {

// A sortable read-only table over `model` (its Qt::UserRole is the sort key).
QTableView* makeTable(QAbstractItemModel* model, const QString& name, QWidget* parent) {
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    proxy->setSortRole(Qt::UserRole);
    auto* view = new QTableView(parent);
    view->setObjectName(name);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(-1, Qt::AscendingOrder); // the core's order (largest change first) until a header is clicked
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->verticalHeader()->setVisible(false);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setHighlightSections(false);
    view->setWordWrap(false);
    return view;
}

} // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("compareView"));
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("compareTitle"));
    m_title->setTextFormat(Qt::RichText);
    m_status = new QLabel(this);
    m_headline = new HeadlineDiffModel(this);
    m_operators = new OperatorDiffModel(this);
    m_kernels = new KernelDiffModel(this);
    m_headlineView = makeTable(m_headline, QStringLiteral("headlineTable"), this);
    m_headlineView->setSortingEnabled(false);
    m_headlineView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_operatorView = makeTable(m_operators, QStringLiteral("operatorDiffTable"), this);
    m_kernelView = makeTable(m_kernels, QStringLiteral("kernelDiffTable"), this);
    m_waterfall = new DiffWaterfallChart(this);

    m_grouping = new QComboBox(this);
    m_grouping->setObjectName(QStringLiteral("compareGrouping"));
    m_grouping->addItem(tr("By name"), static_cast<int>(OperatorGrouping::Name));
    m_grouping->addItem(tr("By name and input shape"), static_cast<int>(OperatorGrouping::NameAndInputShape));
    m_grouping->addItem(tr("By name and call stack"), static_cast<int>(OperatorGrouping::NameAndCallStack));
    connect(m_grouping, &QComboBox::currentIndexChanged, this, [this] { compute(); });
    m_groupingNote = new QLabel(this);
    m_groupingNote->setObjectName(QStringLiteral("compareGroupingNote"));
    m_kernelGrouping = new QComboBox(this);
    m_kernelGrouping->setObjectName(QStringLiteral("compareKernelGrouping"));
    m_kernelGrouping->addItem(tr("By name"));
    m_kernelGrouping->addItem(tr("By operator and name"));
    connect(m_kernelGrouping, &QComboBox::currentIndexChanged, this, [this] { showKernelGrouping(); });

    // Which part of each run: all of it, or one step (e.g. step 9 against step 4 of one trace).
    auto* windowRow = new QHBoxLayout;
    for (size_t s = 0; s < 2; ++s) {
        m_step[s] = new QComboBox(this);
        m_step[s]->setObjectName(s == 0 ? QStringLiteral("stepA") : QStringLiteral("stepB"));
        m_step[s]->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        windowRow->addWidget(new QLabel(s == 0 ? tr("A:") : tr("B:"), this));
        windowRow->addWidget(m_step[s]);
        connect(m_step[s], &QComboBox::activated, this, [this] { compute(); });
    }
    windowRow->addStretch();

    auto* operatorsPage = new QWidget(this);
    auto* opLayout = new QVBoxLayout(operatorsPage);
    opLayout->setContentsMargins(0, 4, 0, 0);
    auto* groupRow = new QHBoxLayout;
    groupRow->addWidget(new QLabel(tr("Operators:"), operatorsPage));
    groupRow->addWidget(m_grouping);
    groupRow->addWidget(m_groupingNote);
    groupRow->addStretch();
    opLayout->addLayout(groupRow);
    opLayout->addWidget(m_operatorView);

    auto* kernelsSplit = new QSplitter(Qt::Vertical, this);
    kernelsSplit->addWidget(m_waterfall);
    kernelsSplit->addWidget(m_kernelView);
    kernelsSplit->setStretchFactor(1, 1);
    auto* kernelsPage = new QWidget(this);
    auto* kernelsLayout = new QVBoxLayout(kernelsPage);
    kernelsLayout->setContentsMargins(0, 4, 0, 0);
    auto* kernelRow = new QHBoxLayout;
    kernelRow->addWidget(new QLabel(tr("Kernels:"), kernelsPage));
    kernelRow->addWidget(m_kernelGrouping);
    kernelRow->addStretch();
    kernelsLayout->addLayout(kernelRow);
    kernelsLayout->addWidget(kernelsSplit, 1);
    m_kernelView->horizontalHeader()->moveSection(KernelDiffModel::Operator, 0); // "Launched by" reads first
    m_kernelView->setColumnHidden(KernelDiffModel::Operator, true);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("compareTabs"));
    m_tabs->addTab(operatorsPage, tr("Operators"));
    m_tabs->addTab(kernelsPage, tr("Kernels"));
    // Steps: each run's breakdown, A above B, on the same kind of chart as the Overview's.
    auto* stepsPage = new QSplitter(Qt::Vertical, this);
    for (size_t s = 0; s < 2; ++s) {
        m_steps[s] = new StepBreakdownChart(stepsPage);
        m_steps[s]->setObjectName(s == 0 ? QStringLiteral("stepsA") : QStringLiteral("stepsB"));
        stepsPage->addWidget(m_steps[s]);
    }
    m_tabs->addTab(stepsPage, tr("Steps"));
    m_memory = new DiffMemoryChart(this);
    m_tabs->addTab(m_memory, tr("Memory"));
    m_timelines = new JobTimelineView(this);
    m_timelines->setObjectName(QStringLiteral("compareTimelines"));
    m_timelines->setShowClockOffsets(false);
    m_tabs->addTab(m_timelines, tr("Timelines"));

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_headlineView);
    split->addWidget(m_tabs);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_status);
    layout->addLayout(windowRow);
    layout->addWidget(split, 1);
}

void CompareView::setRuns(std::shared_ptr<const Session> a, const QString& nameA, std::shared_ptr<const Session> b,
                          const QString& nameB, const std::array<std::optional<DiffWindow>, 2>& selected) {
    auto analyses = [](std::shared_ptr<const Session> s) { return s ? std::make_shared<SessionAnalyses>(std::move(s)) : nullptr; };
    // One session against itself (two of its steps): one cache, so it is analysed once.
    auto runA = analyses(a);
    auto runB = a == b ? runA : analyses(std::move(b));
    setRuns(std::move(runA), nameA, std::move(runB), nameB, selected);
}

void CompareView::showKernelGrouping() {
    const bool byOperator = m_kernelGrouping->currentIndex() == 1;
    m_kernels->setByOperator(byOperator);
    m_waterfall->setDiff(m_diff, 10, byOperator);
    m_kernelView->setColumnHidden(KernelDiffModel::Operator, !byOperator);
    m_kernelView->resizeColumnsToContents();
    m_kernelView->setColumnWidth(KernelDiffModel::Normalized, std::min(m_kernelView->columnWidth(KernelDiffModel::Normalized), 420));
}

void CompareView::setRuns(std::shared_ptr<SessionAnalyses> a, const QString& nameA, std::shared_ptr<SessionAnalyses> b,
                          const QString& nameB, const std::array<std::optional<DiffWindow>, 2>& selected) {
    m_runs = {std::move(a), std::move(b)};
    m_a = m_runs[0] ? m_runs[0]->session() : nullptr;
    m_b = m_runs[1] ? m_runs[1]->session() : nullptr;
    m_pair.reset();
    m_names = {tr("A: %1").arg(nameA), tr("B: %1").arg(nameB)};
    m_title->setText(tr("<b>B</b> %1 &nbsp;compared with&nbsp; <b>A</b> %2").arg(nameB.toHtmlEscaped(), nameA.toHtmlEscaped()));
    for (size_t s = 0; s < 2; ++s) {
        m_step[s]->clear();
        m_step[s]->addItem(tr("All steps"), QString());
        const StepRanges steps = computeStepRanges(s == 0 ? *m_a : *m_b);
        for (size_t i = 0; i < steps.steps.size(); ++i) {
            const bool labelled = i < steps.labels.size() && !steps.labels[i].empty();
            m_step[s]->addItem(labelled ? tr("Step %1").arg(QString::fromStdString(steps.labels[i])) : tr("Step #%1").arg(i + 1),
                               QStringLiteral("#%1").arg(i + 1));
        }
        if (const auto& range = selected[s]; range && range->to > range->from) {
            m_step[s]->addItem(tr("Selected range (%1)").arg(formatDuration(range->to - range->from)),
                               QStringLiteral("range:%1:%2").arg(range->from).arg(range->to));
            m_step[s]->setCurrentIndex(m_step[s]->count() - 1);
        }
    }
    // Two memory snapshots: what grew, by allocating stack.
    const bool snapshots = m_a && m_b && m_a->memorySnapshot() && m_b->memorySnapshot();
    if (snapshots && !m_snapshotDiff) {
        m_snapshotDiff = new SnapshotDiffView(this);
        m_tabs->insertTab(0, m_snapshotDiff, tr("Memory snapshots"));
        m_tabs->setCurrentIndex(0);
    } else if (!snapshots && m_snapshotDiff) {
        m_tabs->removeTab(m_tabs->indexOf(m_snapshotDiff));
        m_snapshotDiff->deleteLater();
        m_snapshotDiff = nullptr;
    }
    if (m_snapshotDiff)
        m_snapshotDiff->setSnapshots(*m_a->memorySnapshot(), *m_b->memorySnapshot());
    compute();
}

void CompareView::compute() {
    if (!m_a || !m_b)
        return;
    const int request = ++m_request;
    m_status->setText(tr("Comparing…"));
    SessionDiffOptions options;
    options.operatorGrouping = static_cast<OperatorGrouping>(m_grouping->currentData().toInt());
    for (size_t s = 0; s < 2; ++s) {
        const QString choice = m_step[s]->currentData().toString();
        if (choice.startsWith(QStringLiteral("range:"))) { // range:FROM:TO in session ns
            const QStringList parts = choice.split(QLatin1Char(':'));
            options.window[s] = DiffWindow{parts.value(1).toLongLong(), parts.value(2).toLongLong()};
        } else if (!choice.isEmpty()) {
            options.window[s] = stepWindow(s == 0 ? *m_a : *m_b, choice.toStdString());
        }
    }
    std::thread([runs = m_runs, a = m_a, b = m_b, options, request, pair = m_pair, names = m_names,
                 view = QPointer<CompareView>(this)]() mutable {
        auto diff = std::make_shared<const SessionDiff>(computeSessionDiff(*runs[0], *runs[1], options));
        if (!pair) { // the runs' distributed blocks (steps, collectives), once per pair of runs
            auto job = std::make_shared<LoadedJob>();
            job->sessions = {a, b};
            for (size_t s = 0; s < 2; ++s) {
                RankDistributed r = summarizeRank(*job->sessions[s]);
                r.rank = -1; // not ranks of one job: the header names the run
                r.worker = names[s].toStdString();
                job->ranks.push_back(std::move(r));
            }
            pair = std::move(job);
        }
        auto memory = std::make_shared<std::array<MemoryOverlayCurve, 2>>(std::array<MemoryOverlayCurve, 2>{
            memoryOverlayCurve(*a, options.window[0]), memoryOverlayCurve(*b, options.window[1])});
        QMetaObject::invokeMethod(QCoreApplication::instance(), [view, diff, memory, pair, options, request] {
            CompareView* v = view.data();
            if (v == nullptr || v->m_request != request)
                return;
            v->m_diff = diff;
            v->m_headline->setDiff(diff);
            v->m_operators->setDiff(diff);
            v->m_kernels->setDiff(diff);
            v->showKernelGrouping();
            // By call stack, but a run has none: say why the rows are by name.
            const auto asked = static_cast<OperatorGrouping>(v->m_grouping->currentData().toInt());
            v->m_groupingNote->setText(asked == diff->operatorGrouping ? QString()
                                       : diff->callStacks[0]            ? tr("B has no call stacks: matched by name.")
                                       : diff->callStacks[1]            ? tr("A has no call stacks: matched by name.")
                                                                        : tr("Neither run has call stacks: matched by name."));
            v->m_memory->setCurves((*memory)[0], (*memory)[1]);
            // Both timelines start at 0: the start of each run, or of its chosen step.
            v->m_pair = pair;
            std::vector<int64_t> offsets(2);
            int64_t longest = 1;
            for (size_t s = 0; s < 2; ++s) {
                const Session& run = *pair->sessions[s];
                const int64_t from = options.window[s] ? options.window[s]->from : run.startNs();
                const int64_t to = options.window[s] ? options.window[s]->to : run.endNs();
                offsets[s] = -from;
                longest = std::max(longest, to - from);
            }
            v->m_timelines->setJob(pair, offsets);
            // The ruler counts from the aligned starts; the view spans the longer run (step).
            v->m_timelines->timeViewport()->setSessionRange(0, longest);
            v->m_timelines->timeViewport()->showRange(0, longest);
            double longestMs = 0; // both charts on one scale
            for (const StepBreakdown& breakdown : diff->breakdown)
                for (const StepCosts& step : breakdown.steps)
                    longestMs = std::max(longestMs, static_cast<double>(step.total()) / 1e6);
            for (size_t s = 0; s < 2; ++s) {
                v->m_steps[s]->setBreakdown(diff->breakdown[s], longestMs);
                v->m_steps[s]->chart()->setTitle(s == 0 ? tr("A: step time breakdown") : tr("B: step time breakdown"));
            }
            v->m_operatorView->resizeColumnsToContents(); // the kernel view's were by showKernelGrouping
            // Key columns outside the grouping are empty: hidden.
            const OperatorGrouping grouping = diff->operatorGrouping;
            v->m_operatorView->setColumnHidden(OperatorDiffModel::Shapes, grouping != OperatorGrouping::NameAndInputShape);
            v->m_operatorView->setColumnHidden(OperatorDiffModel::CallStack, grouping != OperatorGrouping::NameAndCallStack);
            v->m_operatorView->setColumnWidth(OperatorDiffModel::CallStack,
                                              std::min(v->m_operatorView->columnWidth(OperatorDiffModel::CallStack), 360));
            // The headline shows whole.
            const QTableView* h = v->m_headlineView;
            v->m_headlineView->setMinimumHeight(h->horizontalHeader()->height() + 4 +
                                                h->verticalHeader()->defaultSectionSize() * v->m_headline->rowCount());
            v->m_operatorView->setColumnWidth(OperatorDiffModel::Name, std::min(v->m_operatorView->columnWidth(0), 360));
            const auto change = diff->stepTimeChangePercent;
            v->m_status->setText(change ? (*change > 0 ? tr("B's mean step is %1 % slower than A's.")
                                                        : tr("B's mean step is %1 % faster than A's."))
                                              .arg(std::abs(*change), 0, 'f', 1)
                                        : tr("The step times cannot be compared."));
            emit v->computed();
        }, Qt::QueuedConnection);
    }).detach();
}

} // namespace ws
