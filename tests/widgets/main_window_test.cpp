#include "analysis/trace_summary.h"
#include "app_environment.h"
#include "import_report_banner.h"
#include "main_window.h"
#include "recent_files.h"
#include "session_loader.h"
#include "session_summary_view.h"
#include "settings_dialog.h"
#include "shortcuts_dialog.h"
#include "welcome_page.h"
#include "getting_started_dialog.h"
#include "import/trace_import.h"
#include "session_page.h"
#include "import/import_formats.h"

#include <QAction>
#include <QApplication>
#include <QDragEnterEvent>
#include <QDialog>
#include <QDir>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QTranslator>
#include <QTreeWidget>
#include <QUrl>

#include <gtest/gtest.h>

using namespace ws;

namespace {

const QString kSample = QStringLiteral(WARPSCOPE_SAMPLE_TRACE);

// Waits for the window's load queue to drain; returns the allOk flag.
bool waitLoaded(QSignalSpy& spy) {
    if (spy.isEmpty() && !spy.wait(60000))
        return false;
    return spy.takeFirst().at(0).toBool();
}

} // namespace

TEST(MainWindow, StartsOnTheWelcomePage) {
    MainWindow w;
    EXPECT_EQ(w.sessionCount(), 0);
    EXPECT_EQ(w.currentSession(), nullptr);
    EXPECT_NE(w.findChild<QWidget*>(QStringLiteral("welcomePage")), nullptr);
}

// Issue #51: the welcome page starts a capture, a URL, an SSH folder and the library as the menu
// does, and lists every format of the import's table, each in the user's words.
TEST(MainWindow, TheWelcomePageOffersEveryEntryAndEveryFormat) {
    MainWindow w;
    auto* page = w.findChild<WelcomePage*>(QStringLiteral("welcomePage"));
    ASSERT_NE(page, nullptr);
    for (const char* name : {"newCaptureActionButton", "openUrlActionButton", "openSshFolderActionButton", "libraryActionButton"}) {
        auto* button = page->findChild<QPushButton*>(QString::fromLatin1(name));
        ASSERT_NE(button, nullptr) << name;
        EXPECT_FALSE(button->text().contains(QLatin1Char('&'))) << name;
        EXPECT_FALSE(button->toolTip().isEmpty()) << name;
    }
    // The button triggers the menu's own action.
    auto* action = w.findChild<QAction*>(QStringLiteral("openUrlAction"));
    ASSERT_NE(action, nullptr);
    QSignalSpy triggered(action, &QAction::triggered);
    QTimer::singleShot(0, [] {
        for (QWidget* top : QApplication::topLevelWidgets())
            if (auto* dialog = qobject_cast<QDialog*>(top); dialog && dialog->isVisible()) dialog->reject();
    });
    page->findChild<QPushButton*>(QStringLiteral("openUrlActionButton"))->click();
    EXPECT_EQ(triggered.count(), 1);
    // Every format the import reads is listed, from its table, with its files.
    auto* formats = page->findChild<QLabel*>(QStringLiteral("welcomeFormats"));
    ASSERT_NE(formats, nullptr);
    ASSERT_EQ(page->listedFormats().size(), static_cast<qsizetype>(importFormats().size()));
    for (const ImportFormat& f : importFormats()) {
        const QString words = WelcomePage::formatDescription(f.format);
        EXPECT_FALSE(words.isEmpty()) << formatName(f.format);
        EXPECT_TRUE(formats->text().contains(words.toHtmlEscaped())) << formatName(f.format);
        EXPECT_TRUE(formats->text().contains(QString::fromUtf8(f.files).toHtmlEscaped())) << formatName(f.format);
    }
    for (const char* word : {"rocprofiler-sdk", "XSpace", "memory snapshots", "memory timelines"})
        EXPECT_TRUE(formats->text().contains(QString::fromLatin1(word))) << word;
    w.resize(1440, 900);
    w.grab().save(QStringLiteral("/tmp/welcome_page.png"));
}

