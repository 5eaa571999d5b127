#include "analysis/gpu_peaks.h"
#include "analysis/inference_steps.h"
#include "analysis/kernel_table.h"
#include "analysis/roofline.h"
#include "analysis/roofline_json.h"
#include "cli_args.h"
#include "commands.h"
#include "import/trace_import.h"
#include "model/session.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace ws::cli {

namespace {

const char* const kUsage =
    "Usage: warpscope-cli roofline FILE [--json] [--csv] [--top N] [--gpu NAME] [--bench]\n"
    "       warpscope-cli roofline --gpus\n";

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// A figure with `decimals` places, "-" when unknown.
std::string num(double v, int decimals) {
    if (std::isnan(v))
        return "-";
    char text[48];
    std::snprintf(text, sizeof text, "%.*f", decimals, v);
    return text;
}

void printGpus() {
    std::printf("%-26s %8s %8s %8s %8s %8s %9s  %s\n", "GPU", "fp64", "fp32", "tf32", "fp16", "fp8", "GB/s", "source");
    for (const GpuPeaks& p : knownGpuPeaks())
        std::printf("%-26s %8.1f %8.1f %8.1f %8.1f %8.1f %9.0f  %s\n", p.name, p.fp64, p.fp32, p.tf32, p.fp16, p.fp8,
                    p.memoryGBps, p.source);
    std::printf("(dense TFLOP/s at boost clock; 0: the datasheet gives none)\n");
}

void printText(const Session& s, const Roofline& r, size_t top) {
    if (!r.peaks()) {
        std::printf("GPU %d (%s): not in the table of peaks; pass --gpu NAME (warpscope-cli roofline --gpus).\n",
                    r.device(), std::string(r.deviceName()).c_str());
        return;
    }
    const GpuPeaks& p = *r.peaks();
    std::printf("GPU %d: %s as %s: %.1f TFLOP/s %s on Tensor Cores, %.1f fp32, %.0f GB/s; ridge %.0f FLOP/byte\n",
                r.device(), std::string(r.deviceName()).c_str(), p.name, r.mfuPeakTflops(),
                numberFormatName(r.mainFormat() == NumberFormat::Unknown ? NumberFormat::Fp16 : r.mainFormat()), p.fp32,
                p.memoryGBps, r.mfuPeakTflops() * 1e3 / p.memoryGBps);
    const RooflineWork& t = r.total();
    std::printf("Estimated from operator shapes: %u of %u kernels (%.1f %% of kernel time)\n\n", t.estimated, t.kernels,
                t.totalNs ? 100.0 * static_cast<double>(t.estimatedNs) / static_cast<double>(t.totalNs) : 0.0);
    if (!r.phases().empty()) {
        std::printf("%-8s %6s %10s %8s %8s %10s %10s %10s\n", "phase", "steps", "span ms", "MFU %", "MBU %", "PM SM %",
                    "PM tensor%", "PM DRAM %");
        for (const RooflinePhase& ph : r.phases())
            std::printf("%-8s %6u %10.3f %8s %8s %10s %10s %10s\n", inferencePhaseName(ph.phase), ph.steps,
                        static_cast<double>(ph.spanNs) / 1e6, num(ph.mfu * 100, 2).c_str(),
                        num(ph.mbu * 100, 2).c_str(), num(ph.measured[0], 1).c_str(),
                        num(ph.measured[1], 1).c_str(), num(ph.measured[2], 1).c_str());
        std::printf("\n");
    }
    std::printf("%-9s %7s %10s %9s %9s %9s %7s  %s\n", "bound", "calls", "total ms", "FLOP/B", "TFLOP/s", "GB/s",
                "roof %", "kernel");
    for (size_t i = 0; i < r.groups().size() && i < top; ++i) {
        const RooflineGroup& g = r.groups()[i];
        std::string name(s.str(g.name));
        if (name.size() > 90)
            name = name.substr(0, 87) + "...";
        std::printf("%-9s %7u %10.3f %9s %9s %9s %7s  %s\n", g.bound == Bound::Unknown ? "-" : boundName(g.bound),
                    g.work.kernels, static_cast<double>(g.work.totalNs) / 1e6, num(g.work.intensity(), 2).c_str(),
                    num(g.work.tflops(), 2).c_str(), num(g.work.gbps(), 1).c_str(),
                    num(g.roofFraction * 100, 1).c_str(), name.c_str());
    }
}

} // namespace

