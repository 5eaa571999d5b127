#pragma once

#include "analysis/ncu_match.h"

#include <QAbstractTableModel>

#include <memory>
#include <optional>
#include <vector>

namespace ws {

class Roofline;
class Session;

/*
 * RooflineGroupModel: one row per kernel name of a Roofline (analysis/roofline.h), costliest first:
 * its bound, calls, time, intensity, achieved TFLOP/s and GB/s and fraction of the bounding roof,
 * then, where Nsight Compute results are attached, what ncu measured on its launches. Qt::UserRole
 * gives a numeric sort key per cell and, in column 0, the row's group index.
 */
class RooflineGroupModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        BoundColumn, Kernel, Calls, Time, Intensity, Tflops, GBps, RoofFraction,
        NcuLaunches, NcuDuration, NcuSm, NcuMemory, NcuBound, ColumnCount
    };

    using QAbstractTableModel::QAbstractTableModel;
    void setRoofline(std::shared_ptr<const Session> session, std::shared_ptr<const Roofline> roofline);
    // ncu's measures per kernel name (NcuKernelMeasure::nameIndex); empty: none attached.
    void setMeasures(std::vector<NcuKernelMeasure> measures, const std::vector<uint32_t>& groupNameIndex);
    const NcuKernelMeasure* measureOf(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const Session> m_session;
    std::shared_ptr<const Roofline> m_roofline;
    std::vector<NcuKernelMeasure> m_measures;
    std::vector<int> m_measureOfRow; // index into m_measures, -1 none
};

} // namespace ws
