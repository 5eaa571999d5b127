#include "fuzz_support.h"

#include "analysis/kernel_table.h"
#include "analysis/operator_table.h"
#include "analysis/operator_tree.h"
#include "analysis/overview.h"
#include "analysis/trace_summary.h"
#include "model/session.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <unistd.h>

namespace ws::fuzz {

const std::string& inputFile(const uint8_t* data, size_t size, const char* extension) {
    // One file per extension (the regression test runs every target in one process), removed at exit.
    struct Files {
        std::map<std::string, std::string> paths;
        ~Files() {
            for (const auto& [extension, path] : paths)
                std::remove(path.c_str());
        }
    };
    static Files files;
    std::string& path = files.paths[extension];
    if (path.empty()) {
        const std::filesystem::path dir = std::filesystem::exists("/dev/shm")
                                              ? std::filesystem::path("/dev/shm")
                                              : std::filesystem::temp_directory_path();
        path = (dir / ("warpscope-fuzz-" + std::to_string(::getpid()) + extension)).string();
    }
    if (FILE* f = std::fopen(path.c_str(), "wb")) {
        if (size > 0) std::fwrite(data, 1, size, f);
        std::fclose(f);
    }
    return path;
}

void analyse(const Session& session) {
    (void)computeOverview(session);
    const OperatorTree tree = OperatorTree::build(session);
    (void)OperatorTable::build(session, tree, OperatorGrouping::NameAndCallStack);
    KernelTableOptions kernels;
    (void)KernelTable::build(session, kernels);
    // The same from the events' own text, where argument columns took its place above, and the
    // text of the first events of every track (a capture's is written per event from its records).
    kernels.argColumns = false;
    (void)KernelTable::build(session, kernels);
    size_t texts = 0;
    for (const Track& track : session.tracks())
        for (size_t i = 0; i < track.sliceCount() && texts < 4096; ++i, ++texts)
            (void)session.eventJson(track, i);
    (void)summaryToJson(summarizeSession(session), true);
}

} // namespace ws::fuzz
