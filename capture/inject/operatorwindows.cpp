#include "inject/operatorwindows.h"

#include "inject/cuptitime.h"
#include "inject/injectconfig.h"

#include "format/wscapcodec.h"

#include <algorithm>
#include <sys/syscall.h>
#include <unistd.h>

#include <unordered_set>

namespace ws {

std::atomic<bool> OperatorWindows::s_attached{false};
// Before the tracer starts (the start-up hook attaches at `import torch`, before CUDA starts).
std::atomic<bool> OperatorWindows::s_paused{InjectConfig::profilerApiRangeFromEnvironment()};
thread_local bool OperatorWindows::t_owner = false;

namespace {

struct ThreadContext {
    uint64_t last = 0;
    uint64_t before = 0;
    std::unordered_set<uint64_t> seen;    // contexts launched with RecordFunction on
    std::unordered_set<uint64_t> pending; // contexts found while it was off, not yet seen on
    uint32_t generation = 0;
};

ThreadContext& threadContext() {
    thread_local ThreadContext t;
    return t;
}

uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

} // namespace

OperatorWindows& OperatorWindows::instance() {
    // Never destroyed: launches may still arrive while the process runs its exit handlers.
    static OperatorWindows* windows = new OperatorWindows();
    return *windows;
}

void OperatorWindows::attach(EnableFn enable, EnabledFn enabled, const Settings& settings) {
    if (!enable || !enabled || attached())
        return;
    m_enable = enable;
    m_enabled = enabled;
    m_settings = settings;
    m_threadId = static_cast<uint32_t>(::syscall(SYS_gettid));
    const uint64_t t = cuptiNow();
    m_on = true;
    m_holdUntil = t + settings.holdNs;
    m_capUntil = t + settings.capNs;
    m_nextSample = t + settings.samplePeriodNs;
    m_lastOn = t;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_openStart = t;
    }
    t_owner = true;
    s_attached.store(true, std::memory_order_release);
    if (s_paused.load())
        switchTo(false, t); // the hook switched RecordFunction on; a paused capture wants it off
}

void OperatorWindows::pause() {
    s_paused.store(true, std::memory_order_relaxed);
    if (t_owner && attached())
        switchTo(false, cuptiNow());
}

void OperatorWindows::switchTo(bool on, uint64_t now) {
    if (on == m_on)
        return;
    m_on = on;
    m_enable(on);
    std::lock_guard<std::mutex> lock(m_mutex);
    if (on) {
        m_lastOn = now;
        m_openStart = now;
    } else {
        m_closed.push_back(Window{m_openStart, now});
        m_openStart = 0;
    }
}

void OperatorWindows::launch(const char* symbol, uint32_t cbid) {
    ThreadContext& c = threadContext();
    const uint64_t what = symbol ? reinterpret_cast<uintptr_t>(symbol) : cbid;
    const uint64_t context = mix(mix(mix(0x5bd1e995ull, what), c.last), c.before);
    c.before = c.last;
    c.last = what;
    if (const uint32_t g = m_generation.load(std::memory_order_relaxed); g != c.generation) {
        c.generation = g; // the main thread gave up on the pending contexts
        c.pending.clear();
    }
    const bool recording = t_owner ? m_on : m_enabled();
    bool found = false; // a context not seen with RecordFunction on, while it is off
    bool fresh = false; // a context seen with it on for the first time
    if (recording) {
        if (c.seen.insert(context).second) {
            fresh = true;
            if (c.pending.erase(context) && !t_owner)
                m_pendingElsewhere.fetch_sub(1, std::memory_order_relaxed);
        }
    } else if (!c.seen.count(context)) {
        found = true;
        if (c.pending.insert(context).second && !t_owner)
            m_pendingElsewhere.fetch_add(1, std::memory_order_relaxed);
    }
    if (!t_owner) {
        if (found)
            m_unseenElsewhere.store(cuptiNow(), std::memory_order_relaxed);
        return;
    }
    const uint64_t now = cuptiNow();
    if (found || m_unseenElsewhere.load(std::memory_order_relaxed) > m_lastOn) {
        m_holdUntil = now + m_settings.holdNs;
        if (!m_on)
            m_capUntil = now + m_settings.capNs;
        m_unseenElsewhere.store(0, std::memory_order_relaxed);
        switchTo(true, now);
        return;
    }
    if (fresh)
        m_holdUntil = now + m_settings.holdNs;
    if (now >= m_nextSample) {
        m_nextSample = now + m_settings.samplePeriodNs;
        if (!m_on) {
            m_holdUntil = now + m_settings.sampleOnNs;
            m_capUntil = now + m_settings.capNs;
            switchTo(true, now);
        }
        return;
    }
    if (!m_on || now < m_holdUntil)
        return;
    const bool waiting = !c.pending.empty() || m_pendingElsewhere.load(std::memory_order_relaxed) > 0;
    if (waiting && now < m_capUntil)
        return;
    if (waiting) { // contexts that did not come again: stop waiting for them
        c.pending.clear();
        m_pendingElsewhere.store(0, std::memory_order_relaxed);
        m_generation.fetch_add(1, std::memory_order_relaxed);
    }
    switchTo(false, now);
}

void OperatorWindows::take(uint32_t processId, bool final, std::string& out) {
    if (!attached())
        return;
    std::vector<Window> windows;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        windows.swap(m_closed);
        if (final && m_openStart != 0) {
            const uint64_t now = cuptiNow();
            windows.push_back(Window{m_openStart, now});
            m_openStart = now; // a later take (none is expected) starts where this one ended
        }
    }
    for (const Window& w : windows) {
        wscap::OpsWindowRecord r;
        r.start = w.start;
        r.end = w.end;
        r.processId = processId;
        r.threadId = m_threadId;
        wscap::appendRecord(out, r);
    }
}

} // namespace ws
