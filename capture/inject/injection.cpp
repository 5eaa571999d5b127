// Entry points of warpscope_inject: the CUDA driver calls InitializeInjection when
// CUDA_INJECTION64_PATH names this library; NVTX calls InitializeInjectionNvtx2 when
// NVTX_INJECTION64_PATH names it.

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
 * NVTX injection: CUPTI implements NVTX recording itself (NVTX ranges then arrive as MARKER activity
 * records), so this forwards NVTX's initialization to the copy of libcupti this library is linked
 * with. One environment variable pair (CUDA_ INJECTION64_PATH and NVTX_INJECTION64_PATH both naming
 * this library) then covers both, whichever initializes first.
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
    return init(getExportTable);
}
