// warpscope-capture: run a program under Warpscope's CUPTI injection library.

#include "cli/captureoptions.h"
#include "cli/capturesession.h"

#include <cstdio>

int main(int argc, char** argv) {
    const std::string program = "warpscope-capture";
    std::vector<std::string> args(argv + 1, argv + argc);
    ws::CaptureOptions options;
    std::string error;
    if (!ws::CaptureOptions::parse(args, &options, &error)) {
        std::fprintf(stderr, "%s: %s\nTry '%s --help' for more information.\n", program.c_str(), error.c_str(),
                     program.c_str());
        return 125;
    }
    if (options.help) {
        std::fputs(ws::CaptureOptions::usage(program).c_str(), stdout);
        return 0;
    }
    if (options.version) {
        std::printf("%s\n", ws::CaptureOptions::versionLine().c_str());
        return 0;
    }
    return ws::CaptureSession(options).run();
}
