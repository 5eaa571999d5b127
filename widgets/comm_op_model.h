#pragma once

#include <QAbstractTableModel>

#include <memory>

namespace ws {

struct JobDistributed;

/*
 * CommOpModel: the communication operations table of a job, one row per worker, process group
 * and operation: calls, total and mean size, total and mean latency, transfer time, and the
 * nccl-tests algorithm and bus bandwidth. Qt::UserRole gives a numeric sort key per cell.
 */
class CommOpModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Rank, Group, Operation, Collective, Calls, TotalSize, AvgSize, TotalLatency, AvgLatency, Transfer,
                  AlgBw, BusBw, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;
    void setJob(std::shared_ptr<const JobDistributed> job);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const JobDistributed> m_job;
};

} // namespace ws
