// warpscope-cli dist: the Distributed view of a job (issue #12) from rank traces or from the
// small per-rank summaries of `warpscope-cli summary --json`.
#include "analysis/distributed.h"
#include "analysis/distributed_json.h"
#include "analysis/job_clock.h"
#include "cli_args.h"
#include "commands.h"
#include "import/job_files.h"
#include "import/trace_import.h"
#include "library/open_trace.h"
#include "model/session.h"
#include "peak_rss.h"
#include "library/job_loading.h"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace ws::cli {

namespace {

const char* const kUsage =
    "Usage: warpscope-cli dist PATH... [--library DIR] [--json | --csv workers|steps|ops] [--bench [--repeat N] [--baseline FILE]]\n"
    "       warpscope-cli dist --summaries DIR [--json | --csv workers|steps|ops] [--bench [--repeat N]]\n";

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

double fileBytes(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? static_cast<double>(st.st_size) : 0.0;
}

std::string ms(double ns) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", ns / 1e6);
    return buf;
}

// Imports each rank in turn and keeps its distributed block. The session is dropped at once unless
// `keep` is given (the benchmark keeps every rank, as the app does for the job timeline). False
// after printing why when a file fails.
bool summarizeFiles(const std::vector<std::string>& files, std::vector<RankDistributed>& out, double* importSeconds,
                    double* summarizeSeconds, std::vector<std::shared_ptr<const Session>>* keep) {
    // A multi-process Nsight Systems export is one rank per process (job_files.h).
    const std::vector<JobRankSource> sources = jobRankSources(files, {});
    for (const JobRankSource& source : sources) {
        const std::string& f = source.file;
        if (!source.error.empty()) {
            reportImportError(f, source.error);
            return false;
        }
        auto t0 = Clock::now();
        ImportControl control;
        control.process = source.process;
        ImportResult result = openTraceFile(source.importPath, control);
        if (!result.session) {
            reportImportError(f, result.error);
            return false;
        }
        *importSeconds += secondsSince(t0);
        t0 = Clock::now();
        RankDistributed r = summarizeRank(*result.session);
        r.path = f;
        if (source.rank >= 0)
            r.rank = source.rank;
        if (r.rank < 0)
            r.rank = rankFromFileName(f);
        r.worker = source.worker.empty() ? workerName(f) : source.worker;
        out.push_back(std::move(r));
        if (keep)
            keep->push_back(result.session);
        *summarizeSeconds += secondsSince(t0);
    }
    return true;
}

