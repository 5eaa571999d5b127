#pragma once

#include "time_viewport.h"

#include <QWidget>

#include <atomic>
#include <memory>
#include <thread>

class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;
class QTableView;

namespace ws {

class KernelGroupModel;
class KernelPieChart;
class KernelTable;
class KernelTableModel;
class Session;

/*
 * The "Kernels" tab: a view selector (every call, grouped by kernel name, grouped by kernel,
 * operator, grid and block), a name filter, CSV export of what is shown, and either the table of
 * every call (KernelTableModel, sorted and filtered in core) or the group table with a top-N pie.
 * Every view follows the timeline's selected time range (only kernels overlapping it).
 *
 * The core table is built the first time the tab is shown, on a worker thread (it reads every
 * kernel's arguments once: seconds on a GB trace). A session file with stored results opens on the
 * kernels grouped by name it carries (shown at once) while the table is built. Double-clicking a call, or a group (its
 * earliest call), selects the kernel on the timeline and asks to reveal it (revealRequested); the
 * context menu copies the Nsight Compute command for that call, and "Attach Nsight Compute results"
 * adds ncu columns with what it measured on the calls it profiled.
 */
class KernelTableView : public QWidget {
    Q_OBJECT
public:
    enum class Mode { Calls, ByName, ByNameOpGridBlock };

    KernelTableView(TimeViewport* time, std::shared_ptr<const Session> session, QWidget* parent = nullptr);
    ~KernelTableView() override;
    KernelTableModel* model() const { return m_model; }
    KernelGroupModel* groupModel() const { return m_groupModel; }
    KernelPieChart* pieChart() const { return m_pie; }
    // Builds the table now (waiting for a build the first show started) if it is not built yet.
    void ensureBuilt();
    void setMode(Mode mode);
    Mode mode() const { return m_mode; }
    // Writes the current view (calls or groups, in display order) as CSV; false with *error set.
    bool exportCsv(const QString& path, QString* error) const;
    // The groups shown are the session file's stored ones (the table is still being read).
    bool showsStoredGroups() const { return m_storedGroups; }
    // The Nsight Compute command that profiles this call (a table row; analysis/ncu_command.h) and
    // its exports: what the context menu's "Copy Nsight Compute command" copies.
    QString ncuCommandText(uint32_t tableRow) const;
    // Reads Nsight Compute's exports (CSV, or .ncu-rep through ncu) and shows what it measured on
    // the calls it matched (analysis/ncu_match.h) as ncu columns; false with *error set.
    bool attachNcu(const QStringList& paths, QString* error);

signals:
    void revealRequested(const ws::SliceRef& slice);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void startBuild();
    // A stored session (session_results.h) opens on the kernels grouped by name its file carries,
    // shown at once; the table of every call is read meanwhile and regroups them when ready.
    void showStoredGroups();
    void setTable(std::shared_ptr<const KernelTable> table);
    void regroup();
    void updateRangeHint();
    void reveal(uint32_t tableRow);
    void chooseExportFile();

    TimeViewport* m_time;
    std::shared_ptr<const Session> m_session;
    std::shared_ptr<const KernelTable> m_table;
    KernelTableModel* m_model;
    KernelGroupModel* m_groupModel;
    KernelPieChart* m_pie;
    QComboBox* m_modeBox;
    QLineEdit* m_filter;
    QLabel* m_hint;
    QStackedWidget* m_pages;
    QTableView* m_callsView;
    QTableView* m_groupView;
    Mode m_mode = Mode::Calls;
    bool m_started = false;
    bool m_storedGroups = false;
    std::thread m_builder;
    std::atomic<bool> m_closing{false};
    std::shared_ptr<const KernelTable> m_built; // written by the builder, read after join
};

} // namespace ws
