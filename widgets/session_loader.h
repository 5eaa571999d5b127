#pragma once

#include "analysis/trace_summary.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <thread>

namespace ws {

class Session;

/* A session as the UI holds it: the immutable model plus what the session page shows. */
struct LoadedSession {
    QString path;
    std::shared_ptr<const Session> session;
    TraceSummary summary;
    qint64 elapsedMs = 0;
};

/*
 * SessionLoader imports one file at a time on a worker thread and reports back on the GUI thread.
 * Core's plain callback/atomic-flag progress and cancellation are bridged to signals here, so core
 * stays Qt-free. Destroying the loader cancels and joins the worker; no signal arrives after that.
 */
class SessionLoader : public QObject {
    Q_OBJECT
public:
    explicit SessionLoader(QObject* parent = nullptr);
    ~SessionLoader() override;

    bool isBusy() const { return m_busy; }
    // Starts loading; returns false (and does nothing) while another load is running.
    bool load(const QString& path);
    void cancel();

signals:
    void progressChanged(int permille);
    void loaded(std::shared_ptr<const ws::LoadedSession> session);
    void failed(const QString& path, const QString& message);
    void cancelled(const QString& path);

private:
    void joinWorker();

    std::thread m_worker;
    std::atomic<bool> m_cancel{false};
    bool m_busy = false;
};

} // namespace ws
