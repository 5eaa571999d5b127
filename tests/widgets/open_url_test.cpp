// File > Open URL (issue #14, part): the dialog checks what is typed, and a URL served by the
// loopback test server (tests/remote/http_test_server.py) opens into a tab whose name, title and
// Recent entry carry no token.
#include "main_window.h"
#include "open_url_dialog.h"
#include "recent_files.h"
#include "session_loader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTreeWidget>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace ws;

TEST(OpenUrlDialog, OpensOnlyWhatCanBeOpened) {
    OpenUrlDialog d;
    auto* url = d.findChild<QLineEdit*>(QStringLiteral("url"));
    auto* problem = d.findChild<QLabel*>(QStringLiteral("problem"));
    ASSERT_TRUE(url && problem);
    QPushButton* open = nullptr;
    for (QPushButton* b : d.findChildren<QPushButton*>())
        if (b->isEnabled() || !open)
            open = b->text().contains(QStringLiteral("Open")) ? b : open;
    ASSERT_NE(open, nullptr);
    EXPECT_FALSE(open->isEnabled()); // empty
    url->setText(QStringLiteral("/home/me/trace.json"));
    EXPECT_FALSE(open->isEnabled());
    EXPECT_TRUE(problem->text().contains(QStringLiteral("s3://")));
    url->setText(QStringLiteral("s3://"));
    EXPECT_FALSE(open->isEnabled());
    EXPECT_TRUE(problem->text().contains(QStringLiteral("bucket")));
    url->setText(QStringLiteral("s3://runs/job7/"));
    EXPECT_TRUE(open->isEnabled()); // an S3 folder opens as a job
    url->setText(QStringLiteral("gs://runs/job7/"));
    EXPECT_TRUE(open->isEnabled()); // so does a GCS folder
    EXPECT_TRUE(problem->text().isEmpty());
    url->setText(QStringLiteral(" s3://runs/job7/worker0.pt.trace.json.gz "));
    EXPECT_TRUE(open->isEnabled());
    EXPECT_TRUE(problem->text().isEmpty());
    EXPECT_EQ(d.url(), QStringLiteral("s3://runs/job7/worker0.pt.trace.json.gz"));
    if (const QByteArray shot = qgetenv("WARPSCOPE_SCREENSHOT_DIR"); !shot.isEmpty()) {
        d.resize(d.sizeHint());
        d.grab().save(QString::fromLocal8Bit(shot) + QStringLiteral("/open_url_dialog.png"));
    }
}

// List shows the runs and workers under a folder (as listRemoteFolder groups them); picking a run
// puts the run's folder URL in the field, picking a worker its own URL.
TEST(OpenUrlDialog, ListsRunsAndWorkersToPickFrom) {
    OpenUrlDialog d;
    std::string asked;
    d.setLister([&asked](const std::string& url) {
        asked = url;
        RemoteListing l;
        l.pages = 1;
        for (const char* run : {"jobs/resnet50 bs256/", "jobs/resnet50 bs512/"}) {
            RemoteRun r;
            r.prefix = run;
            for (int w = 0; w < 4; ++w) {
                RemoteObject o;
                o.key = r.prefix + "worker" + std::to_string(w) + ".1732000000" + std::to_string(w) + ".pt.trace.json.gz";
                o.url = "s3://traces/" + o.key;
                o.size = 48'000'000u + 1'000'000u * w;
                r.workers.push_back(o);
                l.objects.push_back(o);
            }
            l.runs.push_back(r);
        }
        return l;
    });
    auto* url = d.findChild<QLineEdit*>(QStringLiteral("url"));
    auto* list = d.findChild<QPushButton*>(QStringLiteral("list"));
    auto* runs = d.findChild<QTreeWidget*>(QStringLiteral("runs"));
    auto* status = d.findChild<QLabel*>(QStringLiteral("listStatus"));
    ASSERT_TRUE(url && list && runs && status);
    url->setText(QStringLiteral("s3://traces/jobs/resnet50 bs256/worker0.json"));
    EXPECT_FALSE(list->isEnabled()); // an object, not a folder
    url->setText(QStringLiteral("s3://traces/jobs/"));
    EXPECT_TRUE(list->isEnabled());
    QSignalSpy shown(&d, &OpenUrlDialog::listingShown);
    list->click();
    ASSERT_TRUE(shown.wait(10000));
    EXPECT_EQ(asked, "s3://traces/jobs/");
    ASSERT_EQ(runs->topLevelItemCount(), 2);
    EXPECT_EQ(runs->topLevelItem(1)->childCount(), 4);
    EXPECT_TRUE(status->text().contains(QStringLiteral("Runs: 2, traces: 8"))) << status->text().toStdString();
    runs->setCurrentItem(runs->topLevelItem(1));
    EXPECT_EQ(d.url(), QStringLiteral("s3://traces/jobs/resnet50 bs512/")); // the run opens as a job
    runs->setCurrentItem(runs->topLevelItem(0)->child(2));
    EXPECT_EQ(d.url(), QStringLiteral("s3://traces/jobs/resnet50 bs256/worker2.17320000002.pt.trace.json.gz"));
    if (const QByteArray shot = qgetenv("WARPSCOPE_SCREENSHOT_DIR"); !shot.isEmpty()) {
        runs->setCurrentItem(runs->topLevelItem(1));
        d.resize(760, 640);
        d.grab().save(QString::fromLocal8Bit(shot) + QStringLiteral("/open_url_listing.png"));
    }
    // A listing that fails says why, and shows no runs.
    d.setLister([](const std::string&) {
        RemoteListing l;
        l.error = "access denied (AccessDenied): the credentials from the environment may not read s3://traces/jobs/";
        return l;
    });
    url->setText(QStringLiteral("s3://traces/jobs/"));
    list->click();
    ASSERT_TRUE(shown.wait(10000));
    EXPECT_TRUE(status->text().contains(QStringLiteral("access denied")));
    EXPECT_FALSE(runs->isVisible());
}

