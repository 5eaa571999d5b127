#pragma once

#include "analysis/operator_table.h"
#include "time_viewport.h"

#include <QWidget>

#include <array>
#include <atomic>
#include <memory>
#include <thread>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTimer;

namespace ws {

class OperatorTableModel;
class OperatorTree;
class Session;
class SessionAnalyses;

/*
 * The "Operators" tab: torch-tb-profiler's operator view. A group-by choice (name, name + input
 * shape, name + call stack), a name filter, the table (OperatorTableModel, sorted and filtered in
 * core) and "Export CSV..." for the rows shown.
 *
 * The operator tree (one pass over the host slices plus one streaming read of the operators'
 * arguments, the slow part on big traces) is built the first time the tab is shown, on a worker
 * thread when the trace is big, in two stages: without arguments first (the by-name table shows
 * after about a second), then with shapes and call stacks, which replaces it (a stored session
 * shows the by-name table its file carries meanwhile, at once); grouping and the time range only regroup the finished tree on the
 * GUI thread (O(operators)). The table follows the timeline's selected range: a change regroups
 * after a short pause (debounced, so dragging does not regroup on every mouse move) and the header
 * says the numbers are for the selected range. Double-clicking a row selects the group's longest
 * call on the timeline and asks to reveal it (revealRequested).
 */
class OperatorTableView : public QWidget {
    Q_OBJECT
public:
    // The session's analyses are shared with its other tabs and Compare (session_analyses.h).
    OperatorTableView(TimeViewport* time, std::shared_ptr<SessionAnalyses> analyses, QWidget* parent = nullptr);
    OperatorTableView(TimeViewport* time, std::shared_ptr<const Session> session, QWidget* parent = nullptr);
    ~OperatorTableView() override;

    OperatorTableModel* model() const { return m_model; }
    // Starts building the tree if it was not started yet (the first show does it too).
    void ensureBuilt();
    // Builds synchronously (tests): returns once the table shows the complete tree.
    void buildNow();
    bool isBuilt() const { return m_complete; }
    // The table shown is the session file's stored by-name table (the tree is still being built).
    bool showsStoredTable() const { return m_storedTable; }
    // Writes the visible rows as CSV (writeOperatorCsv); false if the file cannot be written.
    bool exportCsv(const QString& path) const;

signals:
    void revealRequested(const ws::SliceRef& slice);
    // The tree is built and the first table is shown.
    void built();

protected:
    void showEvent(QShowEvent* event) override;

private:
    // `complete`: the tree has its arguments (shapes, call stacks); a complete tree is final.
    void treeReady(std::shared_ptr<const OperatorTree> tree, bool complete);
    void regroup();
    // A stored session (session_results.h) shows the by-name table its file carries at once; the
    // worker builds the tree meanwhile (whatever the trace's size) and regroup replaces it.
    bool showStoredTable();
    // Shows `table` (of `tree`, null for a stored table): column visibility, notes, widths, header.
    void showTable(std::shared_ptr<const OperatorTable> table, std::shared_ptr<const OperatorTree> tree);
    void updateHeader();
    void exportClicked();

    TimeViewport* m_time;
    std::shared_ptr<SessionAnalyses> m_analyses;
    std::shared_ptr<const Session> m_session;
    std::shared_ptr<const OperatorTree> m_tree;
    OperatorTableModel* m_model;
    QComboBox* m_group;
    QLineEdit* m_filter;
    QPushButton* m_export;
    QLabel* m_header;
    QLabel* m_note;
    QTableView* m_table;
    QTimer* m_rangeTimer;
    std::thread m_worker;
    std::atomic<bool> m_closing{false};
    bool m_started = false;
    bool m_complete = false;
    bool m_storedTable = false;
    std::array<bool, kOperatorColumnCount> m_sized{}; // per column: initial width given
};

} // namespace ws
