#include "main_window.h"

#include "launch/remotecapture.h"

#include <cstdio>

#include "analysis/trace_summary.h"
#include "app_environment.h"
#include "format.h"
#include "analysis/distributed.h"
#include "analysis/session_analyses.h"
#include "io/usable_cores.h"
#include "library/session_library.h"
#include "import/capture_importer.h"
#include "import_report_banner.h"
#include "job_loader.h"
#include "job_page.h"
#include "model/session.h"
#include "live_capture.h"
#include "new_capture_dialog.h"
#include "open_url_dialog.h"
#include "remote/remote_url.h"
#include "compare_view.h"
#include "recent_files.h"
#include "session_loader.h"
#include "search_bar.h"
#include "session_page.h"
#include "time_viewport.h"
#include "timeline_view.h"
#include "session_library_dialog.h"
#include "settings_dialog.h"
#include "shortcuts_dialog.h"
#include "warpscope_version.h"
#include "welcome_page.h"
#include "getting_started_dialog.h"
#include "import/import_formats.h"

#include "export/chrome_export.h"
#include "export/summary_csv.h"

#include <QAction>
#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QPushButton>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QTabBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QSaveFile>
#include <QSet>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace ws {

namespace {

// The name a trace goes by in tabs, titles and messages: a file's name, or the last segment of a
// URL without its query (which may hold a token).
QString displayName(const QString& path) {
    if (!isRemoteUrl(path.toStdString()))
        return QFileInfo(path).fileName();
    QString url = QString::fromStdString(redactUrl(path.toStdString()));
    url = url.left(url.indexOf(QLatin1Char('?')) < 0 ? url.size() : url.indexOf(QLatin1Char('?')));
    return url.mid(url.lastIndexOf(QLatin1Char('/')) + 1);
}

const char kGeometryKey[] = "mainWindow/geometry";
const char kStateKey[] = "mainWindow/state";
const char kLastDirKey[] = "mainWindow/lastDirectory";
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_loader(new SessionLoader(this)), m_jobLoader(new JobLoader(this)), m_stack(new QStackedWidget(this)),
      m_welcome(new WelcomePage(this)), m_tabs(new QTabWidget(this)), m_banner(new ImportReportBanner(this)),
      m_statusSession(new QLabel(this)) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Warpscope"));
    setWindowIcon(AppEnvironment::applicationIcon());
    setAcceptDrops(true);

