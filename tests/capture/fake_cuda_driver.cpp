// A stand-in "CUDA driver" (libcuda.so.1) for warpscope-capture --check-host: cuDriverGetVersion
// answers $WSCAP_FAKE_CUDA_VERSION (default 12040, CUDA 12.4), so the host check's version
// comparison is tested without a GPU.
#include <cstdlib>

extern "C" __attribute__((visibility("default"))) int cuDriverGetVersion(int* version) {
    const char* v = std::getenv("WSCAP_FAKE_CUDA_VERSION");
    *version = v && *v ? std::atoi(v) : 12040;
    return 0; // CUDA_SUCCESS
}
