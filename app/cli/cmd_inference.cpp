#include "analysis/inference_gaps.h"
#include "analysis/inference_json.h"
#include "analysis/inference_steps.h"
#include "analysis/kernel_table.h"
#include "cli_args.h"
#include "commands.h"
#include "import/trace_import.h"
#include "model/session.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace ws::cli {

namespace {

const char* const kUsage = "Usage: warpscope-cli inference FILE [--json] [--csv] [--steps] [--bench]\n";

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double ms(double ns) { return ns / 1e6; }

const char* sourceText(ForwardSource s) {
    return s == ForwardSource::HeadShapes ? "the LM head's shape" : "the LM head's Python line";
}

const char* phaseSourceText(PhaseSource s) {
    switch (s) {
    case PhaseSource::AttentionShapes: return "attention query lengths";
    case PhaseSource::GemmRows: return "GEMM rows";
    case PhaseSource::GemmKernels: break;
    }
    return "the GEMM kernels each forward ran (no shapes)";
}

void printStats(const char* name, const LatencyStats& s) {
    if (s.count == 0) {
        std::printf("%-22s none\n", name);
        return;
    }
    std::printf("%-22s p50 %.3f ms   p90 %.3f ms   p99 %.3f ms   mean %.3f ms   min %.3f   max %.3f   (%zu)\n", name,
                ms(static_cast<double>(s.p50)), ms(static_cast<double>(s.p90)), ms(static_cast<double>(s.p99)), ms(s.mean),
                ms(static_cast<double>(s.min)), ms(static_cast<double>(s.max)), s.count);
}

void printText(const Session& session, const InferenceSteps& r, bool steps) {
    if (r.training()) {
        std::printf("No inference forwards: a training run (over 5 %% of its kernels are backward).\n");
        return;
    }
    if (r.empty()) {
        std::printf("No inference forwards found: no GEMM onto a vocabulary (by operator shapes) and no GEMM line\n"
                    "launched once per forward (by Python stacks). Record shapes (torch.profiler record_shapes=True,\n"
                    "warpscope-capture --torch-ops=shapes) or Python stacks (--py-stacks).\n");
        return;
    }
    std::printf("Inference: %zu forwards in %zu requests on GPU %d; forwards cut at %s (%s), phases from %s\n",
                r.steps().size(), r.requests().size(), r.device(), sourceText(r.source()), r.headLabel().c_str(),
                phaseSourceText(r.phaseSource()));
    printStats("Time to first token", r.ttft());
    printStats("Time per output token", r.timePerToken());
    const bool batchKnown = std::all_of(r.requests().begin(), r.requests().end(), [](const InferenceRequest& q) { return q.batch > 0; });
    std::printf("%-22s %.1f (%s)\n\n", "Tokens per second", r.tokensPerSecond(),
                batchKnown ? "sequences x new tokens over the requests' time" : "per sequence: no shapes give the batch");
    std::printf("%-8s %7s %14s %12s %12s %8s\n", "phase", "steps", "tokens/step", "span ms", "GPU busy ms", "busy %");
    for (InferencePhase p : {InferencePhase::Prefill, InferencePhase::Decode}) {
        const PhaseTotals t = r.totals(p);
        std::printf("%-8s %7u %14.1f %12.3f %12.3f %7.1f%%\n", inferencePhaseName(p), t.steps,
                    t.steps ? t.tokens / t.steps : 0.0, ms(static_cast<double>(t.spanNs)), ms(static_cast<double>(t.busyNs)),
                    t.spanNs > 0 ? 100.0 * static_cast<double>(t.busyNs) / static_cast<double>(t.spanNs) : 0.0);
    }
    // Why the GPU idles per phase (inference_gaps.h).
    std::printf("\nGPU idle per phase: gaps of %.0f us or more by cause (idle_gaps.h), the rest between kernels\n",
                50.0);
    for (const PhaseIdleCauses& c : inferenceIdleCauses(session, r)) {
        const double idle = static_cast<double>(std::max<int64_t>(1, c.idleNs()));
        std::printf("  %-8s idle %10.3f ms:", inferencePhaseName(c.phase), ms(static_cast<double>(c.idleNs())));
        for (size_t k = 0; k < kGapCategoryCount; ++k)
            if (c.gaps.categories[k].ns > 0)
                std::printf("  %s %.1f%%", gapCategoryName(static_cast<GapCategory>(k)),
                            100.0 * static_cast<double>(c.gaps.categories[k].ns) / idle);
        std::printf("  short gaps (launch overhead) %.1f%%\n", 100.0 * static_cast<double>(c.shortGapNs) / idle);
        const GapLine* top = nullptr;
        for (const GapLine& l : c.gaps.lines)
            if (!top || l.ns > top->ns)
                top = &l;
        if (top)
            std::printf("           heaviest: %s%s%s%s%s (%.3f ms)\n", gapCategoryName(top->category), top->what.empty() ? "" : " ",
                        top->what.c_str(),
                        top->file.empty() ? "" : (" " + top->file + ":" + std::to_string(top->line)).c_str(),
                        top->function.empty() ? "" : (" " + top->function).c_str(), ms(static_cast<double>(top->ns)));
    }
    std::printf("\n%-8s %6s %6s %8s %6s %7s %9s %10s %12s\n", "request", "batch", "prompt", "new", "steps", "ttft ms",
                "end ms", "tok/s", "mean tpot ms");
    for (size_t i = 0; i < r.requests().size(); ++i) {
        const InferenceRequest& q = r.requests()[i];
        const double span = static_cast<double>(q.end - q.start);
        const double tpot = q.steps > 1 ? static_cast<double>(q.end - q.firstTokenEnd) / (q.steps - 1) : 0.0;
        std::printf("%-8zu %6u %6u %8u %6u %7s %9.3f %10.1f %12.3f\n", i, q.batch, q.promptTokens, q.newTokens, q.steps,
                    q.hasPrefill ? std::to_string(ms(static_cast<double>(q.ttftNs()))).substr(0, 7).c_str() : "-",
                    ms(span), span > 0 ? std::max<uint32_t>(q.batch, 1) * q.newTokens / span * 1e9 : 0.0, ms(tpot));
    }
    if (!steps)
        return;
    std::printf("\n%5s %7s %-8s %16s %10s %7s %6s %6s %8s %8s\n", "step", "request", "phase", "start ns", "latency us",
                "tokens", "batch", "query", "context", "kernels");
    for (size_t i = 0; i < r.steps().size(); ++i) {
        const InferenceStep& s = r.steps()[i];
        std::printf("%5zu %7u %-8s %16lld %10.1f %7u %6u %6u %8u %8u\n", i, s.request, inferencePhaseName(s.phase),
                    static_cast<long long>(s.start), static_cast<double>(s.latencyNs) / 1e3, s.tokens, s.batch,
                    s.queryLength, s.context, s.kernels);
    }
}

} // namespace