    m_tabs->setDocumentMode(true);
    m_tabs->setTabsClosable(true);
    m_tabs->setMovable(true);
    // A session tab's context menu compares it with another open session (this one as B).
    m_tabs->tabBar()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_tabs->tabBar(), &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        const int b = m_tabs->tabBar()->tabAt(at);
        if (b < 0 || !qobject_cast<SessionPage*>(m_tabs->widget(b)))
            return;
        QMenu menu(this);
        QMenu* with = menu.addMenu(tr("Compare with"));
        for (int a = 0; a < m_tabs->count(); ++a)
            if (a != b && qobject_cast<SessionPage*>(m_tabs->widget(a)))
                with->addAction(tr("%1 (as the baseline)").arg(m_tabs->tabText(a)), this, [this, a, b] { compareTabs(a, b); });
        with->setEnabled(!with->isEmpty());
        menu.addAction(tr("Close"), this, [this, b] { emit m_tabs->tabCloseRequested(b); });
        menu.exec(m_tabs->tabBar()->mapToGlobal(at));
    });
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, [this](int index) {
        QWidget* page = m_tabs->widget(index);
        m_tabs->removeTab(index);
        page->deleteLater();
        updateActions();
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] { updateActions(); });

    auto* sessionArea = new QWidget(this);
    auto* sessionLayout = new QVBoxLayout(sessionArea);
    sessionLayout->setContentsMargins(0, 0, 0, 0);
    sessionLayout->setSpacing(0);
    sessionLayout->addWidget(m_banner);
    sessionLayout->addWidget(m_tabs, 1);

    m_stack->addWidget(m_welcome);
    m_stack->addWidget(sessionArea);
    setCentralWidget(m_stack);

    m_welcome->setSampleAvailable(!AppEnvironment::sampleTracePath().isEmpty());
    connect(m_welcome, &WelcomePage::openRequested, this, &MainWindow::showOpenDialog);
    connect(m_welcome, &WelcomePage::sampleRequested, this, &MainWindow::openSample);
    connect(m_welcome, &WelcomePage::recentRequested, this, [this](const QString& p) { openFiles({p}); });

    m_loader->setLibraryDirectory(SessionLibraryDialog::libraryDirectory());
    m_jobLoader->setLibraryDirectory(SessionLibraryDialog::libraryDirectory());
    cleanUpLibrary();
    connect(m_jobLoader, &JobLoader::loaded, this, &MainWindow::onJobLoaded);
    connect(m_jobLoader, &JobLoader::failed, this, &MainWindow::onFailed);
    connect(m_jobLoader, &JobLoader::cancelled, this, [this] { onCancelled(tr("the job")); });
    connect(m_jobLoader, &JobLoader::progressChanged, this, [this](int permille, const QString& file) {
        if (!m_progress)
            return;
        m_progress->setLabelText(tr("Opening job: %1…").arg(file));
        m_progress->setValue(permille);
    });
    connect(m_loader, &SessionLoader::shown, this, &MainWindow::onShown);
    connect(m_loader, &SessionLoader::loaded, this, &MainWindow::onLoaded);
    connect(m_loader, &SessionLoader::failed, this, &MainWindow::onFailed);
    connect(m_loader, &SessionLoader::cancelled, this, &MainWindow::onCancelled);
    connect(m_loader, &SessionLoader::converting, this, [this](const QString& path) {
        if (m_progress)
            m_progress->setLabelText(tr("Converting %1 with Nsight Systems (nsys export)…").arg(displayName(path)));
    });
    // One nsys over several processes (MPI ranks, torchrun workers): a job of them, like a folder of
    // rank traces. The loader found out (after converting a report) and imported nothing.
    connect(m_loader, &SessionLoader::opensAsJob, this, [this](const QString& path) {
        m_jobQueue.append({{path}, false});
        finishOne(true);
    });
    connect(m_loader, &SessionLoader::stored, this, [this](const QString& path, const QString& sessionPath) {
        // Bookmarks of a just-imported trace go into its stored session from now on.
        for (int i = 0; i < m_tabs->count(); ++i)
            if (auto* page = qobject_cast<SessionPage*>(m_tabs->widget(i)); page && page->session()->path == path)
                page->setStoredPath(sessionPath);
    });
    connect(m_loader, &SessionLoader::storeFailed, this, [this](const QString& path, const QString& message) {
        statusBar()->showMessage(tr("%1 is open, but it could not be stored in the session library: %2")
                                     .arg(displayName(path), message),
                                 15000);
    });
    connect(m_loader, &SessionLoader::progressChanged, this, [this](int permille) {
        if (m_progress)
            m_progress->setValue(permille);
    });

    statusBar()->addPermanentWidget(m_statusSession);
    statusBar()->showMessage(tr("Ready. Open a trace with Ctrl+O or drop files here."));

    createActions();
    createMenus();
    updateActions();
    restoreWindowState();
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions() {
    m_openAction = new QAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open…"), this);
    m_openAction->setShortcut(QKeySequence::Open);
    m_openAction->setStatusTip(
        tr("Open trace, capture, memory snapshot or session files (the welcome page lists every format)"));
    connect(m_openAction, &QAction::triggered, this, &MainWindow::showOpenDialog);

    m_newCaptureAction = new QAction(tr("New &Capture…"), this);
    m_newCaptureAction->setObjectName(QStringLiteral("newCaptureAction"));
    m_newCaptureAction->setShortcut(QKeySequence::New);
    m_newCaptureAction->setStatusTip(tr("Run a program under CUPTI and open what it did on the GPU"));
    connect(m_newCaptureAction, &QAction::triggered, this, [this] {
        if (m_captureDialog) {
            m_captureDialog->show();
            m_captureDialog->raise();
            m_captureDialog->activateWindow();
            return;
        }
        // Not modal: while the program runs, its timeline grows in a Live tab (LiveCapture) that can
        // be looked at; a finished capture is imported, stored in the session library and opened
        // like any trace.
        auto* dialog = new NewCaptureDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        m_captureDialog = dialog;
        auto* live = new LiveCapture(m_tabs, dialog);
        connect(dialog, &NewCaptureDialog::captureGrowing, live, [live, dialog](const QString& dir) {
            // A program profiled on this machine keeps its cores: the live view reads with a quarter.
            live->setReaderThreads(dialog->capturesHere() ? std::max(1u, usableCores() / 4) : 0);
            live->follow(dir);
        });
        connect(dialog, &NewCaptureDialog::captureFinished, this, [this, live](const QString& dir) {
            live->stop();
            openFiles({dir});
        });
        connect(dialog, &NewCaptureDialog::captureFailed, live, [live] { live->stop(); });
        dialog->show();
    });
    m_compareAction = new QAction(tr("&Compare…"), this);
    m_compareAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    m_compareAction->setStatusTip(tr("Compare two open sessions: what got faster, what got slower"));
    connect(m_compareAction, &QAction::triggered, this, &MainWindow::showCompareDialog);
    m_libraryAction = new QAction(tr("Session &Library"), this);
    m_libraryAction->setObjectName(QStringLiteral("libraryAction"));
    m_libraryAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    m_libraryAction->setStatusTip(tr("Stored sessions: open, rename, delete, export, import"));
    connect(m_libraryAction, &QAction::triggered, this, [this] {
        SessionLibraryDialog dialog(this);
        connect(&dialog, &SessionLibraryDialog::openRequested, this, [this](const QString& p) { openFiles({p}); });
        dialog.exec();
        m_loader->setLibraryDirectory(SessionLibraryDialog::libraryDirectory()); // the folder may have changed
        m_jobLoader->setLibraryDirectory(SessionLibraryDialog::libraryDirectory());
    });

    m_exportAction = new QAction(tr("Session &Summary as JSON…"), this);
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportAction->setStatusTip(tr("Save the headline numbers of the current session as JSON"));
    connect(m_exportAction, &QAction::triggered, this, &MainWindow::exportSummary);
    m_exportTraceAction = new QAction(tr("&Chrome Trace (JSON)…"), this);
    m_exportTraceAction->setStatusTip(
        tr("Save the session, or the range selected on the timeline, as Chrome trace JSON (Perfetto, chrome://tracing)"));
    connect(m_exportTraceAction, &QAction::triggered, this, &MainWindow::exportChromeTraceFile);
    m_exportCsvAction = new QAction(tr("Summary &Tables (nsys stats CSV)…"), this);
    m_exportCsvAction->setStatusTip(tr("Save kernel, API and memory operation summaries as CSV files, as nsys stats writes them"));
    connect(m_exportCsvAction, &QAction::triggered, this, &MainWindow::exportSummaryCsvs);

    m_closeAction = new QAction(tr("&Close Session"), this);
    m_closeAction->setShortcut(QKeySequence::Close);
    connect(m_closeAction, &QAction::triggered, this, &MainWindow::closeCurrentTab);

    m_quitAction = new QAction(QIcon::fromTheme(QStringLiteral("application-exit")), tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence::Quit);
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

    m_findAction = new QAction(QIcon::fromTheme(QStringLiteral("edit-find")), tr("&Find Slices…"), this);
    m_findAction->setShortcut(QKeySequence::Find);
    m_findAction->setStatusTip(tr("Search the timeline by name or regular expression"));
    connect(m_findAction, &QAction::triggered, this, [this] {
        if (auto* page = qobject_cast<SessionPage*>(m_tabs->currentWidget()))
            page->searchBar()->activate();
    });
    m_fitAction = new QAction(tr("Zoom to &Fit"), this);
    m_fitAction->setShortcut(QKeySequence(Qt::Key_0));
    m_fitAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_fitAction, &QAction::triggered, this, [this] {
        if (auto* page = qobject_cast<SessionPage*>(m_tabs->currentWidget()))
            page->timeViewport()->fitAll();
    });
    m_collapseAction = new QAction(tr("&Collapse All Groups"), this);
    m_collapseAction->setCheckable(true);
    connect(m_collapseAction, &QAction::toggled, this, [this](bool on) {
        if (auto* page = qobject_cast<SessionPage*>(m_tabs->currentWidget()))
            page->timeline()->setAllCollapsed(on);
    });

    m_fullScreenAction = new QAction(tr("&Full Screen"), this);
    m_fullScreenAction->setShortcut(QKeySequence::FullScreen);
    m_fullScreenAction->setCheckable(true);
    connect(m_fullScreenAction, &QAction::toggled, this, [this](bool on) {
        setWindowState(on ? (windowState() | Qt::WindowFullScreen) : (windowState() & ~Qt::WindowFullScreen));
    });

    m_nextTabAction = new QAction(tr("&Next Session"), this);
    m_nextTabAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageDown));
    connect(m_nextTabAction, &QAction::triggered, this, [this] {
        if (m_tabs->count())
            m_tabs->setCurrentIndex((m_tabs->currentIndex() + 1) % m_tabs->count());
    });
    m_previousTabAction = new QAction(tr("&Previous Session"), this);
    m_previousTabAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageUp));
    connect(m_previousTabAction, &QAction::triggered, this, [this] {
        if (m_tabs->count())
            m_tabs->setCurrentIndex((m_tabs->currentIndex() + m_tabs->count() - 1) % m_tabs->count());
    });

    m_gettingStartedAction = new QAction(tr("&Getting Started"), this);
    m_gettingStartedAction->setObjectName(QStringLiteral("gettingStartedAction"));
    m_gettingStartedAction->setShortcut(QKeySequence::HelpContents);
    m_gettingStartedAction->setStatusTip(tr("How to record a program or open a trace, and what each tab answers"));
    connect(m_gettingStartedAction, &QAction::triggered, this, [this] {
        GettingStartedDialog dialog(this);
        dialog.exec();
    });
    m_shortcutsAction = new QAction(tr("&Keyboard Shortcuts"), this);
    m_shortcutsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    connect(m_shortcutsAction, &QAction::triggered, this, &MainWindow::showShortcuts);
    m_aboutAction = new QAction(tr("&About Warpscope"), this);
    m_aboutAction->setMenuRole(QAction::AboutRole);
    connect(m_aboutAction, &QAction::triggered, this, &MainWindow::showAbout);
    m_aboutQtAction = new QAction(tr("About &Qt"), this);
    m_aboutQtAction->setMenuRole(QAction::AboutQtRole);
    connect(m_aboutQtAction, &QAction::triggered, qApp, &QApplication::aboutQt);
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openAction);
    // A trace and the PyTorch memory snapshot of the same run, on one time axis (issue #28).
    QAction* openBeside = file->addAction(tr("Open Trace with Memory &Snapshot…"), this, [this] {
        const QString trace = QFileDialog::getOpenFileName(this, tr("Open Trace"), QString(),
                                                           tr("Traces and captures (*.json *.gz *.wscap *.sqlite *.pb *.warpscope);;All files (*)"));
        if (trace.isEmpty())
            return;
        const QString snapshot = QFileDialog::getOpenFileName(
            this, tr("Memory Snapshot of the Same Run"), QFileInfo(trace).absolutePath(),
            tr("PyTorch memory snapshots (*.pickle *.pkl *.gz);;All files (*)"));
        if (!snapshot.isEmpty())
            openWithSnapshot(trace, snapshot);
    });
    openBeside->setObjectName(QStringLiteral("openWithSnapshotAction"));
    openBeside->setStatusTip(tr("Open a trace or capture with the PyTorch memory snapshot of the same run on its time axis"));
    QAction* openUrl = file->addAction(tr("Open &URL…"), this, [this] { showOpenUrlDialog(); });
    openUrl->setObjectName(QStringLiteral("openUrlAction"));
    openUrl->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    openUrl->setStatusTip(tr("Open a trace from S3, Google Cloud Storage, Azure Blob Storage or a web server"));
    // A folder on a GPU server, through the user's own ssh (issue #26): the URL dialog's listing.
    QAction* openSsh = file->addAction(tr("Open Remote Folder (&SSH)…"), this, [this] {
        const std::vector<std::string> hosts =
            remote::configuredHosts((QDir::homePath() + QStringLiteral("/.ssh/config")).toStdString());
        showOpenUrlDialog(QStringLiteral("ssh://%1/~/").arg(hosts.empty() ? QStringLiteral("HOST") : QString::fromStdString(hosts.front())));
    });
    openSsh->setObjectName(QStringLiteral("openSshFolderAction"));
    openSsh->setStatusTip(tr("List the traces and captures in a folder of a machine your ssh reaches, and open one"));
    // The welcome page starts from the same actions as the menu.
    m_welcome->addStartAction(m_newCaptureAction, true);
    m_welcome->addStartAction(openUrl, false);
    m_welcome->addStartAction(openSsh, false);
    m_welcome->addStartAction(m_libraryAction, false);
    file->addAction(tr("Open Capture &Folder…"), this, [this] {
        // A capture of several processes (DDP ranks) is a folder of .wscap streams.
        QSettings settings;
        const QString dir = QFileDialog::getExistingDirectory(
            this, tr("Open Capture Folder"), settings.value(QLatin1String(kLastDirKey), QDir::homePath()).toString());
        if (dir.isEmpty())
            return;
        settings.setValue(QLatin1String(kLastDirKey), dir);
        openFiles({dir});
    });
    file->addAction(tr("Open &Job Folder…"), this, [this] {
        // The traces of a distributed run (one per rank, e.g. a tensorboard_trace_handler folder)
        // open together as one job.
        QSettings settings;
        const QString dir = QFileDialog::getExistingDirectory(
            this, tr("Open Job Folder"), settings.value(QLatin1String(kLastDirKey), QDir::homePath()).toString());
        if (dir.isEmpty())
            return;
        settings.setValue(QLatin1String(kLastDirKey), dir);
        openJob({dir});
    });
    file->addAction(tr("Open Job &Files…"), this, [this] {
        QSettings settings;
        const QStringList files = QFileDialog::getOpenFileNames(
            this, tr("Open Job Files (one trace per rank)"), settings.value(QLatin1String(kLastDirKey), QDir::homePath()).toString(),
            tr("Traces, captures and sessions (*.json *.json.gz *.json.zst *.gz *.zst *.sqlite *.nsys-rep *.qdrep *.nvvp *.sql *.pb *.wscap "
               "*.warpscope);;All files (*)"));
        if (files.isEmpty())
            return;
        settings.setValue(QLatin1String(kLastDirKey), QFileInfo(files.first()).absolutePath());
        openJob(files);
    });
    file->addAction(tr("Open Job &Summaries…"), this, [this] {
        // `warpscope-cli summary --json` outputs of every rank, made where the traces live.
        QSettings settings;
        const QString dir = QFileDialog::getExistingDirectory(
            this, tr("Open Job Summaries"), settings.value(QLatin1String(kLastDirKey), QDir::homePath()).toString());
        if (dir.isEmpty())
            return;
        settings.setValue(QLatin1String(kLastDirKey), dir);
        openJobSummaries(dir);
    });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::updateRecentMenu);
    QAction* sample = file->addAction(tr("Open &Sample Session"), this, &MainWindow::openSample);
    sample->setEnabled(!AppEnvironment::sampleTracePath().isEmpty());
    file->addSeparator();
    file->addAction(m_newCaptureAction);
    file->addAction(m_libraryAction);
    file->addAction(m_compareAction);
    file->addSeparator();
    QMenu* exportMenu = file->addMenu(tr("&Export"));
    exportMenu->addAction(m_exportAction);
    exportMenu->addAction(m_exportTraceAction);
    exportMenu->addAction(m_exportCsvAction);
    file->addSeparator();
    file->addAction(m_closeAction);
    file->addAction(m_quitAction);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* settingsAction = edit->addAction(tr("&Settings…"), this, [this] {
        SettingsDialog dialog(this);
        dialog.exec();
    });
    settingsAction->setObjectName(QStringLiteral("settingsAction"));
    settingsAction->setMenuRole(QAction::PreferencesRole);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_findAction);
    view->addAction(m_fitAction);
    view->addAction(m_collapseAction);
    view->addSeparator();
    view->addAction(m_nextTabAction);
    view->addAction(m_previousTabAction);
    view->addSeparator();
    view->addAction(m_fullScreenAction);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_gettingStartedAction);
    help->addAction(m_shortcutsAction);
    help->addSeparator();
    help->addAction(m_aboutAction);
    help->addAction(m_aboutQtAction);

    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    const QStringList files = RecentFiles::list();
    m_welcome->setRecentFiles(files);
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    for (int i = 0; i < files.size(); ++i) {
        const QString& path = files[i];
        // &1..&9 give keyboard access; the full path is in the status tip.
        const QString label = i < 9 ? tr("&%1 %2").arg(i + 1).arg(displayName(path))
                                    : displayName(path);
        QAction* a = m_recentMenu->addAction(label, this, [this, path] { openFiles({path}); });
        a->setStatusTip(path);
    }
    if (files.isEmpty()) {
        m_recentMenu->addAction(tr("No recent files"))->setEnabled(false);
        return;
    }
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(tr("&Clear Menu"), this, [this] {
        RecentFiles::clear();
        updateRecentMenu();
    });
}

