#pragma once

#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QTableWidget;

namespace ws {

struct JobDistributed;
struct LoadedJob;
class CommOpModel;
class DistributedWorkerModel;
class WorkerStackChart;

/*
 * DistributedView: the Distributed tab of a job (FORMATS.md 3.11). A step selector (all steps as
 * a mean, or one step), the clock alignment in words, the computation/communication bars and the
 * synchronizing/transfer bars per worker, the workers table (slowest and fastest marked, the
 * straggler named), the communication operations table and the straggler of each step. It
 * follows the job timeline's selected range: only steps overlapping it count. A thin view: the
 * numbers are core's computeJobDistributed over the ranks' blocks.
 */
class DistributedView : public QWidget {
    Q_OBJECT
public:
    explicit DistributedView(QWidget* parent = nullptr);

    void setJob(std::shared_ptr<const LoadedJob> job, std::vector<int64_t> offsetsNs);
    // Clock offsets changed (manual alignment): the range filter maps through them.
    void setOffsets(std::vector<int64_t> offsetsNs);
    // A range of the job timeline (aligned ns), or none for the whole job.
    void setRange(std::optional<std::pair<int64_t, int64_t>> range);

    const JobDistributed* result() const { return m_result.get(); }
    QTableView* workerTable() const { return m_workerTable; }
    QTableView* opTable() const { return m_opTable; }
    WorkerStackChart* overlapChart() const { return m_overlapChart; }

signals:
    // Double-click on a worker: open its trace on its own.
    void openTraceRequested(const QString& path);

private:
    void recompute();
    void fillStepSelector();

    std::shared_ptr<const LoadedJob> m_job;
    std::shared_ptr<const JobDistributed> m_result;
    std::vector<int64_t> m_offsets;
    std::optional<std::pair<int64_t, int64_t>> m_range;

    QComboBox* m_stepSelector;
    QLabel* m_clockLabel;
    QLabel* m_summaryLabel;
    WorkerStackChart* m_overlapChart;
    WorkerStackChart* m_syncChart;
    DistributedWorkerModel* m_workerModel;
    QSortFilterProxyModel* m_workerProxy;
    QTableView* m_workerTable;
    CommOpModel* m_opModel;
    QSortFilterProxyModel* m_opProxy;
    QTableView* m_opTable;
    QTableWidget* m_stragglerTable;
};

} // namespace ws
