#include "inject/nvtxrecorder.h"

#include "inject/cuptitime.h"

#include "format/wscapcodec.h"

#include <cupti.h>
#include <nvtx3/nvToolsExt.h>

#include <sys/syscall.h>
#include <unistd.h>

namespace ws {

using namespace wscap;

namespace {

using PushA = int (*)(const char*);
using PushEx = int (*)(const void*);
using PushW = int (*)(const wchar_t*);
using Pop = int (*)();

// CUPTI's handlers, taken from the first NVTX copy that had them (they are CUPTI's own functions,
// the same for every copy).
std::atomic<PushA> g_cuptiPushA{nullptr};
std::atomic<PushEx> g_cuptiPushEx{nullptr};
std::atomic<PushW> g_cuptiPushW{nullptr};
std::atomic<Pop> g_cuptiPop{nullptr};

enum class Owner : uint8_t { Cupti, Recorder, Nobody };

// The open push levels of one thread, innermost last.
struct ThreadState {
    std::vector<Owner> owners;
    std::vector<uint64_t> starts;     // of the Recorder levels
    std::vector<uint32_t> nameStarts; // of the Recorder levels, into names
    std::string names;
    std::shared_ptr<NvtxRecorder::ThreadBuffer> buffer;
};

ThreadState& threadState() {
    thread_local ThreadState state;
    return state;
}

uint64_t now() { return cuptiNow(); }

template <class F> void replaceSlot(NvtxFunctionTable table, unsigned size, unsigned id, F ours, std::atomic<F>& saved) {
    if (id > size || !table[id])
        return;
    NvtxFunctionPointer* slot = table[id];
    const auto current = reinterpret_cast<F>(*slot);
    if (current && current != ours && !saved.load())
        saved.store(current);
    *slot = reinterpret_cast<NvtxFunctionPointer>(ours);
}

} // namespace

NvtxRecorder& NvtxRecorder::instance() {
    static NvtxRecorder* recorder = new NvtxRecorder(); // never destroyed: NVTX may call during exit
    return *recorder;
}

void NvtxRecorder::attach(const void* getExportTable) {
    if (!getExportTable)
        return;
    const auto get = reinterpret_cast<NvtxGetExportTableFunc_t>(getExportTable);
    const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(get(NVTX_ETID_CALLBACKS));
    if (!callbacks || callbacks->struct_size < sizeof(NvtxExportTableCallbacks) || !callbacks->GetModuleFunctionTable)
        return;
    NvtxFunctionTable table = nullptr;
    unsigned size = 0;
    if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size) || !table)
        return;
    replaceSlot<PushA>(table, size, NVTX_CBID_CORE_RangePushA, &NvtxRecorder::pushA, g_cuptiPushA);
    replaceSlot<PushEx>(table, size, NVTX_CBID_CORE_RangePushEx, &NvtxRecorder::pushEx, g_cuptiPushEx);
    replaceSlot<PushW>(table, size, NVTX_CBID_CORE_RangePushW, &NvtxRecorder::pushW, g_cuptiPushW);
    replaceSlot<Pop>(table, size, NVTX_CBID_CORE_RangePop, &NvtxRecorder::pop, g_cuptiPop);
}

std::shared_ptr<NvtxRecorder::ThreadBuffer> NvtxRecorder::registerThread(uint32_t threadId) {
    auto buffer = std::make_shared<ThreadBuffer>();
    buffer->threadId = threadId;
    std::lock_guard<std::mutex> lock(m_threadsMutex);
    m_threads.push_back(buffer);
    return buffer;
}

int NvtxRecorder::pushA(const char* message) {
    ThreadState& t = threadState();
    NvtxRecorder& r = instance();
    if (!message || !r.m_recording.load(std::memory_order_relaxed)) {
        t.owners.push_back(Owner::Nobody);
        return static_cast<int>(t.owners.size()) - 1;
    }
    t.owners.push_back(Owner::Recorder);
    t.nameStarts.push_back(static_cast<uint32_t>(t.names.size()));
    t.names += message;
    t.starts.push_back(now());
    return static_cast<int>(t.owners.size()) - 1;
}

int NvtxRecorder::pushEx(const void* attributes) {
    ThreadState& t = threadState();
    t.owners.push_back(Owner::Cupti);
    const PushEx f = g_cuptiPushEx.load(std::memory_order_relaxed);
    return f ? f(attributes) : static_cast<int>(t.owners.size()) - 1;
}

int NvtxRecorder::pushW(const wchar_t* message) {
    ThreadState& t = threadState();
    t.owners.push_back(Owner::Cupti);
    const PushW f = g_cuptiPushW.load(std::memory_order_relaxed);
    return f ? f(message) : static_cast<int>(t.owners.size()) - 1;
}

int NvtxRecorder::pop() {
    ThreadState& t = threadState();
    if (t.owners.empty()) { // a pop without a push: CUPTI reports such misuse its own way
        const Pop f = g_cuptiPop.load(std::memory_order_relaxed);
        return f ? f() : -1;
    }
    const Owner owner = t.owners.back();
    t.owners.pop_back();
    const int level = static_cast<int>(t.owners.size());
    if (owner == Owner::Cupti) {
        const Pop f = g_cuptiPop.load(std::memory_order_relaxed);
        return f ? f() : level;
    }
    if (owner == Owner::Nobody)
        return level;
    const uint64_t end = now();
    const uint32_t nameStart = t.nameStarts.back();
    const uint64_t start = t.starts.back();
    t.nameStarts.pop_back();
    t.starts.pop_back();
    NvtxRecorder& r = instance();
    try {
        if (!t.buffer)
            t.buffer = r.registerThread(static_cast<uint32_t>(::syscall(SYS_gettid)));
        ThreadBuffer& b = *t.buffer;
        const auto size = static_cast<uint32_t>(t.names.size() - nameStart);
        std::lock_guard<std::mutex> lock(b.mutex);
        b.ranges.push_back(Range{start, end, static_cast<uint32_t>(b.names.size()), size});
        b.names.append(t.names, nameStart, size);
    } catch (...) {
        // Out of memory: this range is lost; nothing may escape into the program.
    }
    t.names.resize(nameStart);
    r.m_ranges.fetch_add(1, std::memory_order_relaxed);
    return level;
}

void NvtxRecorder::take(uint32_t processId, const std::function<uint32_t(std::string_view, std::string&)>& intern,
                        std::string& out) {
    std::vector<std::shared_ptr<ThreadBuffer>> threads;
    {
        std::lock_guard<std::mutex> lock(m_threadsMutex);
        threads = m_threads;
    }
    for (const auto& b : threads) {
        std::vector<Range> ranges;
        std::string names;
        {
            std::lock_guard<std::mutex> lock(b->mutex);
            ranges.swap(b->ranges);
            names.swap(b->names);
        }
        for (const Range& range : ranges) {
            NvtxRangeRecord o;
            o.start = range.start;
            o.end = range.end;
            o.nameId = intern(std::string_view(names).substr(range.nameOffset, range.nameSize), out);
            o.processId = processId;
            o.threadId = b->threadId;
            o.endThreadId = b->threadId;
            o.markerId = m_nextMarkerId++;
            appendRecord(out, o);
        }
    }
}

} // namespace ws
