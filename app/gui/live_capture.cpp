#include "live_capture.h"

#include "analysis/trace_summary.h"
#include "import/live_capture_import.h"
#include "import/trace_import.h"
#include "model/session.h"
#include "session_loader.h"
#include "time_viewport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>

namespace ws {

LiveCapture::LiveCapture(QTabWidget* tabs, QObject* parent) : QObject(parent), m_tabs(tabs) {}

LiveCapture::~LiveCapture() {
    stop();
    if (m_worker.joinable())
        m_worker.join();
}

void LiveCapture::follow(const QString& directory) {
    if (m_stopped)
        return;
    if (directory != m_dir)
        m_live.reset(); // another folder: read it from its start
    m_dir = directory;
    if (m_busy) {
        m_pending = true;
        return;
    }
    // From the start of one update to the next (the header says why an incremental one goes on at
    // once after a long one); a whole re-import leaves as long again idle.
    const qint64 wait = m_reading == Reading::Incremental ? std::max<qint64>(kMinIntervalMs, m_lastImportMs)
                                                         : std::max<qint64>(1000, 2 * m_lastImportMs);
    if (m_sinceImport.isValid() && m_sinceImport.elapsed() < wait) {
        if (!m_pending) {
            m_pending = true;
            QTimer::singleShot(static_cast<int>(wait - m_sinceImport.elapsed()), this, [this] {
                if (m_pending && !m_busy) {
                    m_pending = false;
                    startImport();
                }
            });
        }
        return;
    }
    startImport();
}

void LiveCapture::startImport() {
    if (m_stopped || m_dir.isEmpty())
        return;
    m_busy = true;
    m_sinceImport.start();
    if (m_worker.joinable())
        m_worker.join();
    const std::string path = QFile::encodeName(m_dir).toStdString();
    if (m_reading == Reading::Incremental && !m_live)
        m_live = std::make_shared<LiveCaptureImport>(path);
    std::shared_ptr<LiveCaptureImport> live = m_reading == Reading::Incremental ? m_live : nullptr;
    ImportControl control;
    control.threads = m_threads;
    m_worker = std::thread([this, path, live, control] {
        QElapsedTimer took;
        took.start();
        ImportResult r = live ? live->update(control) : importTraceFile(path, control);
        const uint64_t bytes = r.textBytes;
        // The page's Summary tab, computed here as the session loader does for any trace.
        auto loaded = std::make_shared<LoadedSession>();
        loaded->path = QFile::decodeName(path.c_str());
        loaded->session = r.session;
        if (loaded->session) {
            loaded->summary = summarizeSession(*loaded->session);
            loaded->summarized = true;
        }
        const qint64 ms = took.elapsed();
        loaded->elapsedMs = ms;
        QMetaObject::invokeMethod(this, [this, loaded, ms, bytes, timings = std::move(r.timings)] {
            m_busy = false;
            m_lastImportMs = ms;
            m_lastTimings = timings;
            if (m_stopped)
                return;
            if (loaded->session)
                show(loaded, bytes);
            if (m_pending) {
                m_pending = false;
                follow(m_dir);
            }
        }, Qt::QueuedConnection);
    });
}

void LiveCapture::show(std::shared_ptr<const LoadedSession> loaded, uint64_t bytes) {
    if (!m_tabs || (m_shown && !m_page)) { // the user closed the live tab
        m_stopped = true;
        return;
    }
    if (m_page && bytes == m_shownBytes)
        return; // nothing new arrived
    m_session = loaded->session;
    m_shownBytes = bytes;
    // One page for the whole recording, its views given each newer model: building a page per
    // update cost the GUI thread 10-30 ms each time (frames the user sees stutter).
    // (Reading::Reimport keeps the page per update of the time before, for the bench to compare.)
    SessionPage* page = m_reading == Reading::Incremental ? m_page.data() : nullptr;
    if (page) {
        page->setSession(loaded);
    } else {
        page = new SessionPage(loaded, m_tabs);
        page->setSummarized(loaded);
    }
    // Follow the newest records: the last kFollowSeconds of what has arrived.
    const int64_t end = loaded->session->endNs();
    const int64_t start = std::max(loaded->session->startNs(), end - static_cast<int64_t>(kFollowSeconds * 1e9));
    page->timeViewport()->showRange(start, end);
    if (page != m_page) {
        const QString title = tr("Live: %1").arg(QFileInfo(m_dir).fileName());
        if (m_page) {
            const int index = m_tabs->indexOf(m_page);
            const bool current = m_tabs->currentIndex() == index;
            m_tabs->insertTab(index, page, title);
            m_tabs->removeTab(index + 1);
            if (current)
                m_tabs->setCurrentIndex(index);
            m_page->deleteLater();
        } else {
            m_tabs->setCurrentIndex(m_tabs->addTab(page, title));
        }
        m_tabs->setTabToolTip(m_tabs->indexOf(page), tr("Recording into %1; the view follows the newest %2 s")
                                                         .arg(QDir::toNativeSeparators(m_dir))
                                                         .arg(kFollowSeconds));
        m_page = page;
    }
    m_shown = true;
    ++m_imports;
    emit updated();
}

void LiveCapture::stop() {
    m_stopped = true;
    m_pending = false;
    if (m_page && m_tabs) {
        m_tabs->removeTab(m_tabs->indexOf(m_page));
        m_page->deleteLater();
    }
    m_page = nullptr;
    m_session.reset();
    m_live.reset();
}

} // namespace ws
