#pragma once

#include "analysis/range_summary.h"

#include <QAbstractTableModel>

#include <memory>

namespace ws {

class Session;

/*
 * Table model of a time range's summary (RangeSummaryRow per name): name, count, total, self and
 * average time. Qt::UserRole gives the raw number of each cell so a sort proxy orders by value.
 */
class RangeSummaryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Count, Total, Self, Average, ColumnCount };

    explicit RangeSummaryModel(QObject* parent = nullptr);
    void setSummary(std::shared_ptr<const Session> session, std::vector<RangeSummaryRow> rows);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Session> m_session;
    std::vector<RangeSummaryRow> m_rows;
};

} // namespace ws
