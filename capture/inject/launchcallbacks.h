#pragma once

#include <cupti.h>

#include <atomic>
#include <string>

namespace ws {

class LaunchRecorder;
class StackRecorder;

/*
 * LaunchCallbacks: the process's one CUPTI callback subscriber (CUPTI allows one per process), on
 * the launch calls only, never on a whole API domain:
 *   - the runtime's kernel and graph launches (cudaLaunchKernel, __cudaLaunchKernel, cudaGraphLaunch,
 *     ...), to keep the depth that tells a runtime launch's inner driver call from a driver-only
 *     launch, and for their call stacks;
 *   - the runtime's memcpy, memset and allocation calls, only while stacks are recorded;
 *   - the driver's launches (cuLaunchKernel, cuLaunchKernelEx, cuLaunchCooperativeKernel*,
 *     cuGraphLaunch*), which the LaunchRecorder times and the StackRecorder stacks;
 *   - with watchCalls (Python sampling), the calls that can block the host (synchronizations,
 *     copies, frees) of both APIs, whose entry and exit CudaCallWatch marks for the sampler.
 * Either recorder may be absent. Never throws into CUPTI.
 */
class LaunchCallbacks {
public:
    // Subscribes (once) and enables the callbacks the given recorders need. False with *why when
    // CUPTI refuses, e.g. because another tool already subscribed.
    bool start(LaunchRecorder* launches, StackRecorder* stacks, bool watchCalls, std::string* why);

private:
    static void CUPTIAPI onCallback(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                    const void* data);

    CUpti_SubscriberHandle m_subscriber = nullptr;
    bool m_subscribed = false;
    bool m_memoryCalls = false;
    std::atomic<bool> m_watchCalls{false};
    std::atomic<LaunchRecorder*> m_launches{nullptr};
    std::atomic<StackRecorder*> m_stacks{nullptr};
};

} // namespace ws
