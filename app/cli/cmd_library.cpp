#include "analysis/session_dump.h"
#include "cli_args.h"
#include "commands.h"
#include "model/session.h"
#include "library/session_library.h"
#include "store/session_store.h"

#include <cstdio>

namespace ws::cli {

/*
 * warpscope-cli library DIR [--check]: what the app shows and does when it starts on a library:
 * the temp files of stores killed before they finished are removed (and said), then the sessions
 * are listed. --check reads every session whole (every column decoded, as the views would) and
 * exits 1 if any is damaged: the kill and disk-full tests use it.
 */
int runLibrary(const std::vector<std::string>& argv) {
    CliArgs args(argv, {});
    const char* usage = "Usage: warpscope-cli library DIR [--check]\n";
    if (args.flag("help") || args.flag("h")) {
        std::printf("%sLists a session library after removing what interrupted imports left (said on stderr).\n"
                    "--check reads every session whole and exits with status 1 if one is damaged.\n",
                    usage);
        return kExitOk;
    }
    if (!args.ok() || !args.unknown({"check"}).empty() || args.positional().size() != 1) {
        std::fprintf(stderr, "%s", usage);
        return kExitUsage;
    }
    const SessionLibrary library(args.positional()[0]);
    const SessionLibrary::Cleanup cleaned = library.cleanUp();
    if (!cleaned.removedFiles.empty())
        std::fprintf(stderr, "removed %zu unfinished session file(s) left by interrupted imports (%zu files, %llu bytes)\n",
                     cleaned.interruptedStores, cleaned.removedFiles.size(),
                     static_cast<unsigned long long>(cleaned.removedBytes));
    for (const std::string& moved : cleaned.movedAside)
        std::fprintf(stderr, "moved an unreadable session file aside: %s\n", moved.c_str());
    size_t damaged = cleaned.movedAside.size();
    const auto entries = library.list();
    for (const SessionLibrary::Entry& e : entries) {
        std::string state = "ok";
        if (args.flag("check")) {
            std::string error;
            const std::shared_ptr<Session> session = SessionStore::read(e.path, &error);
            if (!session)
                state = "damaged: " + error; // read() decodes and checks every column
            else
                (void)dumpSession(*session, 1000000000); // and every slice's text, as the views would
            damaged += state != "ok";
        }
        std::printf("%s\t%s\t%llu events\t%s\n", e.path.c_str(), e.name.c_str(), static_cast<unsigned long long>(e.events),
                    state.c_str());
    }
    std::fprintf(stderr, "%zu session(s)%s\n", entries.size(),
                 args.flag("check") ? (damaged ? (", " + std::to_string(damaged) + " damaged").c_str() : ", all whole") : "");
    return damaged ? kExitFailure : kExitOk;
}

} // namespace ws::cli
