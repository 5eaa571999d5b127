#include "analysis/idle_gaps_text.h"
#include "analysis/overview.h"
#include "analysis/overview_document.h"
#include "analysis/session_results.h"
#include "cli_args.h"
#include "commands.h"
#include "import/trace_import.h"
#include "library/open_trace.h"
#include "model/session.h"

#include <chrono>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace ws::cli {

namespace {

const char* const kUsage = "Usage: warpscope-cli overview FILE [--json] [--bench] [--from NS --to NS]\n";

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string pct(const std::optional<double>& fraction) {
    if (!fraction)
        return "not in this trace";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f %%", *fraction * 100.0);
    return buf;
}

std::string ms(double ns) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", ns / 1e6);
    return buf;
}

void printText(const Session& session, const OverviewReport& r, const IdleGapReport& gaps) {
    std::printf("Window: %lld .. %lld ns (%s ms)%s\n", static_cast<long long>(r.windowStart),
                static_cast<long long>(r.windowEnd), ms(static_cast<double>(r.windowEnd - r.windowStart)).c_str(),
                r.selection ? ", selected range"
                : r.stepSource == OverviewReport::StepSource::LaunchPattern ? ", steps from the repeating launch pattern"
                : r.stepSource == OverviewReport::StepSource::Named         ? ", steps from ranges named like steps"
                : r.stepSource == OverviewReport::StepSource::Optimizer     ? ", steps between the optimizer's steps"
                : r.profilerSteps                                           ? ", profiler steps"
                                                                            : ", whole trace (no steps)");
    if (r.startup)
        std::printf("First step left out as start-up: %lld .. %lld ns (%s ms)\n", static_cast<long long>(r.startup->start),
                    static_cast<long long>(r.startup->end), ms(static_cast<double>(r.startup->end - r.startup->start)).c_str());
    if (r.recordedPieces > 0)
        std::printf("Recorded between cudaProfilerStart and Stop: %zu piece(s) of the window; %s ms unseen between them "
                    "left out, with %zu step(s) that reached into it\n",
                    r.recordedPieces, ms(static_cast<double>(r.unrecordedNs)).c_str(), r.unrecordedSteps);
    std::printf("\nDevices\n");
    if (r.devices.empty())
        std::printf("  no GPU in this trace\n");
    for (const DeviceOverview& d : r.devices) {
        std::printf("  GPU %d: %s\n", d.id, d.name.empty() ? "(name not in this trace)" : d.name.c_str());
        std::string cc = "not in this trace";
        if (d.computeMajor)
            cc = std::to_string(*d.computeMajor) + "." + std::to_string(d.computeMinor.value_or(0));
        std::printf(d.amd ? "    CUs: %s   memory: %s   GFX version: %s\n" : "    SMs: %s   memory: %s   compute capability: %s\n",
                    d.smCount ? std::to_string(*d.smCount).c_str() : "not in this trace",
                    d.memoryBytes ? (std::to_string(*d.memoryBytes / (1024 * 1024)) + " MiB").c_str() : "not in this trace",
                    cc.c_str());
        std::printf("    kernels: %llu, %s ms\n", static_cast<unsigned long long>(d.kernelCount),
                    ms(static_cast<double>(d.kernelNs)).c_str());
        std::printf("    GPU Utilization: %s\n", pct(d.gpuUtilization).c_str());
        if (d.graphSpanNs > 0)
            std::printf("    (leaving out %s ms of CUDA graph replays recorded as one span each, --graph-trace=graph: "
                        "what ran inside them is not traced)\n",
                        ms(static_cast<double>(d.graphSpanNs)).c_str());
        std::printf(d.amd ? "    Est. CU Efficiency: %s\n" : "    Est. SM Efficiency: %s\n", pct(d.smEfficiency).c_str());
        if (d.achievedOccupancy)
            std::printf("    Est. Achieved Occupancy: %.2f %%%s\n", *d.achievedOccupancy,
                        d.amd                 ? " (wavefronts)"
                        : d.occupancyComputed ? " (computed from launch geometry and device limits)"
                                              : "");
        else
            std::printf("    Est. Achieved Occupancy: %s\n",
                        d.amd ? "cannot be computed (the trace has no register counts for its AMD kernels; "
                                "rocprofiler-sdk JSON has them)"
                              : "not in this trace");
        std::printf(d.amd ? "    Kernel time using matrix cores (MFMA, by kernel name): %s\n"
                          : "    Kernel time using Tensor Cores: %s\n",
                    pct(d.tensorCoreShare).c_str());
        static const char* const kMeasured[kMeasuredCounterCount] = {"SM Active", "Tensor Active", "DRAM Bandwidth"};
        for (size_t m = 0; m < kMeasuredCounterCount; ++m)
            if (d.measured[m])
                std::printf("    %s (measured, PM sampling): %.2f %% of peak\n", kMeasured[m], *d.measured[m]);
        if (d.peakAllocatedBytes)
            std::printf("    Peak allocated memory: %lld MiB\n", static_cast<long long>(*d.peakAllocatedBytes / (1024 * 1024)));
        else
            std::printf("    Peak allocated memory: not in this trace\n");
    }
    const StepBreakdown& b = r.breakdown;
    std::printf("\nStep time breakdown (ms)\n  %-10s", "Step");
    for (size_t role = 0; role < kStepRoleCount; ++role)
        std::printf(" %13s", stepRoleName(static_cast<StepRole>(role)));
    std::printf(" %13s\n", "Total");
    for (const StepCosts& st : b.steps) {
        std::printf("  %-10s", st.label.empty() ? "-" : st.label.c_str());
        for (size_t role = 0; role < kStepRoleCount; ++role)
            std::printf(" %13s", ms(static_cast<double>(st.cost[role])).c_str());
        std::printf(" %13s\n", ms(static_cast<double>(st.total())).c_str());
    }
    std::printf("  %-10s", "Average");
    for (size_t role = 0; role < kStepRoleCount; ++role)
        std::printf(" %13s", ms(b.average[role]).c_str());
    std::printf(" %13s\n  %-10s", ms(b.averageTotal).c_str(), "Share");
    for (size_t role = 0; role < kStepRoleCount; ++role)
        std::printf(" %11.2f %%", b.averageShare(static_cast<StepRole>(role)) * 100.0);
    // The Overview tab's "Why the GPU waits" section, as `warpscope-cli gaps` prints it.
    if (gaps.valid)
        std::printf("\n\n%s", idleGapsText(gaps, 3).c_str());
    std::printf("\n\nRecommendations\n");
    if (r.recommendations.empty())
        std::printf("  none\n");
    for (const Recommendation& rec : r.recommendations) {
        std::printf("  [%s] %s\n    %s\n", rec.severity == RecommendationSeverity::Warning ? "warning" : "info",
                    recommendationTitle(rec).c_str(), recommendationEvidence(rec).c_str());
        if (rec.range)
            std::printf("    range: %lld .. %lld ns\n", static_cast<long long>(rec.range->start),
                        static_cast<long long>(rec.range->end));
        if (rec.slice) {
            const Track& t = session.tracks()[rec.slice->track];
            std::printf("    slice: %s at %lld ns\n", std::string(session.str(t.names[rec.slice->slice])).c_str(),
                        static_cast<long long>(t.start[rec.slice->slice]));
        }
    }
}

} // namespace

