#include "analysis/session_dump.h"
#include "cli_args.h"
#include "commands.h"
#include "import/trace_import.h"

#include <cstdio>

namespace ws::cli {

int runDump(const std::vector<std::string>& argv) {
    CliArgs args(argv, {"slices"});
    const char* usage = "Usage: warpscope-cli dump FILE [--slices N]\n";
    if (args.flag("help") || args.flag("h")) {
        std::printf("%sPrint the imported model as stable text (the golden-test format): counts, tracks with\n"
                    "their first N slices (default 3), counters, flows and the import report.\n",
                    usage);
        return kExitOk;
    }
    if (!args.ok() || !args.unknown({"slices"}).empty() || args.positional().size() != 1) {
        std::fprintf(stderr, "%s", usage);
        return kExitUsage;
    }
    size_t slices = 3;
    if (auto v = args.value("slices")) {
        try {
            slices = static_cast<size_t>(std::stoul(*v));
        } catch (const std::exception&) {
            std::fprintf(stderr, "%s", usage);
            return kExitUsage;
        }
    }
    const std::string& path = args.positional()[0];
    ImportResult result;
    if (!importForCli(path, result))
        return kExitFailure;
    std::fputs(dumpSession(*result.session, slices).c_str(), stdout);
    return kExitOk;
}

} // namespace ws::cli
