#pragma once

#include "analysis/kernel_groups.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace ws {

class Session;

/*
 * Table model over kernel groups (KernelGrouping::Name: one row per kernel name; NameOpGridBlock:
 * per kernel, launching operator, grid and block) with torch-tb-profiler's kernel view columns:
 * calls, total, mean, min, max, % of GPU time, mean blocks per SM, mean est. achieved occupancy,
 * Tensor Cores. Groups are few (thousands at most), so sorting is a plain stable sort here.
 * Qt::UserRole on a cell gives the group's earliest call (a KernelTable row) for "select it".
 */
class KernelGroupModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Column { Kernel, Operator, Grid, Block, Calls, Total, Mean, Min, Max, PercentGpu, BlocksPerSm, Occupancy, TensorCores };

    explicit KernelGroupModel(QObject* parent = nullptr);
    void setGroups(std::shared_ptr<const Session> session, std::vector<KernelGroup> groups, KernelGrouping grouping);
    const std::vector<KernelGroup>& groups() const { return m_groups; }
    KernelGrouping grouping() const { return m_grouping; }
    const KernelGroup* groupAt(const QModelIndex& index) const;
    Column columnAt(int section) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    std::shared_ptr<const Session> m_session;
    std::vector<KernelGroup> m_groups;
    KernelGrouping m_grouping = KernelGrouping::Name;
};

} // namespace ws
