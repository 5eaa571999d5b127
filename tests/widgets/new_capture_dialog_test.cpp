// File > New Capture with fake workloads: no GPU, no CUDA driver, no injection library needed.
// The injection library and the driver are stood in for by WARPSCOPE_INJECT_LIBRARY (any existing
// file: /bin/sh never loads it) and WARPSCOPE_CUDA_DRIVER_LIBRARY (any loadable library).

#include "new_capture_dialog.h"

#include "import/trace_import.h"
#include "model/event_kind.h"
#include "model/session.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using namespace ws;

namespace {

/* Sets environment variables for one test and restores them after. */
class ScopedEnv {
public:
    void set(const char* name, const QByteArray& value) {
        m_saved.emplace_back(name, qgetenv(name), qEnvironmentVariableIsSet(name));
        qputenv(name, value);
    }
    ~ScopedEnv() {
        for (auto it = m_saved.rbegin(); it != m_saved.rend(); ++it) {
            if (std::get<2>(*it))
                qputenv(std::get<0>(*it), std::get<1>(*it));
            else
                qunsetenv(std::get<0>(*it));
        }
    }

private:
    std::vector<std::tuple<const char*, QByteArray, bool>> m_saved;
};

// A machine where capture could run: some "injection library" and a loadable "driver".
void fakeCaptureMachine(ScopedEnv& env) {
    env.set("WARPSCOPE_INJECT_LIBRARY", "/bin/sh");
    env.set("WARPSCOPE_CUDA_DRIVER_LIBRARY", "libc.so.6");
}

/* Keeps the dialog's QSettings in a scratch folder, so tests running in parallel processes (and the
 * user's own settings) never see each other's capture settings. */
class NewCaptureDialogTest : public ::testing::Test {
protected:
    void SetUp() override {
        const QFileInfo file(QSettings().fileName());
        m_base = QCoreApplication::organizationName().isEmpty() ? file.absolutePath()
                                                                : QFileInfo(file.absolutePath()).absolutePath();
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    }
    void TearDown() override { QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_base); }

private:
    QTemporaryDir m_settings;
    QString m_base;
};

} // namespace

TEST_F(NewCaptureDialogTest, SaysCaptureIsUnavailableWithoutTheInjectionLibrary) {
    ScopedEnv env;
    env.set("WARPSCOPE_INJECT_LIBRARY", "/nonexistent/libwarpscope_inject.so");
    NewCaptureDialog dialog;
    dialog.setProgram(QStringLiteral("/bin/true"));
    EXPECT_FALSE(dialog.startCapture());
    EXPECT_FALSE(dialog.isRunning());
    EXPECT_TRUE(dialog.statusText().contains(QStringLiteral("not available in this build"))) << dialog.statusText().toStdString();
    EXPECT_TRUE(dialog.statusText().contains(QStringLiteral("libwarpscope_inject.so")));
}

TEST_F(NewCaptureDialogTest, SaysWhenThereIsNoCudaDriver) {
    ScopedEnv env;
    env.set("WARPSCOPE_INJECT_LIBRARY", "/bin/sh");
    env.set("WARPSCOPE_CUDA_DRIVER_LIBRARY", "/nonexistent/libcuda.so.1");
    NewCaptureDialog dialog;
    dialog.setProgram(QStringLiteral("/bin/true"));
    EXPECT_FALSE(dialog.startCapture());
    EXPECT_TRUE(dialog.statusText().contains(QStringLiteral("No CUDA driver"))) << dialog.statusText().toStdString();
}

