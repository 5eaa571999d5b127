#include "import/torch_memory_snapshot_importer.h"

#include "import/import_finish.h"
#include "import/nsys_chunk_writer.h"
#include "import/snapshot_collector.h"
#include "io/input_stream.h"
#include "io/read_ahead.h"
#include "io/pickle_reader.h"
#include "io/usable_cores.h"
#include "model/trace_builder.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <memory>
#include <cstdio>
#include <numeric>
#include <thread>

namespace ws {

namespace {

std::string mibText(int64_t bytes) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
    return buf;
}

/*
 * The allocator records of one device, in trace order (the collector's change order: no sort),
 * with the running active and reserved bytes. The totals start from the state before the first
 * entry: the allocations alive then, and the segments at the end minus the ones the trace created
 * plus the ones it released. O(n).
 */
void writeDeviceRecords(const MemorySnapshot& s, int16_t device, SnapshotChangeCodes& order,
                        TraceBuilder& builder, NsysChunkWriter& w) {
    int64_t allocated = 0;
    for (const SnapshotAllocation& a : s.allocations)
        if (a.device == device && a.allocUs == SnapshotAllocation::kBeforeTrace)
            allocated += a.size;
    int64_t reserved = 0;
    for (const SnapshotSegment& seg : s.segments)
        if (seg.device == device)
            reserved += seg.totalSize;
    for (const SnapshotSegmentEvent& e : s.segmentEvents) {
        if (e.device != device)
            continue;
        const bool grows = e.action == SnapshotSegmentAction::Alloc || e.action == SnapshotSegmentAction::Map;
        reserved += grows ? -e.size : e.size;
    }
    // Tracks are listed per chunk: the id is asked again after each chunk handed over.
    uint32_t track = w.track(device, 0);
    auto emit = [&](int64_t us, int64_t addr, int64_t bytes) {
        ChunkResult::Memory m;
        m.ts = us * 1000;
        m.addr = addr;
        m.bytes = bytes;
        m.totalAllocated = allocated;
        m.totalReserved = reserved;
        m.track = track;
        m.deviceType = 1;
        m.deviceId = device;
        w.chunk().memory.push_back(m);
        w.noteTime(m.ts, m.ts);
        if (++w.chunk().events >= (1u << 16)) {
            ChunkResult c = w.takeChunk();
            builder.addChunk(c);
            track = w.track(device, 0);
        }
    };
    // The codes are released as they are read (they are not needed at the peak, the records' end).
    order.consume([&](uint32_t code) {
        const uint32_t i = SnapshotChangeOrder::index(code);
        switch (SnapshotChangeOrder::kind(code)) {
        case SnapshotChangeOrder::Segment: {
            const SnapshotSegmentEvent& e = s.segmentEvents[i];
            const bool grows = e.action == SnapshotSegmentAction::Alloc || e.action == SnapshotSegmentAction::Map;
            reserved += grows ? e.size : -e.size;
            emit(e.timeUs, e.addr, 0);
            break;
        }
        case SnapshotChangeOrder::Alloc: {
            const SnapshotAllocation& a = s.allocations[i];
            allocated += a.size;
            if (a.size > 0)
                emit(a.allocUs, a.addr, a.size);
            break;
        }
        case SnapshotChangeOrder::Free: {
            const SnapshotAllocation& a = s.allocations[i];
            allocated -= a.size;
            if (a.size > 0)
                emit(a.freeUs, a.addr, -a.size);
            break;
        }
        }
    });
    for (const SnapshotOom& o : s.ooms) {
        if (o.device != device)
            continue;
        ChunkResult::Instant in;
        in.ts = o.timeUs * 1000;
        in.argRef = Track::kNoArgs;
        in.track = track;
        in.name = w.string("CUDA out of memory: " + mibText(o.size) + " requested");
        in.cat = w.string("memory");
        w.chunk().instants.push_back(in);
        w.noteTime(in.ts, in.ts);
        ++w.chunk().events;
    }
    using K = ChunkResult::MetaKind;
    w.meta(K::ProcessName, device, 0, w.string("GPU " + std::to_string(device) + " (PyTorch memory snapshot)"));
    w.meta(K::ThreadName, device, 0, w.string("CUDA caching allocator"));
}

} // namespace

bool looksLikePickle(std::string_view head) {
    return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x80 && head[1] >= 2 && head[1] <= 5;
}

bool looksLikeTorchMemorySnapshot(std::string_view head) {
    if (!looksLikePickle(head))
        return false;
    const std::string_view first = head.substr(0, 512);
    return first.find("segments") != std::string_view::npos || first.find("device_traces") != std::string_view::npos ||
           // torch.cuda.memory_snapshot(): the list of segments alone
           (first.find("total_size") != std::string_view::npos && first.find("blocks") != std::string_view::npos);
}

