#include "inject/ncclrecorder.h"

#include "inject/cuptitime.h"

#include "format/wscapcodec.h"

#include <cupti.h>

#include <vector>

namespace ws {

using namespace wscap;

namespace {

uint64_t now() { return cuptiNow(); }

// Calls not yet written: waiting for their launch, or for their own end after it (a call outside a
// group launches inside itself).
struct ThreadState {
    std::vector<NcclRecorder::Call> pending;
    long open = -1; // index in pending of the call in progress
};
ThreadState& threadState() {
    thread_local ThreadState t;
    return t;
}
// The communicator whose kernel NCCL is launching on this thread; trivially initialised, so the
// check on every launch is one TLS load.
thread_local const NcclRecorder::Comm* t_launching = nullptr;

// A thread that calls NCCL without ever launching (calls given up inside graph capture, or an
// abort) must not grow without end: past this, the oldest pending call is written unlaunched.
constexpr size_t kMaxPending = 4096;

} // namespace

NcclRecorder& NcclRecorder::instance() {
    // Never destroyed: NCCL may report from the program's exit handlers.
    static NcclRecorder* recorder = new NcclRecorder();
    return *recorder;
}

NcclRecorder::Comm* NcclRecorder::addComm(uint64_t hash, const char* name, int nodes, int ranks, int rank) {
    return new Comm{hash, name ? name : "", nodes, ranks, rank};
}

void NcclRecorder::emit(const Call& call) {
    try {
        m_buffers.add(call);
    } catch (...) {
        // Out of memory: this call is lost; nothing may escape into the program.
    }
}

void NcclRecorder::beginCall(Comm* comm, const char* func, uint64_t count, const char* datatype, int root,
                             bool graphCaptured) {
    ThreadState& t = threadState();
    t.open = -1;
    if (!m_recording.load(std::memory_order_relaxed))
        return;
    if (t.pending.size() >= kMaxPending) {
        emit(t.pending.front());
        t.pending.erase(t.pending.begin());
    }
    t.pending.push_back(Call{now(), 0, comm, func, datatype, count, root, 0, graphCaptured});
    t.open = static_cast<long>(t.pending.size()) - 1;
}

void NcclRecorder::endCall() {
    ThreadState& t = threadState();
    if (t.open < 0 || static_cast<size_t>(t.open) >= t.pending.size())
        return;
    Call& c = t.pending[static_cast<size_t>(t.open)];
    t.open = -1;
    c.end = now();
    if (c.correlationId != 0) { // launched inside the call
        emit(c);
        t.pending.pop_back(); // the open call is the newest
    }
}

void NcclRecorder::beginLaunch(Comm* comm) { t_launching = comm; }

void NcclRecorder::endLaunch() { t_launching = nullptr; }

bool NcclRecorder::launchOpen() { return t_launching != nullptr; }

void NcclRecorder::onLaunch(uint32_t correlationId) {
    const Comm* comm = t_launching;
    t_launching = nullptr; // one launch per KernelLaunch event: the plan's kernel
    ThreadState& t = threadState();
    size_t kept = 0;
    for (size_t i = 0; i < t.pending.size(); ++i) {
        Call c = t.pending[i];
        if (c.comm == comm && c.correlationId == 0) {
            c.correlationId = correlationId;
            if (c.end != 0) {
                emit(c);
                continue;
            }
        }
        if (static_cast<long>(i) == t.open)
            t.open = static_cast<long>(kept);
        t.pending[kept++] = c;
    }
    t.pending.resize(kept);
}

void NcclRecorder::take(const std::function<uint32_t(std::string_view, std::string&)>& intern, std::string& out) {
    auto nameId = [&](const void* key, std::string_view text) {
        if (!key)
            return uint32_t(0);
        auto [it, added] = m_nameIds.emplace(key, 0);
        if (added)
            it->second = text.empty() ? 0 : intern(text, out);
        return it->second;
    };
    m_buffers.drain([&](uint32_t threadId, std::span<const Call> calls) {
        for (const Call& c : calls) {
            CollectiveRecord r;
            r.start = c.start;
            r.end = c.end;
            r.threadId = threadId;
            r.correlationId = c.correlationId;
            r.funcNameId = nameId(c.func, c.func ? c.func : "");
            r.datatypeNameId = nameId(c.datatype, c.datatype ? c.datatype : "");
            r.count = c.count;
            r.root = c.root;
            if (c.comm) {
                r.commHash = c.comm->hash;
                r.commNameId = nameId(c.comm, c.comm->name);
                r.rank = c.comm->rank;
                r.ranks = c.comm->ranks;
            }
            r.graphCaptured = c.graphCaptured ? 1 : 0;
            appendRecord(out, r);
        }
    });
}

} // namespace ws