void MainWindow::updateActions() {
    const bool hasSession = m_tabs->count() > 0;
    m_exportAction->setEnabled(hasSession);
    m_exportTraceAction->setEnabled(hasSession);
    m_exportCsvAction->setEnabled(hasSession);
    m_findAction->setEnabled(hasSession);
    m_fitAction->setEnabled(hasSession);
    m_collapseAction->setEnabled(hasSession);
    m_closeAction->setEnabled(hasSession);
    m_nextTabAction->setEnabled(m_tabs->count() > 1);
    int sessions = 0;
    for (int i = 0; i < m_tabs->count(); ++i)
        sessions += qobject_cast<SessionPage*>(m_tabs->widget(i)) != nullptr;
    m_compareAction->setEnabled(sessions >= 2);
    m_previousTabAction->setEnabled(m_tabs->count() > 1);
    m_stack->setCurrentIndex(hasSession ? 1 : 0);
    const auto session = currentSession();
    if (session) {
        const TraceSummary& s = session->summary;
        setWindowTitle(tr("%1 — Warpscope").arg(displayName(session->path)));
        m_statusSession->setText(tr("%1 events · %2 tracks · %3")
                                     .arg(formatCount(s.events))
                                     .arg(s.tracks.size())
                                     .arg(formatDuration(s.endNs - s.startNs)));
        m_banner->showReport(s.report, tr("%1 events over %2").arg(formatCount(s.events), formatDuration(s.endNs - s.startNs)));
    } else {
        setWindowTitle(tr("Warpscope"));
        m_statusSession->clear();
        m_banner->hide();
    }
}