ImportResult importTorchMemorySnapshot(const std::string& path, const ImportControl& control) {
    ImportResult result;
    const auto t0 = std::chrono::steady_clock::now();
    InputStream in;
    if (!in.open(path, control.growing)) {
        result.error = in.error().empty() ? "cannot open the file" : in.error();
        return result;
    }
    TraceBuilder builder(path, TraceFormat::TorchMemorySnapshot);
    NsysChunkWriter w;
    ImportReport& report = w.report();
    // The pairing runs beside the unpickler unless one thread is asked for (or there is one core).
    const bool threaded = control.threads != 1 && usableCores() > 1;
    SnapshotCollector collector(report, threaded);
    auto readerOwner = std::make_unique<pickle::Reader>();
    pickle::Reader& reader = *readerOwner;
    uint64_t sinceProgress = 0;
    bool cancelled = false;
    // The file is read (and decompressed) on a thread of its own, ahead of the unpickler, unless
    // one thread is asked for.
    std::atomic<uint64_t> fileConsumed{0};
    auto source = [&](char* out, size_t n) {
        const size_t got = in.read(out, n);
        fileConsumed.store(in.fileBytesConsumed(), std::memory_order_relaxed);
        return got;
    };
    std::unique_ptr<ReadAhead> ahead;
    if (threaded)
        ahead = std::make_unique<ReadAhead>(source);
    const pickle::ReadFn readFn = [&](char* out, size_t n) -> size_t {
        if (control.cancel && control.cancel->load(std::memory_order_relaxed)) {
            cancelled = true;
            return 0;
        }
        const size_t got = ahead ? ahead->read(out, n) : source(out, n);
        sinceProgress += got;
        if (control.progress && sinceProgress >= (uint64_t(16) << 20) && in.fileSize() > 0) {
            sinceProgress = 0;
            control.progress(0.9 * static_cast<double>(fileConsumed.load(std::memory_order_relaxed)) /
                             static_cast<double>(in.fileSize()));
        }
        return got;
    };
    const pickle::ReadResult read = reader.read(readFn, &collector);
    const bool readFailed = ahead && ahead->failed();
    ahead.reset(); // its thread stopped: `in` is this thread's again
    if (readFailed) {
        result.error = "the file could not be read to its end (out of memory)";
        return result;
    }
    result.textBytes = in.textPosition();
    if (cancelled) {
        result.cancelled = true;
        return result;
    }
    const bool refused = !read.complete && !read.truncated;
    if (refused || (!read.complete && !collector.sawSnapshot())) {
        result.error = read.error;
        return result;
    }
    bool isSnapshot = collector.sawSnapshot();
    if (read.complete && read.root.kind == pickle::Kind::Dict) {
        pickle::Value v;
        isSnapshot = isSnapshot || reader.get(read.root, "segments", v) || reader.get(read.root, "device_traces", v);
    }
    if (!isSnapshot) {
        result.error = "a Python pickle, but not a PyTorch memory snapshot: it has no segments and no device_traces";
        return result;
    }
    if (!read.complete) {
        report.setTruncated(read.error);
        if (!in.error().empty())
            report.add("compressed stream error", in.error());
    }
    if (read.clampedInts)
        report.add("memory snapshot: integers larger than 64 bits (saturated)", {}, read.clampedInts);
    std::shared_ptr<MemorySnapshot> snapshot = collector.finish(reader, read.complete ? &read.root : nullptr);
    const auto t1 = std::chrono::steady_clock::now();
    result.timings.emplace_back("unpickle and pair", std::chrono::duration<double>(t1 - t0).count());
    readerOwner.reset(); // the file's strings and memo: everything needed is in the snapshot now
#if defined(__GLIBC__)
    // Their memory was many small blocks among the snapshot's: hand the free pages back before the
    // allocator records are written, or the peak holds both (about 60 MB of a 1 GB snapshot's).
    malloc_trim(0);
#endif
    if (snapshot->traceEntries == 0)
        report.addNote("memory snapshot without a trace (record it with torch.cuda.memory._record_memory_history): "
                       "only the allocator state at the end is known");
    // Exactly the records written (allocations of size 0 have none): the builder's final
    // shrink_to_fit would otherwise copy them all, doubling them at the peak.
    size_t records = snapshot->segmentEvents.size();
    for (const SnapshotAllocation& a : snapshot->allocations)
        if (a.size > 0)
            records += (a.allocUs != SnapshotAllocation::kBeforeTrace) + (a.freeUs != SnapshotAllocation::kNeverFreed);
    builder.reserveMemoryEvents(records);
    for (int16_t device : snapshot->devices) {
        SnapshotChangeCodes none;
        SnapshotChangeCodes* order = &none;
        for (auto& [d, o] : collector.changeOrders())
            if (d == device)
                order = &o;
        writeDeviceRecords(*snapshot, device, *order, builder, w);
    }
    collector.changeOrders().clear();
    ChunkResult last = w.takeChunk();
    builder.addChunk(last);
    builder.setMemorySnapshot(std::move(snapshot));
    const double converted = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    finishImport(builder, result, control, "allocator records", converted);
    return result;
}

} // namespace ws
