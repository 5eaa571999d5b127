#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

/*
 * NvtxRecorder: records nvtxRangePushA / nvtxRangePop itself instead of letting CUPTI do it.
 *
 * Why: PyTorch's operator ranges (`--torch-ops`, emit_nvtx) are push/pop pairs of the default
 * domain, thousands per step, and CUPTI's marker activity cost about 0.5x the step time of a
 * launch-bound transformer for them (capture/README.md). Here a push copies its name into a
 * thread-local stack and takes a timestamp; a pop moves the finished range into the thread's buffer
 * under that buffer's own (uncontended) lock. The writer thread takes the buffers at each flush and
 * encodes NvtxRange records, the same records CUPTI's markers become, so the importer sees no
 * difference.
 *
 * How: every NVTX copy in the process (each library that includes the header-only NVTX has one)
 * calls InitializeInjectionNvtx2 on its first NVTX call. After forwarding that to CUPTI (which
 * fills the copy's function table with its own handlers), attach() puts this recorder's handlers
 * into the RangePushA, RangePushEx, RangePushW and RangePop slots of the core module and keeps
 * CUPTI's: PushEx and PushW (attributes, colours, wide strings) still go to CUPTI, and every pop
 * goes to whoever took the matching push, tracked per thread. Everything else (start/end ranges,
 * marks, domains) stays with CUPTI.
 *
 * Ranges pushed while recording is off (before CUDA initialization, during a delay, after the
 * duration) are not recorded; ranges still open when the process ends are not written (CUPTI
 * writes them with end 0; an operator range is never open at exit).
 */
class NvtxRecorder {
public:
    static NvtxRecorder& instance();

    // getExportTable: the argument of InitializeInjectionNvtx2, called after CUPTI's initialization.
    void attach(const void* getExportTable);
    void setRecording(bool on) { m_recording.store(on, std::memory_order_relaxed); }
    // Writer thread: moves the finished ranges into NvtxRange records appended to out; intern gives
    // the String id of a name (appending its String record to out when new).
    void take(uint32_t processId, const std::function<uint32_t(std::string_view, std::string&)>& intern,
              std::string& out);
    uint64_t ranges() const { return m_ranges.load(std::memory_order_relaxed); }

    struct Range {
        uint64_t start;
        uint64_t end;
        uint32_t nameOffset;
        uint32_t nameSize;
    };
    struct ThreadBuffer {
        std::mutex mutex;
        uint32_t threadId = 0;
        std::vector<Range> ranges; // finished, not yet taken
        std::string names;         // their names, back to back
    };

    // The handlers put into NVTX's function tables.
    static int pushA(const char* message);
    static int pushEx(const void* attributes); // nvtxEventAttributes_t*: forwarded to CUPTI
    static int pushW(const wchar_t* message);   // forwarded to CUPTI
    static int pop();

private:
    NvtxRecorder() = default;
    std::shared_ptr<ThreadBuffer> registerThread(uint32_t threadId);

    std::atomic<bool> m_recording{false};
    std::atomic<uint64_t> m_ranges{0};
    std::mutex m_threadsMutex;
    std::vector<std::shared_ptr<ThreadBuffer>> m_threads;
    uint32_t m_nextMarkerId = 0x80000000u; // apart from CUPTI's marker ids
};

} // namespace ws
