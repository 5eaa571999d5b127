#pragma once

#include "query/query_engine.h"

#include <QAbstractTableModel>

namespace ws {

/*
 * QueryResultModel: a query's rows as a table. Display text is the CLI's (integers exactly, reals in
 * their shortest form, NULL empty); Qt::UserRole gives the typed value, so a sort proxy orders
 * numbers as numbers.
 */
class QueryResultModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;
    void setResult(QueryResult result);
    const QueryResult& result() const { return m_result; }
    // Index of the column named so (case-insensitive), or -1.
    int column(const QString& name) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QueryResult m_result;
};

} // namespace ws
