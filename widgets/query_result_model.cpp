#include "query_result_model.h"

#include <QRegularExpression>

namespace ws {

void QueryResultModel::setResult(QueryResult result) {
    beginResetModel();
    m_result = std::move(result);
    endResetModel();
}

int QueryResultModel::column(const QString& name) const {
    for (size_t c = 0; c < m_result.columns.size(); ++c)
        if (QString::fromStdString(m_result.columns[c]).compare(name, Qt::CaseInsensitive) == 0)
            return static_cast<int>(c);
    return -1;
}

int QueryResultModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_result.rows.size());
}

int QueryResultModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_result.columns.size());
}

QVariant QueryResultModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    const QueryValue& v = m_result.rows[static_cast<size_t>(index.row())][static_cast<size_t>(index.column())];
    switch (role) {
    case Qt::DisplayRole:
        // Reals to four decimals for reading (5806.9412, not 5806.941176470588); the tooltip and the
        // sort keep the value itself.
        if (v.type == QueryValue::Type::Real)
            return QString::number(v.real, 'f', 4).remove(QRegularExpression(QStringLiteral("\\.?0+$")));
        return QString::fromStdString(v.toText());
    case Qt::ToolTipRole:
        if (v.type == QueryValue::Type::Real)
            return QString::fromStdString(v.toText());
        return v.type == QueryValue::Type::Text && v.text.size() > 40 ? QString::fromStdString(v.text) : QVariant();
    case Qt::TextAlignmentRole:
        return v.type == QueryValue::Type::Integer || v.type == QueryValue::Type::Real
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::UserRole:
        switch (v.type) {
        case QueryValue::Type::Integer: return QVariant::fromValue<qlonglong>(v.integer);
        case QueryValue::Type::Real: return v.real;
        case QueryValue::Type::Text: return QString::fromStdString(v.text);
        case QueryValue::Type::Null: return {};
        }
        return {};
    default: return {};
    }
}

QVariant QueryResultModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return section + 1;
    return QString::fromStdString(m_result.columns[static_cast<size_t>(section)]);
}

} // namespace ws
