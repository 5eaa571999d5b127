// PyTorch memory snapshot import (issue #28) on the H100 recordings in tests/data/memory_snapshots: the
// format is recognised by content (plain and gzip), the allocator records feed the Memory tab's curves and
// allocation table, the snapshot's analyses agree with each other; other pickles and code are refused.
// The numbers are tests/core/reference_memory_snapshot.py's (cli.memory_snapshot_matches_reference).
#include "analysis/memory_allocations.h"
#include "analysis/memory_curve.h"
#include "analysis/snapshot_diff.h"
#include "analysis/snapshot_state.h"
#include "analysis/snapshot_stats.h"
#include "import/torch_memory_snapshot_importer.h"
#include "test_util.h"

#include <fstream>

using namespace ws;
using namespace ws::test;

TEST(MemorySnapshotImport, OomSnapshot) {
    const std::string path = dataPath("memory_snapshots/oom.pickle");
    EXPECT_EQ(detectFormat(path), TraceFormat::TorchMemorySnapshot);
    const ImportResult r = importTraceFile(path);
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    EXPECT_EQ(s.report().warningCount(), 0u) << s.report().toText();
    ASSERT_NE(s.memorySnapshot(), nullptr);
    const MemorySnapshot& snap = *s.memorySnapshot();
    EXPECT_EQ(snap.traceEntries, 376u);
    EXPECT_EQ(snap.segments.size(), 11u);
    ASSERT_EQ(snap.ooms.size(), 1u);
    EXPECT_EQ(snap.ooms[0].size, 536870912);
    EXPECT_EQ(snap.ooms[0].deviceFree, 83523469312);
    const std::vector<SnapshotOomReport> ooms = snapshotOoms(snap);
    EXPECT_EQ(ooms[0].liveBytes, 669469616);
    EXPECT_EQ(ooms[0].liveCount, 58u);
    // The biggest live stack at the OOM is the user's line that kept the activations.
    ASSERT_FALSE(ooms[0].byStack.empty());
    EXPECT_NE(snap.stackLabel(ooms[0].byStack[0].stack).find("memory_snapshots.py:64"), std::string::npos);
    // The Memory tab's curve is the same active memory; reserved is the segments.
    const MemoryCurves curves = MemoryCurves::build(s);
    ASSERT_EQ(curves.devices().size(), 1u);
    const MemoryCurve& c = curves.devices()[0];
    EXPECT_EQ(c.device, (MemoryDevice{1, 0}));
    EXPECT_EQ(c.peakAllocated.value, snapshotPeak(snap, 0).bytes);
    EXPECT_EQ(c.reserved.back(), 689963008);
    // The session clock is the trace's time_us in ns; the OOM is an instant on the allocator's track.
    EXPECT_EQ(s.endNs(), snap.ooms[0].timeUs * 1000);
    size_t instants = 0;
    for (const Track& t : s.tracks())
        instants += t.instantTs.size();
    EXPECT_EQ(instants, 1u);
    // Every allocation of the trace was freed or is live at the end, as the allocation table says.
    const MemoryAllocations table = MemoryAllocations::build(s);
    EXPECT_EQ(table.counts(MemoryDevice{1, 0}).allocations, 156u);
    // The allocator state just before the OOM: what the summary adds up.
    const SnapshotState st = snapshotStateAt(snap, 0, SnapshotMoment::atOom(snap.ooms[0]));
    EXPECT_FALSE(st.exact);
    // The requests, and the blocks as the allocator rounds them (512 B steps): what the snapshot's
    // own segments say at the end, where nothing changed after the OOM.
    EXPECT_EQ(st.requested, 669469616);
    EXPECT_EQ(st.allocated, 669481984);
    EXPECT_EQ(st.allocated, snapshotFinalState(snap, 0).allocated);
    EXPECT_EQ(st.reserved, ooms[0].reservedBytes);
    EXPECT_EQ(st.inactive, st.reserved - st.allocated - st.pending);
    EXPECT_EQ(st.unplaced, 0u);
    EXPECT_LE(st.fragmented, st.inactive);
}

