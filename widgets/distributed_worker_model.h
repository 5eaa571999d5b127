#pragma once

#include <QAbstractTableModel>

#include <memory>

namespace ws {

struct JobDistributed;

/*
 * DistributedWorkerModel: one row per worker of a job: GPU, steps, mean step time, the mean
 * computation/communication split (computation - overlap, overlap, communication - overlap,
 * other), synchronizing vs transfer time, GPU utilization, peak memory, and a mark for the
 * slowest and fastest worker and the straggler. Qt::UserRole gives a numeric sort key per cell
 * (use with a QSortFilterProxyModel whose sortRole is Qt::UserRole).
 */
class DistributedWorkerModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Rank, Worker, Gpu, Steps, StepTime, Computation, Overlap, Communication, Other, Sync, Transfer,
                  Utilization, PeakMemory, Mark, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;
    void setJob(std::shared_ptr<const JobDistributed> job);
    // The trace path of a row's worker (empty when unknown).
    QString pathOf(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const JobDistributed> m_job;
};

} // namespace ws
