#pragma once

#include "inject/threadbuffers.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ws {

/*
 * NcclRecorder: the "collectives" activity. This library is also NCCL's profiler plugin: the
 * launcher sets NCCL_PROFILER_PLUGIN to its path, NCCL (2.28 and newer: profiler API v5) dlopens it,
 * which yields this same loaded library, and calls the ncclProfiler_v5 table at the end of
 * ncclrecorder.cpp.
 *
 * Why: a capture's NCCL kernels had no size, data type or communicator, so a captured job's
 * communication table had no bytes and no bandwidth (issue #25); torch.profiler gets them from
 * record_param_comms, which needs PyTorch's operator callbacks. NCCL reports each collective call
 * itself, whatever framework made it.
 *
 * Per call, on the calling thread: NCCL's CollApi (or P2pApi) event opens and closes around the
 * ncclAllReduce call, and is kept in the thread's pending list; the KernelLaunch event opens
 * around NCCL's cuLaunchKernelEx of a communicator's plan, and LaunchCallbacks, seeing that launch
 * while it is open, hands its correlation id here: the communicator's pending calls become
 * Collective records with that id, which is the kernel's. Calls inside a group launch at
 * ncclGroupEnd, so a kernel may carry several. Nothing else is asked of NCCL (no proxy, channel or
 * network events), so a call costs two timestamps and a push into a thread-local vector.
 *
 * Communicators are never freed: records may still name one after ncclCommDestroy.
 */
class NcclRecorder {
public:
    struct Comm {
        uint64_t hash;
        std::string name;
        int nodes;
        int ranks;
        int rank;
    };

    // One NCCL call: pending on its thread until it is launched and over, then buffered for writing.
    struct Call {
        uint64_t start;
        uint64_t end; // 0 while the call runs
        const Comm* comm;
        const char* func; // NCCL's static strings
        const char* datatype;
        uint64_t count;
        int32_t root;
        uint32_t correlationId; // 0 until launched
        bool graphCaptured;
    };

    static NcclRecorder& instance();

    // Whether the capture asked for collectives (set once at start-up, before NCCL initializes).
    void configure(bool enabled) { m_enabled.store(enabled, std::memory_order_relaxed); }
    bool enabled() const { return m_enabled.load(std::memory_order_relaxed); }
    void setRecording(bool on) { m_recording.store(on, std::memory_order_relaxed); }

    // NCCL's profiler calls (program threads).
    Comm* addComm(uint64_t hash, const char* name, int nodes, int ranks, int rank);
    void beginCall(Comm* comm, const char* func, uint64_t count, const char* datatype, int root, bool graphCaptured);
    void endCall();
    void beginLaunch(Comm* comm);
    void endLaunch();

    // LaunchCallbacks, at the entry of every outermost launch: cheap unless NCCL's launch is open.
    static bool launchOpen();
    void onLaunch(uint32_t correlationId);

    // Writer thread: the calls tied to launches (and those given up on) as Collective records
    // appended to out; intern gives the String id of a name (appending its record to out when new).
    void take(const std::function<uint32_t(std::string_view, std::string&)>& intern, std::string& out);

private:
    NcclRecorder() = default;
    void emit(const Call& call);

    std::atomic<bool> m_enabled{false};
    std::atomic<bool> m_recording{false};
    ThreadBuffers<Call> m_buffers;
    std::unordered_map<const void*, uint32_t> m_nameIds; // writer thread: name pointer or comm -> String id
};

} // namespace ws
