#include "inject/pysampler.h"

#include "format/wscapcodec.h"
#include "format/wscapformat.h"
#include "inject/cudacallwatch.h"

#include <chrono>
#include <unistd.h>

namespace ws {

using namespace wscap;

namespace {
constexpr int kMaxThreads = 256;
constexpr auto kFlushEvery = std::chrono::milliseconds(50); // records leave in batches, not per sample
} // namespace

void PySampler::start(uint32_t hz, ChunkQueue* queue, std::function<uint64_t()> timestamp, Report report) {
    if (hz == 0 || m_thread.joinable())
        return;
    m_queue = queue;
    m_timestamp = std::move(timestamp);
    m_report = std::move(report);
    m_thread = std::thread([this, hz] { run(hz); });
}

void PySampler::stop() {
    if (!m_thread.joinable())
        return;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_cv.notify_all();
    m_thread.join();
    if (m_rounds > 0 && m_report)
        m_report(false, "Python sampling: " + std::to_string(m_samples) + " samples in " + std::to_string(m_rounds) +
                            " rounds, " + std::to_string(m_sampleNs / m_rounds / 1000) + " us per round on the sampler's thread" +
                            (m_stalls == 0 ? std::string()
                                           : "; " + std::to_string(m_stalls) + " rounds came more than 3 periods late (" +
                                                 std::to_string(m_stalledNs / 1000000) +
                                                 " ms in all: the sampler's thread waited for a core)"));
}

// The hook attaches the walker when the program's Python starts, which may be after CUDA (and so
// this thread) started; a program that never runs Python keeps this thread waiting, idle.
bool PySampler::waitForWalker(std::unique_lock<std::mutex>& lock) {
    while (!m_stop) {
        const PyFrameWalker* walker = PythonStacks::walker();
        if (walker && walker->samplingReady())
            return true;
        if (PythonStacks::attached()) { // attached, and the walker will not become ready
            if (m_report)
                m_report(true, "Python sampling needs the frame reader (CPython 3.11 to 3.13) and its thread list; "
                               "no samples are recorded");
            return false;
        }
        m_cv.wait_for(lock, std::chrono::milliseconds(20), [this] { return m_stop; });
    }
    return false;
}

void PySampler::sample(const PyFrameWalker& walker, uint32_t periodNs, std::string& out) {
    PyFrameWalker::Thread threads[kMaxThreads];
    const int n = walker.threads(threads, kMaxThreads);
    PyFrameWalker::Frame frames[PyFrameWalker::kMaxDepth];
    const uint64_t ts = m_timestamp();
    const auto self = static_cast<uint64_t>(::gettid());
    for (int i = 0; i < n; ++i) {
        if (threads[i].osThreadId == self)
            continue;
        PySampleRecord r;
        r.timestamp = ts;
        r.threadId = static_cast<uint32_t>(threads[i].osThreadId);
        r.periodNs = periodNs;
        const int gil = walker.holdsGil(threads[i].tstate);
        r.flags = gil < 0 ? 0 : gil ? (kPySampleHoldsGil | kPySampleGilKnown) : kPySampleGilKnown;
        if (CudaCallWatch::active()) {
            const CudaCallWatch::Call call = CudaCallWatch::current(r.threadId);
            r.flags |= kPySampleCudaKnown;
            r.cudaDomain = call.domain;
            r.cudaCbid = call.cbid;
        }
        const auto last = m_lastWalk.find(threads[i].tstate);
        const int depth = last == m_lastWalk.end()
                              ? walker.walkThread(threads[i].tstate, frames, PyFrameWalker::kMaxDepth)
                              : walker.walkThread(threads[i].tstate, frames, PyFrameWalker::kMaxDepth, last->second.data(),
                                                  static_cast<int>(last->second.size()));
        m_walk[threads[i].tstate].assign(frames, frames + depth);
        r.pyStackId = m_python.stackOf(frames, depth, out);
        appendRecord(out, r);
        ++m_samples;
    }
    m_lastWalk.swap(m_walk); // threads that ended leave with the old map
    m_walk.clear();
}

void PySampler::run(uint32_t hz) {
    std::unique_lock<std::mutex> lock(m_mutex);
    if (!waitForWalker(lock))
        return;
    const PyFrameWalker& walker = *PythonStacks::walker();
    const auto period = std::chrono::nanoseconds(1000000000ull / hz);
    auto next = std::chrono::steady_clock::now();
    auto flushAt = next + kFlushEvery;
    std::string out;
    while (!m_stop) {
        lock.unlock();
        const auto begin = std::chrono::steady_clock::now();
        if (m_rounds > 0 && begin - next > 3 * period) {
            ++m_stalls;
            m_stalledNs += static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(begin - next).count());
        }
        sample(walker, static_cast<uint32_t>(period.count()), out);
        const auto now = std::chrono::steady_clock::now();
        m_sampleNs += static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(now - begin).count());
        ++m_rounds;
        if (now >= flushAt && !out.empty()) {
            m_queue->push(std::move(out));
            out.clear();
            flushAt = now + kFlushEvery;
        }
        next += period;
        if (next < now)
            next = now; // fell behind: skip the missed samples rather than burst
        lock.lock();
        m_cv.wait_until(lock, next, [this] { return m_stop; });
    }
    if (!out.empty())
        m_queue->push(std::move(out));
}

} // namespace ws
