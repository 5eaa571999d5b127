#include "reopen_bench.h"

#include "analysis/session_analyses.h"
#include "import/trace_import.h"
#include "kernel_group_model.h"
#include "kernel_table_model.h"
#include "kernel_table_view.h"
#include "library/open_trace.h"
#include "model/session.h"
#include "operator_table_model.h"
#include "operator_table_view.h"
#include "overview_view.h"
#include "time_viewport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>

namespace ws {

namespace {

double msSince(const QElapsedTimer& t) { return static_cast<double>(t.nsecsElapsed()) / 1e6; }

// Processes events until `done` or `limitMs`; false on the limit.
bool waitFor(const std::function<bool()>& done, double limitMs) {
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (msSince(t) > limitMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        QThread::msleep(1);
    }
    return true;
}

// Shows `view`, prints how long its first view and its computed view took.
void measure(const char* name, QWidget& view, const std::function<bool()>& firstView,
             const std::function<bool()>& stored, const std::function<bool()>& computed, double& firstViews) {
    QElapsedTimer t;
    t.start();
    view.resize(1440, 600);
    view.show();
    QCoreApplication::processEvents();
    const bool shown = waitFor(firstView, 600000);
    const double first = msSince(t);
    const bool fromFile = stored();
    const bool done = waitFor(computed, 600000);
    const double all = msSince(t);
    std::printf("%s_first_view_ms: %.1f%s\n", name, first, shown ? "" : " (timed out)");
    std::printf("%s_stored: %d\n", name, fromFile ? 1 : 0);
    std::printf("%s_computed_ms: %.1f%s\n", name, all, done ? "" : " (timed out)");
    std::fflush(stdout);
    firstViews += first;
    view.hide();
}

} // namespace

int runReopenBenchmark(const QString& path) {
    QElapsedTimer t;
    t.start();
    ImportResult result = openTraceFile(path.toStdString());
    if (!result.session) {
        std::fprintf(stderr, "warpscope: cannot open %s: %s\n", qPrintable(path), result.error.c_str());
        return 1;
    }
    const double readMs = msSince(t);
    std::shared_ptr<const Session> session = result.session;
    std::printf("file: %s\nslices: %llu\nread_ms: %.1f\n", qPrintable(path),
                static_cast<unsigned long long>(session->sliceCount()), readMs);
    auto analyses = std::make_shared<SessionAnalyses>(session);
    TimeViewport time;
    time.setSessionRange(session->startNs(), session->endNs());
    double firstViews = 0;
    {
        OverviewView overview(&time, analyses);
        bool computed = false;
        QObject::connect(&overview, &OverviewView::computed, [&computed] { computed = true; });
        measure(
            "overview", overview, [&] { return overview.hasReport(); }, [&] { return !computed; },
            [&] { return computed; }, firstViews);
        // The view's destructor does not wait for a detached analysis; it only reads the session.
        KernelTableView kernels(&time, session);
        measure(
            "kernels", kernels,
            [&] { return kernels.groupModel()->rowCount() > 0 || kernels.model()->rowCount() > 0; },
            [&] { return kernels.showsStoredGroups(); }, [&] { return kernels.model()->rowCount() > 0; }, firstViews);
        OperatorTableView operators(&time, analyses);
        measure(
            "operators", operators, [&] { return operators.model()->rowCount() > 0; },
            [&] { return operators.showsStoredTable(); }, [&] { return operators.isBuilt(); }, firstViews);
        const double total = readMs + firstViews;
        std::printf("reopen_first_views_ms: %.1f\ngoal_reopen_2s_ratio: %.2f\n", total, total / 2000.0);
        std::fflush(stdout);
    }
    // As main(): an Overview analysis may still run detached; end without waiting for it.
    std::quick_exit(0);
}

} // namespace ws