// Issue #51: Help > Getting Started explains every bottom tab a session page has (a new tab without
// a line in the guide fails here), and links to the README.
TEST(MainWindow, GettingStartedNamesEveryTabAndLinksTheReadme) {
    MainWindow w;
    auto* action = w.findChild<QAction*>(QStringLiteral("gettingStartedAction"));
    ASSERT_NE(action, nullptr);
    const QString readme = GettingStartedDialog::readmePath();
    ASSERT_FALSE(readme.isEmpty()); // the source tree's README in the build tree's tests
    const QString html = GettingStartedDialog::guideHtml(readme);
    auto loaded = std::make_shared<LoadedSession>();
    loaded->path = kSample;
    loaded->session = importTraceFile(kSample.toStdString()).session;
    ASSERT_NE(loaded->session, nullptr);
    SessionPage page(loaded);
    auto* tabs = page.findChild<QTabWidget*>();
    ASSERT_NE(tabs, nullptr);
    for (int i = 0; i < tabs->count(); ++i)
        EXPECT_TRUE(html.contains(QStringLiteral("<b>%1</b>").arg(tabs->tabText(i)))) << tabs->tabText(i).toStdString();
    EXPECT_TRUE(html.contains(QUrl::fromLocalFile(readme).toString()));
    EXPECT_TRUE(html.contains(QStringLiteral("warpscope-capture")));
    GettingStartedDialog dialog(&w);
    EXPECT_FALSE(dialog.browser()->toPlainText().isEmpty());
    dialog.resize(900, 800);
    dialog.grab().save(QStringLiteral("/tmp/getting_started.png"));
}

TEST(MainWindow, OpensTheSampleIntoASessionTab) {
    RecentFiles::clear();
    MainWindow w;
    QSignalSpy spy(&w, &MainWindow::loadingFinished);
    w.openFiles({kSample});
    ASSERT_TRUE(waitLoaded(spy)) << w.lastError().toStdString();
    ASSERT_EQ(w.sessionCount(), 1);
    auto session = w.currentSession();
    ASSERT_NE(session, nullptr);
    EXPECT_GT(session->summary.kernelCount, 0u);
    EXPECT_EQ(RecentFiles::list().value(0), QFileInfo(kSample).canonicalFilePath());

    auto* view = w.findChild<SessionSummaryView*>();
    ASSERT_NE(view, nullptr);
    EXPECT_EQ(view->cardValue(QStringLiteral("kernels")),
              QLocale().toString(static_cast<qulonglong>(session->summary.kernelCount)));
    ASSERT_EQ(view->deviceTable()->rowCount(), static_cast<int>(session->summary.devices.size()));
    ASSERT_GE(view->deviceTable()->rowCount(), 1);
    EXPECT_TRUE(view->deviceTable()->item(0, 1)->text().contains(QStringLiteral("H100")));
    EXPECT_EQ(view->deviceTable()->horizontalHeaderItem(3)->text(), QStringLiteral("Est. SM Efficiency"));
    EXPECT_GT(view->trackTree()->topLevelItemCount(), 0);
    EXPECT_TRUE(w.windowTitle().startsWith(QFileInfo(kSample).fileName()));
}

