// vector_add: a small native CUDA program for capture checks. It copies, sets, adds and copies back
// inside NVTX ranges; with --seconds N it keeps launching for N seconds (for the SIGKILL check).
#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

__global__ void scale(float* c, float s, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] *= s;
}

#define CHECK(x)                                                                                     \
    do {                                                                                             \
        cudaError_t e = (x);                                                                         \
        if (e != cudaSuccess) {                                                                      \
            std::fprintf(stderr, "%s failed: %s\n", #x, cudaGetErrorString(e));                      \
            return 1;                                                                                \
        }                                                                                            \
    } while (0)

int main(int argc, char** argv) {
    double seconds = 0;
    int iterations = 10;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--iterations") && i + 1 < argc)
            iterations = std::atoi(argv[++i]);
    }
    const int n = 1 << 20;
    std::vector<float> ha(n, 1.0f), hb(n, 2.0f), hc(n);
    float *a, *b, *c;
    nvtxRangePushA("setup");
    CHECK(cudaMalloc(&a, n * sizeof(float)));
    CHECK(cudaMalloc(&b, n * sizeof(float)));
    CHECK(cudaMalloc(&c, n * sizeof(float)));
    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    CHECK(cudaMemcpy(a, ha.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyAsync(b, hb.data(), n * sizeof(float), cudaMemcpyHostToDevice, stream));
    CHECK(cudaMemsetAsync(c, 0, n * sizeof(float), stream));
    nvtxRangePop();
    nvtxMarkA("setup done");
    long launched = 0;
    const auto begin = std::chrono::steady_clock::now();
    for (int it = 0;; ++it) {
        if (seconds > 0 ? std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count() >= seconds
                        : it >= iterations)
            break;
        char name[32];
        std::snprintf(name, sizeof(name), "iteration %d", it);
        nvtxRangePushA(name);
        vectorAdd<<<(n + 255) / 256, 256, 0, stream>>>(a, b, c, n);
        scale<<<(n + 255) / 256, 256, 0, stream>>>(c, 0.5f, n);
        launched += 2;
        CHECK(cudaStreamSynchronize(stream));
        nvtxRangePop();
        if (seconds > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    CHECK(cudaMemcpy(hc.data(), c, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
    CHECK(cudaStreamDestroy(stream));
    std::printf("vector_add: %ld kernels launched, c[0] = %g\n", launched, hc[0]);
    return hc[0] == 1.5f ? 0 : 3;
}
