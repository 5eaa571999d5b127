#pragma once

#include <QString>

namespace ws {

class MainWindow;

/* The --screenshot / --quit-after-load switches: once the window has finished loading its files,
 * render it to a PNG (when a path is given) and quit with status 0, or 1 if a load or the save
 * failed. Used by the end-to-end test and by scripts. */
namespace HeadlessScreenshot {

void arm(MainWindow& window, const QString& pngPath);
// Renders the window to a PNG; returns false (with a message on stderr) when saving fails.
bool save(MainWindow& window, const QString& pngPath);
// --screenshot-tabs DIR: once loaded, every bottom tab of the session, computed, as DIR/tab_KEY.png,
// then the New Capture dialog as DIR/new_capture.png; quits with status 1 if a load or a save failed
// (the end-to-end tests keep and check them, issue #51).
void armTabs(MainWindow& window, const QString& dir);

} // namespace HeadlessScreenshot

} // namespace ws
