// Entry points of warpscope_inject: the CUDA driver calls InitializeInjection when
// CUDA_INJECTION64_PATH names this library; NVTX calls InitializeInjectionNvtx2 when
// NVTX_INJECTION64_PATH names it.

#include "format/activitylist.h"
#include "inject/nvtxrecorder.h"
#include "inject/operatorwindows.h"
#include "inject/pythonstacks.h"
#include "inject/tracer.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <exception>
#include <pthread.h>
#include <string>

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

/*
 * Operators in windows (`--torch-ops`, inject/operatorwindows.h): the start-up hook passes the
 * addresses of at::enableRecordFunction(bool) and at::isRecordFunctionEnabled() from the program's
 * libtorch, on the thread that switched PyTorch's ranges on. WARPSCOPE_TORCH_OPS_WINDOWS is
 * "HOLD_MS/SAMPLE_ON_MS/SAMPLE_PERIOD_MS" (default 200/20/2000); "all" keeps the ranges on all the
 * time. Returns 1 when windows are in use.
 */
extern "C" __attribute__((visibility("default"))) int warpscope_torch_ops_windows(void* enableRecordFunction,
                                                                                void* isRecordFunctionEnabled) {
    try {
        ws::OperatorWindows::Settings settings;
        if (const char* spec = std::getenv("WARPSCOPE_TORCH_OPS_WINDOWS"); spec && *spec) {
            double hold = 0, on = 0, period = 0;
            if (std::string(spec) == "all")
                return 0;
            if (std::sscanf(spec, "%lf/%lf/%lf", &hold, &on, &period) != 3 || hold <= 0 || on <= 0 || period <= on) {
                std::fprintf(stderr, "[warpscope] warning: WARPSCOPE_TORCH_OPS_WINDOWS=%s is not "
                                     "HOLD_MS/SAMPLE_ON_MS/SAMPLE_PERIOD_MS; operators are recorded all the time\n", spec);
                return 0;
            }
            settings.holdNs = static_cast<uint64_t>(hold * 1e6);
            settings.sampleOnNs = static_cast<uint64_t>(on * 1e6);
            settings.samplePeriodNs = static_cast<uint64_t>(period * 1e6);
        }
        ws::OperatorWindows::instance().attach(
            reinterpret_cast<ws::OperatorWindows::EnableFn>(enableRecordFunction),
            reinterpret_cast<ws::OperatorWindows::EnabledFn>(isRecordFunctionEnabled), settings);
        return ws::OperatorWindows::instance().attached() ? 1 : 0;
    } catch (...) {
        return 0;
    }
}
