#include "headless_screenshot.h"

#include "analysis/launch_flows.h"
#include "main_window.h"
#include "new_capture_dialog.h"
#include "model/session.h"
#include "session_loader.h"
#include "session_page.h"
#include "time_viewport.h"

#include <QApplication>
#include <QDir>
#include <QPixmap>
#include <QThread>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

#include <cstdio>

namespace ws::HeadlessScreenshot {

bool save(MainWindow& window, const QString& pngPath) {
    const QPixmap shot = window.grab();
    if (shot.isNull() || !shot.save(pngPath, "PNG")) {
        std::fprintf(stderr, "warpscope: could not save the screenshot to %s\n", qPrintable(pngPath));
        return false;
    }
    return true;
}

void arm(MainWindow& window, const QString& pngPath) {
    QObject::connect(&window, &MainWindow::loadingFinished, &window, [&window, pngPath](bool allOk) {
        if (!allOk)
            std::fprintf(stderr, "warpscope: %s\n", qPrintable(window.lastError()));
        // One more turn of the event loop so layouts triggered by the load are applied before grabbing.
        // A Compare tab computes after the load: wait for it (up to a minute), then grab.
        // The retry holds itself only through the pending timer (weakly otherwise): a function that
        // captured its own shared_ptr would never be freed (LeakSanitizer in the sanitized e2e tests).
        auto grab = std::make_shared<std::function<void(int)>>();
        std::weak_ptr<std::function<void(int)>> weak = grab;
        *grab = [&window, pngPath, allOk, weak](int tries) {
            if (window.isComparing() && tries < 600) {
                if (auto self = weak.lock())
                    QTimer::singleShot(100, &window, [self, tries] { (*self)(tries + 1); });
                return;
            }
            QTimer::singleShot(600, &window, [&window, pngPath, allOk] {
                const bool saved = pngPath.isEmpty() || save(window, pngPath);
                QApplication::exit(allOk && saved ? 0 : 1);
            });
        };
        (*grab)(0);
    });
}

namespace {

// The selection the Details and Stack tabs show in the screenshots: the launch of the longest kernel
// (its Python call stack), else that kernel.
void selectLongestKernelLaunch(SessionPage& page) {
    const Session& s = *page.session()->session;
    std::optional<SliceRef> best;
    int64_t longest = -1;
    for (uint32_t ti = 0; ti < s.tracks().size(); ++ti) {
        const Track& t = s.tracks()[ti];
        for (uint32_t i = 0; i < t.sliceCount(); ++i)
            if (s.kindOf(t, i) == EventKind::Kernel && t.dur[i] > longest) {
                longest = t.dur[i];
                best = SliceRef{ti, i};
            }
    }
    if (!best)
        return;
    if (const uint32_t f = LaunchFlows::flowOfSlice(s, best->track, best->slice, LaunchFlows::Follow::Launch);
        f != LaunchFlows::kNone)
        best = SliceRef{s.flows()[f].fromTrack, s.flows()[f].fromSlice};
    page.timeViewport()->setSelectedSlice(best);
}

} // namespace

void armTabs(MainWindow& window, const QString& dir) {
    QObject::connect(&window, &MainWindow::loadingFinished, &window, [&window, dir](bool allOk) {
        if (!allOk)
            std::fprintf(stderr, "warpscope: %s\n", qPrintable(window.lastError()));
        SessionPage* page = window.findChild<SessionPage*>();
        if (!page || !QDir().mkpath(dir)) {
            std::fprintf(stderr, "warpscope: no session page to screenshot, or %s cannot be made\n", qPrintable(dir));
            QApplication::exit(1);
            return;
        }
        selectLongestKernelLaunch(*page);
        const QStringList keys = page->tabKeys();
        bool saved = true;
        for (const QString& key : keys) {
            page->showTab(key, true);
            // Let the layouts and any detached results land before the grab.
            for (int i = 0; i < 20; ++i) {
                QApplication::processEvents();
                QThread::msleep(15);
            }
            saved = save(window, dir + QStringLiteral("/tab_") + key + QStringLiteral(".png")) && saved;
        }
        NewCaptureDialog dialog(&window);
        dialog.resize(dialog.sizeHint().expandedTo(QSize(900, 640)));
        dialog.show();
        for (int i = 0; i < 10; ++i)
            QApplication::processEvents();
        const QPixmap shot = dialog.grab();
        const QString dialogPng = dir + QStringLiteral("/new_capture.png");
        if (shot.isNull() || !shot.save(dialogPng, "PNG")) {
            std::fprintf(stderr, "warpscope: could not save the screenshot to %s\n", qPrintable(dialogPng));
            saved = false;
        }
        dialog.close();
        std::printf("warpscope: %lld tab screenshots in %s\n", static_cast<long long>(keys.size()), qPrintable(dir));
        QApplication::exit(allOk && saved ? 0 : 1);
    });
}

} // namespace ws::HeadlessScreenshot
