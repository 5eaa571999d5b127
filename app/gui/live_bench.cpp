#include "live_bench.h"

#include "bench_stats.h"
#include "import/capture_merge.h"
#include "live_capture.h"
#include "model/session.h"
#include "session_page.h"
#include "timeline_view.h"

#include "format/wscapformat.h"
#include "format/wscapreader.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QTabWidget>
#include <QTemporaryDir>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <mutex>
#include <thread>
#include <unistd.h>
#include <vector>

namespace ws {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
}

/* Where the stream's flushes end and when (recorded ns) each was written. */
struct FlushPoint {
    size_t end;
    uint64_t timestamp;
};

std::vector<FlushPoint> flushPoints(const std::string& bytes, uint64_t* first, uint64_t* last) {
    std::vector<FlushPoint> points;
    wscap::WscapReader reader;
    std::string error;
    if (!reader.openMemory(bytes.data(), bytes.size(), &error))
        return points;
    wscap::RawRecord r;
    while (reader.next(&r) == wscap::WscapReader::Status::Record) {
        wscap::FlushRecord f;
        if (r.is<wscap::FlushRecord>() && r.decode(&f)) {
            points.push_back({static_cast<size_t>(reader.completeOffset()), f.timestamp});
            *first = points.size() == 1 ? f.timestamp : *first;
            *last = f.timestamp;
        }
    }
    if (points.empty() || points.back().end < bytes.size())
        points.push_back({bytes.size(), points.empty() ? 0 : points.back().timestamp});
    return points;
}

} // namespace