void MainWindow::openFiles(const QStringList& paths) {
    for (const QString& p : paths) {
        if (isRemoteUrl(p.toStdString())) { // downloaded (or found in the cache) by the loaders
            std::string why;
            const auto url = parseRemoteUrl(p.toStdString(), {}, &why);
            if (url && url->isPrefix())
                m_jobQueue.append({{p}, false}); // a bucket or container folder: the run under it, as a job
            else
                m_queue.append(p);
            continue;
        }
        const QFileInfo info(p);
        if (!info.exists()) {
            reportMissingFile(p);
            continue;
        }
        // A folder is a job (one trace or capture stream per rank), unless it is the capture of one
        // program (its streams carry no RANK): that opens as one session of all its processes.
        const std::string dir = QFile::encodeName(info.absoluteFilePath()).toStdString();
        if (info.isDir() && (!isCaptureDirectory(dir) || rankedCaptureStreams(dir) >= 2)) {
            m_jobQueue.append({{info.absoluteFilePath()}, false});
            continue;
        }
        m_queue.append(info.absoluteFilePath());
    }
    if (m_queue.isEmpty() && m_jobQueue.isEmpty() && !isLoading()) {
        showBatchFailures();
        emit loadingFinished(m_batchOk);
        m_batchOk = true;
        return;
    }
    loadNext();
}

