// warpscope: the desktop app. Everything but argument handling lives in warpscope_app so tests can
// link it.
#include "app_environment.h"
#include "detached_work.h"
#include "flame_bench.h"
#include "headless_screenshot.h"
#include "main_window.h"
#include "job_bench.h"
#include "live_bench.h"
#include "reopen_bench.h"
#include "timeline_bench.h"
#include "warpscope_version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLocale>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>

namespace {

// Whether the command line asks only for the help text or the version: answered without a display.
bool asksForHelpOrVersion(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--")
            break;
        if (a == "-h" || a == "--help" || a == "--help-all" || a == "-?" || a == "-v" || a == "--version")
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char** argv) {
    // `warpscope --help` over SSH on a GPU server has no display: a QApplication would abort looking
    // for one, so the help and the version come from a QCoreApplication, which needs none.
    const bool helpOnly = asksForHelpOrVersion(argc, argv);
    std::unique_ptr<QCoreApplication> application =
        helpOnly ? std::make_unique<QCoreApplication>(argc, argv) : std::make_unique<QApplication>(argc, argv);
    QCoreApplication& app = *application;
    ws::AppEnvironment::setApplicationIdentity();
    QCoreApplication::setApplicationVersion(QStringLiteral(WARPSCOPE_VERSION));
    if (!helpOnly) {
        QApplication::setApplicationDisplayName(QStringLiteral("Warpscope"));
        QApplication::setDesktopFileName(QStringLiteral("dev.warpscope.Warpscope"));
        QApplication::setWindowIcon(ws::AppEnvironment::applicationIcon());
    }
    ws::AppEnvironment::installTranslators(app, QLocale().name());

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate(
        "main", "Native profiler viewer for GPU and deep-learning workloads."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("files"), QApplication::translate("main", "Trace files to open."),
                                 QStringLiteral("[FILE...]"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QApplication::translate("main", "Render the main window (after loading FILEs) to a PNG and exit."),
        QStringLiteral("FILE.png"));
    const QCommandLineOption maximizeTab(
        QStringLiteral("maximize-tab"),
        QApplication::translate("main", "Let the bottom tabs fill the window, the timeline hidden (with --tab)."));
    const QCommandLineOption screenshotTabs(
        QStringLiteral("screenshot-tabs"),
        QApplication::translate("main", "Render every bottom tab of the first FILE, and the New Capture dialog, to "
                                        "PNGs in DIR and exit."),
        QStringLiteral("DIR"));
    const QCommandLineOption quitAfterLoad(
        QStringLiteral("quit-after-load"),
        QApplication::translate("main", "Exit once the files are loaded (status 1 if any failed)."));
    const QCommandLineOption benchTimeline(
        QStringLiteral("bench-timeline"),
        QApplication::translate("main", "Benchmark the timeline on FILE offscreen (frame and hit-test times) and exit."),
        QStringLiteral("FILE"));
    const QCommandLineOption benchReopen(
        QStringLiteral("bench-reopen"),
        QApplication::translate("main", "Benchmark reopening FILE: the model read and each analysis tab's first view, and exit."),
        QStringLiteral("FILE"));
    const QCommandLineOption benchFlame(
        QStringLiteral("bench-flame"),
        QApplication::translate("main", "Benchmark the flame graph of FILE offscreen (build and redraw times) and exit."),
        QStringLiteral("FILE"));
    const QCommandLineOption benchFrames(QStringLiteral("bench-frames"),
                                         QApplication::translate("main", "Frames rendered by --bench-timeline or --bench-flame."),
                                         QStringLiteral("N"), QStringLiteral("400"));
    const QCommandLineOption benchJob(
        QStringLiteral("bench-job"),
        QApplication::translate("main", "Benchmark the job (the FILE folder, or --summaries DIR) offscreen: table sorts, step switch."));
    const QCommandLineOption benchLive(
        QStringLiteral("bench-live"),
        QApplication::translate("main", "Benchmark the Live tab offscreen while FILE is replayed into a folder at its "
                                        "recorded pace (latency and frame times) and exit."),
        QStringLiteral("FILE"));
    const QCommandLineOption benchLiveReimport(
        QStringLiteral("bench-live-reimport"),
        QApplication::translate("main", "With --bench-live: import the whole folder again on each update (for comparison)."));
    const QCommandLineOption benchLiveStreams(
        QStringLiteral("bench-live-streams"),
        QApplication::translate("main", "With --bench-live: replay this many copies of FILE side by side."),
        QStringLiteral("K"), QStringLiteral("1"));
    const QCommandLineOption benchLiveSpeed(
        QStringLiteral("bench-live-speed"),
        QApplication::translate("main", "With --bench-live: replay this many times faster than recorded."),
        QStringLiteral("X"), QStringLiteral("1"));
    const QCommandLineOption summaries(
        QStringLiteral("summaries"),
        QApplication::translate("main", "Open the job made of the warpscope-cli summary --json files in DIR."),
        QStringLiteral("DIR"));
    const QCommandLineOption view(
        QStringLiteral("view"),
        QApplication::translate("main", "Show this time range first, in ms from the session start (e.g. 1.5,3)."),
        QStringLiteral("FROM,TO"));
    const QCommandLineOption find(QStringLiteral("find"),
                                  QApplication::translate("main", "Select the first slice whose name contains TEXT."),
                                  QStringLiteral("TEXT"));
    const QCommandLineOption tab(
        QStringLiteral("tab"),
        QApplication::translate("main", "Show this bottom tab, computed (overview, kernels, operators, memory, stack, flame, ...)."),
        QStringLiteral("NAME"));
    const QCommandLineOption snapshotBeside(
        QStringLiteral("snapshot"),
        QApplication::translate("main", "Open the first FILE with this PyTorch memory snapshot of the same run on its time axis."),
        QStringLiteral("SNAPSHOT"));
    parser.addOption(snapshotBeside);
    const QCommandLineOption compare(QStringLiteral("compare"),
                                     QCoreApplication::translate("main", "Compare the second FILE with the first (a Compare tab)."));
    parser.addOption(compare);
    parser.addOption(view);
    parser.addOption(find);
    parser.addOption(tab);
    parser.addOption(screenshot);
    parser.addOption(screenshotTabs);
    parser.addOption(maximizeTab);
    parser.addOption(quitAfterLoad);
    parser.addOption(benchTimeline);
    parser.addOption(benchFlame);
    parser.addOption(benchReopen);
    parser.addOption(benchFrames);
    parser.addOption(benchJob);
    parser.addOption(benchLive);
    parser.addOption(benchLiveReimport);
    parser.addOption(benchLiveStreams);
    parser.addOption(benchLiveSpeed);
    parser.addOption(summaries);
    parser.process(app);
    if (parser.isSet(benchJob)) {
        const bool fromSummaries = parser.isSet(summaries);
        const QString job = fromSummaries ? parser.value(summaries) : parser.positionalArguments().value(0);
        return ws::runJobBenchmark(job, fromSummaries);
    }
    if (parser.isSet(benchLive))
        return ws::runLiveBenchmark(parser.value(benchLive), parser.isSet(benchLiveReimport),
                                    parser.value(benchLiveStreams).toInt(), parser.value(benchLiveSpeed).toDouble());
    if (parser.isSet(benchTimeline))
        return ws::runTimelineBenchmark(parser.value(benchTimeline), parser.value(benchFrames).toInt());
    if (parser.isSet(benchReopen))
        return ws::runReopenBenchmark(parser.value(benchReopen));
    if (parser.isSet(benchFlame))
        return ws::runFlameBenchmark(parser.value(benchFlame), parser.value(benchFrames).toInt());

    const QString settingsAside = ws::AppEnvironment::moveAsideUnreadableSettings();
    ws::MainWindow window;
    if (!settingsAside.isEmpty())
        window.addStartupNote(QCoreApplication::translate("main", "The settings file could not be read; it was kept as %1 "
                                                                  "and the defaults are used")
                                  .arg(settingsAside));
    ws::MainWindow::StartupView startup;
    if (parser.isSet(view)) {
        const QStringList parts = parser.value(view).split(QLatin1Char(','));
        bool okFrom = false, okTo = false;
        const double from = parts.value(0).toDouble(&okFrom), to = parts.value(1).toDouble(&okTo);
        if (parts.size() != 2 || !okFrom || !okTo || to <= from) {
            std::fprintf(stderr, "warpscope: --view expects FROM,TO in ms with FROM < TO\n");
            return 2;
        }
        startup.rangeMs = std::make_pair(from, to);
    }
    startup.find = parser.value(find);
    startup.tab = parser.value(tab);
    startup.maximizeTab = parser.isSet(maximizeTab);
    window.setStartupView(startup);
    if (parser.isSet(compare)) {
        // Once both are open; before a screenshot is armed, so it waits for the comparison.
        QObject::connect(&window, &ws::MainWindow::loadingFinished, &window, [&window] {
            if (!window.compareFirstTwo())
                std::fprintf(stderr, "warpscope: --compare needs two traces that open\n");
        });
    }
    const bool headless = parser.isSet(screenshot) || parser.isSet(quitAfterLoad) || parser.isSet(screenshotTabs);
    if (headless) {
        // Scripted runs get a fixed size so screenshots are comparable.
        window.resize(1440, 900);
        if (parser.isSet(screenshotTabs))
            ws::HeadlessScreenshot::armTabs(window, parser.value(screenshotTabs));
        else
            ws::HeadlessScreenshot::arm(window, parser.value(screenshot));
    }
    window.show();
    if (parser.isSet(summaries))
        window.openJobSummaries(parser.value(summaries));
    QStringList files = parser.positionalArguments();
    if (parser.isSet(snapshotBeside) && !files.isEmpty())
        window.openWithSnapshot(files.takeFirst(), parser.value(snapshotBeside));
    window.openFiles(files);
    const int rc = app.exec();
    if (ws::detachedWorkRunning() > 0) {
        // An Overview or memory analysis still runs (views never wait for one): ending here, without
        // the destructors of the sessions it reads, is what makes quitting return at once.
        std::fflush(nullptr);
        std::quick_exit(rc);
    }
    return rc;
}
