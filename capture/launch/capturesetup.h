#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ws {

/*
 * CaptureSettings: what a capture asks of the injection library, as warpscope-capture's options and
 * the GUI's New Capture dialog both express it. Zero / negative values mean "library default".
 */
struct CaptureSettings {
    std::string outputDir;      // absolute; the library writes <outputDir>/<host>-<pid>.wscap
    uint32_t activityBits = 0;  // wscap::ActivityBit
    int64_t sampleHz = -1;      // NVML sampling rate; -1: default, 0: off
    int64_t flushMs = 0;
    double delaySeconds = 0;    // start tracing this long after CUDA initialization
    double durationSeconds = 0; // stop tracing after this long
    bool profilerApiRange = false; // trace only between cudaProfilerStart and cudaProfilerStop
    std::string name;           // session name, written into the StreamHeader
    int stackDepth = 0;         // frames per native launch stack with wscap::ActStacks (0: default 32)
    // PyTorch operators (issue #13): 1 switches on torch's own NVTX range per operator
    // (emit_nvtx) in a Python target through a startup hook, 2 also records input shapes. Needs the
    // nvtx activity; 0: off.
    int torchOps = 0;
    // Python programs: every call of the function of this name (`train_step`, or a qualified name
    // such as `Trainer.step`) is marked as a step (an NVTX range `step N`). Needs the nvtx activity
    // and Python 3.12+ (sys.monitoring); "": steps come from optimizer steps or the launch pattern.
    std::string stepFunction;
    int pythonStackDepth = 0; // Python frames per stack with wscap::ActPyStacks (0: default 48)
    int pySampleHz = 0;       // Python stack samples per second with wscap::ActPySample (0: default 1000)
};

/*
 * The launcher side of a capture, shared by warpscope-capture and the GUI: finding the injection
 * library, checking for a CUDA driver, the environment that loads the library into the target,
 * and the streams an output directory holds. Plain C++/POSIX.
 */
namespace capturesetup {

// Directory of the running executable ("." when unknown).
std::string executableDir();
// Finds libwarpscope_inject.so: `explicitPath` when given, else $WARPSCOPE_INJECT_LIBRARY, else the
// directories in `searchDirs` in order. On failure *why says what is missing (`tool` names the
// program that looked, for the message).
bool findInjectLibrary(const std::string& explicitPath, const std::vector<std::string>& searchDirs,
                       const std::string& tool, std::string* path, std::string* why);
// The usual places relative to an executable's directory: itself, <libdir>/warpscope, lib/warpscope.
std::vector<std::string> defaultSearchDirs(const std::string& exeDir, const std::string& libDir);
// True when the CUDA driver library ($WARPSCOPE_CUDA_DRIVER_LIBRARY or libcuda.so.1) loads.
bool cudaDriverAvailable(std::string* why);
// The CUDA version the driver library supports (cuDriverGetVersion: 12040 for 12.4), or 0 when it
// does not load or does not say.
int cudaDriverVersion();
// Whether a driver of CUDA version `driver` is too old for a CUPTI of CUDA version `cupti`: CUPTI runs
// on drivers of its own CUDA major version or newer (minor version compatibility covers the rest);
// false when either is unknown (0). An older driver fails at the program's first CUDA call.
bool driverTooOldForCupti(int driver, int cupti);
// "12.4" for 12040.
std::string cudaVersionText(int version);
// The environment additions that load the injection library with these settings.
std::vector<std::pair<std::string, std::string>> environment(const CaptureSettings& settings,
                                                             const std::string& injectPath);
// Whether the capture needs the Python startup hook (pystacks; torchOps or stepFunction, with nvtx).
bool wantsPythonHook(const CaptureSettings& settings);
// When wantsPythonHook(settings), writes the Python startup hook (<outputDir>/.warpscope-python/
// sitecustomize.py) that environment() puts on PYTHONPATH; true when there is nothing to write.
bool prepareTorchHook(const CaptureSettings& settings, std::string* why);
// Creates a directory and its parents; false with *why on failure.
bool makeDirectories(const std::string& path, std::string* why);
// Absolute form of a path relative to the current directory.
std::string absolute(const std::string& path);
// Splits a command line into arguments the way a POSIX shell splits words, without expansions:
// blanks separate, '...' is literal, "..." honours \" \\ \$ \` and a backslash escapes the next
// character outside quotes. False with *error on an unterminated quote.
bool splitArguments(const std::string& text, std::vector<std::string>* args, std::string* error);
// The capture streams (*.wscap) in a directory, sorted.
std::vector<std::string> captureFiles(const std::string& dir);

} // namespace capturesetup

} // namespace ws
