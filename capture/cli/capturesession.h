#pragma once

#include "cli/captureoptions.h"

#include <set>
#include <string>

namespace ws {

/*
 * CaptureSession: one run of warpscope-capture. Finds the injection library, checks that a CUDA
 * driver can be loaded, starts the program through the shared Launcher with the injection
 * environment, passes SIGINT/SIGTERM on to the program's process group, and at the end symbolizes
 * the native call stacks (with "stacks"), reads the streams the run produced and prints a short
 * summary. All messages go to stderr, prefixed with
 * "warpscope-capture:", so the program's own output stays clean.
 */
class CaptureSession {
public:
    explicit CaptureSession(CaptureOptions options) : m_options(std::move(options)) {}
    // The exit status for warpscope-capture (see CaptureOptions::usage).
    int run();

private:
    int runLocal();
    int runRemote(); // --host: the client side of a remote capture
    int checkHost() const; // --check-host
    bool findInjectLibrary(std::string* path, std::string* why) const;
    static bool cudaDriverAvailable(std::string* why);
    std::set<std::string> captureFiles() const;
    // Appends Symbol records to the new streams that hold native call stacks (addr2line).
    void symbolize(const std::set<std::string>& before) const;
    void summarize(const std::set<std::string>& before, double seconds, int exitCode) const;

    CaptureOptions m_options;
    std::string m_outputDir; // absolute
    bool m_driverMissing = false;
};

} // namespace ws