TEST(MemorySnapshotImport, GzipDictAndTrainingRun) {
    const ImportResult d = importTraceFile(dataPath("memory_snapshots/dict.pickle.gz"));
    ASSERT_TRUE(d.session) << d.error;
    EXPECT_EQ(d.session->format(), TraceFormat::TorchMemorySnapshot);
    EXPECT_EQ(snapshotPeak(*d.session->memorySnapshot(), 0).bytes, 237664616);
    const ImportResult t = importTraceFile(dataPath("memory_snapshots/train.pickle"));
    ASSERT_TRUE(t.session) << t.error;
    const MemorySnapshot& snap = *t.session->memorySnapshot();
    EXPECT_EQ(snapshotPeak(snap, 0).bytes, 237903288);
    // Python frames with their lines, for click-to-source.
    bool sawTrainLine = false;
    for (const SnapshotFrame& f : snap.frames)
        sawTrainLine = sawTrainLine || (snap.str(f.file).find("memory_snapshots.py") != std::string_view::npos && f.line > 0);
    EXPECT_TRUE(sawTrainLine);
    // The final state is the snapshot's own blocks.
    const SnapshotState end = snapshotFinalState(snap, 0);
    EXPECT_TRUE(end.exact);
    EXPECT_EQ(end.segments.size(), 13u);
}

TEST(MemorySnapshotImport, OtherPicklesAndCodeAreRefused) {
    const std::string dir = ::testing::TempDir();
    const std::string other = dir + "/other.pickle";
    std::ofstream(other, std::ios::binary) << std::string("\x80\x04\x95\x05\x00\x00\x00\x00\x00\x00\x00]\x94K\x01\x61.", 17);
    EXPECT_EQ(detectFormat(other), TraceFormat::Unknown);
    const ImportResult o = importTraceFile(other);
    EXPECT_FALSE(o.session);
    EXPECT_NE(o.error.find("not a PyTorch memory snapshot"), std::string::npos) << o.error;
    // A snapshot-looking dict with a GLOBAL inside: refused with the opcode, nothing imported.
    const std::string evil = dir + "/evil.pickle";
    std::ofstream(evil, std::ios::binary) << std::string("\x80\x04}\x8c\x08segments]cos\nsystem\n.", 29);
    EXPECT_EQ(detectFormat(evil), TraceFormat::TorchMemorySnapshot);
    const ImportResult e = importTraceFile(evil);
    EXPECT_FALSE(e.session);
    EXPECT_NE(e.error.find("GLOBAL (0x63) at offset 14"), std::string::npos) << e.error;
}

TEST(MemorySnapshotImport, TruncatedFileImportsWhatItHas) {
    const std::string bytes = readFile(dataPath("memory_snapshots/oom.pickle"));
    const std::string cut = ::testing::TempDir() + "/cut.pickle";
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() * 3 / 4);
    const ImportResult r = importTraceFile(cut);
    ASSERT_TRUE(r.session) << r.error;
    EXPECT_TRUE(r.session->report().truncated());
    const MemorySnapshot& snap = *r.session->memorySnapshot();
    EXPECT_EQ(snap.segments.size(), 11u); // segments come first in the file
    EXPECT_GT(snap.traceEntries, 100u);
    EXPECT_LT(snap.traceEntries, 376u);
    EXPECT_NE(r.session->report().toText().find("cut short"), std::string::npos);
}

// Two snapshots of one program: the training run (A) and the run driven into OOM (B). What grew at the
// peak is the OOM run's 480 MiB of kept activations (line 64).
TEST(MemorySnapshotImport, DiffOfTwoSnapshots) {
    const ImportResult a = importTraceFile(dataPath("memory_snapshots/train.pickle"));
    const ImportResult b = importTraceFile(dataPath("memory_snapshots/oom.pickle"));
    ASSERT_TRUE(a.session && b.session);
    const SnapshotDiff d = diffSnapshots(*a.session->memorySnapshot(), *b.session->memorySnapshot(), 0);
    EXPECT_EQ(d.peak[0], 237903288);
    EXPECT_EQ(d.peak[1], 669469616);
    ASSERT_FALSE(d.rows.empty());
    EXPECT_EQ(d.rows.front().growth(), 503316480);
    EXPECT_NE(d.rows.front().label.find("memory_snapshots.py:64"), std::string::npos) << d.rows.front().label;
    int64_t liveA = 0, liveB = 0;
    for (const SnapshotDiffRow& r : d.rows)
        liveA += r.liveAtPeak[0], liveB += r.liveAtPeak[1];
    EXPECT_EQ(liveA, d.peak[0]); // every live byte at each peak is in some row
    EXPECT_EQ(liveB, d.peak[1]);
}