// File > Open Remote Folder (SSH) (issue #26): the dialog's own lister reaches an ssh:// folder
// through the user's ssh (here tests/remote/fake_ssh, which runs the remote commands locally) and
// shows its runs, each worker with its ssh:// URL.
TEST(OpenUrlDialog, ListsAnSshFolder) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    for (const char* f : {"ddp/rank0.pt.trace.json.gz", "ddp/rank1.pt.trace.json.gz", "capture/gpu7-4242.wscap"}) {
        QDir(dir.path()).mkpath(QFileInfo(dir.filePath(QString::fromLatin1(f))).path());
        QFile file(dir.filePath(QString::fromLatin1(f)));
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("x");
    }
    qputenv("WARPSCOPE_SSH", WARPSCOPE_TEST_DATA_DIR "/../remote/fake_ssh");
    OpenUrlDialog d;
    auto* url = d.findChild<QLineEdit*>(QStringLiteral("url"));
    auto* list = d.findChild<QPushButton*>(QStringLiteral("list"));
    auto* runs = d.findChild<QTreeWidget*>(QStringLiteral("runs"));
    auto* problem = d.findChild<QLabel*>(QStringLiteral("problem"));
    ASSERT_TRUE(url && list && runs && problem);
    const QString folder = QStringLiteral("ssh://gpu7") + dir.path() + QStringLiteral("/");
    url->setText(folder);
    EXPECT_TRUE(problem->text().isEmpty()) << problem->text().toStdString();
    ASSERT_TRUE(list->isEnabled());
    QSignalSpy shown(&d, &OpenUrlDialog::listingShown);
    list->click();
    ASSERT_TRUE(shown.wait(10000));
    qunsetenv("WARPSCOPE_SSH");
    ASSERT_EQ(runs->topLevelItemCount(), 2);
    runs->setCurrentItem(runs->topLevelItem(1)->child(1));
    EXPECT_EQ(d.url(), folder + QStringLiteral("ddp/rank1.pt.trace.json.gz"));
    if (const QByteArray shot = qgetenv("WARPSCOPE_SCREENSHOT_DIR"); !shot.isEmpty()) {
        d.resize(760, 640);
        d.grab().save(QString::fromLocal8Bit(shot) + QStringLiteral("/open_url_ssh.png"));
    }
}

TEST(MainWindow, OpensAUrlIntoATabWithoutItsToken) {
    QProcess server;
    server.start(QStringLiteral("python3"),
                 {QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/../remote/http_test_server.py"),
                  QStringLiteral(WARPSCOPE_TEST_DATA_DIR)});
    if (!server.waitForStarted(10000) || !server.waitForReadyRead(10000))
        GTEST_SKIP() << "python3 cannot run the test server";
    const QString port = QString::fromLatin1(server.readLine()).trimmed();
    QTemporaryDir cache;
    qputenv("WARPSCOPE_REMOTE_CACHE", cache.path().toLocal8Bit());
    RecentFiles::clear();
    MainWindow w;
    QSignalSpy spy(&w, &MainWindow::loadingFinished);
    w.openFiles({QStringLiteral("http://127.0.0.1:%1/nccl_data_rank0.json.gz?sv=1&sig=TOPSECRET").arg(port)});
    ASSERT_TRUE(spy.wait(60000));
    EXPECT_TRUE(spy.takeFirst().at(0).toBool()) << w.lastError().toStdString();
    ASSERT_EQ(w.sessionCount(), 1);
    auto* tabs = w.findChild<QTabWidget*>();
    ASSERT_NE(tabs, nullptr);
    EXPECT_EQ(tabs->tabText(tabs->currentIndex()), QStringLiteral("nccl_data_rank0.json.gz"));
    EXPECT_FALSE(w.windowTitle().contains(QStringLiteral("TOPSECRET")));
    const QStringList recent = RecentFiles::list();
    ASSERT_FALSE(recent.isEmpty());
    EXPECT_TRUE(recent.front().contains(QStringLiteral("sig=REDACTED"))) << recent.front().toStdString();
    EXPECT_FALSE(recent.join(QLatin1Char(' ')).contains(QStringLiteral("TOPSECRET")));

    // A missing object: one clear message, no tab.
    w.openFiles({QStringLiteral("http://127.0.0.1:%1/missing.json?token=TOPSECRET").arg(port)});
    ASSERT_TRUE(spy.wait(60000));
    EXPECT_FALSE(spy.takeFirst().at(0).toBool());
    EXPECT_EQ(w.sessionCount(), 1);
    EXPECT_TRUE(w.lastError().contains(QStringLiteral("no such object"))) << w.lastError().toStdString();
    EXPECT_FALSE(w.lastError().contains(QStringLiteral("TOPSECRET")));
    server.kill();
    server.waitForFinished();
    qunsetenv("WARPSCOPE_REMOTE_CACHE");
    RecentFiles::clear();
}
