#pragma once

#include "inject/threadbuffers.h"
#include "inject/tickline.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace ws {

/*
 * LaunchRecorder: the "launches" activity. Records kernel and graph launches at the driver API
 * (cuLaunchKernel, cuLaunchKernelEx, cuGraphLaunch, ...) as the same Api records CUPTI's driver
 * activity writes, without recording the rest of the driver domain.
 *
 * Why: cuBLASLt (the nvjet matmuls of bf16 training), cuDNN (fused attention), Triton
 * (torch.compile), CUTLASS and JAX launch through the driver, not the runtime. Without a launching
 * API call their kernels have no thread, no flow, no operator and no Python line; but the whole
 * driver domain costs 10-30 % of a PyTorch step (issue #13), since CUPTI then intercepts every
 * driver call PyTorch makes. Here only the launch calls are intercepted (LaunchCallbacks), and a
 * launch costs two timestamps and a push into the calling thread's own lock-free buffer
 * (ThreadBuffers). The writer thread takes the buffers at each
 * flush and encodes Api records (domain driver), so the importer sees what it sees with `driver`.
 *
 * Without the `runtime` activity (the default), every launch is recorded here, the runtime's too
 * (cudaLaunchKernel calls the driver), with the driver's copy, set, allocation and wait calls. With
 * it, a driver launch made inside a runtime launch is the runtime call's own, which CUPTI records,
 * and is left out (LaunchCallbacks keeps the depth). With the `driver` activity on, CUPTI records
 * these calls itself and this recorder stays off.
 */
class LaunchRecorder {
public:
    struct Launch {
        uint64_t start; // HostTicks
        uint64_t end;
        uint32_t cbid;
        uint32_t correlationId;
        uint32_t returnValue;
    };

    void setRecording(bool on) { m_recording.store(on, std::memory_order_relaxed); }
    bool recording() const { return m_recording.load(std::memory_order_relaxed); }
    // Application threads, from LaunchCallbacks at a driver launch's exit.
    void add(const Launch& launch);
    // Writer thread: the finished launches as Api records appended to out; apiName gives the String id
    // of a driver call's name (appending its String record to out when new); ticks turns their
    // HostTicks times into CUPTI's clock.
    void take(uint32_t processId, const std::function<uint32_t(uint32_t cbid, std::string&)>& apiName,
              const TickLine& ticks, std::string& out);

private:
    std::atomic<bool> m_recording{false};
    ThreadBuffers<Launch> m_buffers;
};

} // namespace ws
