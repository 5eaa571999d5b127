#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QString>

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>

#include "session_page.h"

#include <QTabWidget>

namespace ws {

class Session;
struct LoadedSession;

/*
 * LiveCapture: the timeline of a capture while it records (issue #26), local or arriving from an
 * SSH host. Each follow() (the New Capture dialog calls it whenever the folder grew) imports the
 * capture folder again off the GUI thread, as it is now (streams without their Footer import up to
 * their last complete record), and shows it in one "Live" tab, its viewport following the newest
 * kFollowSeconds. Imports never overlap: growth during one is taken up by the next, at most one per
 * max(1 s, 2 x the last import's time), so a large capture slows the refresh, not the program or
 * the GUI. stop() (or the end of this object) removes the tab; the finished capture then opens as
 * any session does. Closing the tab ends the following.
 */
class LiveCapture : public QObject {
    Q_OBJECT
public:
    static constexpr double kFollowSeconds = 10.0;

    explicit LiveCapture(QTabWidget* tabs, QObject* parent = nullptr);
    ~LiveCapture() override;

    void follow(const QString& directory);
    void stop();
    SessionPage* page() const { return m_page; }
    std::shared_ptr<const Session> session() const { return m_session; } // what the tab shows
    int imports() const { return m_imports; }

signals:
    void updated(); // the tab shows a newer import

private:
    void startImport();
    void show(std::shared_ptr<const LoadedSession> loaded);

    QPointer<QTabWidget> m_tabs; // the main window's; may go first at exit
    QString m_dir;
    QPointer<SessionPage> m_page; // null again when the user closed the tab: following ends
    std::shared_ptr<const Session> m_session;
    bool m_shown = false;
    std::thread m_worker;
    bool m_busy = false;
    bool m_pending = false;
    bool m_stopped = false;
    QElapsedTimer m_sinceImport;
    qint64 m_lastImportMs = 0;
    int m_imports = 0;
};

} // namespace ws