void MainWindow::reportMissingFile(const QString& path) {
    m_lastError = tr("%1: no such file").arg(QDir::toNativeSeparators(path));
    statusBar()->showMessage(m_lastError, 10000);
    m_batchFailures << m_lastError;
    m_batchOk = false;
}

void MainWindow::openWithSnapshot(const QString& trace, const QString& snapshot) {
    const QFileInfo snapshotInfo(snapshot);
    if (!snapshotInfo.isFile()) {
        reportMissingFile(snapshot); // the trace still opens, alone
    } else {
        m_snapshotBeside.insert(QFileInfo(trace).absoluteFilePath(), snapshotInfo.absoluteFilePath());
    }
    openFiles({trace});
}

NsysExportOptions MainWindow::nsysOptions() {
    NsysExportOptions options;
    options.nsys = QFile::encodeName(SettingsDialog::nsysPath()).toStdString(); // "" = look for one
    return options;
}

void MainWindow::openJob(const QStringList& inputs) {
    QStringList absolute;
    for (const QString& p : inputs)
        absolute << QFileInfo(p).absoluteFilePath();
    m_jobQueue.append({absolute, false});
    loadNext();
}

void MainWindow::openJobSummaries(const QString& dir) {
    m_jobQueue.append({{QFileInfo(dir).absoluteFilePath()}, true});
    loadNext();
}

int MainWindow::jobCount() const {
    int n = 0;
    for (int i = 0; i < m_tabs->count(); ++i)
        n += qobject_cast<JobPage*>(m_tabs->widget(i)) != nullptr;
    return n;
}

void MainWindow::onJobLoaded(std::shared_ptr<const LoadedJob> job) {
    auto* page = new JobPage(job, m_tabs);
    connect(page, &JobPage::openTraceRequested, this, [this](const QString& path) { openFiles({path}); });
    // Two ranks of the job compared (the rank timeline's header menu).
    connect(page, &JobPage::compareRanksRequested, this, [this, job](size_t a, size_t b) {
        if (a >= job->sessions.size() || b >= job->sessions.size() || !job->sessions[a] || !job->sessions[b])
            return;
        auto name = [&](size_t w) {
            return job->ranks[w].rank >= 0 ? tr("rank %1").arg(job->ranks[w].rank) : QString::fromStdString(job->ranks[w].worker);
        };
        openCompare(std::make_shared<SessionAnalyses>(job->sessions[a]), name(a), std::make_shared<SessionAnalyses>(job->sessions[b]),
                    name(b));
    });
    const int index = m_tabs->addTab(page, page->title());
    QStringList shownInputs;
    for (const QString& input : job->inputs)
        shownInputs << (isRemoteUrl(input.toStdString()) ? QString::fromStdString(redactUrl(input.toStdString())) : input);
    m_tabs->setTabToolTip(index, shownInputs.join(QLatin1Char('\n')));
    m_tabs->setCurrentIndex(index);
    // A job folder goes to Open Recent like a file: opening a folder opens it as a job again.
    if (!job->fromSummaries && job->inputs.size() == 1 && QFileInfo(job->inputs.front()).isDir()) {
        RecentFiles::add(job->inputs.front());
        updateRecentMenu();
    }
    updateActions();
    statusBar()->showMessage(tr("Opened a job of %n rank(s) in %1 ms", nullptr, static_cast<int>(job->ranks.size()))
                                 .arg(job->elapsedMs),
                             10000);
    finishOne(job->skipped.isEmpty());
}

void MainWindow::cleanUpLibrary() {
    // What a killed import left (a store never moved into place) goes, and the status bar says so.
    // A directory listing: quick enough for the GUI thread at startup.
    const SessionLibrary::Cleanup done =
        SessionLibrary(QFile::encodeName(SessionLibraryDialog::libraryDirectory()).toStdString()).cleanUp();
    QStringList said;
    if (done.interruptedStores > 0)
        said << tr("Removed %n unfinished session(s) left by imports that were interrupted", nullptr,
                   static_cast<int>(done.interruptedStores));
    if (!done.movedAside.empty())
        said << tr("Moved %n unreadable session file(s) to %1", nullptr, static_cast<int>(done.movedAside.size()))
                    .arg(QFileInfo(QFile::decodeName(done.movedAside.front().c_str())).absolutePath());
    for (const QString& note : said)
        addStartupNote(note);
}

