#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace ws {

/*
 * OperatorWindows: PyTorch's operator ranges recorded while the program does something new
 * (`--torch-ops`, issue #25).
 *
 * Every operator range of `--torch-ops` comes from PyTorch's RecordFunction callbacks, and on a
 * launch-bound step (3,400 operators per 12 ms GPT step) switching RecordFunction on costs about
 * 0.1-0.15x of the step by itself, before anything records a range (capture/README.md). But a
 * training loop launches the same kernels from the same operators in the same order every step. So
 * the thread that switched the ranges on (the program's main thread, which holds emit_itt's
 * thread-local callbacks; the autograd engine's threads take its state when backward() begins)
 * keeps RecordFunction on only while launches come in contexts not seen with it on, through
 * at::enableRecordFunction:
 *   - a launch's context is its kernel (CUPTI's symbol name pointer, or the call for a copy) and
 *     the thread's two launches before it, hashed; each thread keeps the contexts it launched with
 *     RecordFunction on (at::isRecordFunctionEnabled on that thread);
 *   - a context not seen with RecordFunction on turns it on (at once on the main thread; at the
 *     main thread's next launch when another thread, e.g. the autograd engine's, saw it). The launch
 *     that found it is not recorded (its operator began before), so the context stays pending, and
 *     RecordFunction stays on until every pending context came again with it on, and for at least
 *     holdNs after the last new context; at most capNs, for contexts that never come again;
 *   - besides, it is on for sampleOnNs every samplePeriodNs, so a long run keeps recording some
 *     operator calls with their CPU times.
 * The importer gives each launch outside a window the operator of the same context inside one
 * (core/import/operator_inference.h). Each window becomes an OpsWindow record.
 *
 * Cost per launch: a hash and a lookup in a thread-local set; on the main thread also a clock read.
 */
class OperatorWindows {
public:
    using EnableFn = void (*)(bool);
    using EnabledFn = bool (*)();

    struct Settings {
        uint64_t holdNs = 50'000'000;
        uint64_t capNs = 5'000'000'000;
        uint64_t sampleOnNs = 20'000'000;
        uint64_t samplePeriodNs = 2'000'000'000;
    };

    static OperatorWindows& instance();

    // On the thread whose RecordFunction state is switched (with the GIL, from the start-up hook):
    // enable and enabled are at::enableRecordFunction and at::isRecordFunctionEnabled.
    void attach(EnableFn enable, EnabledFn enabled, const Settings& settings);
    // At the entry of every launch or memory call, on the calling thread. symbol: CUPTI's
    // symbolName (kernel launches), else null.
    static void onLaunch(const char* symbol, uint32_t cbid) {
        if (s_attached.load(std::memory_order_relaxed) && !s_paused.load(std::memory_order_relaxed))
            instance().launch(symbol, cbid);
    }
    // Writer thread: the windows closed since the last take (and, at the end, the open one) as
    // OpsWindow records appended to out.
    void take(uint32_t processId, bool final, std::string& out);
    bool attached() const { return s_attached.load(std::memory_order_relaxed); }
    // A paused capture (--capture-range=cudaProfilerApi, outside a range) learns nothing: RecordFunction
    // is switched off (now, when called on the owner thread; else at the owner's next launch after
    // resume()), and launches are not looked at. A capture with that range starts paused.
    void pause();
    void resume() { s_paused.store(false, std::memory_order_relaxed); }

private:
    struct Window {
        uint64_t start;
        uint64_t end;
    };
    void launch(const char* symbol, uint32_t cbid);
    void switchTo(bool on, uint64_t now);

    static std::atomic<bool> s_attached;
    static std::atomic<bool> s_paused;
    static thread_local bool t_owner;
    EnableFn m_enable = nullptr;
    EnabledFn m_enabled = nullptr;
    Settings m_settings;
    uint32_t m_threadId = 0;
    std::atomic<uint64_t> m_unseenElsewhere{0}; // when another thread last saw an unseen context
    std::atomic<int64_t> m_pendingElsewhere{0};  // contexts other threads wait to see recorded
    std::atomic<uint32_t> m_generation{0};       // bumped when the cap gives up on pending contexts
    // Owner thread only:
    bool m_on = true;
    uint64_t m_holdUntil = 0;
    uint64_t m_capUntil = 0;
    uint64_t m_nextSample = 0;
    uint64_t m_lastOn = 0;
    // Shared with the writer thread:
    std::mutex m_mutex;
    std::vector<Window> m_closed;
    uint64_t m_openStart = 0; // 0: no window open
};

} // namespace ws