bool readSummaries(const std::string& dir, std::vector<RankDistributed>& out) {
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json")
            files.push_back(it->path().string());
    if (ec || files.empty()) {
        std::fprintf(stderr, "warpscope-cli: %s: no summary files (*.json) found\n", dir.c_str());
        return false;
    }
    std::sort(files.begin(), files.end());
    for (const std::string& f : files) {
        std::ifstream in(f, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        std::string error;
        auto r = rankDistributedFromJson(text.str(), &error);
        if (!r) {
            std::fprintf(stderr, "warpscope-cli: %s: %s\n", f.c_str(), error.c_str());
            return false;
        }
        out.push_back(std::move(*r));
    }
    return true;
}

void printText(const JobDistributed& job, const ClockAlignment& clock) {
    std::printf("Workers: %zu\n", job.workers.size());
    switch (clock.method) {
    case ClockAlignment::Method::TraceClocks:
        std::printf("Clocks: trace clocks (first common event within %s ms across workers)\n", ms(static_cast<double>(clock.spreadNs)).c_str());
        break;
    case ClockAlignment::Method::FirstCollective:
    case ClockAlignment::Method::FirstStep:
        std::printf("Clocks: aligned on the first common %s '%s' (it was %s ms apart)\n",
                    clock.method == ClockAlignment::Method::FirstCollective ? "collective" : "step",
                    clock.reference.c_str(), ms(static_cast<double>(clock.spreadNs)).c_str());
        break;
    case ClockAlignment::Method::Manual: break;
    }
    std::printf("\n%-6s %-28s %-24s %5s %10s %10s %10s %10s %10s %10s %10s %7s %s\n", "rank", "worker", "GPU", "steps",
                "step ms", "comp ms", "overlap ms", "comm ms", "other ms", "sync ms", "xfer ms", "util %", "");
    for (size_t w = 0; w < job.workers.size(); ++w) {
        const RankDistributed& r = job.workers[w];
        const WorkerSteps& s = job.steps[w];
        std::string mark = job.slowestWorker == w ? "slowest" : job.fastestWorker == w ? "fastest" : "";
        if (job.straggler == w)
            mark += mark.empty() ? "straggler" : ", straggler";
        char util[16] = "";
        if (r.gpuUtilization)
            std::snprintf(util, sizeof util, "%.2f", *r.gpuUtilization * 100.0);
        std::printf("%-6d %-28.28s %-24.24s %5zu %10s %10s %10s %10s %10s %10s %10s %7s %s\n", r.rank, r.worker.c_str(),
                    r.gpuName.c_str(), r.steps.size(), ms(s.meanStepNs).c_str(), ms(s.meanComputation - s.meanOverlap).c_str(),
                    ms(s.meanOverlap).c_str(), ms(s.meanCommunication - s.meanOverlap).c_str(), ms(s.meanOther).c_str(),
                    ms(s.meanSync).c_str(), ms(s.meanTransfer).c_str(), util, mark.c_str());
    }
    if (job.straggler)
        std::printf("\nStraggler: rank %d (%s): the others wait %s ms for it per step on average (%zu of %zu steps)\n",
                    job.workers[*job.straggler].rank, job.workers[*job.straggler].worker.c_str(),
                    ms(job.stragglerMeanWaitNs).c_str(),
                    static_cast<size_t>(std::count_if(job.stragglers.begin(), job.stragglers.end(),
                                                      [&](const StepStraggler& s) { return s.worker == *job.straggler; })),
                    job.stragglers.size());
    if (job.straggler) {
        // What its host did meanwhile: its GPU's idle gaps by cause in those steps (idle_gaps.h).
        double idle = 0, others = 0;
        for (size_t k = 0; k < kGapCategoryCount; ++k) {
            idle += job.stragglerIdleNs[k];
            others += job.othersIdleNs[k];
        }
        std::string causes;
        for (GapCategory c : stragglerIdleCauses(job)) {
            const std::string& line = job.workers[*job.straggler].idleTopLine[size_t(c)];
            causes += (causes.empty() ? "" : ", ") + std::string(gapCategoryName(c)) + " " +
                      ms(job.stragglerIdleNs[size_t(c)]) + " ms" + (line.empty() ? "" : " (" + line + ")");
        }
        if (idle > 0)
            std::printf("  while they wait, its GPU idles %s ms per step (theirs %s ms): %s\n", ms(idle).c_str(),
                        ms(others).c_str(), causes.c_str());
    }
    for (const StepStraggler& s : job.stragglers)
        std::printf("  step %-8s straggler rank %-4d others wait %s ms\n", s.step.c_str(), job.workers[s.worker].rank,
                    ms(s.waitNs).c_str());
    if (job.ops.empty() && job.workers.size() > 1)
        std::printf("Note: no collective on any worker, so no waits: none of NCCL's kernels or nccl:*/gloo:* ranges "
                    "were recorded (a capture sees Gloo's only with --torch-ops).\n");
    if (job.unmatchedNodes > 0)
        std::printf("Note: %llu communication ops are not on every worker; their synchronizing time is not split.\n",
                    static_cast<unsigned long long>(job.unmatchedNodes));
    std::printf("\n%-6s %-6s %-28s %6s %14s %12s %12s %12s %10s %10s\n", "rank", "group", "operation", "calls", "bytes",
                "latency ms", "avg ms", "xfer ms", "algbw GB/s", "busbw GB/s");
    for (const CommOpStats& op : job.ops) {
        char alg[24] = "", bus[24] = "";
        if (op.algBwGBps)
            std::snprintf(alg, sizeof alg, "%.2f", *op.algBwGBps);
        if (op.busBwGBps)
            std::snprintf(bus, sizeof bus, "%.2f", *op.busBwGBps);
        std::printf("%-6d %-6.6s %-28.28s %6llu %14s %12s %12s %12s %10s %10s\n", job.workers[op.worker].rank,
                    op.processGroup.c_str(), op.name.c_str(), static_cast<unsigned long long>(op.calls),
                    op.bytesKnown ? std::to_string(op.totalBytes).c_str() : "", ms(static_cast<double>(op.latencyNs)).c_str(),
                    ms(static_cast<double>(op.latencyNs) / static_cast<double>(op.calls)).c_str(),
                    ms(static_cast<double>(op.transferNs)).c_str(), alg, bus);
    }
}

} // namespace