int runOverview(const std::vector<std::string>& argv) {
    CliArgs args(argv, {"from", "to"});
    const std::vector<std::string> known = {"json", "bench", "from", "to"};
    if (args.flag("help") || args.flag("h")) {
        std::printf("%sThe Overview: per-GPU utilization, Est. SM Efficiency, Est. Achieved Occupancy, the step time\n"
                    "breakdown (torch-tb-profiler rules) and recommendations. --from/--to (session ns) analyse a\n"
                    "range. --bench prints the time to compute it after the import.\n",
                    kUsage);
        return kExitOk;
    }
    const auto from = args.value("from"), to = args.value("to");
    if (!args.ok() || !args.unknown(known).empty() || args.positional().size() != 1 || from.has_value() != to.has_value()) {
        std::fprintf(stderr, "%s", kUsage);
        return kExitUsage;
    }
    std::optional<OverviewRange> range;
    if (from) {
        try {
            range = OverviewRange{std::stoll(*from), std::stoll(*to)};
        } catch (const std::exception&) {
            std::fprintf(stderr, "%s", kUsage);
            return kExitUsage;
        }
    }
    const std::string& path = args.positional()[0];
    auto t0 = std::chrono::steady_clock::now();
    ImportResult result = openTraceFile(path);
    const double importMs = msSince(t0);
    if (!result.session) {
        reportImportError(path, result.error);
        return kExitFailure;
    }
    const Session& session = *result.session;
    if (!args.flag("bench")) {
        const bool json = args.flag("json");
        const OverviewDocument document = buildOverviewDocument(session, range, !json);
        if (json)
            std::printf("%s\n", overviewDocumentJson(session, document).c_str());
        else
            printText(session, document.report, *document.idleGaps);
        return kExitOk;
    }
    // A stored session's whole-trace Overview comes with it (session_results.h).
    t0 = std::chrono::steady_clock::now();
    const std::optional<SessionResults> stored = range ? std::nullopt : decodeSessionResults(session.storedResults(), session);
    const double storedMs = msSince(t0);
    t0 = std::chrono::steady_clock::now();
    const OverviewData data = prepareOverview(session);
    const double prepareMs = msSince(t0);
    const auto t1 = std::chrono::steady_clock::now();
    const OverviewReport report = computeOverview(session, data, range);
    const double computeMs = msSince(t1);
    const double total = prepareMs + computeMs;
    std::printf("slices: %llu\n", static_cast<unsigned long long>(session.sliceCount()));
    std::printf("import_ms: %.1f\n", importMs);
    std::printf("prepare_ms: %.1f\n", prepareMs);
    std::printf("compute_ms: %.1f\n", computeMs);
    std::printf("overview_ms: %.1f (goal 1000, ratio %.2f)\n", total, total / 1000.0);
    if (stored)
        std::printf("stored_first_view_ms: %.1f (the whole-trace report the session file carries, %zu recommendations)\n",
                    storedMs, stored->run.overview.recommendations.size());
    return kExitOk;
}

} // namespace ws::cli
