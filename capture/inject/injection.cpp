// Entry points of warpscope_inject: the CUDA driver calls InitializeInjection when
// CUDA_INJECTION64_PATH names this library; NVTX calls InitializeInjectionNvtx2 when
// NVTX_INJECTION64_PATH names it.

#include "format/activitylist.h"
#include "inject/nvtxrecorder.h"
#include "inject/pythonstacks.h"
#include "inject/tracer.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <exception>
#include <pthread.h>

namespace {

void onExit() {
    try {
        ws::Tracer::instance().finalize();
    } catch (...) {
        // Exit handlers must not throw into the host's exit path.
    }
}

void onForkChild() {
    ws::Tracer::instance().forkedChild();
}

} // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
    try {
        static bool registered = false;
        if (!registered) {
            registered = true;
            std::atexit(onExit);
            ::pthread_atfork(nullptr, nullptr, onForkChild);
        }
        ws::Tracer::instance().initialize();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "[warpscope] error: initialization failed: %s; nothing is captured\n", e.what());
    } catch (...) {
        std::fprintf(stderr, "[warpscope] error: initialization failed; nothing is captured\n");
    }
    // Always report success: a failed profiler must not make the host's cuInit fail.
    return 1;
}

/*
 * NVTX injection: CUPTI implements NVTX recording (NVTX ranges then arrive as MARKER activity
 * records), so this forwards NVTX's initialization to the copy of libcupti this library is linked
 * with. One environment variable pair (CUDA_ INJECTION64_PATH and NVTX_INJECTION64_PATH both naming
 * this library) then covers both, whichever initializes first. Then NvtxRecorder takes over the
 * plain push/pop calls, the bulk of all ranges (PyTorch's operators), at a fraction of CUPTI's cost;
 * WARPSCOPE_NVTX_VIA_CUPTI=1 leaves them to CUPTI (for comparisons).
 */
extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(const void* getExportTable) {
    using Init = int (*)(const void*);
    void* cupti = ::dlopen("libcupti.so.13", RTLD_NOW | RTLD_NOLOAD);
    if (!cupti)
        cupti = ::dlopen("libcupti.so", RTLD_NOW | RTLD_NOLOAD);
    if (!cupti) {
        std::fprintf(stderr, "[warpscope] warning: libcupti is not loaded; NVTX ranges are not recorded\n");
        return 0;
    }
    auto init = reinterpret_cast<Init>(::dlsym(cupti, "InitializeInjectionNvtx2"));
    if (!init) {
        std::fprintf(stderr, "[warpscope] warning: this libcupti cannot record NVTX; NVTX ranges are not recorded\n");
        return 0;
    }
    const int result = init(getExportTable);
    const char* viaCupti = std::getenv("WARPSCOPE_NVTX_VIA_CUPTI");
    if (result && !(viaCupti && *viaCupti == '1')) {
        uint32_t activities = ws::wscap::kDefaultActivities;
        std::string bad;
        if (const char* list = std::getenv("WARPSCOPE_ACTIVITIES"); list && *list)
            ws::wscap::parseActivities(list, &activities, &bad);
        if (activities & ws::wscap::ActNvtx)
            ws::NvtxRecorder::instance().attach(getExportTable);
    }
    return result;
}

/*
 * Python call stacks ("pystacks"): installing the profile function that keeps each thread's shadow
 * stack needs the GIL, which CUDA's initialization does not have, so the launcher's Python start-up
 * hook calls this through ctypes.PyDLL (which keeps the GIL held). Returns 1 on success.
 */
extern "C" __attribute__((visibility("default"))) int warpscope_python_attach(void) {
    try {
        std::string why;
        uint32_t activities = ws::wscap::kDefaultActivities;
        std::string bad;
        if (const char* list = std::getenv("WARPSCOPE_ACTIVITIES"); list && *list)
            ws::wscap::parseActivities(list, &activities, &bad);
        if (ws::PythonStacks::attach((activities & ws::wscap::ActPySample) != 0, &why)) {
            if (!why.empty())
                std::fprintf(stderr, "[warpscope] note: Python sampling: %s\n", why.c_str());
            return 1;
        }
        std::fprintf(stderr, "[warpscope] warning: %s; Python call stacks are not recorded\n", why.c_str());
    } catch (...) {
        // Out of memory: no Python stacks, the program runs on.
    }
    return 0;
}