TEST_F(NewCaptureDialogTest, SaysWhenTheProgramIsMissing) {
    ScopedEnv env;
    fakeCaptureMachine(env);
    QTemporaryDir out;
    NewCaptureDialog dialog;
    dialog.setOutputBase(out.path());
    dialog.setProgram(QStringLiteral("/nonexistent/train"));
    EXPECT_FALSE(dialog.startCapture());
    EXPECT_TRUE(dialog.statusText().contains(QStringLiteral("Program not found"))) << dialog.statusText().toStdString();
    dialog.setProgram(QStringLiteral("warpscope-no-such-program-in-path"));
    EXPECT_FALSE(dialog.startCapture());
    EXPECT_TRUE(dialog.statusText().contains(QStringLiteral("Program not found")));
    EXPECT_TRUE(QDir(out.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty());
}

TEST_F(NewCaptureDialogTest, SaysWhenTheTargetExitsAtOnce) {
    ScopedEnv env;
    fakeCaptureMachine(env);
    QTemporaryDir out;
    NewCaptureDialog dialog;
    dialog.setOutputBase(out.path());
    dialog.setProgram(QStringLiteral("/bin/sh"));
    dialog.setArguments(QStringLiteral("-c 'exit 3'"));
    QSignalSpy failed(&dialog, &NewCaptureDialog::captureFailed);
    QSignalSpy finished(&dialog, &NewCaptureDialog::captureFinished);
    ASSERT_TRUE(dialog.startCapture()) << dialog.statusText().toStdString();
    ASSERT_TRUE(failed.wait(10000));
    EXPECT_TRUE(finished.isEmpty());
    EXPECT_FALSE(dialog.isRunning());
    const QString message = failed.takeFirst().at(0).toString();
    EXPECT_TRUE(message.contains(QStringLiteral("exited at once"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("exit status 3"))) << message.toStdString();
    EXPECT_FALSE(QFileInfo::exists(dialog.outputDirectory())); // the empty folder is removed

    // The settings are remembered for the next capture.
    NewCaptureDialog again;
    EXPECT_EQ(again.findChild<QComboBox*>(QStringLiteral("program"))->currentText(), QStringLiteral("/bin/sh"));
}

TEST_F(NewCaptureDialogTest, HandsOverTheCaptureDirectoryAndItImports) {
    ScopedEnv env;
    fakeCaptureMachine(env);
    QTemporaryDir out;
    NewCaptureDialog dialog;
    dialog.setOutputBase(out.path());
    // A "workload" that writes what the injection library would: one stream into WARPSCOPE_OUTPUT.
    const QString stream = QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/captures/vector_add.wscap");
    dialog.setProgram(QStringLiteral("/bin/sh"));
    dialog.setArguments(QStringLiteral("-c 'cp \"$0\" \"$WARPSCOPE_OUTPUT/649.wscap\"' ") + stream);
    QSignalSpy finished(&dialog, &NewCaptureDialog::captureFinished);
    ASSERT_TRUE(dialog.startCapture()) << dialog.statusText().toStdString();
    ASSERT_TRUE(finished.wait(10000)) << dialog.statusText().toStdString();
    const QString dir = finished.takeFirst().at(0).toString();
    EXPECT_EQ(dir, dialog.outputDirectory());
    EXPECT_TRUE(dialog.statusText().contains(QStringLiteral("1 stream(s), 177 records, 0 dropped")))
        << dialog.statusText().toStdString();

    ImportResult r = importTraceFile(QFile::encodeName(dir).toStdString());
    ASSERT_TRUE(r.session) << r.error;
    size_t kernels = 0;
    for (const Track& t : r.session->tracks())
        for (size_t i = 0; i < t.start.size(); ++i)
            kernels += r.session->kindOf(t, i) == EventKind::Kernel;
    EXPECT_EQ(kernels, 20u);
}

TEST_F(NewCaptureDialogTest, CaptureRangeAsksTheLibraryForTheProfilerApiRanges) {
    ScopedEnv env;
    fakeCaptureMachine(env);
    QTemporaryDir out;
    NewCaptureDialog dialog;
    dialog.setOutputBase(out.path());
    auto* range = dialog.findChild<QCheckBox*>(QStringLiteral("profilerRange"));
    ASSERT_TRUE(range);
    EXPECT_FALSE(range->isChecked()); // recording from the start is the default
    range->setChecked(true);
    const QString stream = QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/captures/vector_add.wscap");
    dialog.setProgram(QStringLiteral("/bin/sh"));
    dialog.setArguments(QStringLiteral("-c 'printf %s \"$WARPSCOPE_CAPTURE_RANGE\" > \"$WARPSCOPE_OUTPUT/range.txt\"; "
                                       "cp \"$0\" \"$WARPSCOPE_OUTPUT/649.wscap\"' ") +
                        stream);
    QSignalSpy finished(&dialog, &NewCaptureDialog::captureFinished);
    ASSERT_TRUE(dialog.startCapture()) << dialog.statusText().toStdString();
    ASSERT_TRUE(finished.wait(10000)) << dialog.statusText().toStdString();
    QFile seen(finished.takeFirst().at(0).toString() + QStringLiteral("/range.txt"));
    ASSERT_TRUE(seen.open(QIODevice::ReadOnly));
    EXPECT_EQ(seen.readAll(), QByteArray("cudaProfilerApi"));
    NewCaptureDialog again; // remembered
    EXPECT_TRUE(again.findChild<QCheckBox*>(QStringLiteral("profilerRange"))->isChecked());
}

TEST_F(NewCaptureDialogTest, ExplainsThePermissionErrorWithTheFix) {
    ScopedEnv env;
    fakeCaptureMachine(env);
    // A stream as the injection library writes it when CUPTI refuses the performance counters: the
    // file header, one Error record (u64 time, u8 severity, i32 code, where, message) and a Footer.
    QByteArray bytes("WSCAP\0\r\n\x01\0\0\0\0\0\0\0", 16);
    auto u32 = [](QByteArray& b, quint32 v) {
        for (int i = 0; i < 4; ++i)
            b.append(static_cast<char>((v >> (8 * i)) & 0xff));
    };
    auto str = [&](QByteArray& b, const QByteArray& s) {
        u32(b, static_cast<quint32>(s.size()));
        b.append(s);
    };
    QByteArray error(8, '\0');
    error.append('\2');
    u32(error, 35);
    str(error, "pm sampling");
    str(error, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (see https://developer.nvidia.com/ERR_NVGPUCTRPERM)");
    bytes.append(QByteArray("\x11\0\0\0", 4));
    u32(bytes, static_cast<quint32>(error.size()));
    bytes.append(error);
    bytes.append(QByteArray("\x13\0\0\0\0\0\0\0", 8)); // an empty Footer
    QTemporaryDir work;
    const QString stream = work.filePath(QStringLiteral("denied.wscap"));
    QFile f(stream);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(bytes);
    f.close();

    QTemporaryDir out;
    NewCaptureDialog dialog;
    dialog.setOutputBase(out.path());
    dialog.setProgram(QStringLiteral("/bin/sh"));
    dialog.setArguments(QStringLiteral("-c 'cp \"$0\" \"$WARPSCOPE_OUTPUT/1.wscap\"' ") + stream);
    QSignalSpy finished(&dialog, &NewCaptureDialog::captureFinished);
    ASSERT_TRUE(dialog.startCapture()) << dialog.statusText().toStdString();
    ASSERT_TRUE(finished.wait(10000)) << dialog.statusText().toStdString();
    EXPECT_TRUE(dialog.statusText().contains(QStringLiteral("ERR_NVGPUCTRPERM"))) << dialog.statusText().toStdString();
    EXPECT_TRUE(dialog.statusText().contains(QStringLiteral("NVreg_RestrictProfilingToAdminUsers=0")));
}

TEST_F(NewCaptureDialogTest, StopEndsTheTarget) {
    ScopedEnv env;
    fakeCaptureMachine(env);
    QTemporaryDir out;
    NewCaptureDialog dialog;
    dialog.setOutputBase(out.path());
    dialog.setProgram(QStringLiteral("sleep"));
    dialog.setArguments(QStringLiteral("30"));
    QSignalSpy failed(&dialog, &NewCaptureDialog::captureFailed);
    ASSERT_TRUE(dialog.startCapture()) << dialog.statusText().toStdString();
    EXPECT_TRUE(dialog.isRunning());
    dialog.stopCapture();
    ASSERT_TRUE(failed.wait(10000));
    EXPECT_FALSE(dialog.isRunning());
    EXPECT_TRUE(failed.takeFirst().at(0).toString().startsWith(QStringLiteral("Stopped before")));
}

#ifdef WARPSCOPE_CAPTURE_BIN
namespace {

// A stand-in for ssh (WARPSCOPE_SSH): "connects" by running the remote command here, with
// warpscope-capture on the PATH as on a host that has it installed; FAKE_SSH=refuse answers as a
// server that refuses the key.
QString fakeSsh(const QTemporaryDir& dir) {
    const QString path = dir.filePath(QStringLiteral("fake-ssh"));
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write("#!/bin/sh\n"
            "if [ \"$FAKE_SSH\" = refuse ]; then echo 'user@gpu7: Permission denied (publickey).' >&2; exit 255; fi\n"
            "for last; do :; done\n"
            "if [ \"$FAKE_SSH\" = bare ]; then exec sh -c \"$last\"; fi\n" // a host without warpscope-capture
            "PATH=\"$(dirname '" WARPSCOPE_CAPTURE_BIN "'):$PATH\" exec sh -c \"$last\"\n");
    f.close();
    f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

} // namespace

TEST_F(NewCaptureDialogTest, CapturesOnAnSshHostIntoTheLocalFolder) {
    ScopedEnv env;
    fakeCaptureMachine(env); // what the "host" has
    QTemporaryDir tools, out;
    env.set("WARPSCOPE_SSH", fakeSsh(tools).toLocal8Bit());
    NewCaptureDialog dialog;
    dialog.setOutputBase(out.path());
    dialog.setTarget(QStringLiteral("gpu7"));
    const QString stream = QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/captures/vector_add.wscap");
    dialog.setProgram(QStringLiteral("/bin/sh"));
    dialog.setArguments(QStringLiteral("-c 'echo on the host; cp \"$0\" \"$WARPSCOPE_OUTPUT/gpu7-649.wscap\"' ") + stream);
    QSignalSpy finished(&dialog, &NewCaptureDialog::captureFinished);
    ASSERT_TRUE(dialog.startCapture()) << dialog.statusText().toStdString();
    EXPECT_TRUE(dialog.isRunning()); // checking the host, off the GUI thread
    ASSERT_TRUE(finished.wait(20000)) << dialog.statusText().toStdString();
    const QString dir = finished.takeFirst().at(0).toString();
    EXPECT_TRUE(dir.startsWith(out.path()));
    EXPECT_TRUE(dialog.statusText().contains(QStringLiteral("1 stream(s), 177 records, 0 dropped")))
        << dialog.statusText().toStdString();
    if (const QString shots = qEnvironmentVariable("WS_SCREENSHOT_DIR"); !shots.isEmpty()) // to look at it
        dialog.grab().save(shots + QStringLiteral("/new_capture_ssh.png"));
    QFile got(dir + QStringLiteral("/gpu7-649.wscap")), want(stream);
    ASSERT_TRUE(got.open(QIODevice::ReadOnly) && want.open(QIODevice::ReadOnly));
    EXPECT_EQ(got.readAll(), want.readAll());
}

TEST_F(NewCaptureDialogTest, DeploysTheCaptureToolsToAHostWithoutThem) {
    ScopedEnv env;
    fakeCaptureMachine(env);
    QTemporaryDir tools, out, deployed;
    env.set("WARPSCOPE_SSH", fakeSsh(tools).toLocal8Bit());
    env.set("FAKE_SSH", "bare");
    env.set("WARPSCOPE_DEPLOY_DIR", deployed.filePath(QStringLiteral("bin")).toLocal8Bit());
    NewCaptureDialog dialog;
    dialog.setOutputBase(out.path());
    dialog.setTarget(QStringLiteral("gpu7"));
    const QString stream = QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/captures/vector_add.wscap");
    dialog.setProgram(QStringLiteral("/bin/sh"));
    dialog.setArguments(QStringLiteral("-c 'cp \"$0\" \"$WARPSCOPE_OUTPUT/gpu7-650.wscap\"' ") + stream);
    auto* deploy = dialog.findChild<QCheckBox*>(QStringLiteral("deploy"));
    ASSERT_TRUE(deploy);
    EXPECT_TRUE(deploy->isEnabled());
    // Without Deploy the host has nothing to capture with, and the status says what to do.
    ASSERT_TRUE(dialog.startCapture());
    for (int i = 0; i < 200 && dialog.isRunning(); ++i)
        QTest::qWait(50);
    EXPECT_TRUE(dialog.statusText().contains(QStringLiteral("is not installed on gpu7"))) << dialog.statusText().toStdString();
    deploy->setChecked(true);
    QSignalSpy finished(&dialog, &NewCaptureDialog::captureFinished);
    ASSERT_TRUE(dialog.startCapture()) << dialog.statusText().toStdString();
    ASSERT_TRUE(finished.wait(20000)) << dialog.statusText().toStdString();
    EXPECT_TRUE(QFileInfo(deployed.filePath(QStringLiteral("bin/warpscope-capture"))).isExecutable());
    EXPECT_TRUE(dialog.statusText().contains(QStringLiteral("1 stream(s), 177 records"))) << dialog.statusText().toStdString();
}

TEST_F(NewCaptureDialogTest, SaysWhyTheSshHostRefused) {
    ScopedEnv env;
    QTemporaryDir tools, out;
    env.set("WARPSCOPE_SSH", fakeSsh(tools).toLocal8Bit());
    env.set("FAKE_SSH", "refuse");
    NewCaptureDialog dialog;
    dialog.setOutputBase(out.path());
    dialog.setTarget(QStringLiteral("gpu7"));
    dialog.setProgram(QStringLiteral("python3"));
    ASSERT_TRUE(dialog.startCapture());
    for (int i = 0; i < 200 && dialog.isRunning(); ++i)
        QTest::qWait(50);
    EXPECT_FALSE(dialog.isRunning());
    EXPECT_TRUE(dialog.statusText().contains(QStringLiteral("gpu7 refused the login"))) << dialog.statusText().toStdString();
    if (const QString shots = qEnvironmentVariable("WS_SCREENSHOT_DIR"); !shots.isEmpty())
        dialog.grab().save(shots + QStringLiteral("/new_capture_ssh_refused.png"));
    EXPECT_TRUE(QDir(out.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty()); // no empty capture folder left
}
#endif

// Issue #25: the default records every launch, copy and wait at the driver; the runtime's own
// records are opt-in (each runtime call costs more with them). The boxes show the default, and the
// runtime's box says its cost. A PNG under /tmp for a human look.
TEST_F(NewCaptureDialogTest, TheDefaultRecordsLaunchesAtTheDriverAndNotTheRuntime) {
    NewCaptureDialog dialog;
    auto* launches = dialog.findChild<QCheckBox*>(QStringLiteral("activity_launches"));
    auto* runtime = dialog.findChild<QCheckBox*>(QStringLiteral("activity_runtime"));
    auto* kernels = dialog.findChild<QCheckBox*>(QStringLiteral("activity_kernel"));
    ASSERT_TRUE(launches && runtime && kernels);
    EXPECT_TRUE(launches->isChecked());
    EXPECT_TRUE(kernels->isChecked());
    EXPECT_FALSE(runtime->isChecked());
    EXPECT_TRUE(runtime->text().contains(QStringLiteral("µs"))) << runtime->text().toStdString();
    dialog.resize(900, 700);
    dialog.grab().save(QStringLiteral("/tmp/new_capture_dialog.png"));
}

// Issue #48: the dialog's captures watch CUDA graphs being built, as warpscope-capture's default
// does; graph-level replays are opt-in.
TEST_F(NewCaptureDialogTest, TheDefaultWatchesGraphsBeingBuilt) {
    NewCaptureDialog dialog;
    auto* graphs = dialog.findChild<QCheckBox*>(QStringLiteral("activity_graphs"));
    auto* graphTrace = dialog.findChild<QCheckBox*>(QStringLiteral("activity_graphtrace"));
    ASSERT_TRUE(graphs && graphTrace);
    EXPECT_TRUE(graphs->isChecked());
    EXPECT_FALSE(graphTrace->isChecked());
}
