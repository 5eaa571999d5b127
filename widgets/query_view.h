#pragma once

#include "query_track.h"
#include "time_viewport.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTreeWidget;

namespace ws {

class QueryEngine;
class QueryResultModel;
class SessionAnalyses;
struct QueryResult;

/*
 * QueryView: the Query tab. SQL over the session (core/query, the CLI's engine) in an editor with
 * the recent statements and the schema beside it; results in a sortable table. The statement runs
 * off the GUI thread and Cancel stops it (the window never waits); one runs at a time. A row with a
 * slice id (`id`, `slice_id`, `launch_id` or `op_id`) selects that slice on the timeline; a result
 * with a time and a duration (ts/start_ns and dur/duration_ns, or an end) becomes a timeline track
 * of its own with "Add as track".
 */
class QueryView : public QWidget {
    Q_OBJECT
public:
    explicit QueryView(TimeViewport* time, QWidget* parent = nullptr);
    ~QueryView() override;

    // The session to ask (a live session's newer model replaces the old; a running statement on
    // the old one is cancelled).
    void setAnalyses(std::shared_ptr<SessionAnalyses> analyses);
    void setSql(const QString& sql);
    QString sql() const;
    // Runs the editor's statement (Ctrl+Return); finished() follows.
    void run();
    // The same on the calling thread, the result shown when it returns (screenshots, tests).
    void runNow();
    void cancel();
    bool running() const { return m_running; }
    const QueryResultModel* model() const { return m_model; }
    // The result as a track, when it has times and durations; nullopt (and why) otherwise.
    std::optional<QueryTrack> resultTrack(QString* why = nullptr) const;

    static constexpr size_t kMaxRows = 200000; // rows a result shows (a query that wants more: LIMIT, or the CLI)

signals:
    void finished();
    void revealRequested(const ws::SliceRef& slice);
    void addTrackRequested(const ws::QueryTrack& track);

private:
    void deliver(QueryResult result, double seconds, quint64 generation);
    void fillSchema();
    void loadHistory();
    void remember(const QString& sql);
    void selectRowSlice(int sourceRow);
    void updateButtons();

    TimeViewport* m_time;
    std::shared_ptr<SessionAnalyses> m_analyses;
    std::shared_ptr<QueryEngine> m_engine;
    QPlainTextEdit* m_editor;
    QComboBox* m_history;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QPushButton* m_addTrack;
    QLabel* m_status;
    QTreeWidget* m_schema;
    QTableView* m_table;
    QueryResultModel* m_model;
    QSortFilterProxyModel* m_proxy;
    bool m_running = false;
    quint64 m_generation = 0; // a result of an older engine or statement is not shown
    QString m_ranSql;
};

} // namespace ws
