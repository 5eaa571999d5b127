#pragma once

#include "inject/threadbuffers.h"
#include "inject/tickline.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ws {

/*
 * IttRecorder: PyTorch's operators through ITT, the cheap path of `--torch-ops` (issue #25).
 *
 * PyTorch ships Intel's ITT static part, and `torch.autograd.profiler.emit_itt()` turns every
 * operator into an ITT task: __itt_string_handle_create(name) and __itt_task_begin at its start,
 * __itt_task_end at its end, in the "PyTorch" domain. No text is formatted, unlike emit_nvtx,
 * which builds "aten::mm, seq = 12, op_id = 40" per call (its cost was most of the 1.46x of
 * `--torch-ops --py-stacks` on a GPT step). The ITT static part hands those calls to the collector
 * library named by INTEL_LIBITTNOTIFY64 (the functions it finds by name, for the groups of
 * INTEL_ITTNOTIFY_GROUPS): the launcher names this library, which exports them (the end of
 * ittrecorder.cpp) and records here.
 *
 * Per operator: a string handle found in a thread-local cache (the name's pointer, checked with one
 * strcmp), a timestamp pushed on the thread's stack, and at the end one 32-byte range into the
 * thread's own lock-free buffer (ThreadBuffers). The writer thread turns them into NvtxRange records of the
 * domain "PyTorch" (names interned once per handle), which the importer reads as operators.
 *
 * The ITT part loads the collector at its first task, after PyTorch created its domain, so the
 * domain and the first handles passed here may be the ITT part's own structs (same layout).
 * Handles and domains are never freed (the ITT contract: they live as long as the process).
 */
class IttRecorder {
public:
    // ITT's public structs, as the static part and its callers read them.
    struct Domain {
        volatile int flags; // callers skip a domain whose flags are 0
        const char* nameA;
        void* nameW;
        int extra1;
        void* extra2;
        Domain* next;
    };
    struct StringHandle {
        const char* strA;
        void* strW;
        int extra1;
        void* extra2;
        StringHandle* next;
    };

    static IttRecorder& instance();

    Domain* domain(const char* name);
    StringHandle* stringHandle(const char* name);
    void begin(const Domain* domain, const StringHandle* name);
    void end(const Domain* domain);

    void setRecording(bool on) { m_recording.store(on, std::memory_order_relaxed); }
    // Whether a task began here: the ITT part of the process loaded this library as its collector.
    bool tasksSeen() const { return m_tasksSeen.load(std::memory_order_relaxed); }
    // Writer thread: the finished tasks as NvtxRange records appended to out; intern gives the String
    // id of a name (appending its String record to out when new); ticks turns their HostTicks times
    // into CUPTI's clock.
    void take(uint32_t processId, const std::function<uint32_t(std::string_view, std::string&)>& intern,
              const TickLine& ticks, std::string& out);

private:
    struct Range {
        uint64_t start; // HostTicks
        uint64_t end;
        const StringHandle* name;
        const Domain* domain;
    };
    IttRecorder() = default;

    std::atomic<bool> m_recording{false};
    std::atomic<bool> m_tasksSeen{false};
    std::mutex m_namesMutex; // domains and handles by name
    std::vector<Domain*> m_domains;
    std::unordered_map<std::string, StringHandle*> m_handlesByName;
    ThreadBuffers<Range> m_buffers; // finished ranges, not yet taken
    uint32_t m_nextMarkerId = 0x40000000u; // apart from CUPTI's and NvtxRecorder's marker ids
    std::unordered_map<const void*, uint32_t> m_nameIds; // writer thread: handle or domain -> String id
};

} // namespace ws
