#include "analysis/distributed.h"
#include "analysis/distributed_json.h"
#include "analysis/trace_summary.h"
#include "cli_args.h"
#include "commands.h"
#include "import/trace_import.h"

#include <cstdio>

namespace ws::cli {

namespace {

void printText(const TraceSummary& s) {
    std::printf("format:        %s\n", s.format.c_str());
    std::printf("events:        %llu\n", static_cast<unsigned long long>(s.events));
    std::printf("kernels:       %llu (%.3f ms)\n", static_cast<unsigned long long>(s.kernelCount),
                static_cast<double>(s.kernelTotalNs) / 1e6);
    std::printf("memcpy:        %llu (%.3f ms)\n", static_cast<unsigned long long>(s.memcpyCount),
                static_cast<double>(s.memcpyTotalNs) / 1e6);
    std::printf("memset:        %llu (%.3f ms)\n", static_cast<unsigned long long>(s.memsetCount),
                static_cast<double>(s.memsetTotalNs) / 1e6);
    std::printf("runtime calls: %llu\n", static_cast<unsigned long long>(s.runtimeCalls));
    std::printf("flows:         %llu\n", static_cast<unsigned long long>(s.flows));
    std::printf("steps:         %llu\n", static_cast<unsigned long long>(s.steps));
    for (const DeviceSummary& d : s.devices) {
        std::printf("device %d:      %s", d.id, d.name.c_str());
        if (d.gpuUtilization)
            std::printf(", GPU utilization %.2f%%", *d.gpuUtilization * 100.0);
        std::printf("\n");
    }
    if (!s.report.empty())
        std::printf("import report:\n%s", s.report.toText().c_str());
}

} // namespace

int runSummary(const std::vector<std::string>& argv) {
    CliArgs args(argv, {});
    if (args.flag("help") || args.flag("h")) {
        std::printf("Usage: warpscope-cli summary FILE [--json] [--tracks]\n"
                    "Print the headline numbers of a trace (text, or one JSON object with --json).\n");
        return kExitOk;
    }
    if (!args.ok() || !args.unknown({"json", "tracks"}).empty() || args.positional().size() != 1) {
        std::fprintf(stderr, "Usage: warpscope-cli summary FILE [--json] [--tracks]\n");
        return kExitUsage;
    }
    const std::string& path = args.positional()[0];
    ImportResult result;
    if (!importForCli(path, result))
        return kExitFailure;
    TraceSummary summary = summarizeSession(*result.session);
    if (args.flag("json")) {
        // The rank's distributed block rides along, so `dist --summaries` can merge the ranks of a
        // job from these small files (summarized where the traces live).
        RankDistributed rank = summarizeRank(*result.session, summary);
        rank.path = path;
        if (rank.rank < 0)
            rank.rank = rankFromFileName(path);
        rank.worker = workerName(path);
        // The block stays compact (one line): it is columnar and can be large.
        std::string text = summaryToJson(summary, args.flag("tracks"));
        const size_t close = text.rfind('}');
        text.erase(close);
        while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
            text.pop_back();
        std::printf("%s,\n  \"distributed\": %s\n}\n", text.c_str(), rankDistributedToJson(rank).c_str());
    } else {
        printText(summary);
    }
    return kExitOk;
}

} // namespace ws::cli
