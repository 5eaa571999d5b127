#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QString>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "session_page.h"

#include <QTabWidget>

namespace ws {

class LiveCaptureImport;
class Session;
struct LoadedSession;

/*
 * LiveCapture: the timeline of a capture while it records (issue #26), local or arriving from an
 * SSH host. Each follow() (the New Capture dialog calls it whenever the folder grew) updates the
 * live model off the GUI thread and shows it in one "Live" tab, its viewport following the newest
 * kFollowSeconds. The model comes from a LiveCaptureImport (core/import/live_capture_import.h): only
 * the records appended since the last update are read and converted, and the session is rebuilt
 * from what was read through the capture importer's own merge (streams without their Footer show up
 * to their last complete record). Updates never overlap: growth during one is taken up by the next,
 * which starts max(kMinIntervalMs, the last update's time) after the last one started (at once when
 * that one took longer). Waiting as long again after a long update (as it did) made the records
 * that came during it up to twice its time late (issue #26: on screen <= 1 s after their flush);
 * one update at a time, off the GUI thread, keeps the GUI's frames and bounds the work. Reading::Reimport imports the whole folder again each time
 * instead (the way before the incremental import, kept for `--bench-live` to compare; one per
 * max(1 s, 2 x the import's time)). stop() (or the end of this object) removes the tab; the finished
 * capture then opens as any session does. Closing the tab ends the following.
 */
class LiveCapture : public QObject {
    Q_OBJECT
public:
    static constexpr double kFollowSeconds = 10.0;
    static constexpr qint64 kMinIntervalMs = 250;
    enum class Reading { Incremental, Reimport };

    explicit LiveCapture(QTabWidget* tabs, QObject* parent = nullptr);
    ~LiveCapture() override;

    void setReading(Reading reading) { m_reading = reading; }
    // Threads an update reads with (0: every core). A program profiled on this machine keeps most of
    // its cores: the caller gives a local capture a few.
    void setReaderThreads(unsigned threads) { m_threads = threads; }
    void follow(const QString& directory);
    void stop();
    SessionPage* page() const { return m_page; }
    std::shared_ptr<const Session> session() const { return m_session; } // what the tab shows
    int imports() const { return m_imports; }
    // Bytes of the capture streams that the shown model holds, and what its update took (benches).
    uint64_t shownBytes() const { return m_shownBytes; }
    qint64 lastUpdateMs() const { return m_lastImportMs; }
    // Seconds per phase of the update the tab shows (ImportResult::timings).
    const std::vector<std::pair<std::string, double>>& lastTimings() const { return m_lastTimings; }

signals:
    void updated(); // the tab shows a newer import

private:
    void startImport();
    void show(std::shared_ptr<const LoadedSession> loaded, uint64_t bytes);

    QPointer<QTabWidget> m_tabs; // the main window's; may go first at exit
    QString m_dir;
    Reading m_reading = Reading::Incremental;
    unsigned m_threads = 0;
    std::shared_ptr<LiveCaptureImport> m_live; // used by one update at a time, off the GUI thread
    uint64_t m_shownBytes = 0;
    QPointer<SessionPage> m_page; // null again when the user closed the tab: following ends
    std::shared_ptr<const Session> m_session;
    bool m_shown = false;
    std::thread m_worker;
    bool m_busy = false;
    bool m_pending = false;
    bool m_stopped = false;
    QElapsedTimer m_sinceImport;
    qint64 m_lastImportMs = 0;
    std::vector<std::pair<std::string, double>> m_lastTimings;
    int m_imports = 0;
};

} // namespace ws