TEST(MainWindow, AnAmdTraceSaysComputeUnitsInTheDeviceTable) {
    MainWindow w;
    QSignalSpy spy(&w, &MainWindow::loadingFinished);
    w.openFiles({QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/mi300_gaunernst_bert-small-uncased__1016001.json.gz")});
    ASSERT_TRUE(waitLoaded(spy)) << w.lastError().toStdString();
    auto* view = w.findChild<SessionSummaryView*>();
    ASSERT_NE(view, nullptr);
    ASSERT_GE(view->deviceTable()->rowCount(), 1);
    EXPECT_EQ(view->deviceTable()->horizontalHeaderItem(3)->text(), QStringLiteral("Est. CU Efficiency"));
}

TEST(MainWindow, MissingFileReportsAnErrorAndOpensNothing) {
    MainWindow w;
    QSignalSpy spy(&w, &MainWindow::loadingFinished);
    w.openFiles({QStringLiteral("/nonexistent/warpscope/trace.json")});
    EXPECT_FALSE(waitLoaded(spy));
    EXPECT_EQ(w.sessionCount(), 0);
    EXPECT_TRUE(w.lastError().contains(QStringLiteral("/nonexistent/warpscope/trace.json")));
}

TEST(MainWindow, GarbageFileFailsWithAMessageNotACrash) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("garbage.json"));
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(QByteArray("\x7f\x45\x4c\x46\x02\x01\x01\x00 not a trace at all", 27));
    f.close();
    MainWindow w;
    QSignalSpy spy(&w, &MainWindow::loadingFinished);
    w.openFiles({path});
    EXPECT_FALSE(waitLoaded(spy));
    EXPECT_EQ(w.sessionCount(), 0);
    EXPECT_TRUE(w.lastError().contains(QStringLiteral("garbage.json"))) << w.lastError().toStdString();
}

TEST(MainWindow, ABatchWithFailuresShowsOneDialogNamingEach) {
    // Two damaged files and a good one: the good one opens, and one dialog names both failures.
    QTemporaryDir dir;
    QStringList paths;
    for (const char* name : {"cut.json", "elf.json"}) {
        QFile f(dir.filePath(QLatin1String(name)));
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(QByteArray("\x7f\x45\x4c\x46\x02\x01\x01\x00 not a trace", 20));
        paths << f.fileName();
    }
    paths << kSample;
    MainWindow w;
    QSignalSpy spy(&w, &MainWindow::loadingFinished);
    w.openFiles(paths);
    EXPECT_FALSE(waitLoaded(spy));
    EXPECT_EQ(w.sessionCount(), 1);
    const auto boxes = w.findChildren<QMessageBox*>(QStringLiteral("openFailures"));
    ASSERT_EQ(boxes.size(), 1);
    EXPECT_TRUE(boxes[0]->text().contains(QStringLiteral("Could not open 2 file"))) << boxes[0]->text().toStdString();
    EXPECT_TRUE(boxes[0]->text().contains(QStringLiteral("cut.json")));
    EXPECT_TRUE(boxes[0]->text().contains(QStringLiteral("elf.json")));
}

TEST(MainWindow, DroppingFilesOpensThem) {
    MainWindow w;
    QSignalSpy spy(&w, &MainWindow::loadingFinished);
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(kSample)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enter);
    EXPECT_TRUE(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &drop);
    ASSERT_TRUE(waitLoaded(spy));
    EXPECT_EQ(w.sessionCount(), 1);
}

TEST(MainWindow, SeveralFilesLoadInOrderIntoTabs) {
    MainWindow w;
    QSignalSpy spy(&w, &MainWindow::loadingFinished);
    w.openFiles({kSample, kSample});
    ASSERT_TRUE(waitLoaded(spy));
    EXPECT_EQ(w.sessionCount(), 2);
}

