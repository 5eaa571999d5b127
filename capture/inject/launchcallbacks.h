#pragma once

#include <cupti.h>

#include <atomic>
#include <string>
#include <utility>
#include <vector>

namespace ws {

class GraphRecorder;
class LaunchRecorder;
class StackRecorder;

/*
 * LaunchCallbacks: the process's one CUPTI callback subscriber (CUPTI allows one per process), on
 * chosen calls only, never on a whole API domain. Two ways to find the launching calls:
 *
 * - With the runtime recorded (the `runtime` activity), CUPTI writes the runtime's calls itself, and
 *   the callbacks see:
 *   - the runtime's kernel and graph launches (cudaLaunchKernel, __cudaLaunchKernel, cudaGraphLaunch,
 *     ...), to keep the depth that tells a runtime launch's inner driver call from a driver-only
 *     launch, and for their call stacks;
 *   - the runtime's memcpy, memset and allocation calls, only while stacks are recorded;
 *   - the driver's launches (cuLaunchKernel, cuLaunchKernelEx, cuLaunchCooperativeKernel*,
 *     cuGraphLaunch*) outside a runtime call, which the LaunchRecorder times and the StackRecorder
 *     stacks.
 * - Without it (`atDriver`, the default), nothing of the runtime is intercepted: any callback or
 *   activity on the runtime domain made every runtime call cost 0.35-1 µs more (issue #25,
 *   capture/README.md), up to as much again as CUPTI's kernel activity. Every launch reaches the driver,
 *   the runtime's included, so the driver's launches are all recorded, with the driver calls that
 *   copy, set, allocate, free or wait (cuMemcpy*, cuMemset*, cuMemAlloc*, cuMemFree*,
 *   cu*Synchronize, cuStreamWaitEvent): the calls that say where the host waited and which line
 *   copied. Stacks are taken at the same driver calls.
 *
 * With watchCalls (Python sampling), the calls that can block the host (synchronizations, copies,
 * frees) are also marked at entry and exit for the sampler (CudaCallWatch).
 * Either recorder may be absent. Never throws into CUPTI.
 */
class LaunchCallbacks {
public:
    // Subscribes (once) and enables the callbacks the given recorders need. False with *why when
    // CUPTI refuses, e.g. because another tool already subscribed.
    bool start(LaunchRecorder* launches, StackRecorder* stacks, bool watchCalls, bool atDriver, std::string* why);
    // --capture-range=cudaProfilerApi: calls onRange(true) after each cuProfilerStart (which
    // cudaProfilerStart and torch.cuda.profiler.start() call) and onRange(false) after each
    // cuProfilerStop, on the calling thread. Only these two calls are intercepted for it.
    bool watchProfilerApi(void (*onRange)(bool start), std::string* why);
    // The "graphs" activity: CUPTI's resource callbacks for graph nodes being created and cloned and
    // executable graphs being instantiated, into graphs (GraphRecorder). They stay on through pauses:
    // a program builds its graphs once, often before the range it records.
    bool watchGraphs(GraphRecorder* graphs, std::string* why);
    // Disables every callback start() enabled (the profiler API's stay), so a paused capture costs a
    // launch nothing of ours; false enables them again. Not on a callback's thread.
    void setPaused(bool paused);

    // Diagnostics (WARPSCOPE_BENCH_CALLBACKS): ns per launch that the callbacks' own work costs a
    // driver launch, CUPTI's dispatch left out: n launches' entry and exit, made as CUPTI makes them,
    // through an instance that never subscribes and records into launches (the operator windows'
    // part left out when they are attached, so that they never see these launches).
    static double benchLaunches(LaunchRecorder* launches, uint32_t n);
    // Diagnostics (WARPSCOPE_TIME_CALLBACKS): the callbacks' own time inside the running program, where
    // the program's work between launches leaves caches cold, unlike benchLaunches' loop. Switched on
    // before any callback; selfTime() sums every thread's (HostTicks, callbacks) so far.
    static void setSelfTiming(bool on);
    static std::pair<uint64_t, uint64_t> selfTime();

private:
    bool subscribe(std::string* why);
    void enable(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);

    static void CUPTIAPI onCallback(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                    const void* data);

    // What the callbacks do at each driver call (Role bits), by cbid; set before its callback is enabled.
    static constexpr size_t kDriverCalls = CUPTI_DRIVER_TRACE_CBID_SIZE;
    std::atomic<uint8_t> m_driverRole[kDriverCalls] = {};

    CUpti_SubscriberHandle m_subscriber = nullptr;
    bool m_subscribed = false;
    bool m_paused = false;
    std::vector<std::pair<CUpti_CallbackDomain, CUpti_CallbackId>> m_enabled; // by start(), for setPaused
    std::atomic<void (*)(bool)> m_onProfilerRange{nullptr};
    bool m_memoryCalls = false;
    bool m_driverRecording = false;
    std::atomic<bool> m_watchCalls{false};
    std::atomic<LaunchRecorder*> m_launches{nullptr};
    std::atomic<StackRecorder*> m_stacks{nullptr};
    std::atomic<GraphRecorder*> m_graphs{nullptr};
};

} // namespace ws