int runRoofline(const std::vector<std::string>& argv) {
    CliArgs args(argv, {"top", "gpu"});
    const std::vector<std::string> known = {"json", "csv", "top", "gpu", "gpus", "bench"};
    if (args.flag("help") || args.flag("h")) {
        std::printf("%s"
                    "Each kernel name placed against its GPU's datasheet peaks (--gpus lists the table): FLOPs and bytes\n"
                    "estimated from operator shapes (torch.profiler record_shapes, warpscope-capture --torch-ops=shapes),\n"
                    "arithmetic intensity, achieved TFLOP/s and GB/s, the fraction of the bounding roof, and the bound:\n"
                    "compute, memory, or latency (under 10 %% of either roof, or under 5 us without an estimate). For an\n"
                    "inference run, MFU and MBU per phase, with the PM sampling means where the capture has them.\n"
                    "--gpu NAME takes that row of the table (a trace whose device is not named or not listed); --top N\n"
                    "kernel names (20); --json, --csv; --bench times it.\n",
                    kUsage);
        return kExitOk;
    }
    if (args.flag("gpus") && args.positional().empty()) {
        printGpus();
        return kExitOk;
    }
    size_t top = 20;
    if (const auto t = args.value("top")) {
        try {
            top = static_cast<size_t>(std::stoul(*t));
        } catch (...) {
            top = 0;
        }
        if (top == 0) {
            std::fprintf(stderr, "--top takes a positive number\n%s", kUsage);
            return kExitUsage;
        }
    }
    if (!args.ok() || !args.unknown(known).empty() || args.positional().size() != 1 || (args.flag("json") && args.flag("csv"))) {
        std::fprintf(stderr, "%s", kUsage);
        return kExitUsage;
    }
    RooflineOptions options;
    if (const auto gpu = args.value("gpu")) {
        options.peaks = gpuPeaksFor(*gpu);
        if (!options.peaks) {
            std::fprintf(stderr, "Unknown GPU '%s'; the table (warpscope-cli roofline --gpus) has:\n", gpu->c_str());
            for (const GpuPeaks& p : knownGpuPeaks())
                std::fprintf(stderr, "  %s\n", p.name);
            return kExitUsage;
        }
    }
    const auto t0 = std::chrono::steady_clock::now();
    ImportResult result;
    if (!importForCli(args.positional()[0], result))
        return kExitFailure;
    const Session& session = *result.session;
    const double importMs = msSince(t0);
    auto t1 = std::chrono::steady_clock::now();
    const KernelTable table = KernelTable::build(session);
    const double tableMs = msSince(t1);
    const InferenceSteps steps = InferenceSteps::build(session, table);
    t1 = std::chrono::steady_clock::now();
    const Roofline roofline = Roofline::build(session, table, &steps, options);
    double best = msSince(t1);
    if (args.flag("bench")) {
        for (int i = 0; i < 2; ++i) {
            const auto t2 = std::chrono::steady_clock::now();
            Roofline::build(session, table, &steps, options);
            best = std::min(best, msSince(t2));
        }
        std::printf("import_ms: %.1f\nkernel_table_ms: %.1f\nkernels: %zu\nroofline_ms: %.2f (best of 3, after the kernel "
                    "table and the inference steps)\n",
                    importMs, tableMs, table.size(), best);
        return kExitOk;
    }
    if (args.flag("json"))
        std::printf("%s\n", rooflineToJson(session, roofline, top).c_str());
    else if (args.flag("csv"))
        writeRooflineCsv(std::cout, session, roofline);
    else
        printText(session, roofline, top);
    return kExitOk;
}

} // namespace ws::cli
