#pragma once

#include "time_viewport.h"

#include <QWidget>

#include <memory>

class QLineEdit;
class QTableView;

namespace ws {

class KernelTableModel;
class Session;

/*
 * The "Kernels" tab: a name filter above a table of every kernel call (KernelTableModel, sorted
 * and filtered in core). The core table is built the first time the tab is shown, so opening a
 * session does not pay for it. Double-clicking a row selects the kernel on the timeline and asks
 * to reveal it (revealRequested).
 */
class KernelTableView : public QWidget {
    Q_OBJECT
public:
    KernelTableView(TimeViewport* time, std::shared_ptr<const Session> session, QWidget* parent = nullptr);
    KernelTableModel* model() const { return m_model; }
    // Builds the table now if it was not built yet (the first show does it too).
    void ensureBuilt();

signals:
    void revealRequested(const ws::SliceRef& slice);

protected:
    void showEvent(QShowEvent* event) override;

private:
    TimeViewport* m_time;
    std::shared_ptr<const Session> m_session;
    KernelTableModel* m_model;
    QLineEdit* m_filter;
    QTableView* m_table;
    bool m_built = false;
};

} // namespace ws
