#include "inject/launchcallbacks.h"

#include "inject/cudacallwatch.h"
#include "inject/graphrecorder.h"
#include "inject/hostticks.h"

#include "inject/launchrecorder.h"
#include "inject/ncclrecorder.h"
#include "inject/operatorwindows.h"
#include "inject/stackrecorder.h"

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace ws {

namespace {

// Every way a kernel or graph reaches the GPU.
constexpr CUpti_CallbackId kRuntimeLaunches[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernelMultiDevice_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000, // what <<<...>>> compiles to with CUDA 13
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
};
constexpr CUpti_CallbackId kDriverLaunches[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
};

// Runtime calls that move or allocate memory: their Python stacks say which line copied or allocated.
constexpr CUpti_CallbackId kRuntimeMemoryCalls[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DAsync_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyPeerAsync_v4000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_v11020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMallocHost_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaHostAlloc_v3020,
};

// The calls that can keep the host waiting (CudaCallWatch, for the Python sampler).
constexpr CUpti_CallbackId kRuntimeBlockingCalls[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DAsync_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaFreeHost_v3020,
};
constexpr CUpti_CallbackId kDriverBlockingCalls[] = {
    CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize,
    CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize,
    CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy,
    CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2,
};

template <size_t N> bool contains(const CUpti_CallbackId (&ids)[N], CUpti_CallbackId id) {
    for (CUpti_CallbackId x : ids)
        if (x == id)
            return true;
    return false;
}

// What a driver call's callback does (LaunchCallbacks::m_driverRole).
enum Role : uint8_t {
    kLaunch = 1,   // a kernel or graph launch: NCCL's and the operator windows' hooks
    kBlocking = 2, // can block the host: marked for the Python sampler
    kStack = 4,    // its call stack is taken
    kRecord = 8,   // the LaunchRecorder times it into an Api record
};

// The driver calls recorded beside the launches when the runtime is not (atDriver): copies, sets,
// allocations, frees and waits, by name, so every version's variants (_v2, _ptsz, Async) are in.
bool copiesOrAllocates(std::string_view name) {
    for (std::string_view p : {"cuMemcpy", "cuMemset", "cuMemAlloc", "cuMemFree", "cuMemHostAlloc"})
        if (name.substr(0, p.size()) == p)
            return true;
    return false;
}
bool waits(std::string_view name) {
    for (std::string_view p : {"cuStreamSynchronize", "cuCtxSynchronize", "cuEventSynchronize", "cuStreamWaitEvent"})
        if (name.substr(0, p.size()) == p)
            return true;
    return false;
}

// Runtime launches and memory calls in progress on this thread: a driver launch inside one is that
// call's own (cudaLaunchKernel calls cuLaunchKernel), recorded by the runtime activity already.
thread_local int t_runtimeDepth = 0;
// A pause can fall between a runtime call's entry and exit, whose exit callback then never comes:
// each resume starts a new generation, and a thread's depth from an older one counts as 0.
std::atomic<uint32_t> s_generation{0};
thread_local uint32_t t_depthGeneration = 0;
// The driver call being timed on this thread, and its start (timed driver calls do not nest).
thread_local uint32_t t_driverCbid = 0;
thread_local uint64_t t_driverStart = 0;

uint64_t now() { return HostTicks::now(); }

// WARPSCOPE_TIME_CALLBACKS: each thread's time in the callbacks, on the heap so that the totals
// outlive the threads; only the owning thread writes its counts.
struct SelfTime {
    std::atomic<uint64_t> ticks{0};
    std::atomic<uint64_t> calls{0};
};
bool s_selfTiming = false;
std::mutex s_selfTimesMutex;
std::vector<SelfTime*> s_selfTimes;
thread_local SelfTime* t_selfTime = nullptr;

struct SelfTimer {
    uint64_t start; // 0: not timing
    ~SelfTimer() {
        if (!start)
            return;
        SelfTime* s = t_selfTime;
        if (!s) {
            s = new SelfTime;
            std::lock_guard<std::mutex> lock(s_selfTimesMutex);
            s_selfTimes.push_back(s);
            t_selfTime = s;
        }
        s->ticks.store(s->ticks.load(std::memory_order_relaxed) + (now() - start), std::memory_order_relaxed);
        s->calls.store(s->calls.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }
};

} // namespace

void LaunchCallbacks::setSelfTiming(bool on) { s_selfTiming = on; }

std::pair<uint64_t, uint64_t> LaunchCallbacks::selfTime() {
    std::lock_guard<std::mutex> lock(s_selfTimesMutex);
    uint64_t ticks = 0, calls = 0;
    for (const SelfTime* s : s_selfTimes) {
        ticks += s->ticks.load(std::memory_order_relaxed);
        calls += s->calls.load(std::memory_order_relaxed);
    }
    return {ticks, calls};
}

bool LaunchCallbacks::subscribe(std::string* why) {
    if (m_subscribed)
        return true;
    const CUptiResult r = cuptiSubscribe(&m_subscriber, &LaunchCallbacks::onCallback, this);
    if (r != CUPTI_SUCCESS) {
        const char* text = nullptr;
        cuptiGetResultString(r, &text);
        *why = std::string("cuptiSubscribe failed: ") + (text ? text : "unknown error") +
               " (another CUDA profiler in the process?)";
        return false;
    }
    m_subscribed = true;
    return true;
}

void LaunchCallbacks::enable(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
    m_enabled.emplace_back(domain, cbid);
    if (!m_paused)
        cuptiEnableCallback(1, m_subscriber, domain, cbid);
}

bool LaunchCallbacks::watchProfilerApi(void (*onRange)(bool start), std::string* why) {
    if (!subscribe(why))
        return false;
    m_onProfilerRange.store(onRange);
    cuptiEnableCallback(1, m_subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
    cuptiEnableCallback(1, m_subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
    return true;
}

bool LaunchCallbacks::watchGraphs(GraphRecorder* graphs, std::string* why) {
    if (!subscribe(why))
        return false;
    m_graphs.store(graphs);
    for (CUpti_CallbackId id : {CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED, CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED,
                                CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED})
        if (const CUptiResult r = cuptiEnableCallback(1, m_subscriber, CUPTI_CB_DOMAIN_RESOURCE, id); r != CUPTI_SUCCESS) {
            const char* text = nullptr;
            cuptiGetResultString(r, &text);
            *why = std::string("cuptiEnableCallback(RESOURCE graph callbacks) failed: ") + (text ? text : "unknown error");
            return false;
        }
    return true;
}

void LaunchCallbacks::setPaused(bool paused) {
    if (paused == m_paused || !m_subscribed)
        return;
    m_paused = paused;
    if (!paused)
        s_generation.fetch_add(1, std::memory_order_relaxed);
    for (const auto& [domain, cbid] : m_enabled)
        cuptiEnableCallback(paused ? 0 : 1, m_subscriber, domain, cbid);
}

bool LaunchCallbacks::start(LaunchRecorder* launches, StackRecorder* stacks, bool watchCalls, bool atDriver,
                            std::string* why) {
    if (launches)
        m_launches.store(launches);
    if (stacks)
        m_stacks.store(stacks);
    const bool first = m_enabled.empty();
    if (!subscribe(why))
        return false;
    if (first) {
        if (!atDriver)
            for (CUpti_CallbackId id : kRuntimeLaunches)
                enable(CUPTI_CB_DOMAIN_RUNTIME_API, id);
        for (CUpti_CallbackId id : kDriverLaunches) {
            m_driverRole[id].fetch_or(kLaunch | kStack | kRecord);
            enable(CUPTI_CB_DOMAIN_DRIVER_API, id);
        }
    }
    // Memory calls matter only to stacks (which line copied or allocated): not intercepted otherwise.
    // At the driver they are recorded as well, standing in for the runtime's calls.
    if (atDriver && ((launches || stacks) && !m_driverRecording)) {
        m_driverRecording = true;
        for (size_t id = 0; id < kDriverCalls; ++id) {
            const char* name = nullptr;
            if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_DRIVER_API, static_cast<uint32_t>(id), &name) != CUPTI_SUCCESS || !name)
                continue;
            const uint8_t role = copiesOrAllocates(name) ? kStack | kRecord : waits(name) ? kRecord : 0;
            if (role) {
                m_driverRole[id].fetch_or(role);
                enable(CUPTI_CB_DOMAIN_DRIVER_API, static_cast<CUpti_CallbackId>(id));
            }
        }
    } else if (!atDriver && stacks && !m_memoryCalls) {
        m_memoryCalls = true;
        for (CUpti_CallbackId id : kRuntimeMemoryCalls)
            enable(CUPTI_CB_DOMAIN_RUNTIME_API, id);
    }
    if (watchCalls && !m_watchCalls.exchange(true)) {
        if (!atDriver)
            for (CUpti_CallbackId id : kRuntimeBlockingCalls)
                enable(CUPTI_CB_DOMAIN_RUNTIME_API, id);
        for (CUpti_CallbackId id : kDriverBlockingCalls) {
            m_driverRole[id].fetch_or(kBlocking);
            enable(CUPTI_CB_DOMAIN_DRIVER_API, id);
        }
        CudaCallWatch::activate();
    }
    return true;
}

double LaunchCallbacks::benchLaunches(LaunchRecorder* launches, uint32_t n) {
    auto callbacks = std::make_unique<LaunchCallbacks>();
    callbacks->m_launches.store(launches);
    // As a launch's role, but the operator windows (--torch-ops) must not see launches that never
    // happened: with them attached, their part of a launch is left out of the figure.
    const bool windows = OperatorWindows::instance().attached();
    callbacks->m_driverRole[CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel].store(windows ? kStack | kRecord
                                                                                  : kLaunch | kStack | kRecord);
    CUpti_CallbackData data{};
    data.functionName = "cuLaunchKernel";
    data.symbolName = "kernel";
    CUresult result = CUDA_SUCCESS;
    data.functionReturnValue = &result;
    const auto start = std::chrono::steady_clock::now();
    for (uint32_t i = 0; i < n; ++i) {
        data.correlationId = i + 1;
        data.callbackSite = CUPTI_API_ENTER;
        onCallback(callbacks.get(), CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &data);
        data.callbackSite = CUPTI_API_EXIT;
        onCallback(callbacks.get(), CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &data);
    }
    const std::chrono::duration<double, std::nano> spent = std::chrono::steady_clock::now() - start;
    return n ? spent.count() / n : 0;
}

void CUPTIAPI LaunchCallbacks::onCallback(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                          const void* data) {
    const SelfTimer timer{s_selfTiming ? now() : 0};
    auto* self = static_cast<LaunchCallbacks*>(userdata);
    if (domain == CUPTI_CB_DOMAIN_RESOURCE) { // graphs being built: a CUpti_ResourceData, not a call
        if (GraphRecorder* graphs = self->m_graphs.load(std::memory_order_relaxed))
            graphs->onResource(cbid, static_cast<const CUpti_ResourceData*>(data));
        return;
    }
    const auto* cb = static_cast<const CUpti_CallbackData*>(data);
    if (!cb)
        return;
    const bool entry = cb->callbackSite == CUPTI_API_ENTER;
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API &&
        (cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart || cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop)) {
        if (auto* onRange = self->m_onProfilerRange.load(std::memory_order_relaxed); onRange && !entry)
            onRange(cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
        return;
    }
    if (const uint32_t g = s_generation.load(std::memory_order_relaxed); g != t_depthGeneration) {
        t_depthGeneration = g;
        t_runtimeDepth = 0;
    }
    StackRecorder* stacks = self->m_stacks.load(std::memory_order_relaxed);
    const bool watching = self->m_watchCalls.load(std::memory_order_relaxed);
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
        const bool blocking = watching && contains(kRuntimeBlockingCalls, cbid);
        if (!entry) {
            if (t_runtimeDepth > 0)
                --t_runtimeDepth;
            if (t_runtimeDepth == 0) {
                GraphRecorder::leaveCall();
                if (blocking)
                    CudaCallWatch::leave();
            }
            return;
        }
        if (blocking && t_runtimeDepth == 0)
            CudaCallWatch::enter(0, cbid);
        // A watched call that is neither a launch nor a memory call of the stacks: only its depth.
        if (blocking && !(stacks && contains(kRuntimeMemoryCalls, cbid))) {
            ++t_runtimeDepth;
            return;
        }
        // NCCL launches through the driver; a runtime launch at the outermost level counts too.
        if (t_runtimeDepth++ == 0) {
            GraphRecorder::enterCall(cb->correlationId); // a node made inside it (stream capture) is its
            if (NcclRecorder::launchOpen())
                NcclRecorder::instance().onLaunch(cb->correlationId);
            OperatorWindows::onLaunch(cb->symbolName, cbid);
        }
        if (stacks)
            stacks->onCall(0, cbid, cb->correlationId);
        return;
    }
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API || t_runtimeDepth > 0 || cbid >= kDriverCalls)
        return;
    const uint8_t role = self->m_driverRole[cbid].load(std::memory_order_relaxed);
    const bool blocking = watching && (role & kBlocking);
    LaunchRecorder* launches = self->m_launches.load(std::memory_order_relaxed);
    const bool record = (role & kRecord) && launches && launches->recording();
    if (entry) {
        if (blocking)
            CudaCallWatch::enter(1, cbid);
        if (role & (kLaunch | kStack | kRecord)) // a node made inside it (stream capture) is its
            GraphRecorder::enterCall(cb->correlationId);
        if (role & kLaunch) {
            if (NcclRecorder::launchOpen()) // NCCL's kernel: the collectives it carries out get its correlation
                NcclRecorder::instance().onLaunch(cb->correlationId);
            OperatorWindows::onLaunch(cb->symbolName, cbid);
        }
        if (stacks && (role & kStack))
            stacks->onCall(1, cbid, cb->correlationId);
        // Taken last, so the stack's cost is not the call's.
        if (record) {
            t_driverCbid = cbid;
            t_driverStart = now();
        }
        return;
    }
    if (blocking)
        CudaCallWatch::leave();
    if (role & (kLaunch | kStack | kRecord))
        GraphRecorder::leaveCall();
    if (!record || t_driverStart == 0 || t_driverCbid != cbid)
        return;
    LaunchRecorder::Launch l;
    l.start = t_driverStart;
    l.end = now();
    l.cbid = cbid;
    l.correlationId = cb->correlationId;
    l.returnValue = cb->functionReturnValue ? static_cast<uint32_t>(*static_cast<const CUresult*>(cb->functionReturnValue))
                                            : 0;
    t_driverStart = 0;
    launches->add(l);
}

} // namespace ws
