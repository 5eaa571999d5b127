#pragma once

#include "analysis/session_diff.h"

#include <QString>
#include <QWidget>

#include <array>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QTabWidget;
class QTableView;

namespace ws {

class SnapshotDiffView;

class DiffMemoryChart;
class JobTimelineView;
struct LoadedJob;
class DiffWaterfallChart;
class HeadlineDiffModel;
class KernelDiffModel;
class OperatorDiffModel;
class Session;
class SessionAnalyses;
class StepBreakdownChart;

/*
 * CompareView: the Compare tab (issue #15): run B against run A. Headline numbers side by side
 * with their change, operator deltas (grouped by name, input shape or call stack) and kernel
 * deltas with a waterfall of the kernels that moved the GPU time most, and each run's step-time
 * breakdown one above the other, their allocated memory laid over each other from the start of
 * each (step), and both timelines stacked on one axis, aligned at the start of each run or chosen
 * step: the two runs are a job of two sessions whose clock offsets line those starts up, shown by
 * the job timeline (no second timeline model). A thin view: the numbers
 * are core's computeSessionDiff, computed off the GUI thread (computed() when shown).
 */
class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);
    // Compares b with a (a is the baseline); names are what the tab shows for each run. A run's
    // selected time range (its timeline's), when given, is offered next to its steps and chosen.
    // With the runs' SessionAnalyses (their tabs'), what those tabs computed is reused.
    void setRuns(std::shared_ptr<SessionAnalyses> a, const QString& nameA, std::shared_ptr<SessionAnalyses> b,
                 const QString& nameB, const std::array<std::optional<DiffWindow>, 2>& selected = {});
    void setRuns(std::shared_ptr<const Session> a, const QString& nameA, std::shared_ptr<const Session> b,
                 const QString& nameB, const std::array<std::optional<DiffWindow>, 2>& selected = {});
    std::shared_ptr<const SessionDiff> diff() const { return m_diff; }

signals:
    void computed();

private:
    void compute();
    void showKernelGrouping();

    std::array<std::shared_ptr<SessionAnalyses>, 2> m_runs;
    std::shared_ptr<const Session> m_a, m_b;
    std::shared_ptr<const SessionDiff> m_diff;
    int m_request = 0;
    QLabel* m_title;
    QLabel* m_status;
    QComboBox* m_grouping;
    QComboBox* m_kernelGrouping;
    QLabel* m_groupingNote; // why the operators are matched by name when by call stack was asked
    std::array<QComboBox*, 2> m_step{}; // all steps, or one step of each run
    QTableView* m_headlineView;
    QTableView* m_operatorView;
    QTableView* m_kernelView;
    QTabWidget* m_tabs;
    SnapshotDiffView* m_snapshotDiff = nullptr; // when both runs are memory snapshots
    HeadlineDiffModel* m_headline;
    OperatorDiffModel* m_operators;
    KernelDiffModel* m_kernels;
    DiffWaterfallChart* m_waterfall;
    std::array<StepBreakdownChart*, 2> m_steps{};
    DiffMemoryChart* m_memory;
    JobTimelineView* m_timelines;
public:
    JobTimelineView* timelines() const { return m_timelines; }

private:
    std::shared_ptr<const LoadedJob> m_pair; // the two runs as a job of two, for the timelines
    std::array<QString, 2> m_names;
};

} // namespace ws
