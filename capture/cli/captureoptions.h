#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ws {

/*
 * CaptureOptions: the command line of warpscope-capture, parsed GNU style ("--flush-ms 200" or
 * "--flush-ms=200", "-o DIR", "--" before the program). Parsing stops at the first non-option
 * word, so "warpscope-capture -o out python train.py --lr 1" works without "--" as well.
 */
struct CaptureOptions {
    std::string output;
    std::string activities = "default";
    uint32_t activityBits = 0;
    int64_t sampleHz = -1;  // -1: the injection library's default
    int64_t flushMs = -1;
    double delaySeconds = 0;
    double durationSeconds = 0;
    bool profilerApiRange = false; // --capture-range=cudaProfilerApi
    std::string name;
    std::string injectLibrary;
    std::vector<std::string> command;
    bool help = false;
    bool version = false;
    bool quiet = false;
    bool stacks = false; // --stacks: adds the "stacks" activity
    int64_t stackDepth = 0; // --stack-depth N (1..32); 0: the library's default
    int torchOps = 0;       // --torch-ops: 1 operators, 2 (=shapes) with input shapes; adds "nvtx"
    bool pythonStacks = false; // --py-stacks: adds the "pystacks" activity
    int pySampleHz = 0;        // --py-sample[=HZ]: adds the "pysample" activity; 0: not asked (default 1000)
    std::string stepFunction;  // --step-function NAME: its calls are steps; adds "nvtx"
    int graphTrace = 0;        // --graph-trace=node|graph: 1 node (each replayed node), 2 graph (a replay as one span); 0 not given
    // Remote capture (issue #26): --host HOST runs the capture there over SSH and writes the streams
    // into OUT here as they arrive; --stream is the host side of that; --check-host answers the
    // client's pre-flight check.
    std::string host;
    std::string remoteCapture; // --remote-capture PATH: warpscope-capture on the host
    std::string remoteDir;     // --remote-dir DIR: where the host keeps the capture
    bool stream = false;
    bool checkHost = false;
    bool deploy = false; // --deploy: copy this warpscope-capture to the host when it lacks it or another version
    std::vector<std::string> forwarded; // the recording options as given, for the host

    // False with a one-line reason in *error for a bad command line.
    static bool parse(const std::vector<std::string>& args, CaptureOptions* out, std::string* error);
    static std::string usage(const std::string& program);
    // "warpscope-capture 0.1.0 (capture stream format 1.3)": --version, --check-host's first line, and
    // what --deploy compares with the host's.
    static std::string versionLine();
};

} // namespace ws
