// gtest main for widget tests: one QApplication on the offscreen platform, with QStandardPaths in
// test mode so the tests never touch the user's settings or data.
#include "app_environment.h"

#include <QApplication>
#include <QStandardPaths>

#include <gtest/gtest.h>

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    ::testing::InitGoogleTest(&argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    ws::AppEnvironment::setApplicationIdentity();
    return RUN_ALL_TESTS();
}
