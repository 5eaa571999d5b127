// The snapshot half of `warpscope-cli memory`: text and CSV over analysis/snapshot_*.h.
#include "snapshot_memory.h"

#include "analysis/kernel_csv.h"
#include "analysis/snapshot_alignment.h"
#include "analysis/snapshot_state.h"
#include "analysis/snapshot_stats.h"
#include "analysis/snapshot_timeline.h"
#include "cli_args.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <vector>

namespace ws::cli {

namespace {

std::string bytes(int64_t b) {
    char buf[96];
    const double v = static_cast<double>(b);
    if (b >= (int64_t(1) << 30) || b <= -(int64_t(1) << 30))
        std::snprintf(buf, sizeof buf, "%.2f GiB (%lld B)", v / (1 << 30), static_cast<long long>(b));
    else
        std::snprintf(buf, sizeof buf, "%.2f MiB (%lld B)", v / (1 << 20), static_cast<long long>(b));
    return buf;
}

std::string usText(int64_t us) {
    if (us == SnapshotAllocation::kBeforeTrace || us == SnapshotAllocation::kNeverFreed)
        return {};
    return std::to_string(us);
}

void printState(const MemorySnapshot& s, const SnapshotState& st, const char* label) {
    (void)s;
    std::printf("  %s:\n", label);
    std::printf("    reserved:         %s in %zu segments\n", bytes(st.reserved).c_str(), st.segments.size());
    std::printf("    allocated:        %s%s\n", bytes(st.allocated).c_str(),
                st.exact ? " (torch.cuda.memory_allocated(): the active blocks)" : " (requests rounded as the allocator does)");
    std::printf("    requested:        %s\n", bytes(st.requested).c_str());
    std::printf("    pending free:     %s\n", bytes(st.pending).c_str());
    std::printf("    inactive:         %s\n", bytes(st.inactive).c_str());
    std::printf("    fragmented:       %s (inactive in segments that hold live allocations)\n", bytes(st.fragmented).c_str());
    std::printf("    largest free:     %s\n", bytes(st.largestFree).c_str());
    if (st.unplaced)
        std::printf("    outside segments: %llu allocations\n", static_cast<unsigned long long>(st.unplaced));
}

void printStacks(const MemorySnapshot& s, const std::vector<SnapshotStackRow>& rows, size_t max) {
    for (size_t i = 0; i < rows.size() && i < max; ++i) {
        const std::string label = s.stackLabel(rows[i].stack);
        std::printf("      %-28s %6llu x  %s\n", bytes(rows[i].liveBytes).c_str(),
                    static_cast<unsigned long long>(rows[i].liveCount), label.empty() ? "(no stack)" : label.c_str());
    }
    if (rows.size() > max)
        std::printf("      ... %zu more stacks\n", rows.size() - max);
}

void printSummary(const MemorySnapshot& s, std::optional<int16_t> only, std::optional<int64_t> atUs) {
    std::printf("PyTorch memory snapshot: %llu trace entries, %zu segments, %zu allocations, %zu distinct stacks\n",
                static_cast<unsigned long long>(s.traceEntries), s.segments.size(), s.allocations.size(),
                s.stackCount() - 1);
    if (s.traceEntries)
        std::printf("trace: %lld us to %lld us (%.3f ms)\n", static_cast<long long>(s.firstUs),
                    static_cast<long long>(s.lastUs), static_cast<double>(s.lastUs - s.firstUs) / 1e3);
    const std::vector<SnapshotOomReport> ooms = snapshotOoms(s);
    for (int16_t d : s.devices) {
        if (only && *only != d)
            continue;
        std::printf("GPU%d:\n", d);
        size_t inTrace = 0, before = 0;
        for (const SnapshotAllocation& a : s.allocations)
            if (a.device == d)
                ++(a.allocUs == SnapshotAllocation::kBeforeTrace ? before : inTrace);
        std::printf("  allocations:        %zu in the trace, %zu alive before it began\n", inTrace, before);
        const SnapshotPeak peak = snapshotPeak(s, d);
        std::printf("  peak live:          %s at %lld us\n", bytes(peak.bytes).c_str(), static_cast<long long>(peak.at.us));
        std::printf("  reserved at peak:   %s\n", bytes(snapshotReservedAt(s, d, peak.at)).c_str());
        if (s.traceEntries)
            printState(s, snapshotStateAt(s, d, peak.at), "at the peak");
        printState(s, snapshotFinalState(s, d), "at the end (the snapshot's segments)");
        if (atUs) {
            const SnapshotMoment m = SnapshotMoment::fromTime(*atUs);
            const SnapshotLiveSet live = snapshotLiveAt(s, d, m);
            std::printf("  live at %lld us:    %s in %zu allocations\n", static_cast<long long>(*atUs),
                        bytes(live.bytes).c_str(), live.allocations.size());
            printState(s, snapshotStateAt(s, d, m), "allocator state then");
            std::printf("    live by stack:\n");
            printStacks(s, snapshotGroupByStack(s, live.allocations), 10);
        }
        for (const SnapshotOomReport& r : ooms) {
            const SnapshotOom& o = s.ooms[r.oom];
            if (o.device != d)
                continue;
            std::printf("  OOM at %lld us: requested %s, device free %s\n", static_cast<long long>(o.timeUs),
                        bytes(o.size).c_str(), o.deviceFree >= 0 ? bytes(o.deviceFree).c_str() : "not recorded");
            std::printf("    live at the OOM:  %s in %llu allocations\n", bytes(r.liveBytes).c_str(),
                        static_cast<unsigned long long>(r.liveCount));
            std::printf("    reserved then:    %s\n", bytes(r.reservedBytes).c_str());
            const SnapshotState atOom = snapshotStateAt(s, d, SnapshotMoment::atOom(o));
            std::printf("    allocated then:   %s (requested %s, pending free %s, inactive %s)\n", bytes(atOom.allocated).c_str(),
                        bytes(atOom.requested).c_str(), bytes(atOom.pending).c_str(), bytes(atOom.inactive).c_str());
            if (!s.stackLabel(o.stack).empty())
                std::printf("    failed request:   %s\n", s.stackLabel(o.stack).c_str());
            std::printf("    live by stack:\n");
            printStacks(s, r.byStack, 10);
        }
    }
    if (!s.allocatorSettings.empty()) {
        std::printf("allocator settings:\n");
        for (const auto& [k, v] : s.allocatorSettings)
            std::printf("  %s = %s\n", k.c_str(), v.c_str());
    }
}

// With a trace beside the snapshot (--snapshot), each allocation also names the operator that made it.
void writeAllocations(const Session& session, std::optional<int16_t> only, std::optional<int64_t> atUs) {
    const MemorySnapshot& s = *session.memorySnapshot();
    const bool beside = session.sourceFormat() != TraceFormat::TorchMemorySnapshot;
    const std::vector<SnapshotOperator> ops = beside ? snapshotAllocationOperators(session, s) : std::vector<SnapshotOperator>{};
    std::cout << "device,addr,size_bytes,alloc_us,free_requested_us,free_completed_us,stream,frame,stack"
              << (beside ? ",operator\n" : "\n");
    for (size_t i = 0; i < s.allocations.size(); ++i) {
        const SnapshotAllocation& a = s.allocations[i];
        if ((only && a.device != *only) || (atUs && !snapshotLiveAt(a, SnapshotMoment::fromTime(*atUs))))
            continue;
        std::cout << a.device << ',' << a.addr << ',' << a.size << ',' << usText(a.allocUs) << ','
                  << usText(a.freeRequestedUs) << ',' << usText(a.freeUs) << ',' << a.stream << ','
                  << csvField(s.stackLabel(a.stack)) << ',' << csvField(s.stackKey(a.stack));
        if (beside) {
            const SnapshotOperator& op = ops[i];
            std::cout << ','
                      << (op.found() ? csvField(std::string(session.str(session.tracks()[op.track].names[op.slice])))
                                     : std::string());
        }
        std::cout << '\n';
    }
}

void writeStacks(const MemorySnapshot& s, std::optional<int16_t> only, std::optional<int64_t> atUs) {
    const SnapshotMoment m = SnapshotMoment::fromTime(atUs ? *atUs : SnapshotAllocation::kNeverFreed - 1);
    std::cout << "allocations,allocated_bytes,live_count,live_bytes,frame,stack\n";
    for (const SnapshotStackRow& r : snapshotStacks(s, only, m))
        std::cout << r.allocations << ',' << r.allocatedBytes << ',' << r.liveCount << ',' << r.liveBytes << ','
                  << csvField(s.stackLabel(r.stack)) << ',' << csvField(s.stackKey(r.stack)) << '\n';
}

void writeSegments(const MemorySnapshot& s, std::optional<int16_t> only, std::optional<int64_t> atUs) {
    std::cout << "device,address,total_bytes,allocated_bytes,inactive_bytes,largest_free_bytes,stream,segment_type,blocks,"
                 "requested_bytes,pending_bytes\n";
    for (int16_t d : s.devices) {
        if (only && *only != d)
            continue;
        const SnapshotState st = atUs ? snapshotStateAt(s, d, SnapshotMoment::fromTime(*atUs)) : snapshotFinalState(s, d);
        for (const SnapshotStateSegment& seg : st.segments)
            std::cout << d << ',' << seg.addr << ',' << seg.size << ',' << seg.allocated << ',' << seg.inactive() << ','
                      << seg.largestFree << ',' << seg.stream << ',' << csvField(std::string(s.str(seg.segmentType))) << ','
                      << seg.blocks.size() << ',' << seg.requested << ',' << seg.pending << '\n';
    }
}

} // namespace

int runSnapshotBandsBench(const Session& session, std::optional<int16_t> device) {
    const MemorySnapshot& s = *session.memorySnapshot();
    if (s.devices.empty()) {
        std::fprintf(stderr, "warpscope-cli: the snapshot has no device\n");
        return kExitFailure;
    }
    const int16_t d = device.value_or(s.devices.front());
    using Clock = std::chrono::steady_clock;
    auto ms = [](Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); };
    // The most allocations live at once on the device (the Memory tab's worst case for the bands).
    std::vector<std::pair<uint64_t, int>> steps; // (trace entry, +1/-1); before the trace at 0
    for (const SnapshotAllocation& a : s.allocations) {
        if (a.device != d)
            continue;
        steps.emplace_back(a.allocUs == SnapshotAllocation::kBeforeTrace ? 0 : a.allocSeq, 1);
        if (a.freeUs != SnapshotAllocation::kNeverFreed)
            steps.emplace_back(a.freeSeq, -1);
    }
    std::sort(steps.begin(), steps.end());
    int64_t live = 0, peakLive = 0;
    for (const auto& [seq, delta] : steps)
        peakLive = std::max(peakLive, live += delta);

