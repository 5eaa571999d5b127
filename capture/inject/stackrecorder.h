#pragma once

#include "inject/pythonstacks.h"

#include <cupti.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace ws {

/*
 * StackRecorder: the "stacks" and "pystacks" activities. At the ENTRY of every kernel and graph launch
 * call of the runtime and the driver and of the runtime's memcpy, memset and allocation calls
 * (LaunchCallbacks calls it), takes the calling thread's return addresses with backtrace()
 * (innermost first, this library's own frames dropped, at most 32) and/or its CPython frames
 * (PythonStacks, only while the thread holds the GIL).
 *
 * Why this shape: the launch path is the hot path of a training step, so a launch costs one
 * backtrace, one hash and a short locked lookup; identical stacks (the same loop launching the same
 * kernels every step) are defined once as a StackDef and each launch only adds a 25-byte CallStack
 * {correlation, stack id}. Module records (dl_iterate_phdr) are written before the first stack and
 * again only when a new stack holds an address outside every known module (after a dlopen), so the
 * launcher can symbolize after exit without touching the target. Nothing is symbolized in the
 * process: addr2line runs afterwards (capture/launch/stacksymbolizer.h).
 *
 * A runtime launch (cudaLaunchKernel) calls the driver underneath; LaunchCallbacks keeps that inner
 * driver call from recording a second stack. Driver-only launches (cuBLASLt, cuDNN, Triton,
 * cuLaunchKernel from C++) get their own.
 *
 * Threads: the callback runs on application threads; take() on the writer thread. The loader lock
 * (dl_iterate_phdr) is never taken while m_mutex is held. Never throws into CUPTI.
 */
class StackRecorder {
public:
    static constexpr int kMaxFrames = 32;

    // Sets the depths; the first call also prepares backtrace() and finds this library's own frames.
    // nativeDepth: frames kept per native stack (1..kMaxFrames; 0 = none); fewer frames unwind faster.
    // pythonDepth: Python frames kept per stack (0 = none).
    void configure(int nativeDepth, int pythonDepth);
    void start() { m_enabled = true; }
    // Stops recording; calls that are already recording finish, later ones return at once.
    void stop() { m_enabled = false; }
    // At the entry of a launch (domain 0 runtime, 1 driver; a runtime launch's inner driver call is
    // not passed) or of a runtime memory call, on the calling thread (LaunchCallbacks).
    void onCall(uint8_t domain, uint32_t cbid, uint32_t correlationId);
    // The calling thread's stacks now, whether or not recording (GraphRecorder: graphs are built once,
    // often while a capture is paused): their ids, defining what is new; 0 for a kind not configured,
    // or when the thread is already inside one of these calls. Needs configure().
    void stacksNow(uint32_t* native, uint32_t* python);
    // Moves the encoded records (Module, StackDef, PyFrame, PyStack, CallStack) gathered so far to
    // the end of out.
    void take(std::string& out);
    uint64_t launches() const { return m_launches.load(); }

private:
    struct Module {
        uint64_t start = 0;
        uint64_t end = 0;
        uint64_t loadBias = 0;
        std::string path;
        std::string buildId;
    };

    void record(uint8_t domain, uint32_t cbid, uint32_t correlationId);
    // Takes both stacks (0: none) and appends the Python definitions to pythonRecords; false when this
    // thread is inside a take already (a finalizer launching while frames are read).
    bool takeStacks(uint32_t* native, uint32_t* python, std::string& pythonRecords);
    static std::vector<Module> scanModules();
    bool covered(uint64_t address) const;
    void mergeModules(std::vector<Module>&& scanned);
    uint32_t findStack(uint64_t hash, const uint64_t* addresses, int count) const;
    uint32_t nativeStack();

    bool m_configured = false;
    std::atomic<bool> m_enabled{false};
    std::atomic<uint64_t> m_launches{0};
    int m_depth = kMaxFrames; // native frames, 0 = no native stacks
    int m_pythonDepth = 0;
    std::mutex m_pythonMutex; // taken with try_lock (see record()), before m_mutex
    PythonStacks m_python;    // under m_pythonMutex
    uint64_t m_selfStart = 0; // this library's code, whose frames lead every backtrace
    uint64_t m_selfEnd = 0;

    mutable std::mutex m_mutex;
    std::string m_pending;                             // encoded records not yet taken
    std::vector<Module> m_modules;                     // sorted by start
    std::unordered_map<uint64_t, uint32_t> m_stackIds; // hash -> stack id (probing on collision)
    std::vector<std::vector<uint64_t>> m_stacks;       // stack id - 1 -> addresses
    uint32_t m_nextModuleId = 1;
    unsigned long long m_loaderAdds = 0; // dl_iterate_phdr's dlpi_adds at the last scan
};

} // namespace ws