int runInference(const std::vector<std::string>& argv) {
    CliArgs args(argv, {});
    const std::vector<std::string> known = {"json", "csv", "steps", "bench"};
    if (args.flag("help") || args.flag("h")) {
        std::printf("%s"
                    "An LLM inference run's forward passes, each a prefill or a decode, cut at the LM head (the GEMM onto\n"
                    "the vocabulary, found by operator shapes or by the Python line launched once per forward): time to\n"
                    "first token, time per output token (p50/p90/p99), tokens per second, and per phase the GPU busy\n"
                    "time. --json the same as `overview --json`'s \"inference\" (with --steps, every forward); --csv one\n"
                    "row per forward; --steps lists the forwards; --bench times it.\n",
                    kUsage);
        return kExitOk;
    }
    if (!args.ok() || !args.unknown(known).empty() || args.positional().size() != 1 || (args.flag("json") && args.flag("csv"))) {
        std::fprintf(stderr, "%s", kUsage);
        return kExitUsage;
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
    t1 = std::chrono::steady_clock::now();
    const InferenceSteps steps = InferenceSteps::build(session, table);
    const double stepsMs = msSince(t1);
    if (args.flag("bench")) {
        double best = stepsMs;
        for (int i = 0; i < 2; ++i) {
            const auto t2 = std::chrono::steady_clock::now();
            InferenceSteps::build(session, table);
            best = std::min(best, msSince(t2));
        }
        std::printf("import_ms: %.1f\nkernel_table_ms: %.1f\nforwards: %zu\ninference_ms: %.2f (best of 3, after the kernel table)\n",
                    importMs, tableMs, steps.steps().size(), best);
        return kExitOk;
    }
    if (args.flag("json"))
        std::printf("%s\n", inferenceToJson(session, table, steps, args.flag("steps")).c_str());
    else if (args.flag("csv"))
        writeInferenceStepsCsv(std::cout, steps);
    else
        printText(session, steps, args.flag("steps"));
    return kExitOk;
}

} // namespace ws::cli
