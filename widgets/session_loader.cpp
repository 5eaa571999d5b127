#include "session_loader.h"

#include "analysis/session_analyses.h"
#include "import/job_files.h"
#include "import/snapshot_beside_import.h"
#include "import/trace_import.h"
#include "library/open_trace.h"
#include "remote/remote_url.h"
#include "library/session_library.h"

#include <QElapsedTimer>
#include <QFile>
#include <QMetaObject>

namespace ws {

SessionLoader::SessionLoader(QObject* parent) : QObject(parent) {}

SessionLoader::~SessionLoader() {
    m_cancel = true;
    joinWorker();
    for (std::thread& t : m_storing)
        t.join();
}

void SessionLoader::joinWorker() {
    if (m_worker.joinable())
        m_worker.join();
}

bool SessionLoader::load(const QString& path, const QString& snapshotBeside) {
    if (m_busy)
        return false;
    // The previous worker has delivered its session but may still be storing it: let it finish on
    // its own instead of blocking the GUI thread here.
    if (m_worker.joinable())
        m_storing.push_back(std::move(m_worker));
    m_busy = true;
    m_cancel = false;
    // A URL is shown, reported and remembered without its secrets (a SAS token, a signature).
    const QString given = path;
    const bool remote = isRemoteUrl(given.toStdString());
    const QString shownPath = remote ? QString::fromStdString(redactUrl(given.toStdString())) : given;
    m_worker = std::thread([this, given, remote, path = shownPath, libraryDir = m_libraryDir, nsys = m_nsys,
                            snapshot = QFile::encodeName(snapshotBeside).toStdString()] {
        QElapsedTimer timer;
        timer.start();
        int lastPermille = -1;
        ImportControl control;
        control.cancel = &m_cancel;
        control.nsysExport = nsys;
        double progressBase = 0.0; // a report's conversion is the first half of the progress bar
        auto showProgress = [&](double fraction) {
            const int permille = static_cast<int>(fraction * 1000.0);
            if (permille == lastPermille)
                return;
            lastPermille = permille;
            QMetaObject::invokeMethod(this, [this, permille] { emit progressChanged(permille); },
                                      Qt::QueuedConnection);
        };
        control.progress = [&](double f) { showProgress(progressBase + (1.0 - progressBase) * f); };
        std::string file = QFile::encodeName(given).toStdString();
        std::string storedName = file; // what names the library's copy (a report, not its export)
        auto fail = [this, path](const QString& message) {
            QMetaObject::invokeMethod(this, [this, path, message] {
                m_busy = false;
                emit failed(path, message);
            }, Qt::QueuedConnection);
        };
        auto stop = [this, path] {
            QMetaObject::invokeMethod(this, [this, path] {
                m_busy = false;
                emit cancelled(path);
            }, Qt::QueuedConnection);
        };
        if (!remote && detectFormat(file) == TraceFormat::NsightReport) {
            // The report is prepared here rather than inside the import, so that what follows (the
            // library, the job check) sees the SQLite export it became, as importTraceFile would.
            QMetaObject::invokeMethod(this, [this, path] { emit converting(path); }, Qt::QueuedConnection);
            const NsysExportResult exported = exportNsysReport(
                file, nsys, [&](double f) { showProgress(0.5 * f); }, &m_cancel);
            if (exported.cancelled)
                return stop();
            if (exported.sqlitePath.empty())
                return fail(QString::fromStdString(nsysExportFailure(exported)));
            file = exported.sqlitePath;
            progressBase = exported.fromCache ? 0.0 : 0.5;
        }
        if (!remote && isMultiProcessExport(file)) {
            QMetaObject::invokeMethod(this, [this, path] {
                m_busy = false;
                emit opensAsJob(path);
            }, Qt::QueuedConnection);
            return;
        }
        const SessionLibrary library(QFile::encodeName(libraryDir).toStdString());
        SessionLibrary::OpenResult result;
        bool mustStore = false;
        if (remote) {
            // A current cached copy opens like a local file; otherwise the object is imported as
            // it downloads and stored under the cached copy.
            result = library.openRemote(file, control);
            file = storedName = result.sourcePath;
            mustStore = !libraryDir.isEmpty() && result.session && !result.fromLibrary;
        } else if (!snapshot.empty()) {
            // A trace with a memory snapshot beside it is imported afresh each time and not stored:
            // the library keeps the trace as it is, under its own name.
            ImportResult imported = importTraceWithSnapshot(file, snapshot, control);
            result.session = std::move(imported.session);
            result.error = std::move(imported.error);
            result.cancelled = imported.cancelled;
        } else {
            if (!libraryDir.isEmpty())
                result = library.openStored(file);
            mustStore = !libraryDir.isEmpty() && !result.session && result.error.empty();
            if (!result.session && result.error.empty()) {
                ImportControl storing = control;
                // The page shows the import, then the store below follows: the import only notes
                // where the args lie, so that the first view is not kept waiting for the store.
                storing.forStore = mustStore ? ImportControl::StorePrep::Spans : ImportControl::StorePrep::None;
                ImportResult imported = openTraceFile(file, storing);
                result.session = std::move(imported.session);
                result.error = std::move(imported.error);
                result.cancelled = imported.cancelled;
            }
        }
        if (result.cancelled)
            return stop();
        if (!result.session)
            return fail(QString::fromStdString(result.error));
        // First the model, so the timeline draws while the analyses run; then the summary.
        auto first = std::make_shared<LoadedSession>();
        first->path = path;
        first->session = std::move(result.session);
        first->elapsedMs = timer.elapsed();
        first->storedPath = QFile::decodeName(result.sessionPath.c_str());
        first->fromLibrary = result.fromLibrary;
        first->analyses = std::make_shared<SessionAnalyses>(first->session);
        QMetaObject::invokeMethod(this, [this, s = std::shared_ptr<const LoadedSession>(first)] { emit shown(s); },
                                  Qt::QueuedConnection);
        auto full = std::make_shared<LoadedSession>(*first);
        full->summary = *full->analyses->summary();
        full->summarized = true;
        const std::shared_ptr<const Session> session = full->session;
        QMetaObject::invokeMethod(this, [this, s = std::shared_ptr<const LoadedSession>(full)] {
            m_busy = false;
            emit loaded(s);
        }, Qt::QueuedConnection);
        if (!mustStore)
            return;
        std::string error;
        if (auto stored = library.store(*session, storedName, &error, &m_cancel, full->analyses)) {
            const QString storedPath = QFile::decodeName(stored->c_str());
            QMetaObject::invokeMethod(this, [this, path, storedPath] { emit this->stored(path, storedPath); },
                                      Qt::QueuedConnection);
        } else if (!m_cancel) {
            const QString message = QString::fromStdString(error);
            QMetaObject::invokeMethod(this, [this, path, message] { emit storeFailed(path, message); },
                                      Qt::QueuedConnection);
        }
    });
    return true;
}

void SessionLoader::cancel() { m_cancel = true; }

} // namespace ws
