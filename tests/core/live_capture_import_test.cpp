// A capture folder that is still being written, read incrementally (issue #26, LiveCaptureImport):
// after every update the live Session holds exactly what a one-shot import of the same bytes holds,
// and at the end what the import of the finished files holds.

#include "test_util.h"

#include "analysis/session_dump.h"
#include "import/capture_merge.h"
#include "import/live_capture_import.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace ws {
namespace {

namespace fs = std::filesystem;

std::string captureBytes(const std::string& name) {
    const std::string path = test::dataPath("captures/" + name);
    std::string error;
    bool cut = false;
    if (auto inflated = inflateCaptureStream(path, &error, &cut))
        return std::string(inflated->begin(), inflated->end());
    return test::readFile(path);
}

// Everything a view or analysis reads from a session, as text: tracks with their slices (times,
// names, categories, depth rows, argument references, correlation), instants, counters, flows,
// memory events, processes, devices and the import report's problems.
std::string digest(const Session& s) {
    std::ostringstream o;
    o << "range " << s.startNs() << ' ' << s.endNs() << " slices " << s.sliceCount() << '\n';
    for (const ProcessInfo& p : s.processes())
        o << "process " << s.processLabel(p) << '\n';
    for (const DeviceInfo& d : s.devices())
        o << "device " << d.id << ' ' << d.name << '\n';
    for (const Track& t : s.tracks()) {
        o << "track " << s.trackLabel(t) << " process " << t.process << '\n';
        for (size_t i = 0; i < t.start.size(); ++i)
            o << ' ' << t.start[i] << '+' << t.dur[i] << ' ' << s.str(t.names[i]) << " cat "
              << s.str(s.categories()[t.category[i]].name) << " ref " << t.argRef[i] << " corr "
              << (i < t.correlation.size() ? t.correlation[i] : 0) << '\n';
        for (size_t r = 0; r + 1 < t.rowBegin.size(); ++r)
            o << " row " << t.rowBegin[r] << " depth " << t.rowDepth[r] << " lane " << t.rowLane[r] << '\n';
        for (size_t i = 0; i < t.instantTs.size(); ++i)
            o << " instant " << t.instantTs[i] << ' ' << s.str(t.instantNames[i]) << '\n';
    }
    for (const CounterSeries& c : s.counters()) {
        o << "counter " << c.process << ' ' << s.str(c.name) << ' ' << s.str(c.series) << ' ' << c.ts.size() << '\n';
        for (size_t i = 0; i < c.ts.size(); ++i)
            o << ' ' << c.ts[i] << '=' << c.value[i] << '\n';
    }
    for (const Flow& f : s.flows())
        o << "flow " << f.id << ' ' << f.fromTrack << ':' << f.fromSlice << " -> " << f.toTrack << ':' << f.toSlice << '\n';
    for (const MemoryEvent& m : s.memoryEvents())
        o << "memory " << m.ts << ' ' << m.bytes << ' ' << m.totalAllocated << ' ' << m.deviceId << '\n';
    for (const auto& [key, value] : s.metadata())
        o << "meta " << key << ' ' << value << '\n';
    for (const ImportReport::Problem& p : s.report().problems())
        o << "problem " << p.kind << ' ' << p.count << '\n';
    return o.str();
}

// The first line where two digests differ (a whole digest is too long to print).
std::string firstDifference(const std::string& a, const std::string& b) {
    std::istringstream x(a), y(b);
    std::string la, lb;
    for (int line = 1;; ++line) {
        const bool ga = static_cast<bool>(std::getline(x, la)), gb = static_cast<bool>(std::getline(y, lb));
        if (!ga && !gb)
            return "equal";
        if (!ga || !gb || la != lb)
            return "line " + std::to_string(line) + ": live '" + (ga ? la : "<end>") + "' vs one-shot '" +
                   (gb ? lb : "<end>") + "'";
    }
}

struct Source {
    std::string name; // the stream's file name in the folder
    std::string bytes;
};

// Writes the sources into a fresh folder in `steps` pieces each (cut anywhere, inside records too)
// and checks after each piece that the live import equals a one-shot import of the folder as it is.
void followAndCompare(const std::string& dirName, const std::vector<Source>& sources, int steps, unsigned seed,
                      LiveCaptureImport* live = nullptr) {
    const fs::path dir = test::tempDir() / dirName;
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::unique_ptr<LiveCaptureImport> own;
    if (!live) {
        own = std::make_unique<LiveCaptureImport>(dir.string());
        live = own.get();
    }
    std::mt19937 random(seed);
    std::vector<size_t> written(sources.size(), 0);
    for (int step = 1; step <= steps; ++step) {
        for (size_t i = 0; i < sources.size(); ++i) {
            const size_t total = sources[i].bytes.size();
            size_t upTo = step == steps ? total : total * static_cast<size_t>(step) / static_cast<size_t>(steps);
            if (step < steps) // anywhere around the even share: record boundaries are not respected
                upTo = std::min(total, upTo + std::uniform_int_distribution<size_t>(0, total / (4 * steps))(random));
            std::ofstream(dir / sources[i].name, std::ios::binary | std::ios::app)
                .write(sources[i].bytes.data() + written[i], static_cast<std::streamsize>(upTo - written[i]));
            written[i] = upTo;
        }
        const ImportResult incremental = live->update();
        const ImportResult oneShot = importTraceFile(dir.string());
        ASSERT_TRUE(incremental.session) << incremental.error;
        ASSERT_TRUE(oneShot.session) << oneShot.error;
        EXPECT_GT(incremental.session->sliceCount(), 0u) << "step " << step;
        const std::string a = digest(*incremental.session), b = digest(*oneShot.session);
        EXPECT_EQ(a.size(), b.size()) << "step " << step;
        ASSERT_EQ(firstDifference(a, b), "equal") << "step " << step;
        // Argument text is re-read from the growing file by reference, as for a finished import.
        const Session& s = *incremental.session;
        for (const Track& t : s.tracks())
            if (!t.start.empty()) {
                EXPECT_EQ(s.eventJson(t, t.start.size() - 1), oneShot.session->eventJson(t, t.start.size() - 1));
                break;
            }
    }
}

TEST(LiveCaptureImport, EveryUpdateHoldsWhatAOneShotImportOfTheSameBytesHolds) {
    followAndCompare("live_torch_ops", {{"gpu7-4242.wscap", captureBytes("transformer_torch_ops.wscap.gz")}}, 9, 7);
}

TEST(LiveCaptureImport, AJobOfSeveralStreamsGrowsAsOneImport) {
    // A DDP launcher and its two ranks, with stacks, collectives and flows, growing together.
    followAndCompare("live_ddp",
                     {{"node1-100.wscap", captureBytes("ddp_launcher.wscap.gz")},
                      {"node1-101.wscap", captureBytes("ddp_rank0.wscap.gz")},
                      {"node1-102.wscap", captureBytes("ddp_rank1.wscap.gz")}},
                     6, 11);
}

TEST(LiveCaptureImport, StreamsReadSideBySideNumberTheirGpusAsASequentialImport) {
    // Eight streams (the bench's shape) read on four threads whatever the machine has: each stream's
    // device slots are its own, and the merge must number the GPUs, processes and flows as the
    // one-shot import that reads the streams one after the other.
    const std::string launcher = captureBytes("ddp_launcher.wscap.gz"), rank0 = captureBytes("ddp_rank0.wscap.gz"),
                      rank1 = captureBytes("ddp_rank1.wscap.gz"), ops = captureBytes("transformer_torch_ops.wscap.gz");
    const fs::path dir = test::tempDir() / "live_parallel";
    fs::remove_all(dir);
    fs::create_directories(dir);
    LiveCaptureImport live(dir.string());
    ImportControl fourThreads;
    fourThreads.threads = 4;
    const std::vector<Source> sources = {{"a-1.wscap", rank1},  {"a-2.wscap", ops},      {"a-3.wscap", rank0},
                                         {"a-4.wscap", launcher}, {"a-5.wscap", rank0}, {"a-6.wscap", rank1},
                                         {"a-7.wscap", ops},    {"a-8.wscap", launcher}};
    for (int step = 1; step <= 3; ++step) {
        for (const Source& src : sources) {
            const size_t from = src.bytes.size() * static_cast<size_t>(step - 1) / 3,
                         to = src.bytes.size() * static_cast<size_t>(step) / 3;
            std::ofstream(dir / src.name, std::ios::binary | std::ios::app)
                .write(src.bytes.data() + from, static_cast<std::streamsize>(to - from));
        }
        const ImportResult incremental = live.update(fourThreads);
        const ImportResult oneShot = importTraceFile(dir.string());
        ASSERT_TRUE(incremental.session) << incremental.error;
        ASSERT_TRUE(oneShot.session) << oneShot.error;
        EXPECT_GT(incremental.session->devices().size(), 0u);
        EXPECT_EQ(incremental.session->sliceCount(), oneShot.session->sliceCount()) << "step " << step;
        ASSERT_EQ(firstDifference(digest(*incremental.session), digest(*oneShot.session)), "equal") << "step " << step;
        // And as `warpscope-cli dump` prints them (every slice): the finished folder (step 3) is
        // what the library stores once the capture ends.
        EXPECT_EQ(firstDifference(dumpSession(*incremental.session, SIZE_MAX), dumpSession(*oneShot.session, SIZE_MAX)),
                  "equal")
            << "step " << step;
    }
}

TEST(LiveCaptureImport, AnUpdateThatFindsNothingNewKeepsTheModel) {
    const fs::path dir = test::tempDir() / "live_idle";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string bytes = captureBytes("ddp_rank0.wscap.gz");
    std::ofstream(dir / "h-1.wscap", std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size() / 2));
    LiveCaptureImport live(dir.string());
    const ImportResult first = live.update();
    ASSERT_TRUE(first.session) << first.error;
    // No byte arrived: the same model, not a rebuilt copy of it.
    const ImportResult idle = live.update();
    EXPECT_EQ(idle.session.get(), first.session.get());
    EXPECT_EQ(idle.textBytes, first.textBytes);
    // A few bytes that do not finish a record change nothing either... unless they change how the
    // stream ends (a cut record): then the model is built again and says so, as a one-shot import.
    std::ofstream(dir / "h-1.wscap", std::ios::binary | std::ios::app).write(bytes.data() + bytes.size() / 2, 3);
    const ImportResult cut = live.update();
    ASSERT_TRUE(cut.session);
    const ImportResult oneShot = importTraceFile(dir.string());
    ASSERT_TRUE(oneShot.session);
    EXPECT_EQ(firstDifference(digest(*cut.session), digest(*oneShot.session)), "equal");
    // The rest arrives: a newer, larger model.
    std::ofstream(dir / "h-1.wscap", std::ios::binary | std::ios::app)
        .write(bytes.data() + bytes.size() / 2 + 3, static_cast<std::streamsize>(bytes.size() - bytes.size() / 2 - 3));
    const ImportResult grown = live.update();
    ASSERT_TRUE(grown.session);
    EXPECT_NE(grown.session.get(), first.session.get());
    EXPECT_GT(grown.session->sliceCount(), first.session->sliceCount());
    EXPECT_EQ(grown.textBytes, bytes.size());
}

