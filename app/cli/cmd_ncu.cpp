#include "analysis/kernel_table.h"
#include "analysis/ncu_command.h"
#include "analysis/ncu_match.h"
#include "cli_args.h"
#include "commands.h"
#include "analysis/ncu_results.h"
#include "import/ncu_report_export.h"
#include "import/trace_import.h"
#include "model/session.h"

#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace ws::cli {

namespace {

const char* const kUsage =
    "Usage: warpscope-cli ncu FILE --kernel NAME [--launch K] [--count C]\n"
    "       warpscope-cli ncu FILE --import NCU.csv|NCU.ncu-rep ... [--skip N] [--json]\n";

// The row of the K-th launch (0-based; default: the middle one, past warm-up) of the kernel name
// that contains `needle` and has the most time.
std::optional<uint32_t> chooseRow(const Session& s, const KernelTable& t, const std::string& needle,
                                  std::optional<uint64_t> launch) {
    std::map<uint32_t, int64_t> timeByName;
    for (const KernelRow& r : t.rows())
        if (s.str(r.name).find(needle) != std::string_view::npos)
            timeByName[r.nameIndex] += r.dur;
    if (timeByName.empty())
        return std::nullopt;
    uint32_t best = timeByName.begin()->first;
    for (const auto& [name, ns] : timeByName)
        if (ns > timeByName[best])
            best = name;
    std::vector<uint32_t> rows;
    for (uint32_t r = 0; r < t.size(); ++r)
        if (t.row(r).nameIndex == best)
            rows.push_back(r);
    const uint64_t k = launch ? *launch : rows.size() / 2;
    if (k >= rows.size())
        return std::nullopt;
    return rows[k];
}

} // namespace

int runNcu(const std::vector<std::string>& argv) {
    CliArgs args(argv, {"kernel", "launch", "count", "skip"});
    const std::vector<std::string> known = {"kernel", "launch", "count", "skip", "import", "json"};
    if (args.flag("help") || args.flag("h")) {
        std::printf("%s"
                    "Nsight Compute, handed off and read back. --kernel NAME: the ncu command that profiles launch K\n"
                    "(0-based, default the middle one) and the C after it (default 1) of the costliest kernel whose name\n"
                    "contains NAME, with the capture's program and arguments, and the two CSV exports to read back.\n"
                    "--import: ncu's CSV exports (--page raw, --page details; a .ncu-rep through ncu --import where ncu is\n"
                    "installed: WARPSCOPE_NCU, PATH) matched to this run's launches by function\n"
                    "name and grid/block sizes in launch order (--skip N: the ncu run's --launch-skip, where several placements\n"
                    "fit), with their measured duration, throughputs, occupancy, speed-of-light bound and rule findings.\n",
                    kUsage);
        return kExitOk;
    }
    const bool importing = args.flag("import");
    if (!args.ok() || !args.unknown(known).empty() || args.positional().empty() ||
        (!importing && (args.positional().size() != 1 || !args.value("kernel"))) ||
        (importing && (args.positional().size() < 2 || args.value("kernel")))) {
        std::fprintf(stderr, "%s", kUsage);
        return kExitUsage;
    }
    std::optional<uint64_t> launch, skip;
    uint32_t count = 1;
    try {
        if (const auto k = args.value("skip"))
            skip = std::stoull(*k);
        if (const auto l = args.value("launch"))
            launch = std::stoull(*l);
        if (const auto c = args.value("count"))
            count = static_cast<uint32_t>(std::stoul(*c));
    } catch (...) {
        std::fprintf(stderr, "--launch and --count take numbers\n%s", kUsage);
        return kExitUsage;
    }
    ImportResult result;
    if (!importForCli(args.positional()[0], result))
        return kExitFailure;
    const Session& session = *result.session;
    const KernelTable table = KernelTable::build(session);
    if (!importing) {
        const auto row = chooseRow(session, table, *args.value("kernel"), launch);
        if (!row) {
            std::fprintf(stderr, "No launch %s of a kernel whose name contains '%s'\n",
                         launch ? std::to_string(*launch).c_str() : "", args.value("kernel")->c_str());
            return kExitFailure;
        }
        const NcuCommand c = ncuCommandFor(session, table, *row, count);
        std::printf("# %s: launch %llu of %llu of function %s\n", std::string(session.str(table.row(*row).name)).substr(0, 120).c_str(),
                    static_cast<unsigned long long>(c.skip), static_cast<unsigned long long>(c.launches), c.function.c_str());
        std::printf("%s\n", c.handOffText().c_str());
        return kExitOk;
    }
    NcuResults ncu;
    for (size_t i = 1; i < args.positional().size(); ++i) {
        std::string error;
        if (!readNcuFile(args.positional()[i], ncu, error)) {
            std::fprintf(stderr, "%s: %s\n", args.positional()[i].c_str(), error.c_str());
            return kExitFailure;
        }
    }
    NcuMatchOptions matchOptions;
    matchOptions.skipHint = skip;
    const NcuMatch match = matchNcuResults(session, table, ncu, matchOptions);
    if (args.flag("json"))
        std::printf("%s\n", ncuMatchToJson(session, table, ncu, match).c_str());
    else
        printNcuMatch(std::cout, session, table, ncu, match);
    return kExitOk;
}

} // namespace ws::cli
