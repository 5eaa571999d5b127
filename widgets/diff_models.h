#pragma once

#include "analysis/session_diff.h"

#include <QAbstractTableModel>

#include <memory>

namespace ws {

/*
 * The tables of the Compare tab (issue #15), thin models over a SessionDiff (core/analysis):
 * headline numbers, operator deltas and kernel deltas of run B against run A. Qt::UserRole gives a
 * numeric sort key per cell (text for text columns), so a QSortFilterProxyModel sorts them; rows
 * start in the core's order (largest change first). Groups in one run only say so.
 */
class DiffTableModel : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;
    void setDiff(std::shared_ptr<const SessionDiff> diff);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;

protected:
    // The rows and columns this table shows of a diff.
    virtual size_t rows(const SessionDiff& diff) const = 0;
    virtual int columns() const = 0;
    std::shared_ptr<const SessionDiff> m_diff;
};

class HeadlineDiffModel : public DiffTableModel {
    Q_OBJECT
public:
    enum Column { Metric, A, B, Change, ColumnCount };
    using DiffTableModel::DiffTableModel;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    size_t rows(const SessionDiff& diff) const override { return diff.headline.size(); }
    int columns() const override { return ColumnCount; }
};

class OperatorDiffModel : public DiffTableModel {
    Q_OBJECT
public:
    enum Column { Name, Shapes, CallStack, Presence, Delta, CallsA, CallsB, DeviceSelfA, DeviceSelfB, HostSelfA, HostSelfB,
                  DeviceTotalA, DeviceTotalB, ColumnCount };
    using DiffTableModel::DiffTableModel;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    size_t rows(const SessionDiff& diff) const override { return diff.operators.size(); }
    int columns() const override { return ColumnCount; }
};

/* Kernel deltas by normalized name, or by launching operator + normalized name (setByOperator). */
class KernelDiffModel : public DiffTableModel {
    Q_OBJECT
public:
    enum Column { Normalized, Operator, Presence, Delta, CallsA, CallsB, TotalA, TotalB, NameA, NameB, ColumnCount };
    using DiffTableModel::DiffTableModel;
    void setByOperator(bool byOperator);
    bool byOperator() const { return m_byOperator; }
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    const std::vector<KernelDiffRow>& table(const SessionDiff& diff) const {
        return m_byOperator ? diff.operatorKernels : diff.kernels;
    }
    size_t rows(const SessionDiff& diff) const override { return table(diff).size(); }
    int columns() const override { return ColumnCount; }
    bool m_byOperator = false;
};

} // namespace ws
