#include "cli_args.h"
#include "commands.h"
#include "export/chrome_export.h"
#include "export/summary_csv.h"
#include "import/trace_import.h"
#include "model/session.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace ws::cli {

int runExport(const std::vector<std::string>& argv) {
    const std::vector<std::string> known = {"o", "output", "from", "to", "csv-dir"};
    CliArgs args(argv, {"o", "output", "from", "to", "csv-dir"});
    const char* usage = "Usage: warpscope-cli export FILE -o OUT.json [--from NS --to NS] [--csv-dir DIR]\n";
    if (args.flag("help") || args.flag("h")) {
        std::printf("%sWrites any trace or session Warpscope opens as Chrome trace JSON (Perfetto, chrome://tracing\n"
                    "and Warpscope open it; flows, counters, memory records and metadata kept). --from/--to (session\n"
                    "ns) keep the events of that range. --csv-dir DIR also writes nsys stats-like summaries there:\n"
                    "cuda_gpu_kern_sum.csv, cuda_api_sum.csv, cuda_gpu_mem_time_sum.csv, cuda_gpu_mem_size_sum.csv.\n"
                    "-o may be left out when --csv-dir is given.\n",
                    usage);
        return kExitOk;
    }
    const auto output = args.value("o") ? args.value("o") : args.value("output");
    const auto from = args.value("from"), to = args.value("to");
    const auto csvDir = args.value("csv-dir");
    if (!args.ok() || !args.unknown(known).empty() || args.positional().size() != 1 || (!output && !csvDir) ||
        from.has_value() != to.has_value()) {
        std::fprintf(stderr, "%s", usage);
        return kExitUsage;
    }
    ChromeExportOptions options;
    if (from) {
        try {
            options.from = std::stoll(*from);
            options.to = std::stoll(*to);
        } catch (const std::exception&) {
            std::fprintf(stderr, "%s", usage);
            return kExitUsage;
        }
        if (*options.to <= *options.from) {
            std::fprintf(stderr, "warpscope-cli: --to must be after --from\n");
            return kExitUsage;
        }
    }
    const std::string& path = args.positional()[0];
    ImportResult result;
    if (!importForCli(path, result))
        return kExitFailure;
    const Session& s = *result.session;
    if (output) {
        // Written next to the target and moved into place: a failed export leaves no half file.
        const std::string partial = *output + ".partial";
        ChromeExportResult written;
        {
            std::ofstream out(partial, std::ios::binary);
            if (!out) {
                std::fprintf(stderr, "warpscope-cli: cannot write %s\n", output->c_str());
                return kExitFailure;
            }
            written = exportChromeTrace(s, out, options);
        }
        std::error_code ec;
        if (!written.ok || (std::filesystem::rename(partial, *output, ec), ec)) {
            std::filesystem::remove(partial, ec);
            std::fprintf(stderr, "warpscope-cli: %s: %s\n", output->c_str(),
                         written.ok ? "cannot move the file into place" : written.error.c_str());
            return kExitFailure;
        }
        std::printf("%s: %llu events\n", output->c_str(), static_cast<unsigned long long>(written.events));
    }
    if (csvDir) {
        std::error_code ec;
        std::filesystem::create_directories(*csvDir, ec);
        for (const SummaryCsvFile& f : summaryCsvFiles(s, options.from, options.to)) {
            const std::string target = (std::filesystem::path(*csvDir) / f.name).string();
            std::ofstream out(target, std::ios::binary);
            out << f.text;
            if (!out) {
                std::fprintf(stderr, "warpscope-cli: cannot write %s\n", target.c_str());
                return kExitFailure;
            }
            std::printf("%s\n", target.c_str());
        }
    }
    return kExitOk;
}

} // namespace ws::cli