void MainWindow::addStartupNote(const QString& note) {
    m_startupNotes << note;
    statusBar()->showMessage(m_startupNotes.join(QStringLiteral("; ")), 15000);
}

bool MainWindow::isLoading() const { return m_loader->isBusy() || m_jobLoader->isBusy(); }

int MainWindow::sessionCount() const { return m_tabs->count(); }

std::shared_ptr<const LoadedSession> MainWindow::currentSession() const {
    auto* page = qobject_cast<SessionPage*>(m_tabs->currentWidget());
    return page ? page->session() : nullptr;
}

void MainWindow::loadNext() {
    if (isLoading())
        return;
    if (m_queue.isEmpty()) {
        if (m_jobQueue.isEmpty())
            return;
        const PendingJob job = m_jobQueue.takeFirst();
        if (job.summaries)
            m_jobLoader->loadSummaries(job.inputs.front());
        else {
            m_jobLoader->setNsysOptions(nsysOptions());
            m_jobLoader->load(job.inputs);
        }
        const QString what = job.inputs.size() == 1 ? displayName(job.inputs.front())
                                                    : tr("%n file(s)", nullptr, static_cast<int>(job.inputs.size()));
        statusBar()->showMessage(tr("Loading job %1…").arg(what));
        showProgress(tr("Opening job"), tr("Opening job %1…").arg(what));
        return;
    }
    m_loadingPath = m_queue.takeFirst();
    m_loader->setNsysOptions(nsysOptions());
    m_loader->load(m_loadingPath, m_snapshotBeside.take(m_loadingPath));
    statusBar()->showMessage(tr("Loading %1…").arg(displayName(m_loadingPath)));
    showProgress(tr("Opening trace"), tr("Importing %1…").arg(displayName(m_loadingPath)));
}

void MainWindow::showProgress(const QString& title, const QString& label) {
    if (!m_progress) {
        m_progress = new QProgressDialog(this);
        m_progress->setRange(0, 1000);
        m_progress->setMinimumDuration(400); // quick loads never flash a dialog
        m_progress->setAutoClose(false);
        m_progress->setAutoReset(false);
        connect(m_progress, &QProgressDialog::canceled, m_loader, &SessionLoader::cancel);
        connect(m_progress, &QProgressDialog::canceled, m_jobLoader, &JobLoader::cancel);
    }
    m_progress->setWindowTitle(title);
    m_progress->setLabelText(label);
    m_progress->setValue(0);
}

bool MainWindow::compareTabs(int a, int b) {
    auto* pageA = qobject_cast<SessionPage*>(m_tabs->widget(a));
    auto* pageB = qobject_cast<SessionPage*>(m_tabs->widget(b));
    if (!pageA || !pageB || a == b)
        return false;
    std::array<std::optional<DiffWindow>, 2> selected;
    const SessionPage* pages[2] = {pageA, pageB};
    for (size_t s = 0; s < 2; ++s)
        if (const auto range = pages[s]->timeViewport()->selectedRange())
            selected[s] = DiffWindow{range->start, range->end};
    // The pages' analyses: what their Overview and Operators tabs computed is not computed again.
    openCompare(pageA->analyses(), m_tabs->tabText(a), pageB->analyses(), m_tabs->tabText(b), selected);
    return true;
}

void MainWindow::openCompare(std::shared_ptr<SessionAnalyses> a, const QString& nameA, std::shared_ptr<SessionAnalyses> b,
                             const QString& nameB, const std::array<std::optional<DiffWindow>, 2>& selected) {
    auto* view = new CompareView(m_tabs);
    ++m_comparing;
    connect(view, &CompareView::computed, this, [this] { m_comparing = std::max(0, m_comparing - 1); });
    view->setRuns(std::move(a), nameA, std::move(b), nameB, selected);
    const int index = m_tabs->addTab(view, tr("%1 vs %2").arg(nameB, nameA));
    m_tabs->setTabToolTip(index, tr("Compare: %1 (B) against %2 (A, the baseline)").arg(nameB, nameA));
    m_tabs->setCurrentIndex(index);
    updateActions();
}

bool MainWindow::compareFirstTwo() {
    std::vector<int> sessions;
    for (int i = 0; i < m_tabs->count() && sessions.size() < 2; ++i)
        if (qobject_cast<SessionPage*>(m_tabs->widget(i)))
            sessions.push_back(i);
    return sessions.size() == 2 && compareTabs(sessions[0], sessions[1]);
}

void MainWindow::showCompareDialog() {
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Compare Sessions"));
    auto* a = new QComboBox(&dialog);
    auto* b = new QComboBox(&dialog);
    for (int i = 0; i < m_tabs->count(); ++i)
        if (qobject_cast<SessionPage*>(m_tabs->widget(i))) {
            a->addItem(m_tabs->tabText(i), i);
            b->addItem(m_tabs->tabText(i), i);
        }
    if (a->count() < 2)
        return;
    b->setCurrentIndex(a->count() > 1 && m_tabs->currentIndex() == a->itemData(0).toInt() ? 1 : 0);
    a->setCurrentIndex(b->currentIndex() == 0 ? 1 : 0);
    auto* form = new QFormLayout;
    form->addRow(tr("A (baseline):"), a);
    form->addRow(tr("B (compared):"), b);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Compare"));
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto check = [&] { buttons->button(QDialogButtonBox::Ok)->setEnabled(a->currentIndex() != b->currentIndex()); };
    connect(a, &QComboBox::currentIndexChanged, &dialog, check);
    connect(b, &QComboBox::currentIndexChanged, &dialog, check);
    check();
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(new QLabel(tr("What changed from A to B: step time, utilization, operators, kernels."), &dialog));
    layout->addLayout(form);
    layout->addWidget(buttons);
    if (dialog.exec() == QDialog::Accepted)
        compareTabs(a->currentData().toInt(), b->currentData().toInt());
}

