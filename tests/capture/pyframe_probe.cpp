// A Python extension-less probe of the injection library's frame reader (inject/pyframewalker.h) for
// the tests: loaded with ctypes into a real python3, it checks the interpreter's layout (probe, GIL
// held) and reads the calling thread's frames (walk, called through ctypes.CDLL, which releases the
// GIL as PyTorch does before a launch). No CUDA needed.
#include "inject/pyframewalker.h"

#include <dlfcn.h>
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