// Issue #28: one nsys over 4 MPI ranks opens as a job of its processes; an export of one process
// opens as a session tab, as before.
TEST(MainWindow, AMultiProcessNsightExportOpensAsAJob) {
    MainWindow w;
    QSignalSpy spy(&w, &MainWindow::loadingFinished);
    w.openFiles({QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/nsys/saxpy_mpi_4proc_derived.sqlite"),
                 QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/nsys/nvfuser_report2_h200_nsys2024.6.sqlite")});
    ASSERT_TRUE(waitLoaded(spy)) << w.lastError().toStdString();
    EXPECT_EQ(w.sessionCount(), 2);
    EXPECT_EQ(w.jobCount(), 1);
}

// A report opens through the nsys set in Settings: here tests/fake_nsys/nsys, a FAKE nsys (a shell
// script that checks its arguments and copies a known SQLite export), and its failure is shown.
TEST(MainWindow, AReportOpensThroughTheNsysInSettings) {
    QTemporaryDir dir;
    const QString report = dir.filePath(QStringLiteral("run.nsys-rep"));
    QFile f(report);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("NVIDIA Tegra Profiler Report 2025@1");
    f.close();
    qputenv("WARPSCOPE_NSYS_CACHE", QFile::encodeName(dir.filePath(QStringLiteral("cache"))));
    qputenv("FAKE_NSYS_SQLITE", WARPSCOPE_TEST_DATA_DIR "/nsys/nvfuser_report2_h200_nsys2024.6.sqlite");
    QSettings().setValue(QStringLiteral("nsight/nsysPath"), QStringLiteral(WARPSCOPE_FAKE_NSYS));
    EXPECT_EQ(SettingsDialog::nsysPath(), QStringLiteral(WARPSCOPE_FAKE_NSYS));
    {
        SettingsDialog settings;
        EXPECT_TRUE(settings.nsysStatus()->text().contains(QStringLiteral(WARPSCOPE_FAKE_NSYS)));
    }
    {
        MainWindow w;
        QSignalSpy spy(&w, &MainWindow::loadingFinished);
        w.openFiles({report});
        ASSERT_TRUE(waitLoaded(spy)) << w.lastError().toStdString();
        ASSERT_NE(w.currentSession(), nullptr);
        EXPECT_EQ(summarizeSession(*w.currentSession()->session).kernelCount, 19u);
    }
    {
        qputenv("FAKE_NSYS_MODE", "fail");
        QFile g(report);
        ASSERT_TRUE(g.open(QIODevice::Append));
        g.write("changed"); // another recording: exported again, and this time nsys fails
        g.close();
        MainWindow w;
        QSignalSpy spy(&w, &MainWindow::loadingFinished);
        w.openFiles({report});
        EXPECT_FALSE(waitLoaded(spy));
        EXPECT_TRUE(w.lastError().contains(QStringLiteral("the report is damaged"))) << w.lastError().toStdString();
        qunsetenv("FAKE_NSYS_MODE");
    }
    QSettings().remove(QStringLiteral("nsight/nsysPath"));
}

TEST(MainWindow, ShortcutsDialogListsTheActionsWithKeys) {
    MainWindow w;
    const QList<QAction*> actions = w.findChildren<QAction*>();
    int withKeys = 0;
    for (const QAction* a : actions)
        withKeys += a->shortcuts().isEmpty() ? 0 : 1;
    ShortcutsDialog dialog(actions);
    EXPECT_GE(withKeys, 8);
    EXPECT_EQ(dialog.rowCount(), withKeys);
}

TEST(ImportReportBanner, ShowsOnlyForANonEmptyReport) {
    ImportReportBanner banner;
    ImportReport report;
    banner.showReport(report);
    EXPECT_TRUE(banner.isHidden());
    report.addNote("flow ends without a matching start (dropped)", {}, 40);
    banner.showReport(report); // notes alone do not warn
    EXPECT_TRUE(banner.isHidden());
    report.add("unknown phase", "offset 12", 3);
    report.setTruncated("byte 4096");
    banner.showReport(report, QStringLiteral("1,200 events over 3 s"));
    EXPECT_FALSE(banner.isHidden());
    EXPECT_TRUE(banner.message().contains(QStringLiteral("4")));
    EXPECT_TRUE(banner.message().contains(QStringLiteral("Kept: 1,200 events over 3 s."))) << banner.message().toStdString();
    EXPECT_TRUE(banner.details().contains(QStringLiteral("unknown phase: 3")));
}

TEST(RecentFiles, NewestFirstUniqueAndCapped) {
    QTemporaryDir dir;
    RecentFiles::clear();
    QStringList made;
    for (int i = 0; i < RecentFiles::kMaxEntries + 2; ++i) {
        const QString p = dir.filePath(QStringLiteral("t%1.json").arg(i));
        QFile f(p);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        made << p;
        RecentFiles::add(p);
    }
    RecentFiles::add(made[5]); // re-adding moves it to the front without duplicating
    const QStringList list = RecentFiles::list();
    EXPECT_EQ(list.size(), RecentFiles::kMaxEntries);
    EXPECT_EQ(list.first(), made[5]);
    EXPECT_EQ(list.count(made[5]), 1);
    QFile::remove(made[5]); // vanished files drop out of the list
    EXPECT_FALSE(RecentFiles::list().contains(made[5]));
    RecentFiles::clear();
}

TEST(Translations, ChineseIsLoadedAndTranslatesTheMenus) {
    auto& app = *qApp;
    ASSERT_TRUE(AppEnvironment::installTranslators(app, QStringLiteral("zh_CN")));
    EXPECT_EQ(QCoreApplication::translate("ws::MainWindow", "&File"), QStringLiteral("文件(&F)"));
    EXPECT_EQ(QCoreApplication::translate("ws::MainWindow", "&Help"), QStringLiteral("帮助(&H)"));
    for (QTranslator* t : app.findChildren<QTranslator*>()) {
        QCoreApplication::removeTranslator(t);
        delete t;
    }
    EXPECT_EQ(QCoreApplication::translate("ws::MainWindow", "&File"), QStringLiteral("&File"));
}

TEST(Translations, EnglishGetsItsPlurals) {
    auto& app = *qApp;
    for (const char* locale : {"en_US", "C"}) {
        ASSERT_TRUE(AppEnvironment::installTranslators(app, QLatin1String(locale))) << locale;
        EXPECT_EQ(QCoreApplication::translate("ws::ImportReportBanner", "The import skipped or repaired %n item(s).", nullptr, 1),
                  QStringLiteral("The import skipped or repaired 1 item."));
        EXPECT_EQ(QCoreApplication::translate("ws::ImportReportBanner", "The import skipped or repaired %n item(s).", nullptr, 3),
                  QStringLiteral("The import skipped or repaired 3 items."));
        for (QTranslator* t : app.findChildren<QTranslator*>()) {
            QCoreApplication::removeTranslator(t);
            delete t;
        }
    }
}

TEST(AppEnvironment, FindsTheBundledSample) {
    EXPECT_FALSE(AppEnvironment::sampleTracePath().isEmpty());
    EXPECT_TRUE(AppEnvironment::sessionLibraryDir().endsWith(QStringLiteral("/sessions")));
}

TEST(AppEnvironment, AnUnreadableSettingsFileIsMovedAsideNotOverwritten) {
    // The settings of this test only: a folder of its own for QSettings' native (INI) files.
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.path());
    const QString file = QSettings().fileName();
    EXPECT_TRUE(AppEnvironment::moveAsideUnreadableSettings().isEmpty()); // none yet: nothing to do
    {
        QSettings good;
        good.setValue(QStringLiteral("recent"), QStringLiteral("x"));
    }
    EXPECT_TRUE(AppEnvironment::moveAsideUnreadableSettings().isEmpty()); // readable: left alone
    // Damaged: a section header that never closes, then bytes that are no text.
    QDir().mkpath(QFileInfo(file).absolutePath());
    QFile damaged(file);
    ASSERT_TRUE(damaged.open(QIODevice::WriteOnly | QIODevice::Truncate));
    damaged.write(QByteArray("[General\nrecent=@Variant(\\0\\0\\0\x7f\\0\\0\\0\nkey\xff\xfe=\"unterminated\n", 58));
    damaged.close();
    ASSERT_NE(QSettings().status(), QSettings::NoError);
    const QString aside = AppEnvironment::moveAsideUnreadableSettings();
    EXPECT_TRUE(aside.startsWith(file + QStringLiteral(".unreadable-"))) << aside.toStdString();
    EXPECT_TRUE(QFileInfo::exists(aside));
    EXPECT_FALSE(QFileInfo::exists(file));
    EXPECT_EQ(QSettings().status(), QSettings::NoError);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                       QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation));
}