int runLiveBenchmark(const QString& path, bool reimport, int streams, double speed) {
    const std::string file = QFile::encodeName(path).toStdString();
    std::string error;
    bool cut = false;
    std::string bytes;
    if (auto inflated = inflateCaptureStream(file, &error, &cut)) {
        bytes.assign(inflated->begin(), inflated->end());
    } else if (error.empty()) {
        QFile in(path);
        if (in.open(QIODevice::ReadOnly))
            bytes = in.readAll().toStdString();
    }
    uint64_t firstFlush = 0, lastFlush = 0;
    const std::vector<FlushPoint> points = flushPoints(bytes, &firstFlush, &lastFlush);
    if (points.empty()) {
        std::fprintf(stderr, "warpscope: %s: not a readable capture stream %s\n", qPrintable(path), error.c_str());
        return 1;
    }
    streams = std::max(1, streams);
    speed = speed > 0 ? speed : 1.0;
    QTemporaryDir dir;

    // The replay: every stream written up to the same flush, then the recorded pause. written[i] is
    // when flush i was on disk in every stream.
    std::vector<Clock::time_point> written(points.size());
    std::atomic<size_t> flushed{0};
    std::thread replay([&] {
        std::vector<int> fds;
        for (int s = 0; s < streams; ++s)
            fds.push_back(::open(QFile::encodeName(dir.filePath(QStringLiteral("bench-%1.wscap").arg(1000 + s))).constData(),
                                 O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
        size_t at = 0;
        for (size_t i = 0; i < points.size(); ++i) {
            for (int fd : fds)
                for (size_t w = at; w < points[i].end;) {
                    const ssize_t n = ::write(fd, bytes.data() + w, points[i].end - w);
                    if (n <= 0)
                        break;
                    w += static_cast<size_t>(n);
                }
            at = points[i].end;
            written[i] = Clock::now();
            flushed.store(i + 1, std::memory_order_release);
            if (i + 1 < points.size() && points[i + 1].timestamp > points[i].timestamp)
                std::this_thread::sleep_for(std::chrono::nanoseconds(
                    static_cast<int64_t>(static_cast<double>(points[i + 1].timestamp - points[i].timestamp) / speed)));
        }
        for (int fd : fds)
            ::close(fd);
    });

    QTabWidget tabs;
    tabs.resize(1920, 1080);
    tabs.setAttribute(Qt::WA_DontShowOnScreen);
    tabs.show();
    LiveCapture live(&tabs);
    live.setReading(reimport ? LiveCapture::Reading::Reimport : LiveCapture::Reading::Incremental);
    QImage image(1920, 1080, QImage::Format_ARGB32_Premultiplied);

    std::vector<double> frameMs, latencyMs, updateMs;
    std::vector<std::pair<std::string, double>> slowestPhases; // of the slowest update shown
    size_t seen = 0; // flushes whose latency is measured
    int lastImports = 0;
    const auto start = Clock::now();
    auto lastFollow = start - std::chrono::seconds(1);
    const auto frameInterval = std::chrono::microseconds(16667);
    const size_t totalPerStream = bytes.size();
    for (auto next = start;; next += frameInterval) {
        std::this_thread::sleep_until(next);
        const auto frameStart = Clock::now();
        if (frameStart - lastFollow >= std::chrono::milliseconds(250)) { // the dialog's poll
            lastFollow = frameStart;
            if (flushed.load(std::memory_order_acquire) > 0)
                live.follow(dir.path());
        }
        QApplication::processEvents();
        if (SessionPage* page = live.page()) // the Live view: its timeline, painted as bench-timeline paints it
            page->timeline()->renderTo(image);
        const auto frameEnd = Clock::now();
        const bool growing = flushed.load(std::memory_order_acquire) < points.size() || seen < points.size();
        if (growing)
            frameMs.push_back(msSince(frameStart, frameEnd));
        if (live.imports() != lastImports) {
            lastImports = live.imports();
            if (updateMs.empty() || static_cast<double>(live.lastUpdateMs()) > percentile(updateMs, 1.0))
                slowestPhases = live.lastTimings();
            updateMs.push_back(static_cast<double>(live.lastUpdateMs()));
            // Each stream holds shownBytes / streams (they grow together).
            const uint64_t perStream = live.shownBytes() / static_cast<uint64_t>(streams);
            const size_t done = flushed.load(std::memory_order_acquire);
            while (seen < done && points[seen].end <= perStream)
                latencyMs.push_back(msSince(written[seen++], frameEnd));
        }
        if (seen == points.size() || msSince(start, frameEnd) > 120000 + 1000.0 * (lastFlush - firstFlush) / 1e9 / speed)
            break;
    }
    replay.join();
    const bool complete = seen == points.size();

    const double spanS = static_cast<double>(lastFlush - firstFlush) / 1e9;
    std::printf("mode: %s\n", reimport ? "reimport" : "incremental");
    std::printf("streams: %d\nbytes_per_stream: %zu\nbytes_total: %zu\nflushes: %zu\nrecorded_span_s: %.2f\nspeed: %.2f\n",
                streams, totalPerStream, totalPerStream * static_cast<size_t>(streams), points.size(), spanS, speed);
    const std::shared_ptr<const Session> s = live.session();
    std::printf("slices_at_end: %llu\nupdates: %zu\n", static_cast<unsigned long long>(s ? s->sliceCount() : 0),
                updateMs.size());
    std::printf("update_p50_ms: %.1f\nupdate_max_ms: %.1f\nlast_update_ms: %.1f\n", percentile(updateMs, 0.5),
                percentile(updateMs, 1.0), updateMs.empty() ? 0.0 : updateMs.back());
    for (const auto& [phase, seconds] : slowestPhases)
        std::printf("slowest_update_phase_ms[%s]: %.1f\n", phase.c_str(), seconds * 1000.0);
    std::printf("complete: %s\n", complete ? "yes" : "no (timed out)");
    std::printf("latency_p50_ms: %.1f\nlatency_p95_ms: %.1f\nlatency_max_ms: %.1f\n", percentile(latencyMs, 0.5),
                percentile(latencyMs, 0.95), percentile(latencyMs, 1.0));
    std::printf("frames: %zu\nframe_p50_ms: %.2f\nframe_p95_ms: %.2f\nframe_max_ms: %.2f\n", frameMs.size(),
                percentile(frameMs, 0.5), percentile(frameMs, 0.95), percentile(frameMs, 1.0));
    std::printf("latency_p95_vs_goal_1000ms: %.2f\nframe_p95_vs_goal_8ms: %.2f\n", percentile(latencyMs, 0.95) / 1000.0,
                percentile(frameMs, 0.95) / 8.0);
    live.stop();
    return complete ? 0 : 1;
}

} // namespace ws