TEST(LiveCaptureImport, TheFinishedFolderEqualsTheImportOfTheFinishedFiles) {
    const fs::path dir = test::tempDir() / "live_finished";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string bytes = captureBytes("resnet18_stacks.wscap.gz");
    LiveCaptureImport live(dir.string());
    EXPECT_FALSE(live.update().session); // nothing yet: an error, no session
    // Written record by record in small pieces, updated every few pieces.
    std::ofstream out(dir / "gpu1-9.wscap", std::ios::binary);
    const size_t piece = 4093; // prime: the cuts fall everywhere
    int updates = 0;
    for (size_t at = 0; at < bytes.size(); at += piece) {
        out.write(bytes.data() + at, static_cast<std::streamsize>(std::min(piece, bytes.size() - at)));
        out.flush();
        if ((at / piece) % 25 == 0) {
            live.update();
            ++updates;
        }
    }
    out.close();
    const ImportResult last = live.update();
    ASSERT_TRUE(last.session) << last.error;
    const std::string original = test::writeTemp("live_finished_original.wscap", bytes);
    const ImportResult whole = importTraceFile(original);
    ASSERT_TRUE(whole.session) << whole.error;
    EXPECT_GT(updates, 3);
    EXPECT_EQ(last.session->sliceCount(), whole.session->sliceCount());
    // The same records, apart from where they come from (the path is in the metadata).
    std::string a = digest(*last.session), b = digest(*whole.session);
    const auto withoutMeta = [](std::string d) { return d.substr(0, d.find("\nmeta ")); };
    EXPECT_EQ(firstDifference(withoutMeta(a), withoutMeta(b)), "equal");
    std::vector<std::pair<std::string, uint64_t>> read = live.bytesRead();
    ASSERT_EQ(read.size(), 1u);
    EXPECT_EQ(read[0].second, bytes.size());
    EXPECT_EQ(live.restarts(), 0);
}

TEST(LiveCaptureImport, AStreamThatSortsBeforeTheOthersStartsTheReadingOver) {
    const fs::path dir = test::tempDir() / "live_order";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string rank0 = captureBytes("ddp_rank0.wscap.gz"), rank1 = captureBytes("ddp_rank1.wscap.gz");
    std::ofstream(dir / "host-200.wscap", std::ios::binary).write(rank1.data(), static_cast<std::streamsize>(rank1.size() / 2));
    LiveCaptureImport live(dir.string());
    ASSERT_TRUE(live.update().session);
    std::ofstream(dir / "host-100.wscap", std::ios::binary).write(rank0.data(), static_cast<std::streamsize>(rank0.size()));
    const ImportResult r = live.update();
    ASSERT_TRUE(r.session) << r.error;
    EXPECT_EQ(live.restarts(), 1);
    const ImportResult oneShot = importTraceFile(dir.string());
    ASSERT_TRUE(oneShot.session);
    EXPECT_EQ(firstDifference(digest(*r.session), digest(*oneShot.session)), "equal");
}

} // namespace
} // namespace ws
