// launch_cost: what a capture adds to each kernel launch, measured on the launching thread (issue #25).
// Launches an empty kernel N times through the runtime (<<<...>>>) and through the driver
// (cuLaunchKernel), synchronizing every BATCH launches so the queue never fills, and prints the
// median over rounds of the host time per launch:
//   launch_cost [N=200000] [BATCH=500]
//   RESULT {"runtime_us": 2.1, "driver_us": 1.9, "launches": 200000}
// Run it plain and under each activity set; the difference is the capture's cost per launch,
// without a framework's noise around it.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void empty() {}

namespace {

double seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Host µs per launch of `launch`, timing only the launches (not the synchronizations), median of 5 rounds.
template <typename Launch> double usPerLaunch(int n, int batch, Launch launch) {
    std::vector<double> rounds;
    for (int r = 0; r < 5; ++r) {
        double spent = 0;
        for (int done = 0; done < n / 5; done += batch) {
            const double t0 = seconds();
            for (int i = 0; i < batch; ++i)
                launch();
            spent += seconds() - t0;
            cudaDeviceSynchronize();
        }
        rounds.push_back(spent * 1e6 / (n / 5));
    }
    std::sort(rounds.begin(), rounds.end());
    return rounds[rounds.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 200000;
    const int batch = argc > 2 ? std::atoi(argv[2]) : 500;
    empty<<<1, 32>>>(); // CUDA start-up, module load
    if (cudaDeviceSynchronize() != cudaSuccess) {
        std::fprintf(stderr, "no usable GPU\n");
        return 1;
    }
    CUfunction function = nullptr;
    if (cudaGetFuncBySymbol(&function, reinterpret_cast<const void*>(&empty)) != cudaSuccess) {
        std::fprintf(stderr, "cudaGetFuncBySymbol failed\n");
        return 1;
    }
    // Warm both paths before timing.
    usPerLaunch(5000, batch, [] { empty<<<1, 32>>>(); });
    const double runtimeUs = usPerLaunch(n, batch, [] { empty<<<1, 32>>>(); });
    const double driverUs = usPerLaunch(n, batch, [function] {
        cuLaunchKernel(function, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr);
    });
    std::printf("RESULT {\"runtime_us\": %.3f, \"driver_us\": %.3f, \"launches\": %d}\n", runtimeUs, driverUs, n);
    return 0;
}