SessionPage* MainWindow::pageOf(const Session* session) const {
    for (int i = 0; i < m_tabs->count(); ++i)
        if (auto* page = qobject_cast<SessionPage*>(m_tabs->widget(i)); page && page->session()->session.get() == session)
            return page;
    return nullptr;
}

void MainWindow::onShown(std::shared_ptr<const LoadedSession> session) {
    // The timeline appears now; the summary and the rest of onLoaded follow with the analyses.
    auto* page = new SessionPage(session, m_tabs);
    const int index = m_tabs->addTab(page, displayName(session->path));
    m_tabs->setTabToolTip(index, session->path);
    m_tabs->setCurrentIndex(index);
    updateActions();
}

void MainWindow::onLoaded(std::shared_ptr<const LoadedSession> session) {
    SessionPage* page = pageOf(session->session.get());
    if (!page) {
        onShown(session);
        page = pageOf(session->session.get());
    }
    page->setSummarized(session);
    if (m_startupView.rangeMs) {
        const int64_t origin = session->session->startNs();
        page->timeViewport()->showRange(origin + static_cast<int64_t>(m_startupView.rangeMs->first * 1e6),
                                        origin + static_cast<int64_t>(m_startupView.rangeMs->second * 1e6));
    }
    if (!m_startupView.find.isEmpty()) {
        page->searchBar()->activate();
        page->searchBar()->setPattern(m_startupView.find, false);
        page->searchBar()->next();
    }
    if (m_startupView.maximizeTab)
        page->setBottomMaximized(true);
    if (!m_startupView.tab.isEmpty() && !page->showTab(m_startupView.tab, true))
        std::fprintf(stderr, "warpscope: unknown tab %s (one of %s)\n", qPrintable(m_startupView.tab),
                     qPrintable(page->tabKeys().join(QStringLiteral(", "))));
    RecentFiles::add(session->path);
    updateRecentMenu();
    updateActions();
    if (session->fromLibrary)
        statusBar()->showMessage(tr("Opened %1 from the session library in %2 ms")
                                     .arg(displayName(session->path))
                                     .arg(session->elapsedMs),
                                 10000);
    else
        statusBar()->showMessage(tr("Opened %1 in %2 ms").arg(displayName(session->path)).arg(session->elapsedMs),
                                 10000);
    finishOne(true);
}

void MainWindow::onFailed(const QString& path, const QString& message) {
    m_lastError = tr("Could not open %1: %2").arg(QDir::toNativeSeparators(path), message);
    statusBar()->showMessage(m_lastError, 15000);
    m_batchFailures << tr("%1: %2").arg(QDir::toNativeSeparators(path), message);
    finishOne(false);
}

// One dialog for what a batch could not open (a folder of twenty damaged traces is not twenty
// dialogs); what did open is in its tabs, with a banner for anything an import skipped.
void MainWindow::showBatchFailures() {
    if (m_batchFailures.isEmpty())
        return;
    const qsizetype n = m_batchFailures.size();
    const QString text = n == 1 ? m_lastError
                                : tr("Could not open %n file(s):", nullptr, static_cast<int>(n)) + QLatin1String("\n\n") +
                                      m_batchFailures.mid(0, 8).join(QLatin1Char('\n')) +
                                      (n > 8 ? QLatin1String("\n") + tr("… and %n more (see the details)", nullptr, static_cast<int>(n - 8))
                                             : QString());
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Could not open trace"), text,
                                QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("openFailures"));
    if (n > 1)
        box->setDetailedText(m_batchFailures.join(QLatin1Char('\n')));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open(); // window-modal, never blocks the event loop (headless runs keep going)
    m_batchFailures.clear();
}

void MainWindow::onCancelled(const QString& path) {
    statusBar()->showMessage(tr("Cancelled opening %1").arg(displayName(path)), 10000);
    m_queue.clear(); // Cancel stops the whole batch, as a user expects
    m_jobQueue.clear();
    finishOne(false);
}

void MainWindow::finishOne(bool ok) {
    m_batchOk = m_batchOk && ok;
    m_loadingPath.clear();
    if (!m_queue.isEmpty() || !m_jobQueue.isEmpty()) {
        loadNext();
        return;
    }
    if (m_progress)
        m_progress->reset();
    showBatchFailures();
    const bool allOk = m_batchOk;
    m_batchOk = true;
    emit loadingFinished(allOk);
}

void MainWindow::showOpenDialog() {
    QSettings settings;
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Open Trace"), settings.value(QLatin1String(kLastDirKey), QDir::homePath()).toString(),
        tr("Traces, captures and sessions (*.json *.json.gz *.json.zst *.gz *.zst *.sqlite *.nsys-rep *.qdrep *.nvvp *.sql *.pb *.wscap "
           "*.pickle *.pkl *.warpscope);;All files (*)"));
    if (files.isEmpty())
        return;
    settings.setValue(QLatin1String(kLastDirKey), QFileInfo(files.first()).absolutePath());
    openFiles(files);
}

void MainWindow::showOpenUrlDialog(const QString& url) {
    OpenUrlDialog dialog(this);
    if (!url.isEmpty())
        dialog.setUrl(url);
    if (dialog.exec() == QDialog::Accepted && !dialog.url().isEmpty())
        openFiles({dialog.url()});
}

void MainWindow::openSample() {
    const QString sample = AppEnvironment::sampleTracePath();
    if (!sample.isEmpty())
        openFiles({sample});
}

