#pragma once

#include "analysis/trace_summary.h"
#include "import/nsys_report_export.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

namespace ws {

class Session;
class SessionAnalyses;

/* A session as the UI holds it: the immutable model plus what the session page shows. */
struct LoadedSession {
    QString path;
    std::shared_ptr<const Session> session;
    TraceSummary summary;
    qint64 elapsedMs = 0;
    QString storedPath;        // the library's session file, when it was reopened from there
    bool fromLibrary = false; // reopened from the library instead of imported again
    bool summarized = false;  // false in `shown`: the summary is still being computed
    // The session's analyses, made by the loader: the page's views and the library's store of the
    // session share them, so what one computed the other does not compute again.
    std::shared_ptr<SessionAnalyses> analyses;
};

/*
 * SessionLoader imports one file at a time on a worker thread and reports back on the GUI thread.
 * Core's plain callback/atomic-flag progress and cancellation are bridged to signals here, so core
 * stays Qt-free. With a library directory, a trace seen before reopens its stored session; a new
 * one is shown as soon as it is imported and stored in the library afterwards, on the same worker,
 * while the next file may already load. Destroying the loader cancels and joins every worker; no
 * signal arrives after that.
 */
class SessionLoader : public QObject {
    Q_OBJECT
public:
    explicit SessionLoader(QObject* parent = nullptr);
    ~SessionLoader() override;

    bool isBusy() const { return m_busy; }
    // With a library directory, traces go through the session library: imported once and stored,
    // then reopened from the stored session. Empty: import only.
    void setLibraryDirectory(const QString& dir) { m_libraryDir = dir; }
    // Which nsys converts Nsight Systems reports, and where their exports are kept (the app's Settings).
    void setNsysOptions(const NsysExportOptions& options) { m_nsys = options; }
    // Starts loading; returns false (and does nothing) while another load is running. With
    // snapshotBeside, a PyTorch memory snapshot of the same run is placed on the trace's clock and
    // kept in its session (importTraceWithSnapshot); such a load is not stored in the library.
    bool load(const QString& path, const QString& snapshotBeside = {});
    void cancel();

signals:
    void progressChanged(int permille);
    // The model is ready to draw; the summary (analyses) follows in `loaded`.
    void shown(std::shared_ptr<const ws::LoadedSession> session);
    // Everything is ready: the same session with its summary.
    void loaded(std::shared_ptr<const ws::LoadedSession> session);
    void failed(const QString& path, const QString& message);
    // A report is being converted by nsys before its import (the progress so far is the conversion).
    void converting(const QString& path);
    // The file is an Nsight Systems export of several processes: it opens as a job of them
    // (JobLoader), not as one session; nothing was imported.
    void opensAsJob(const QString& path);
    void cancelled(const QString& path);
    // After `loaded` for an imported trace: where the library stored it, or why it could not.
    void stored(const QString& path, const QString& sessionPath);
    void storeFailed(const QString& path, const QString& message);

private:
    void joinWorker();

    std::thread m_worker;
    // Workers that delivered their session and are still storing it; joined on destruction.
    std::vector<std::thread> m_storing;
    std::atomic<bool> m_cancel{false};
    bool m_busy = false;
    QString m_libraryDir;
    NsysExportOptions m_nsys;
};

} // namespace ws
