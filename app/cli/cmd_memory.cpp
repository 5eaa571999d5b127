// warpscope-cli memory: the memory view without a display (FORMATS.md 3.10): per-device peaks, or
// the allocation table, operator statistics or curves as CSV.
#include "analysis/kernel_csv.h"
#include "analysis/memory_categories.h"
#include "analysis/memory_allocations.h"
#include "analysis/memory_curve.h"
#include "analysis/memory_op_stats.h"
#include "cli_args.h"
#include "commands.h"
#include "import/snapshot_beside_import.h"
#include "import/trace_import.h"
#include "model/session.h"
#include "snapshot_memory.h"

#include <cstdio>
#include <exception>
#include <iostream>
#include <optional>
#include <string>

namespace ws::cli {

namespace {

const char* const kUsage = "Usage: warpscope-cli memory FILE [--csv allocations|ops|curve|categories] [--device N|cpu]\n"
                            "       warpscope-cli memory SNAPSHOT [--csv allocations|stacks|segments] [--at US] [--device N]\n"
                            "       warpscope-cli memory TRACE --snapshot SNAPSHOT [--csv allocations|stacks|segments] [--at US]\n";

std::string optNs(int64_t v) { return v == MemoryEvent::kUnknown ? std::string() : std::to_string(v); }

double msFromStart(const Session& s, int64_t t) { return static_cast<double>(t - s.startNs()) / 1e6; }

std::string bytesText(int64_t b) {
    char buf[64];
    const double v = static_cast<double>(b);
    const double a = v < 0 ? -v : v;
    if (a < 1024)
        return std::to_string(b) + " B";
    if (a >= 1024.0 * 1024 * 1024)
        std::snprintf(buf, sizeof buf, "%.2f GiB", v / (1024.0 * 1024 * 1024));
    else if (a >= 1024.0 * 1024)
        std::snprintf(buf, sizeof buf, "%.2f MiB", v / (1024.0 * 1024));
    else
        std::snprintf(buf, sizeof buf, "%.2f KiB", v / 1024.0);
    return std::string(buf) + " (" + std::to_string(b) + " B)";
}

void printSummary(const Session& s, const MemoryCurves& curves, const MemoryAllocations& allocations,
                  std::optional<MemoryDevice> only) {
    if (curves.empty()) {
        std::printf("No memory events in this trace.\n");
        return;
    }
    for (const MemoryCurve& c : curves.devices()) {
        if (only && c.device != *only)
            continue;
        std::printf("%s:\n", memoryDeviceLabel(c.device).c_str());
        std::printf("  records:            %zu\n", c.records);
        if (c.peakAllocated.known())
            std::printf("  peak allocated:     %s at %.3f ms%s\n", bytesText(c.peakAllocated.value).c_str(),
                        msFromStart(s, c.peakAllocated.ts),
                        c.allocatedFromTotals ? "" : " (net allocations since the trace began: no totals in this trace)");
        else
            std::printf("  peak allocated:     not in this trace\n");
        if (c.peakReserved.known())
            std::printf("  peak reserved:      %s at %.3f ms\n", bytesText(c.peakReserved.value).c_str(),
                        msFromStart(s, c.peakReserved.ts));
        else
            std::printf("  peak reserved:      not in this trace\n");
        if (c.capacity) {
            std::printf("  capacity:           %s\n", bytesText(*c.capacity).c_str());
            if (c.peakAllocated.known())
                std::printf("  peak / capacity:    %.2f %%\n",
                            100.0 * static_cast<double>(c.peakAllocated.value) / static_cast<double>(*c.capacity));
        } else {
            std::printf("  capacity:           not in this trace\n");
        }
        const MemoryAllocations::Counts n = allocations.counts(c.device);
        std::printf("  allocations:        %zu\n", n.allocations);
        std::printf("  frees:              %zu\n", n.frees);
        std::printf("  leaks:              %zu (never freed in the trace)\n", n.leaks);
        std::printf("  unmatched frees:    %zu\n", n.unmatchedFrees);
    }
    if (allocations.recordsWithoutAddr())
        std::printf("records without an address (not matched): %zu\n", allocations.recordsWithoutAddr());
}

void writeAllocations(const Session& s, const MemoryAllocations& a, std::optional<MemoryDevice> only) {
    std::cout << "device,operator,size_bytes,allocated_ns,freed_ns,lifetime_ns,leak,addr\n";
    for (uint32_t i : a.select(only, INT64_MIN, INT64_MAX)) {
        const MemoryAllocation& r = a.rows()[i];
        std::cout << memoryDeviceLabel(r.device) << ',' << csvField(MemoryAllocations::opText(s, r)) << ','
                  << r.bytes << ',' << optNs(r.allocatedAt) << ',' << optNs(r.freedAt) << ','
                  << optNs(r.lifetime()) << ',' << (r.leaked() ? "yes" : "no") << ',' << r.addr << '\n';
    }
}

void writeOps(const Session& s, const MemoryOpStats& stats, std::optional<MemoryDevice> only) {
    std::cout << "device,operator,calls,size_increase_bytes,self_size_increase_bytes,allocation_count,"
                 "self_allocation_count,allocation_size_bytes,self_allocation_size_bytes\n";
    for (uint32_t i : stats.select(only)) {
        const MemoryOpStat& r = stats.rows()[i];
        std::cout << memoryDeviceLabel(r.device) << ',' << csvField(s.str(r.name)) << ',' << r.calls << ','
                  << r.sizeIncrease << ',' << r.selfSizeIncrease << ',' << r.allocationCount << ','
                  << r.selfAllocationCount << ',' << r.allocationSize << ',' << r.selfAllocationSize << '\n';
    }
}

// A PyTorch memory timeline's categories: one row each, then the total.
void writeCategories(const MemoryCategories& m) {
    std::cout << "category,peak_bytes,at_total_peak_bytes,final_bytes\n";
    for (const MemoryCategory& c : m.categories)
        std::cout << csvField(c.name) << ',' << c.peakBytes << ',' << c.atTotalPeakBytes << ',' << c.finalBytes << '\n';
    if (m.present)
        std::cout << "total,," << m.peakTotalBytes << ",\n";
}

void printCategories(const Session& s, const MemoryCategories& m) {
    std::printf("By category (PyTorch memory timeline), at the peak of %.2f GiB at %.3f ms:\n",
                static_cast<double>(m.peakTotalBytes) / (1u << 30), static_cast<double>(m.peakTs - s.startNs()) / 1e6);
    for (const MemoryCategory& c : m.categories)
        std::printf("  %-16s %10.1f MiB at the peak, own peak %10.1f MiB, at the end %10.1f MiB\n", c.name.c_str(),
                    static_cast<double>(c.atTotalPeakBytes) / (1u << 20), static_cast<double>(c.peakBytes) / (1u << 20),
                    static_cast<double>(c.finalBytes) / (1u << 20));
}

void writeCurve(const MemoryCurves& curves, std::optional<MemoryDevice> only) {
    std::cout << "device,ts_ns,allocated_bytes,reserved_bytes\n";
    for (const MemoryCurve& c : curves.devices()) {
        if (only && c.device != *only)
            continue;
        const std::string label = memoryDeviceLabel(c.device);
        for (size_t i = 0; i < c.ts.size(); ++i) {
            std::cout << label << ',' << c.ts[i] << ',' << c.allocated[i] << ',';
            if (c.hasReserved())
                std::cout << c.reserved[i];
            std::cout << '\n';
        }
    }
}

} // namespace

int runMemory(const std::vector<std::string>& argv) {
    CliArgs args(argv, {"csv", "device", "at", "snapshot"});
    if (args.flag("help") || args.flag("h")) {
        std::printf("%sPer device: peak allocated and reserved memory with their time (ms from the trace start),\n"
                    "the device capacity and the peak's share of it, and counts of allocations, frees, leaks\n"
                    "(never freed in the trace) and unmatched frees. Works on Kineto [memory] events, Nsight\n"
                    "Systems CUDA memory usage events and Warpscope captures.\n"
                    "--csv allocations: one row per allocation (times in session ns, empty when unknown);\n"
                    "--csv ops: per-operator memory statistics; --csv curve: every curve point;\n"
                    "--csv categories: a PyTorch memory timeline's categories (parameters, activations, ...).\n"
                    "--device N selects GPU N, --device cpu the host.\n"
                    "On a PyTorch memory snapshot (torch.cuda.memory._dump_snapshot, plain or .gz): per device the\n"
                    "peak of live (active) bytes, the allocator state at the end, each OOM with what was live then\n"
                    "by stack, and with --at US (the trace's time_us) what was live then and the allocator state.\n"
                    "--csv allocations: every allocation (live at --at only, with --at); --csv stacks: per stack the\n"
                    "allocations in the trace and what is live at --at (default: the end); --csv segments: the\n"
                    "segments at the end or at --at.\n"
                    "--bench-bands (snapshots): time the Memory tab's band rasterization, whole trace and zoomed.\n"
                    "--snapshot SNAP: a trace or capture with a memory snapshot of the same run beside it: the\n"
                    "snapshot is placed on the trace's clock (by the blocks both recorded, else the host clock), its\n"
                    "views use the trace's time (--at in the trace's us), and --csv allocations names the operator\n"
                    "that made each allocation.\n",
                    kUsage);
        return kExitOk;
    }
    const std::optional<std::string> csv = args.value("csv");
    if (!args.ok() || !args.unknown({"csv", "device", "at", "bench-bands", "snapshot"}).empty() || args.positional().size() != 1 ||
        (csv && *csv != "allocations" && *csv != "ops" && *csv != "curve" && *csv != "categories" && *csv != "stacks" &&
         *csv != "segments")) {
        std::fprintf(stderr, "%s", kUsage);
        return kExitUsage;
    }
    std::optional<MemoryDevice> only;
    if (auto d = args.value("device")) {
        if (*d == "cpu" || *d == "CPU") {
            only = MemoryDevice{0, -1};
        } else {
            try {
                size_t used = 0;
                const int id = std::stoi(*d, &used);
                if (used != d->size() || id < 0 || id > 32767)
                    throw std::invalid_argument(*d);
                only = MemoryDevice{1, static_cast<int16_t>(id)};
            } catch (const std::exception&) {
                std::fprintf(stderr, "%s", kUsage);
                return kExitUsage;
            }
        }
    }
    const std::string& path = args.positional()[0];
    ImportResult result;
    if (const std::optional<std::string> snapshot = args.value("snapshot")) {
        result = importTraceWithSnapshot(path, *snapshot);
        if (!result.session) {
            reportImportError(path, result.error);
            return kExitFailure;
        }
        // Whether and how the snapshot was placed (or why not) is the report's; say it first.
        for (const ImportReport::Problem& p : result.session->report().problems())
            if (p.kind.find("memory snapshot") != std::string::npos)
                std::fprintf(stderr, "%s: %s\n", p.kind.c_str(), p.examples.empty() ? "" : p.examples.front().c_str());
        if (!result.session->memorySnapshot())
            return kExitFailure;
    } else if (!importForCli(path, result)) {
        return kExitFailure;
    }
    const Session& s = *result.session;
    std::ios::sync_with_stdio(false);
    std::optional<int64_t> atUs;
    if (auto at = args.value("at")) {
        try {
            size_t used = 0;
            atUs = std::stoll(*at, &used);
            if (used != at->size())
                throw std::invalid_argument(*at);
        } catch (const std::exception&) {
            std::fprintf(stderr, "%s", kUsage);
            return kExitUsage;
        }
    }
    if (s.memorySnapshot()) {
        if (csv && *csv != "allocations" && *csv != "stacks" && *csv != "segments") {
            std::fprintf(stderr, "warpscope-cli: --csv %s is not for memory snapshots (allocations, stacks, segments)\n",
                         csv->c_str());
            return kExitUsage;
        }
        if (only && only->type != 1) {
            std::fprintf(stderr, "warpscope-cli: a memory snapshot has GPU devices only\n");
            return kExitUsage;
        }
        if (args.flag("bench-bands"))
            return runSnapshotBandsBench(s, only ? std::optional<int16_t>(only->id) : std::nullopt);
        return runSnapshotMemory(s, csv, only ? std::optional<int16_t>(only->id) : std::nullopt, atUs);
    }
    if (atUs || (csv && (*csv == "stacks" || *csv == "segments"))) {
        std::fprintf(stderr, "warpscope-cli: --at and --csv stacks|segments are for PyTorch memory snapshots\n");
        return kExitUsage;
    }
    if (csv && *csv == "curve") {
        writeCurve(MemoryCurves::build(s), only);
    } else if (csv && *csv == "categories") {
        writeCategories(MemoryCategories::build(s));
    } else {
        const std::vector<uint32_t> ops = memoryRecordOps(s);
        if (csv && *csv == "ops") {
            writeOps(s, MemoryOpStats::build(s, ops), only);
        } else if (csv) {
            writeAllocations(s, MemoryAllocations::build(s, ops), only);
        } else {
            std::cout.flush();
            printSummary(s, MemoryCurves::build(s), MemoryAllocations::build(s, ops), only);
            if (const MemoryCategories categories = MemoryCategories::build(s); categories.present)
                printCategories(s, categories);
            std::fflush(stdout);
            return kExitOk;
        }
    }
    std::cout.flush();
    return std::cout ? kExitOk : kExitFailure;
}

} // namespace ws::cli
