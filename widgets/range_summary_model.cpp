#include "range_summary_model.h"

#include "format.h"
#include "model/session.h"

namespace ws {

RangeSummaryModel::RangeSummaryModel(QObject* parent) : QAbstractTableModel(parent) {}

void RangeSummaryModel::setSummary(std::shared_ptr<const Session> session, std::vector<RangeSummaryRow> rows) {
    beginResetModel();
    m_session = std::move(session);
    m_rows = std::move(rows);
    endResetModel();
}

int RangeSummaryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int RangeSummaryModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RangeSummaryModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(m_rows.size()) || !m_session)
        return {};
    const RangeSummaryRow& r = m_rows[static_cast<size_t>(index.row())];
    const int64_t average = r.count ? r.totalNs / static_cast<int64_t>(r.count) : 0;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Name: {
            const std::string_view n = m_session->str(r.name);
            return QString::fromUtf8(n.data(), static_cast<qsizetype>(n.size()));
        }
        case Count:
            return formatCount(r.count);
        case Total:
            return formatDuration(r.totalNs);
        case Self:
            return formatDuration(r.selfNs);
        case Average:
            return formatDuration(average);
        }
    } else if (role == Qt::UserRole) {
        switch (index.column()) {
        case Name:
            return data(index, Qt::DisplayRole);
        case Count:
            return static_cast<qulonglong>(r.count);
        case Total:
            return static_cast<qlonglong>(r.totalNs);
        case Self:
            return static_cast<qlonglong>(r.selfNs);
        case Average:
            return static_cast<qlonglong>(average);
        }
    } else if (role == Qt::TextAlignmentRole && index.column() != Name) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    } else if (role == Qt::ToolTipRole && index.column() == Name) {
        return data(index, Qt::DisplayRole);
    }
    return {};
}

QVariant RangeSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Name");
    case Count:
        return tr("Count");
    case Total:
        return tr("Total time");
    case Self:
        return tr("Self time");
    case Average:
        return tr("Average");
    }
    return {};
}

} // namespace ws
