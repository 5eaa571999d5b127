#pragma once

#include "format/wscapformat.h"
#include "inject/nvmlapi.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace ws {

class ChunkQueue;

/*
 * NvmlSampler: polls NVML on its own thread at a fixed rate and queues MetricSample records
 * (power W, SM and memory clocks MHz, GPU and memory utilization %, memory used bytes, temperature
 * C) for every GPU NVML sees. NVML is dlopen'ed: without a driver it reports why and does nothing.
 * A metric that a GPU does not support is dropped for that GPU after its first failure.
 */
class NvmlSampler {
public:
    NvmlSampler() = default;
    NvmlSampler(const NvmlSampler&) = delete;
    NvmlSampler& operator=(const NvmlSampler&) = delete;
    ~NvmlSampler();

    bool load(std::string* why);
    std::string driverVersion() const;
    // timestamp() gives "now" in the capture's clock (cuptiGetTimestamp).
    void start(uint32_t hz, ChunkQueue* queue, std::function<uint64_t()> timestamp);
    void stop();

private:
    struct Gpu {
        nvml::Device handle = nullptr;
        uint32_t index = 0;
        uint32_t unsupported = 0; // bit per metric
    };
    void run(uint32_t hz);
    void sample(Gpu& gpu, uint64_t ts, std::string& out);

    void* m_library = nullptr;
    nvml::Api m_api;
    std::vector<Gpu> m_gpus;
    ChunkQueue* m_queue = nullptr;
    std::function<uint64_t()> m_timestamp;
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_stop = false;
};

} // namespace ws
