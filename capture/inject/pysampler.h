#pragma once

#include "inject/chunkqueue.h"
#include "inject/pythonstacks.h"

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace ws {

/*
 * PySampler: the `pysample` activity (issue #27). On its own thread, hz times a second, it reads the
 * stack of every Python thread of the process and writes a PySample record per thread, so the
 * host's time between CUDA calls (data loading, Python overhead, the optimizer, a slow collate) is
 * no longer blank.
 *
 * How: the threads are never stopped and the interpreter is never called. The sampler follows the
 * interpreter's thread list and each thread's frames with safe reads (PyFrameWalker::walkThread,
 * inject/saferead.h), as py-spy does from outside the process; the frames are de-duplicated into the
 * PyFrame and PyStack records the launches' stacks use. A frame that the thread's previous sample
 * saw at the same place with the same code object costs one read (its fields), a new one two (and
 * its code object's names and line table once). Whether the thread holds the GIL is read from the
 * GIL itself where probeSampling() found it.
 *
 * It starts once the Python start-up hook has attached the frame walker (PythonStacks::attach) and
 * writes nothing before; without a usable walker (another CPython than 3.11 to 3.13) it says so in
 * one Error record of severity Warning and stops.
 *
 * Cost: on the sampler's own thread (a few microseconds per thread and sample); the traced threads
 * pay only for the core it takes. At stop it reports the samples taken and their mean cost.
 */
class PySampler {
public:
    using Report = std::function<void(bool warning, const std::string& message)>;

    PySampler() = default;
    PySampler(const PySampler&) = delete;
    PySampler& operator=(const PySampler&) = delete;
    ~PySampler() { stop(); }

    void start(uint32_t hz, ChunkQueue* queue, std::function<uint64_t()> timestamp, Report report);
    void stop();

private:
    void run(uint32_t hz);
    bool waitForWalker(std::unique_lock<std::mutex>& lock);
    void sample(const PyFrameWalker& walker, uint32_t periodNs, std::string& out);

    ChunkQueue* m_queue = nullptr;
    std::function<uint64_t()> m_timestamp;
    Report m_report;
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_stop = false;
    PythonStacks m_python; // the sampler thread's own frame and stack tables
    // Each thread's last walk, by thread state: frames it still has need no second check.
    std::unordered_map<const void*, std::vector<PyFrameWalker::Frame>> m_lastWalk, m_walk;
    uint64_t m_samples = 0;
    uint64_t m_sampleNs = 0; // time spent sampling
    uint64_t m_rounds = 0;
    // Rounds that came more than 3 periods late (the sampler's thread was not scheduled: a program
    // that keeps every core busy), and the time they covered: the import bridges such stalls.
    uint64_t m_stalls = 0;
    uint64_t m_stalledNs = 0;
};

} // namespace ws