// NCCL's profiler plugin interface, version 5 (NCCL 2.28 and newer), as NCCL's plugin
// documentation lays it out. Only the members read here are declared; the union's layout (8-byte
// aligned, after type, parent and rank) is what places them.
namespace ws::nccl_abi {

using NcclResult = int; // ncclResult_t: 0 = ncclSuccess

enum : uint64_t {
    kProfileCollApi = 1u << 9,
    kProfileP2pApi = 1u << 10,
    kProfileKernelLaunch = 1u << 11,
};

struct EventDescrV5 {
    uint64_t type;
    void* parentObj;
    int rank;
    union {
        struct {
            const char* func;
            size_t count;
            const char* datatype;
            int root;
            void* stream;
            bool graphCaptured;
        } collApi;
        struct {
            const char* func;
            size_t count;
            const char* datatype;
            void* stream;
            bool graphCaptured;
        } p2pApi;
        struct {
            void* stream;
        } kernelLaunch;
    };
};

// What a handle says to stopEvent; events not asked for get a null handle.
inline char g_callHandle, g_launchHandle;

NcclResult pluginInit(void** context, uint64_t commId, int* activationMask, const char* commName, int nodes,
                      int ranks, int rank, void* /*logfn*/) {
    ws::NcclRecorder& r = ws::NcclRecorder::instance();
    *activationMask = 0;
    *context = nullptr;
    if (!r.enabled())
        return 0; // loaded but not asked for: NCCL reports nothing
    try {
        *context = r.addComm(commId, commName, nodes, ranks, rank);
    } catch (...) {
        return 0;
    }
    *activationMask = static_cast<int>(kProfileCollApi | kProfileP2pApi | kProfileKernelLaunch);
    return 0;
}

NcclResult pluginStartEvent(void* context, void** handle, EventDescrV5* d) {
    *handle = nullptr;
    auto* comm = static_cast<ws::NcclRecorder::Comm*>(context);
    if (!comm || !d)
        return 0;
    ws::NcclRecorder& r = ws::NcclRecorder::instance();
    try {
        switch (d->type) {
        case kProfileCollApi:
            r.beginCall(comm, d->collApi.func, d->collApi.count, d->collApi.datatype, d->collApi.root,
                        d->collApi.graphCaptured);
            *handle = &g_callHandle;
            break;
        case kProfileP2pApi:
            r.beginCall(comm, d->p2pApi.func, d->p2pApi.count, d->p2pApi.datatype, -1, d->p2pApi.graphCaptured);
            *handle = &g_callHandle;
            break;
        case kProfileKernelLaunch:
            r.beginLaunch(comm);
            *handle = &g_launchHandle;
            break;
        default: break; // group events NCCL sends anyway
        }
    } catch (...) {
    }
    return 0;
}

NcclResult pluginStopEvent(void* handle) {
    ws::NcclRecorder& r = ws::NcclRecorder::instance();
    if (handle == &g_callHandle)
        r.endCall();
    else if (handle == &g_launchHandle)
        r.endLaunch();
    return 0;
}

NcclResult pluginRecordEventState(void*, int, void*) { return 0; }

NcclResult pluginFinalize(void*) { return 0; }

struct ProfilerV5 {
    const char* name;
    NcclResult (*init)(void**, uint64_t, int*, const char*, int, int, int, void*);
    NcclResult (*startEvent)(void*, void**, EventDescrV5*);
    NcclResult (*stopEvent)(void*);
    NcclResult (*recordEventState)(void*, int, void*);
    NcclResult (*finalize)(void*);
};

} // namespace ws::nccl_abi

extern "C" {
__attribute__((visibility("default"))) ws::nccl_abi::ProfilerV5 ncclProfiler_v5 = {
    "warpscope",
    ws::nccl_abi::pluginInit,
    ws::nccl_abi::pluginStartEvent,
    ws::nccl_abi::pluginStopEvent,
    ws::nccl_abi::pluginRecordEventState,
    ws::nccl_abi::pluginFinalize,
};
}
