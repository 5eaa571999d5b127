#pragma once

#include "inject/chunkqueue.h"

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

namespace ws {

/*
 * HostSampler: the `host` activity (issue #13). On its own thread, at the NVML sampling rate, it
 * reads /proc for the traced process and its child processes (DataLoader workers, which never touch
 * CUDA and so have no capture stream of their own) and writes MetricSample records of source Host:
 * CPU use of the process and of its children in percent of one core, the process's resident memory,
 * and the host's used memory. Reading /proc costs well under a millisecond per sample; it never
 * touches the traced threads.
 */
class HostSampler {
public:
    HostSampler() = default;
    HostSampler(const HostSampler&) = delete;
    HostSampler& operator=(const HostSampler&) = delete;
    ~HostSampler() { stop(); }

    void start(uint32_t hz, ChunkQueue* queue, std::function<uint64_t()> timestamp);
    void stop();

private:
    void run(uint32_t hz);
    void sample(uint64_t ts, std::string& out);

    ChunkQueue* m_queue = nullptr;
    std::function<uint64_t()> m_timestamp;
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_stop = false;
    // Previous CPU times (clock ticks) per pid and when they were read, for the rates.
    std::map<int, uint64_t> m_lastTicks;
    uint64_t m_lastTs = 0;
};

} // namespace ws
