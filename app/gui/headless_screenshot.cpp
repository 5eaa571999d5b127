#include "headless_screenshot.h"

#include "main_window.h"

#include <QApplication>
#include <QPixmap>
#include <QTimer>

#include <functional>
#include <memory>

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

} // namespace ws::HeadlessScreenshot
