// A Python extension-less probe of the injection library's frame reader (inject/pyframewalker.h) for
// the tests: loaded with ctypes into a real python3, it checks the interpreter's layout (probe, GIL
// held) and reads the calling thread's frames (walk, called through ctypes.CDLL, which releases the
// GIL as PyTorch does before a launch). No CUDA needed.
#include "inject/pyframewalker.h"

#include <algorithm>
#include <chrono>
#include <dlfcn.h>
#include <map>
#include <vector>
#include <unistd.h>
#include <string>

namespace {
ws::PyFrameWalker g_walker;
std::string g_text;
} // namespace

extern "C" __attribute__((visibility("default"))) const char* wscap_probe() {
    std::string why;
    g_text = g_walker.probe(&why) ? "ok" : why;
    return g_text.c_str();
}

// "function file:line" per frame, innermost first.
extern "C" __attribute__((visibility("default"))) const char* wscap_walk() {
    using Addr2Line = int (*)(void*, int);
    const auto addr2line = reinterpret_cast<Addr2Line>(::dlsym(RTLD_DEFAULT, "PyCode_Addr2Line"));
    ws::PyFrameWalker::Frame frames[ws::PyFrameWalker::kMaxDepth];
    const int n = g_walker.walk(frames, ws::PyFrameWalker::kMaxDepth);
    g_text.clear();
    for (int i = 0; i < n; ++i) {
        std::string function, file;
        g_walker.describe(frames[i].code, &function, &file);
        g_text += function + " " + file + ":" + std::to_string(addr2line(const_cast<void*>(frames[i].code), frames[i].lasti)) + "\n";
    }
    return g_text.c_str();
}

// The sampler's view (inject/pysampler.h): probeSampling with the GIL held (through ctypes.PyDLL),
// then, with the GIL released (ctypes.CDLL), every Python thread's stack read from this thread:
// one line per thread, "<os tid> <gil: 1, 0 or -1> <function>:<line>;..." innermost first.
extern "C" __attribute__((visibility("default"))) const char* wscap_probe_sampling() {
    std::string why;
    const bool ok = g_walker.probeSampling(&why);
    g_text = ok && why.empty() ? "ok" : ok ? "ok: " + why : why;
    if (ok && g_walker.stackWindowFound())
        g_text += " (stack window)";
    return g_text.c_str();
}

// After waitUs microseconds (so that another thread can take the GIL this call released).
extern "C" __attribute__((visibility("default"))) const char* wscap_sample(int waitUs) {
    ::usleep(static_cast<useconds_t>(waitUs));
    ws::PyFrameWalker::Thread threads[64];
    const int n = g_walker.threads(threads, 64);
    g_text.clear();
    for (int t = 0; t < n; ++t) {
        // As the sampler: each walk after the first reuses the thread's previous walk.
        static std::map<const void*, std::vector<ws::PyFrameWalker::Frame>> previous;
        std::vector<ws::PyFrameWalker::Frame>& last = previous[threads[t].tstate];
        ws::PyFrameWalker::Frame frames[ws::PyFrameWalker::kMaxDepth];
        const int depth = g_walker.walkThread(threads[t].tstate, frames, ws::PyFrameWalker::kMaxDepth, last.data(),
                                              static_cast<int>(last.size()));
        last.assign(frames, frames + depth);
        g_text += std::to_string(threads[t].osThreadId) + " " + std::to_string(g_walker.holdsGil(threads[t].tstate)) + " ";
        for (int i = 0; i < depth; ++i) {
            std::string function, file;
            if (g_walker.describeForeign(frames[i].code, &function, &file))
                g_text += function + ":" + std::to_string(g_walker.lineForeign(frames[i].code, frames[i].lasti)) + ";";
        }
        g_text += "\n";
    }
    return g_text.c_str();
}

// The sampler's walking cost alone (thread list and frames, with each thread's previous walk, no
// names or lines): microseconds per round over `rounds` rounds, for the sampling bench.
extern "C" __attribute__((visibility("default"))) double wscap_walk_rounds(int rounds) {
    std::map<const void*, std::vector<ws::PyFrameWalker::Frame>> previous;
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < rounds; ++r) {
        ws::PyFrameWalker::Thread threads[64];
        const int n = g_walker.threads(threads, 64);
        for (int t = 0; t < n; ++t) {
            std::vector<ws::PyFrameWalker::Frame>& last = previous[threads[t].tstate];
            ws::PyFrameWalker::Frame frames[ws::PyFrameWalker::kMaxDepth];
            const int depth = g_walker.walkThread(threads[t].tstate, frames, ws::PyFrameWalker::kMaxDepth, last.data(),
                                                  static_cast<int>(last.size()));
            last.assign(frames, frames + depth);
        }
    }
    const std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - start;
    return took.count() / std::max(1, rounds);
}
