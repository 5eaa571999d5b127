// warpscope-cli mcp: the Model Context Protocol server over stdio (mcp_server.h).
#include "cli_args.h"
#include "commands.h"
#include "mcp_server.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace ws::cli {

namespace {
const char* const kUsage = "Usage: warpscope-cli mcp [DIR...] [--max-bytes N]\n";
}

int runMcp(const std::vector<std::string>& argv) {
    CliArgs args(argv, {"max-bytes"});
    if (args.flag("help") || args.flag("h")) {
        std::printf("%sServes the Model Context Protocol on stdin/stdout for coding agents: tools to list and open the\n"
                    "traces, captures and sessions under DIR (default: the current directory; several may be given),\n"
                    "and to ask them for their summary, overview, SQL, kernels, idle gaps, a diff and the flame graph.\n"
                    "Paths outside the DIRs are refused. Each result is at most --max-bytes (65536) bytes, and says\n"
                    "when it was cut. Configure an agent with: {\"command\": \"warpscope-cli\", \"args\": [\"mcp\", DIR]}.\n",
                    kUsage);
        return kExitOk;
    }
    if (!args.ok() || !args.unknown({"max-bytes"}).empty()) {
        std::fprintf(stderr, "%s", kUsage);
        return kExitUsage;
    }
    McpOptions options;
    try {
        if (const auto m = args.value("max-bytes"))
            options.maxResultBytes = std::max<size_t>(1024, std::stoull(*m));
    } catch (const std::exception&) {
        std::fprintf(stderr, "%s", kUsage);
        return kExitUsage;
    }
    std::vector<std::string> dirs = args.positional();
    if (dirs.empty())
        dirs.push_back(".");
    for (const std::string& d : dirs) {
        std::error_code ec;
        const auto canonical = std::filesystem::canonical(d, ec);
        if (ec || !std::filesystem::is_directory(canonical)) {
            std::fprintf(stderr, "warpscope-cli: mcp: %s: not a directory\n", d.c_str());
            return kExitUsage;
        }
        options.roots.push_back(canonical.string());
    }
    std::ios::sync_with_stdio(false);
    return McpServer(options).serve(std::cin, std::cout);
}

} // namespace ws::cli
