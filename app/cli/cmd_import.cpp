#include "cli_args.h"
#include "commands.h"
#include "import/trace_import.h"
#include "model/session.h"
#include "library/session_library.h"
#include "store/session_store.h"

#include <chrono>
#include <cstdio>
#include <filesystem>

namespace ws::cli {

int runImport(const std::vector<std::string>& argv) {
    CliArgs args(argv, {"o", "output", "name", "library"});
    const char* usage = "Usage: warpscope-cli import FILE -o OUT.warpscope [--name NAME] [--no-results]\n"
                        "       warpscope-cli import FILE --library DIR\n"
                        "Import a trace (or copy a session) into a Warpscope session file, or into a session library as\n"
                        "File > Open does (a trace the library already holds is not imported again). The session keeps\n"
                        "the analyses' results (Overview, operators, kernels, distributed block) so that reopening and\n"
                        "comparing read them; --no-results leaves them out (they are computed when needed, as before).\n";
    if (args.flag("help") || args.flag("h")) {
        std::printf("%s", usage);
        return kExitOk;
    }
    const auto output = args.value("o") ? args.value("o") : args.value("output");
    const auto library = args.value("library");
    if (!args.ok() || !args.unknown({"o", "output", "name", "library", "no-results"}).empty() || args.positional().size() != 1 ||
        !output == !library) {
        std::fprintf(stderr, "%s", usage);
        return kExitUsage;
    }
    const std::string& path = args.positional()[0];
    if (library) {
        SessionLibrary lib(*library);
        const SessionLibrary::OpenResult opened = lib.open(path);
        if (!opened.session) {
            std::fprintf(stderr, "warpscope-cli: %s: %s\n", path.c_str(), opened.error.c_str());
            return kExitFailure;
        }
        if (opened.sessionPath.empty()) {
            std::fprintf(stderr, "warpscope-cli: imported %s but could not store it: %s\n", path.c_str(),
                         opened.storeError.c_str());
            return kExitFailure;
        }
        std::printf("%s%s\n", opened.sessionPath.c_str(), opened.fromLibrary ? " (already in the library)" : "");
        if (!opened.session->report().empty())
            std::fprintf(stderr, "import report:\n%s", opened.session->report().toText().c_str());
        return kExitOk;
    }
    const auto begin = std::chrono::steady_clock::now();
    ImportResult result;
    ImportControl control;
    control.forStore = ImportControl::StorePrep::Packed; // stored right away
    if (!importForCli(path, result, control))
        return kExitFailure;
    const auto imported = std::chrono::steady_clock::now();
    SessionWriteOptions options;
    // A capture directory given as "run1/" has no filename part: name the session after the folder.
    std::filesystem::path source(path);
    if (!source.has_filename())
        source = source.parent_path();
    options.name = args.value("name").value_or(source.filename().string());
    options.cacheResults = !args.flag("no-results");
    std::string error;
    if (!SessionStore::write(*result.session, *output, options, &error)) {
        std::fprintf(stderr, "warpscope-cli: cannot write %s: %s\n", output->c_str(), error.c_str());
        return kExitFailure;
    }
    const auto written = std::chrono::steady_clock::now();
    result.session->dropStorePreparation();
    auto seconds = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
    std::error_code ec;
    std::printf("%s: %llu slices, import %.2f s, store %.2f s, %llu bytes\n", output->c_str(),
                static_cast<unsigned long long>(result.session->sliceCount()), seconds(begin, imported),
                seconds(imported, written), static_cast<unsigned long long>(std::filesystem::file_size(*output, ec)));
    if (!result.session->report().empty())
        std::fprintf(stderr, "import report:\n%s", result.session->report().toText().c_str());
    return kExitOk;
}

} // namespace ws::cli
