#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ws {

class ChunkQueue;

/*
 * PmSampler: CUPTI PM sampling of device-wide hardware counters (SM activity, tensor pipe activity,
 * DRAM bandwidth, each in % of peak) on one CUDA device, on its own thread. It waits until the
 * device's primary context is active (it must not call into the profiler while cuInit runs), picks
 * for each quantity the first candidate metric the chip supports in one pass, starts sampling at a
 * GPU-time interval and decodes the hardware buffer every 100 ms into MetricSample records.
 * Whatever fails (no permission, unsupported GPU, no metric) is reported through the callback
 * with the reason and sampling simply does not happen; it never stops the rest of tracing.
 * stop() decodes once more and leaves the sampler armed: tearing it down at process exit crashed
 * or hung the host in our tests (see run()), so it is left to the driver. Opt-in ("pm") for that
 * reason and because it needs profiling permission.
 */
class PmSampler {
public:
    using Report = std::function<void(bool warning, const std::string& where, int code, const std::string& message)>;

    PmSampler() = default;
    PmSampler(const PmSampler&) = delete;
    PmSampler& operator=(const PmSampler&) = delete;
    ~PmSampler();

    void start(int deviceIndex, uint32_t intervalUs, ChunkQueue* queue, Report report);
    void stop();

private:
    struct Session;
    void run();
    bool waitForContext();
    bool setUp(Session& s);
    void decode(Session& s);
    // Stops the sampler in an exit handler that runs before the ones registered so far.
    static void registerExitStop(PmSampler* sampler);

    int m_device = 0;
    uint32_t m_intervalUs = 1000;
    ChunkQueue* m_queue = nullptr;
    Report m_report;
    std::thread m_thread;
    std::mutex m_stopMutex;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_stop = false;
};

} // namespace ws
