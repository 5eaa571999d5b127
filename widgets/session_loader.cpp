#include "session_loader.h"

#include "import/trace_import.h"

#include <QElapsedTimer>
#include <QFile>
#include <QMetaObject>

namespace ws {

SessionLoader::SessionLoader(QObject* parent) : QObject(parent) {}

SessionLoader::~SessionLoader() {
    m_cancel = true;
    joinWorker();
}

void SessionLoader::joinWorker() {
    if (m_worker.joinable())
        m_worker.join();
}

bool SessionLoader::load(const QString& path) {
    if (m_busy)
        return false;
    joinWorker(); // the previous worker has delivered its result; reap it
    m_busy = true;
    m_cancel = false;
    m_worker = std::thread([this, path] {
        QElapsedTimer timer;
        timer.start();
        int lastPermille = -1;
        ImportControl control;
        control.cancel = &m_cancel;
        control.progress = [&](double fraction) {
            const int permille = static_cast<int>(fraction * 1000.0);
            if (permille == lastPermille)
                return;
            lastPermille = permille;
            QMetaObject::invokeMethod(this, [this, permille] { emit progressChanged(permille); },
                                      Qt::QueuedConnection);
        };
        ImportResult result = importTraceFile(QFile::encodeName(path).toStdString(), control);
        if (result.cancelled) {
            QMetaObject::invokeMethod(this, [this, path] {
                m_busy = false;
                emit cancelled(path);
            }, Qt::QueuedConnection);
            return;
        }
        if (!result.session) {
            const QString message = QString::fromStdString(result.error);
            QMetaObject::invokeMethod(this, [this, path, message] {
                m_busy = false;
                emit failed(path, message);
            }, Qt::QueuedConnection);
            return;
        }
        auto loadedSession = std::make_shared<LoadedSession>();
        loadedSession->path = path;
        loadedSession->summary = summarizeSession(*result.session);
        loadedSession->session = std::move(result.session);
        loadedSession->elapsedMs = timer.elapsed();
        QMetaObject::invokeMethod(this, [this, s = std::shared_ptr<const LoadedSession>(loadedSession)] {
            m_busy = false;
            emit loaded(s);
        }, Qt::QueuedConnection);
    });
    return true;
}

void SessionLoader::cancel() { m_cancel = true; }

} // namespace ws
