#pragma once

#include "analysis/session_diff.h"
#include "import/nsys_report_export.h"

#include <QMainWindow>
#include <QPointer>
#include <QHash>
#include <QStringList>

#include <memory>
#include <optional>
#include <utility>

class QLabel;
class QMenu;
class QProgressDialog;
class QStackedWidget;
class QTabWidget;

namespace ws {

struct LoadedJob;
struct LoadedSession;
class SessionAnalyses;
class ImportReportBanner;
class JobLoader;
class JobPage;
class Session;
class SessionLoader;
class SessionPage;
class WelcomePage;
class NewCaptureDialog;

/*
 * The application shell: menus, the welcome page, one tab per open session, drag-and-drop, the
 * progress dialog of long imports, the status bar, and the window state kept in QSettings.
 * Files are loaded one at a time, in the order asked, by a SessionLoader off the GUI thread.
 */
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /* How each newly opened session is first shown (command-line --view and --find). */
    struct StartupView {
        std::optional<std::pair<double, double>> rangeMs; // from the session start
        QString find;                                      // select the first match of this name
        QString tab;                                       // bottom tab to show, computed (SessionPage::showTab)
        bool maximizeTab = false;                          // the bottom tabs fill the page
    };
    void setStartupView(const StartupView& view) { m_startupView = view; }

    // Queues files for loading; each becomes a tab. Non-existent paths are reported, not queued.
    // A directory opens as a distributed job (openJob), except a capture folder whose streams carry
    // no RANK (one program's processes), which opens as one session.
    void openFiles(const QStringList& paths);
    // A trace or capture with a PyTorch memory snapshot of the same run beside it (issue #28): one
    // session whose Memory tab shows the snapshot on the trace's time axis.
    void openWithSnapshot(const QString& trace, const QString& snapshot);
    // Queues the traces (files and folders) of one distributed job: one tab with the job timeline
    // and the Distributed tab.
    void openJob(const QStringList& inputs);
    // Queues a job made of the `warpscope-cli summary --json` files in `dir` (no trace is read).
    void openJobSummaries(const QString& dir);
    int jobCount() const;
    bool isLoading() const;
    // Removes what interrupted imports left in the library (SessionLibrary::cleanUp) and says so.
    void cleanUpLibrary();
    // A line for the status bar about something fixed at startup (shown with the others, 15 s).
    void addStartupNote(const QString& note);
    int sessionCount() const;
    // Opens a Compare tab: the session of tab `b` against that of tab `a` (the baseline), each
    // narrowed to its timeline's selected range when it has one. False when either tab is not a session.
    bool compareTabs(int a, int b);
    // A Compare tab of session b against session a (the baseline), named as given.
    void openCompare(std::shared_ptr<SessionAnalyses> a, const QString& nameA, std::shared_ptr<SessionAnalyses> b,
                     const QString& nameB, const std::array<std::optional<DiffWindow>, 2>& selected = {});
    // The first two open sessions compared (command line --compare); false with fewer than two.
    bool compareFirstTwo();
    // A Compare tab is still computing.
    bool isComparing() const { return m_comparing > 0; }
    std::shared_ptr<const LoadedSession> currentSession() const;
    ImportReportBanner* reportBanner() const { return m_banner; }
    // The message shown for the last file that failed to load (empty when none failed).
    QString lastError() const { return m_lastError; }

signals:
    // Emitted when the load queue runs empty; `allOk` is false if any file failed or was cancelled.
    void loadingFinished(bool allOk);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    QStringList m_startupNotes;
    void createActions();
    void createMenus();
    void updateRecentMenu();
    void updateActions();
    void loadNext();
    void onShown(std::shared_ptr<const LoadedSession> session);
    void onLoaded(std::shared_ptr<const LoadedSession> session);
    SessionPage* pageOf(const Session* session) const;
    void onFailed(const QString& path, const QString& message);
    void showBatchFailures();
    void onCancelled(const QString& path);
    void onJobLoaded(std::shared_ptr<const LoadedJob> job);
    void showProgress(const QString& title, const QString& label);
    // The nsys set in Settings, for the loaders (read at each load: Settings may have changed).
    static NsysExportOptions nsysOptions();
    // A file given to open that is not there: the status bar and the batch's failures say so.
    void reportMissingFile(const QString& path);
    void finishOne(bool ok);
    void showOpenDialog();
    // url: what the dialog starts with (File > Open Remote Folder (SSH) gives ssh://HOST/~/).
    void showOpenUrlDialog(const QString& url = {});
    void showCompareDialog();
    void openSample();
    void exportSummary();
    void exportChromeTraceFile();
    void exportSummaryCsvs();
    void closeCurrentTab();
    void showShortcuts();
    void showAbout();
    static QString readsText();
    void restoreWindowState();

    SessionLoader* m_loader;
    JobLoader* m_jobLoader;
    struct PendingJob {
        QStringList inputs;
        bool summaries = false;
    };
    QList<PendingJob> m_jobQueue;
    QStackedWidget* m_stack;
    WelcomePage* m_welcome;
    QTabWidget* m_tabs;
    ImportReportBanner* m_banner;
    QProgressDialog* m_progress = nullptr;
    QLabel* m_statusSession;
    QMenu* m_recentMenu = nullptr;
    QStringList m_queue;
    QString m_loadingPath;
    QHash<QString, QString> m_snapshotBeside; // queued trace path -> its memory snapshot
    QString m_lastError;
    bool m_batchOk = true;
    QStringList m_batchFailures; // "path: why" of this batch's files that did not open, one dialog at its end
    StartupView m_startupView;

    QAction* m_openAction = nullptr;
    QAction* m_newCaptureAction = nullptr;
    QPointer<NewCaptureDialog> m_captureDialog; // the one New Capture dialog, while it is open
    QAction* m_libraryAction = nullptr;
    QAction* m_compareAction = nullptr;
    int m_comparing = 0;
    QAction* m_exportAction = nullptr;
    QAction* m_exportTraceAction = nullptr;
    QAction* m_exportCsvAction = nullptr;
    QAction* m_closeAction = nullptr;
    QAction* m_quitAction = nullptr;
    QAction* m_findAction = nullptr;
    QAction* m_fitAction = nullptr;
    QAction* m_collapseAction = nullptr;
    QAction* m_fullScreenAction = nullptr;
    QAction* m_nextTabAction = nullptr;
    QAction* m_previousTabAction = nullptr;
    QAction* m_gettingStartedAction = nullptr;
    QAction* m_shortcutsAction = nullptr;
    QAction* m_aboutAction = nullptr;
    QAction* m_aboutQtAction = nullptr;
};

} // namespace ws
