#pragma once

#include "time_viewport.h"

#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QPushButton;
class QTableWidget;
class QTimer;
class QVBoxLayout;

namespace ws {

class Session;
class SessionAnalyses;
class StepBreakdownChart;
struct IdleGapReport;
class InferencePanel;
struct OverviewData;
struct OverviewReport;
struct Recommendation;

/*
 * The "Overview" tab (issue #6): per GPU the headline metrics (GPU Utilization, Est. SM
 * Efficiency, Est. Achieved Occupancy, Tensor Core share) with the device's properties, the step
 * time breakdown as a stacked bar chart and a table, "Why the GPU waits" (issue #27: the GPU idle
 * gaps by cause, core/analysis/idle_gaps.h; clicking a row marks its gaps on the timeline and selects
 * the longest), and the recommendations with their evidence and a link that selects the range or
 * slice on the timeline.
 *
 * Follows the timeline's selected range: with a selection the numbers cover the steps inside it
 * (clipped), or the range itself (see OverviewReport). The session's OverviewData is prepared once,
 * on a worker thread, the first time the tab is shown; range changes are debounced and computed on
 * the same worker. Values the trace cannot give read "not in this trace".
 */
class OverviewView : public QWidget {
    Q_OBJECT
public:
    // The session's analyses are shared with its other tabs and Compare (session_analyses.h).
    OverviewView(TimeViewport* time, std::shared_ptr<SessionAnalyses> analyses, QWidget* parent = nullptr);
    OverviewView(TimeViewport* time, std::shared_ptr<const Session> session, QWidget* parent = nullptr);
    ~OverviewView() override;

    // Computes synchronously for the current selection (tests, and callers that need it now).
    void computeNow();
    bool hasReport() const { return m_report != nullptr; }
    const OverviewReport* report() const { return m_report.get(); }
    const IdleGapReport* idleGaps() const { return m_gaps.get(); }
    struct Result; // what a computation gives: the session's data, the report and its idle gaps
    // Marks the gaps whose main cause is the row's category on the timeline and selects the longest
    // (what clicking the row does).
    void selectGapCategory(int row);

signals:
    void revealRequested(const ws::SliceRef& slice);
    // A report is shown (after the first computation and after each range change).
    void computed();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void requestCompute();
    void startWorker();
    // complete: the result has everything (data and idle gaps) and computed() is emitted; a stored
    // report alone (showStoredReport) is not complete.
    void showReport(const Result& result, bool complete = true);
    // A stored session's whole-trace report, shown at once while the worker computes the rest.
    void showStoredReport();
    void rebuildGaps();
    void rebuildDevices();
    void rebuildTable();
    void rebuildRecommendations();
    QWidget* recommendationWidget(const Recommendation& r);
    QString recommendationTitle(const Recommendation& r) const;
    QString recommendationEvidence(const Recommendation& r) const;
    QString longIdleGapCause(const Recommendation& r) const; // what the host did in the gap, and the advice

    TimeViewport* m_time;
    std::shared_ptr<SessionAnalyses> m_analyses;
    std::shared_ptr<const Session> m_session;
    std::shared_ptr<const OverviewData> m_data;
    std::shared_ptr<const OverviewReport> m_report;
    std::shared_ptr<const IdleGapReport> m_gaps;
    uint64_t m_generation = 0; // of the last report asked for; older workers' results are dropped
    bool m_busy = false;
    bool m_pending = false; // the selection changed while the worker ran
    bool m_started = false;
    bool m_gapsPending = false; // a stored report is shown, its idle gaps are being computed
    std::optional<TimeRange> m_ownSelection; // the range our last "Select on timeline" set
    QTimer* m_debounce;
    QLabel* m_status;
    QPushButton* m_wholeTrace;
    QWidget* m_devices;
    QVBoxLayout* m_devicesLayout;
    StepBreakdownChart* m_chart;
    QTableWidget* m_table;
    QLabel* m_gapsNote;
    QLabel* m_inferenceTitle;
    InferencePanel* m_inference;
    QTableWidget* m_gapsTable;
    QWidget* m_recommendations;
    QVBoxLayout* m_recommendationsLayout;
};

} // namespace ws
