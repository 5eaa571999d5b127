#include "inject/ittrecorder.h"

#include "inject/hostticks.h"

#include "format/wscapcodec.h"

#include <cupti.h>

#include <cstring>

namespace ws {

using namespace wscap;

namespace {

uint64_t now() { return HostTicks::now(); }

struct Open {
    uint64_t start; // 0: begun while not recording, ended silently
    const IttRecorder::StringHandle* name;
    const IttRecorder::Domain* domain;
};

struct ThreadState {
    bool seen = false; // this thread began a task (so the recorder saw one)
    std::vector<Open> open;
    std::unordered_map<const char*, IttRecorder::StringHandle*> handles; // by the caller's pointer
};

ThreadState& threadState() {
    thread_local ThreadState t;
    return t;
}

char* copy(const char* s) {
    const size_t n = std::strlen(s) + 1;
    char* out = new char[n];
    std::memcpy(out, s, n);
    return out;
}

} // namespace

IttRecorder& IttRecorder::instance() {
    // Never destroyed: PyTorch may end a task while the process runs its exit handlers.
    static IttRecorder* recorder = new IttRecorder();
    return *recorder;
}

IttRecorder::Domain* IttRecorder::domain(const char* name) {
    if (!name)
        return nullptr;
    std::lock_guard<std::mutex> lock(m_namesMutex);
    for (Domain* d : m_domains)
        if (std::strcmp(d->nameA, name) == 0)
            return d;
    auto* d = new Domain{1, copy(name), nullptr, 0, nullptr, nullptr};
    m_domains.push_back(d);
    return d;
}

IttRecorder::StringHandle* IttRecorder::stringHandle(const char* name) {
    if (!name)
        return nullptr;
    // Operator names are mostly the same few hundred pointers into PyTorch's schemas; a pointer
    // reused for another text (a temporary name) fails the strcmp and takes the slow path.
    ThreadState& t = threadState();
    if (const auto it = t.handles.find(name); it != t.handles.end() && std::strcmp(it->second->strA, name) == 0)
        return it->second;
    StringHandle* h = nullptr;
    {
        std::lock_guard<std::mutex> lock(m_namesMutex);
        auto& slot = m_handlesByName[name];
        if (!slot)
            slot = new StringHandle{copy(name), nullptr, 0, nullptr, nullptr};
        h = slot;
    }
    t.handles[name] = h;
    return h;
}

void IttRecorder::begin(const Domain* domain, const StringHandle* name) {
    ThreadState& t = threadState();
    if (!t.seen) {
        t.seen = true;
        m_tasksSeen.store(true, std::memory_order_relaxed);
    }
    t.open.push_back(Open{m_recording.load(std::memory_order_relaxed) ? now() : 0, name, domain});
}

void IttRecorder::end(const Domain*) {
    ThreadState& t = threadState();
    if (t.open.empty())
        return;
    const Open o = t.open.back();
    t.open.pop_back();
    if (o.start == 0 || !o.name || !m_recording.load(std::memory_order_relaxed))
        return;
    try {
        m_buffers.add(Range{o.start, now(), o.name, o.domain});
    } catch (...) {
        // Out of memory: this range is lost; nothing may escape into the program.
    }
}

void IttRecorder::take(uint32_t processId, const std::function<uint32_t(std::string_view, std::string&)>& intern,
                       const TickLine& ticks, std::string& out) {
    auto nameId = [&](const void* key, const char* text) {
        auto [it, added] = m_nameIds.emplace(key, 0);
        if (added)
            it->second = intern(text ? text : "", out);
        return it->second;
    };
    m_buffers.drain([&](uint32_t threadId, std::span<const Range> ranges) {
        for (const Range& range : ranges) {
            NvtxRangeRecord o;
            o.start = ticks.toNs(range.start);
            o.end = ticks.toNs(range.end);
            o.nameId = nameId(range.name, range.name->strA);
            o.domainId = range.domain ? nameId(range.domain, range.domain->nameA) : 0;
            o.processId = processId;
            o.threadId = threadId;
            o.endThreadId = threadId;
            o.markerId = m_nextMarkerId++;
            appendRecord(out, o);
        }
    });
}

} // namespace ws

// The collector's entry points, found by name by the ITT static part inside PyTorch (and any other
// library that uses ITT). Their types are ITT's; nothing may throw out of them.
namespace {
struct IttId {
    unsigned long long d1, d2, d3;
};
} // namespace

extern "C" {
__attribute__((visibility("default"))) const char* __itt_api_version(void) { return "warpscope"; }

__attribute__((visibility("default"))) ws::IttRecorder::Domain* __itt_domain_create(const char* name) {
    try {
        return ws::IttRecorder::instance().domain(name);
    } catch (...) {
        return nullptr;
    }
}

__attribute__((visibility("default"))) ws::IttRecorder::StringHandle* __itt_string_handle_create(const char* name) {
    try {
        return ws::IttRecorder::instance().stringHandle(name);
    } catch (...) {
        return nullptr;
    }
}

__attribute__((visibility("default"))) void __itt_task_begin(const ws::IttRecorder::Domain* domain, IttId, IttId,
                                                             ws::IttRecorder::StringHandle* name) {
    try {
        ws::IttRecorder::instance().begin(domain, name);
    } catch (...) {
    }
}

__attribute__((visibility("default"))) void __itt_task_end(const ws::IttRecorder::Domain* domain) {
    ws::IttRecorder::instance().end(domain);
}

// Whether any ITT task reached this library: the start-up hook runs one operator under emit_itt and
// asks, so it falls back to emit_nvtx when the ITT part did not load the collector.
__attribute__((visibility("default"))) int warpscope_itt_tasks_seen(void) {
    return ws::IttRecorder::instance().tasksSeen() ? 1 : 0;
}
}