int runDist(const std::vector<std::string>& argv) {
    CliArgs args(argv, {"csv", "summaries", "baseline", "repeat", "library"});
    if (args.flag("help") || args.flag("h")) {
        std::printf("%s"
                    "The Distributed view of a job: per worker computation/communication overlap, synchronizing vs\n"
                    "transferring communication, the straggler per step, and the communication ops with bus bandwidth.\n"
                    "PATH is a rank's trace or a directory of them. --summaries DIR merges the `warpscope-cli summary\n"
                    "--json` outputs (*.json) in DIR without reading any trace. --library DIR goes through a session library as\n"
                    "the app does (ranks stored once, reopened in parallel). --bench prints timings and goal ratios;\n"
                    "--baseline FILE also times importing FILE (e.g. one trace as large as the whole job); --repeat N\n"
                    "runs both N times, interleaved, and prints medians.\n",
                    kUsage);
        return kExitOk;
    }
    const auto csv = args.value("csv");
    const auto summaries = args.value("summaries");
    if (!args.ok() || !args.unknown({"json", "csv", "summaries", "bench", "baseline", "repeat", "library"}).empty() ||
        (summaries.has_value() == !args.positional().empty()) || (csv && *csv != "workers" && *csv != "steps" && *csv != "ops")) {
        std::fprintf(stderr, "%s", kUsage);
        return kExitUsage;
    }
    const bool bench = args.flag("bench");
    int repeat = 1;
    if (const auto r = args.value("repeat")) {
        repeat = std::atoi(r->c_str());
        if (repeat < 1 || !bench) {
            std::fprintf(stderr, "%s", kUsage);
            return kExitUsage;
        }
    }
    std::vector<std::string> files;
    double inputBytes = 0;
    if (!summaries) {
        std::string error;
        files = expandJobInputs(args.positional(), &error);
        if (files.empty()) {
            std::fprintf(stderr, "warpscope-cli: %s\n", error.c_str());
            return kExitFailure;
        }
        for (const std::string& f : files)
            inputBytes += fileBytes(f);
    }
    // One open of the job as the app does it: every rank read (and, in a benchmark, kept), the
    // tables merged.
    struct Run {
        double read = 0, import = 0, summarize = 0, merge = 0, total = 0;
        double models = 0; // after the tables: the deferred ranks' models read (benchmark only)
        int fromLibrary = 0; // ranks reopened from the library
    };
    const auto library = args.value("library");
    if (library && summaries) {
        std::fprintf(stderr, "%s", kUsage);
        return kExitUsage;
    }
    std::optional<JobDistributed> job;
    ClockAlignment clock;
    // A launcher process opened with the ranks (a capture folder's torchrun stream) is not a worker.
    auto keepWorkers = [](std::vector<RankDistributed>& ranks) {
        std::vector<RankDistributed> kept;
        for (size_t i : jobWorkerIndices(ranks))
            kept.push_back(std::move(ranks[i]));
        ranks = std::move(kept);
    };
    auto openJob = [&](Run& run) {
        const auto t0 = Clock::now();
        std::vector<RankDistributed> ranks;
        std::vector<std::shared_ptr<const Session>> sessions;
        std::vector<JobRankLoad> loads;
        JobLoadOptions options;
        if (library) {
            options.libraryDir = *library;
            // The tables need the ranks' blocks only: stored ranks' models are not read for them.
            options.deferSessions = true;
            loads = loadJobRanks(files, options);
            for (JobRankLoad& r : loads) {
                if (!r.session && r.sessionPath.empty()) {
                    reportImportError(r.file, r.error);
                    return false;
                }
                ranks.push_back(r.block);
                sessions.push_back(r.session);
                run.fromLibrary += r.fromLibrary ? 1 : 0;
            }
        } else if (summaries ? !readSummaries(*summaries, ranks)
                             : !summarizeFiles(files, ranks, &run.import, &run.summarize, bench ? &sessions : nullptr)) {
            return false;
        }
        run.read = secondsSince(t0);
        const auto t1 = Clock::now();
        keepWorkers(ranks);
        clock = alignJobClocks(ranks);
        job = computeJobDistributed(ranks);
        run.merge = secondsSince(t1);
        run.total = secondsSince(t0);
        if (bench && library) { // what the job timeline needs next: every rank's model
            const auto t2 = Clock::now();
            openJobRankSessions(loads, options);
            run.models = secondsSince(t2);
        }
        storeJobRanks(loads, options); // after the clock stops: the app does it once the job is shown
        return true;
    };
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };

    if (bench) {
        // Job and baseline runs interleave, so a slow moment of a shared machine hits both; medians.
        std::vector<Run> runs;
        std::vector<double> baselines;
        const auto baseline = args.value("baseline");
        double rss = 0; // the job's own peak, read before any baseline import raises it
        for (int i = 0; i < repeat; ++i) {
            Run run;
            if (!openJob(run))
                return kExitFailure;
            runs.push_back(run);
            if (i == 0)
                rss = static_cast<double>(peakRssBytes());
            if (baseline && !summaries) {
                const auto b0 = Clock::now();
                ImportResult single;
                if (!importForCli(*baseline, single))
                    return kExitFailure;
                baselines.push_back(secondsSince(b0));
            }
        }
        auto field = [&](double Run::*m) {
            std::vector<double> v;
            for (const Run& r : runs)
                v.push_back(r.*m);
            return median(v);
        };
        const double total = field(&Run::total);
        std::printf("workers: %zu\n", job->workers.size());
        std::printf("runs: %d (medians)\n", repeat);
        if (summaries) {
            std::printf("read_summaries_s: %.3f\n", field(&Run::read));
            std::printf("merge_s: %.3f\n", field(&Run::merge));
            std::printf("total_s: %.3f\n", total);
            // Goal: 1,024 rank summaries merged in <= 1 s (ratio <= 1 meets it).
            std::printf("goal_merge_1s_ratio: %.2f\n", total / 1.0);
            return kExitOk;
        }
        std::printf("input_bytes: %.0f\n", inputBytes);
        if (library) {
            // First open imports and stores every rank; the later ones reopen them from the library.
            std::printf("first_open_s: %.3f (%d of %zu ranks from the library)\n", runs[0].total, runs[0].fromLibrary,
                        files.size());
            if (runs.size() > 1) {
                std::vector<double> reopen, withModels;
                for (size_t i = 1; i < runs.size(); ++i) {
                    reopen.push_back(runs[i].total);
                    withModels.push_back(runs[i].total + runs[i].models);
                }
                const double reopenJob = median(reopen), reopenJobModels = median(withModels);
                // One rank reopened alone, for "a job reopens as fast as a single rank": its block,
                // then its model.
                std::vector<double> single, singleModel;
                for (int i = 0; i < repeat; ++i) {
                    const auto s0 = Clock::now();
                    JobLoadOptions options;
                    options.libraryDir = *library;
                    options.deferSessions = true;
                    auto one = loadJobRanks({files.front()}, options);
                    if (!one.front().session && one.front().sessionPath.empty())
                        return kExitFailure;
                    single.push_back(secondsSince(s0));
                    openJobRankSessions(one, options);
                    if (!one.front().session)
                        return kExitFailure;
                    singleModel.push_back(secondsSince(s0));
                }
                std::printf("job_reopen_s: %.3f (%d of %zu ranks from the library; the tables, from the ranks' stored blocks)\n",
                            reopenJob, runs.back().fromLibrary, files.size());
                std::vector<double> read, merge;
                for (size_t i = 1; i < runs.size(); ++i) {
                    read.push_back(runs[i].read);
                    merge.push_back(runs[i].merge);
                }
                std::printf("job_reopen_read_s: %.4f\njob_reopen_merge_s: %.4f\n", median(read), median(merge));
                std::printf("single_rank_reopen_s: %.3f\n", median(single));
                std::printf("job_reopen_over_single_rank: %.2f\n", reopenJob / median(single));
                std::printf("job_reopen_with_models_s: %.3f (the tables, then every rank's model read in parallel)\n",
                            reopenJobModels);
                std::printf("single_rank_reopen_with_model_s: %.3f\n", median(singleModel));
                std::printf("job_reopen_with_models_over_single_rank: %.2f\n", reopenJobModels / median(singleModel));
            }
            std::printf("peak_rss_bytes: %.0f\n", rss);
            return kExitOk;
        }
        std::printf("import_s: %.3f\n", field(&Run::import));
        std::printf("summarize_s: %.3f\n", field(&Run::summarize));
        std::printf("merge_s: %.3f\n", field(&Run::merge));
        std::printf("total_s: %.3f\n", total);
        std::printf("peak_rss_bytes: %.0f\n", rss);
        std::printf("peak_rss_over_json: %.3f\n", inputBytes > 0 ? rss / inputBytes : 0.0);
        std::printf("goal_rss_0.5x_ratio: %.2f\n", inputBytes > 0 ? rss / inputBytes / 0.5 : 0.0);
        if (!baselines.empty()) {
            const double base = median(baselines);
            std::printf("baseline_import_s: %.3f (%s, %.0f bytes)\n", base, baseline->c_str(), fileBytes(*baseline));
            // Goal: the job opened with its Distributed tables in <= 1.5x the import of one trace of
            // the same total size.
            std::printf("job_over_baseline: %.3f\n", total / base);
            std::printf("goal_1.5x_ratio: %.2f\n", total / base / 1.5);
        }
        return kExitOk;
    }
    Run run;
    if (!openJob(run))
        return kExitFailure;
    if (csv) {
        const DistributedTable table = *csv == "workers" ? DistributedTable::Workers
                                       : *csv == "steps" ? DistributedTable::Steps
                                                         : DistributedTable::Ops;
        std::printf("%s", jobDistributedToCsv(*job, table).c_str());
    } else if (args.flag("json")) {
        std::printf("%s\n", jobDistributedToJson(*job).c_str());
    } else {
        printText(*job, clock);
    }
    return kExitOk;
}

} // namespace ws::cli
