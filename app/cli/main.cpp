// warpscope-cli: the headless face of Warpscope. Subcommands live in cmd_*.cpp; this file only
// dispatches and prints help and version.
#include "cli_args.h"
#include "commands.h"
#include "import/import_formats.h"
#include "warpscope_version.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Command {
    const char* name;
    const char* synopsis;
    int (*run)(const std::vector<std::string>&);
};

const Command kCommands[] = {
    {"summary", "summary FILE [--json] [--tracks]   headline numbers of a trace or session (JSON: with its distributed block)",
     ws::cli::runSummary},
    {"import", "import FILE -o OUT.warpscope [--name NAME] | --library DIR   store a trace as a Warpscope session",
     ws::cli::runImport},
    {"library", "library DIR [--check]   list a session library, clean up after killed imports, check every session",
     ws::cli::runLibrary},
    {"bench-import", "bench-import FILE [--repeat N]   time an import: wall, MB/s, peak RSS, bytes/event",
     ws::cli::runBenchImport},
    {"diff", "diff A B [--csv|--json] [--by op|kernel|op-kernel|step|headline] [--fail-if-slower PCT]   compare two runs",
     ws::cli::runDiff},
    {"bench-remote", "bench-remote URL LOCAL_FILE [--repeat N]   open a URL as the app does vs the local file; reopen",
     ws::cli::runBenchRemote},
    {"dump", "dump FILE [--slices N]   the imported model as stable text (golden-test format)", ws::cli::runDump},
    {"export", "export FILE -o OUT.json [--from NS --to NS] [--csv-dir DIR]   Chrome trace JSON; nsys-like summary CSVs",
     ws::cli::runExport},
    {"kernels", "kernels FILE [--csv] [--group name|op] [--no-args] [--bench]   the kernel table as CSV, or its timings",
     ws::cli::runKernels},
    {"ops", "ops FILE [--csv] [--group name|shape|stack] [--bench]   operator statistics (host/device, self/total)",
     ws::cli::runOps},
    {"overview", "overview FILE [--json] [--from NS --to NS] [--bench]   GPU utilization, step breakdown, advice",
     ws::cli::runOverview},
    {"memory", "memory FILE [--csv allocations|ops|curve|stacks|segments] [--device N|cpu] [--at US] [--snapshot SNAP]   peaks, allocations, leaks; snapshots: OOM, stacks, segments",
     ws::cli::runMemory},
    {"dist", "dist PATH...|--summaries DIR [--json|--csv workers|steps|ops] [--bench]   distributed job: overlap, waits, collectives",
     ws::cli::runDist},
    {"flame", "flame FILE [--weight cpu|gpu|alloc] [--folded] [--bottom-up] [--from NS --to NS] [--bench]   flame graph by call stack",
     ws::cli::runFlame},
    {"gaps", "gaps FILE [--threshold-us N] [--csv|--lines-csv] [--from NS --to NS] [--bench]   why the GPU waits: idle gaps by cause",
     ws::cli::runGaps},
    {"graphs", "graphs FILE [--csv|--nodes-csv] [--top N] [--from NS --to NS] [--bench]   CUDA graph replays by graph, slowest nodes",
     ws::cli::runGraphs},
    {"inference", "inference FILE [--json] [--csv] [--steps] [--bench]   LLM inference: prefill/decode, time to first token, per token",
     ws::cli::runInference},
    {"roofline", "roofline FILE [--json] [--csv] [--top N] [--gpu NAME]   kernels on the GPU's roofline: bound, MFU per phase",
     ws::cli::runRoofline},
    {"ncu", "ncu FILE --kernel NAME | --import NCU.csv...   Nsight Compute: the command for a kernel, its results read back",
     ws::cli::runNcu},
    {"query", "query FILE|SESSION \"SQL\" [--csv|--json] | --library [DIR] \"SQL\" | --schema   SQL over sessions: kernels, operators, gaps, ...",
     ws::cli::runQuery},
    {"mcp", "mcp [DIR...]   Model Context Protocol server on stdio: agents open and query the traces under DIR",
     ws::cli::runMcp},
};

void printHelp(FILE* out) {
    std::fprintf(out,
                 "Usage: warpscope-cli COMMAND [OPTIONS] [ARGS]\n"
                 "Inspect GPU and deep-learning traces without a display.\n\n"
                 "Commands:\n");
    for (const Command& c : kCommands)
        std::fprintf(out, "  %s\n", c.synopsis);
    // The formats the import dispatches to (import_formats.h), so the list cannot go stale.
    std::fprintf(out, "\nReads (recognized by content):\n");
    for (const ws::ImportFormat& f : ws::importFormats())
        std::fprintf(out, "  %s: %s\n", f.description, f.files);
    std::fprintf(out,
                 "\nOptions:\n"
                 "  -h, --help       show this help and exit\n"
                 "  -V, --version    show the version and exit\n\n"
                 "FILE may also be a URL: s3://BUCKET/KEY, gs://BUCKET/KEY, az://ACCOUNT/CONTAINER/BLOB,\n"
                 "https://ACCOUNT.blob.core.windows.net/CONTAINER/BLOB?SAS, https://..., http://...\n"
                 "(downloaded once into ~/.cache/warpscope/remote, then checked with one HEAD request;\n"
                 "credentials as the clouds' own tools find them, see README.md).\n\n"
                 "Exit status: 0 on success, 1 if the work failed, 2 on a usage error.\n");
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        printHelp(stderr);
        return ws::cli::kExitUsage;
    }
    const std::string first = argv[1];
    if (first == "-h" || first == "--help" || first == "help") {
        printHelp(stdout);
        return ws::cli::kExitOk;
    }
    if (first == "-V" || first == "--version") {
        std::printf("warpscope-cli %s\n", WARPSCOPE_VERSION);
        return ws::cli::kExitOk;
    }
    for (const Command& c : kCommands) {
        if (first == c.name)
            return c.run(std::vector<std::string>(argv + 2, argv + argc));
    }
    std::fprintf(stderr, "warpscope-cli: unknown command '%s'\nTry 'warpscope-cli --help'.\n", first.c_str());
    return ws::cli::kExitUsage;
}