    auto t0 = Clock::now();
    const SnapshotTimeline timeline = SnapshotTimeline::build(s, d);
    const double buildMs = ms(t0);
    // The Memory tab's plot at 1600 x 400 px: the whole trace, then zoomed in 2x a step around the
    // peak column down to 1/1024 of it and out again, by time and by trace order, three times.
    constexpr int kWidth = 1600, kHeight = 400;
    std::vector<double> rasterMs;
    // A digest of every raster's pixels, states and times: two builds that draw alike print the same.
    uint64_t hash = 1469598103934665603ull;
    auto mix = [&](uint64_t v) { hash = (hash ^ v) * 1099511628211ull; };
    auto digest = [&](const SnapshotTimeline::Raster& r) {
        for (uint32_t c : r.cells)
            mix(c);
        for (size_t x = 0; x < r.columnBytes.size(); ++x)
            mix(static_cast<uint64_t>(r.columnBytes[x])), mix(static_cast<uint64_t>(r.columnUs[x]));
    };
    for (int round = 0; round < 3; ++round)
        for (bool byOrder : {false, true}) {
            const int64_t from = byOrder ? 0 : timeline.firstUs();
            const int64_t to = byOrder ? static_cast<int64_t>(timeline.changeCount()) : timeline.lastUs() + 1;
            t0 = Clock::now();
            const SnapshotTimeline::Raster full = timeline.rasterize(from, to, kWidth, kHeight, 0, byOrder);
            rasterMs.push_back(ms(t0));
            digest(full);
            const auto peak = std::max_element(full.columnBytes.begin(), full.columnBytes.end()) - full.columnBytes.begin();
            const double center = static_cast<double>(from) + static_cast<double>(to - from) * (static_cast<double>(peak) + 0.5) / kWidth;
            std::vector<double> spans;
            for (double span = static_cast<double>(to - from) / 2; span >= static_cast<double>(to - from) / 1024; span /= 2)
                spans.push_back(span);
            std::vector<double> out(spans.rbegin() + 1, spans.rend());
            spans.insert(spans.end(), out.begin(), out.end());
            for (double span : spans) {
                const auto lo = static_cast<int64_t>(std::max(static_cast<double>(from), center - span / 2));
                const auto hi = std::max(lo + 1, static_cast<int64_t>(std::min(static_cast<double>(to), center + span / 2)));
                t0 = Clock::now();
                const SnapshotTimeline::Raster r = timeline.rasterize(lo, hi, kWidth, kHeight, 0, byOrder);
                rasterMs.push_back(ms(t0));
                digest(r);
            }
        }
    std::vector<double> sorted = rasterMs;
    std::sort(sorted.begin(), sorted.end());
    auto pct = [&](double p) { return sorted[std::min(sorted.size() - 1, static_cast<size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5))]; };
    std::printf("device: %d\n", d);
    std::printf("allocations: %zu\n", timeline.allocationCount());
    std::printf("changes: %zu\n", timeline.changeCount());
    std::printf("peak_live_allocations: %lld\n", static_cast<long long>(peakLive));
    std::printf("build_ms: %.1f\n", buildMs);
    std::printf("rasters: %zu (%dx%d px)\n", sorted.size(), kWidth, kHeight);
    std::printf("raster_p50_ms: %.2f\n", pct(0.5));
    std::printf("raster_p95_ms: %.2f\n", pct(0.95));
    std::printf("raster_max_ms: %.2f\n", sorted.back());
    std::printf("goal_raster_p95_16ms_ratio: %.2f\n", pct(0.95) / 16.0);
    std::printf("raster_digest: %016llx\n", static_cast<unsigned long long>(hash));
    return kExitOk;
}

int runSnapshotMemory(const Session& session, const std::optional<std::string>& csv, std::optional<int16_t> device,
                      std::optional<int64_t> atUs) {
    const MemorySnapshot& s = *session.memorySnapshot();
    if (!csv) {
        printSummary(s, device, atUs);
        std::fflush(stdout);
        return kExitOk;
    }
    if (*csv == "allocations")
        writeAllocations(session, device, atUs);
    else if (*csv == "stacks")
        writeStacks(s, device, atUs);
    else
        writeSegments(s, device, atUs);
    std::cout.flush();
    return std::cout ? kExitOk : kExitFailure;
}

} // namespace ws::cli
