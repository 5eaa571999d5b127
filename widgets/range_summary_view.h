#pragma once

#include <QWidget>

#include <memory>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace ws {

class RangeSummaryModel;
class Session;
class TimeViewport;

/* The "Range" tab: what lies inside the time range dragged on the ruler, per name, sortable. */
class RangeSummaryView : public QWidget {
    Q_OBJECT
public:
    RangeSummaryView(TimeViewport* timeViewport, QWidget* parent = nullptr);
    void setSession(std::shared_ptr<const Session> session);
    RangeSummaryModel* model() const { return m_model; }

private:
    void refresh();

    TimeViewport* m_time;
    std::shared_ptr<const Session> m_session;
    QLabel* m_header;
    RangeSummaryModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
};

} // namespace ws
