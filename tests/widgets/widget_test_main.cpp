// gtest main for widget tests: one QApplication on the offscreen platform, with QStandardPaths in
// test mode so the tests never touch the user's settings or data.
#include "app_environment.h"
#include "detached_work.h"

#include <QApplication>
#include <QStandardPaths>

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    ::testing::InitGoogleTest(&argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    ws::AppEnvironment::setApplicationIdentity();
    const int result = RUN_ALL_TESTS();
    // A test's view may have started detached work (line totals, the Overview) that nobody waits for.
    // Left running into the process's teardown it met destroyed statics ("pure virtual method
    // called", 10 of 40 runs of SliceDetailsView under load): let it finish first, as the app's
    // quit does with quick_exit.
    for (int waited = 0; ws::detachedWorkRunning() > 0 && waited < 60000; waited += 10)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return result;
}