void MainWindow::exportSummary() {
    const auto session = currentSession();
    if (!session)
        return;
    const QString suggested = QFileInfo(session->path).completeBaseName() + QStringLiteral(".summary.json");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Session Summary"),
                                                      QDir::home().filePath(suggested), tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    QSaveFile out(path);
    const std::string json = summaryToJson(session->summary, true) + "\n";
    if (!out.open(QIODevice::WriteOnly) || out.write(json.data(), static_cast<qint64>(json.size())) < 0 ||
        !out.commit()) {
        QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1: %2").arg(path, out.errorString()));
        return;
    }
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 10000);
}

void MainWindow::exportChromeTraceFile() {
    auto* page = qobject_cast<SessionPage*>(m_tabs->currentWidget());
    if (!page)
        return;
    const std::shared_ptr<const Session> session = page->session()->session;
    const std::optional<TimeRange> range = page->timeViewport()->selectedRange();
    const QString suggested = QFileInfo(page->session()->path).completeBaseName() +
                              (range ? QStringLiteral(".range.trace.json") : QStringLiteral(".trace.json"));
    const QString path = QFileDialog::getSaveFileName(
        this, range ? tr("Export the Selected Range as Chrome Trace") : tr("Export Session as Chrome Trace"),
        QDir::home().filePath(suggested), tr("Chrome trace JSON (*.json)"));
    if (path.isEmpty())
        return;
    ChromeExportOptions options;
    if (range) {
        options.from = range->start;
        options.to = range->end;
    }
    std::atomic<bool> cancel{false}, done{false};
    options.cancel = &cancel;
    ChromeExportResult result;
    // Written beside the target and moved into place: a failed or cancelled export leaves no half file.
    const std::string partial = QFile::encodeName(path + QStringLiteral(".partial")).toStdString();
    std::thread worker([&] {
        std::ofstream out(partial, std::ios::binary);
        if (out)
            result = exportChromeTrace(*session, out, options);
        else
            result.error = "cannot create the file";
        done = true;
    });
    QProgressDialog progress(tr("Exporting %1…").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, 0, this);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(400);
    while (!done) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 30);
        if (progress.wasCanceled())
            cancel = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    worker.join();
    progress.reset();
    QFile::remove(path);
    if (!result.ok || !QFile::rename(QString::fromStdString(partial), path)) {
        QFile::remove(QString::fromStdString(partial));
        if (!result.cancelled)
            QMessageBox::warning(this, tr("Export failed"),
                                 tr("Could not write %1: %2").arg(path, QString::fromStdString(result.error)));
        return;
    }
    statusBar()->showMessage(tr("Saved %1 (%2 events)").arg(QDir::toNativeSeparators(path), formatCount(result.events)), 10000);
}

void MainWindow::exportSummaryCsvs() {
    auto* page = qobject_cast<SessionPage*>(m_tabs->currentWidget());
    if (!page)
        return;
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder for the Summary Tables"), QDir::homePath());
    if (dir.isEmpty())
        return;
    const std::optional<TimeRange> range = page->timeViewport()->selectedRange();
    const auto files = summaryCsvFiles(*page->session()->session, range ? std::optional<int64_t>(range->start) : std::nullopt,
                                       range ? std::optional<int64_t>(range->end) : std::nullopt);
    for (const SummaryCsvFile& f : files) {
        QSaveFile out(QDir(dir).filePath(QString::fromStdString(f.name)));
        if (!out.open(QIODevice::WriteOnly) || out.write(f.text.data(), static_cast<qint64>(f.text.size())) < 0 ||
            !out.commit()) {
            QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1: %2").arg(out.fileName(), out.errorString()));
            return;
        }
    }
    statusBar()->showMessage(tr("Saved %n summary tables in %1", nullptr, static_cast<int>(files.size())).arg(QDir::toNativeSeparators(dir)),
                             10000);
}

void MainWindow::closeCurrentTab() {
    if (m_tabs->count())
        emit m_tabs->tabCloseRequested(m_tabs->currentIndex());
}

void MainWindow::showShortcuts() {
    ShortcutsDialog dialog(findChildren<QAction*>(), this);
    dialog.exec();
}

// The formats of the import's table (import_formats.h), as the welcome page words them.
QString MainWindow::readsText() {
    QStringList names;
    for (const ImportFormat& f : importFormats())
        names << WelcomePage::formatDescription(f.format);
    return names.join(QStringLiteral("; "));
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About Warpscope"),
        tr("<h3>Warpscope %1</h3><p>A native profiler viewer for GPU and deep-learning workloads: see where GPU "
           "time goes, why the GPU idles, where memory peaks, and which line of code is responsible.</p>"
           "<p>Built with Qt %2. Reads: %3.</p>")
            .arg(QStringLiteral(WARPSCOPE_VERSION), QString::fromLatin1(qVersion()), readsText()));
}

void MainWindow::restoreWindowState() {
    QSettings settings;
    if (!restoreGeometry(settings.value(QLatin1String(kGeometryKey)).toByteArray()))
        resize(1280, 800);
    restoreState(settings.value(QLatin1String(kStateKey)).toByteArray());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    m_loader->cancel();
    m_jobLoader->cancel();
    QSettings settings;
    settings.setValue(QLatin1String(kGeometryKey), saveGeometry());
    settings.setValue(QLatin1String(kStateKey), saveState());
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (std::any_of(urls.begin(), urls.end(), [](const QUrl& u) { return u.isLocalFile(); }))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    QStringList files;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile())
            files << url.toLocalFile();
    if (files.isEmpty())
        return;
    event->acceptProposedAction();
    // Several traces dropped at once whose names carry distinct ranks (worker0..., rank-1...) are
    // the ranks of one job; anything else opens one tab per file.
    QSet<int> ranks;
    for (const QString& f : files)
        ranks.insert(rankFromFileName(QFile::encodeName(f).toStdString()));
    if (files.size() >= 2 && !ranks.contains(-1) && ranks.size() == files.size()) {
        openJob(files);
        return;
    }
    openFiles(files);
}

} // namespace ws
