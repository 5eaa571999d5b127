#pragma once

// Helpers shared by the capture stream tests: deterministic record contents and temp files.

#include "format/wscapcodec.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace wstest {

/* Sets every field of a record to a distinct value derived from a seed, so a round trip that
 * swaps, drops or truncates any field shows up as a difference. */
class FieldFiller {
public:
    explicit FieldFiller(uint64_t seed) : m_next(seed) {}
    template <class T> void operator()(const char*, T& value) { fill(value); }

private:
    template <class T> void fill(T& v) requires std::is_integral_v<T> {
        v = static_cast<T>(m_next++ * 0x9e3779b97f4a7c15ull >> 7);
    }
    void fill(double& v) { v = static_cast<double>(m_next++) * 1.25; }
    void fill(std::string& s) { s = "text-" + std::to_string(m_next++) + " \xe2\x9c\x93"; }
    void fill(std::vector<std::string>& l) { l = {"python", "train.py", "--arg=" + std::to_string(m_next++), ""}; }
    void fill(std::vector<uint64_t>& l) {
        l.clear();
        for (int i = 0; i < 5; ++i)
            l.push_back(m_next++ * 0x9e3779b97f4a7c15ull);
    }
    void fill(ws::wscap::Uuid& u) {
        for (auto& b : u)
            b = static_cast<uint8_t>(m_next++);
    }
    uint64_t m_next;
};

template <class R> R filled(uint64_t seed) {
    R r;
    FieldFiller f(seed);
    R::fields(r, f);
    return r;
}

template <class R> std::string payloadOf(const R& r) {
    std::string bytes;
    ws::wscap::appendRecord(bytes, r);
    return bytes.substr(ws::wscap::kRecordHeaderSize);
}

// A scratch path of this process (a file or a capture's output folder), removed when it exits: each
// test runs in a process of its own, and leftovers would pile up in /tmp run after run.
inline std::string tempPath(const std::string& name) {
    struct RemovedAtExit {
        std::vector<std::string> paths;
        ~RemovedAtExit() {
            for (const std::string& p : paths) {
                std::error_code ignored;
                std::filesystem::remove_all(p, ignored);
            }
        }
    };
    static RemovedAtExit scratch;
    std::string path = std::string(::testing::TempDir()) + "/" + name + "." + std::to_string(::getpid());
    scratch.paths.push_back(path);
    return path;
}

inline void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/*
 * A small capture of a PyTorch-like loop with the `pm` activity (issue #25), for the Overview's
 * measured counters: one H100-like device (132 SMs, compute capability 9.0) and 4 iterations of
 * 4 ms starting at kPmT0, each launching three kernels (cudaLaunchKernel at +0, +1, +2 ms, 10 µs;
 * each kernel runs 500 µs from 100 µs after its launch):
 *   gemm   grid 264, block 256, 32 registers, no shared memory: 8 blocks/SM by warps and by
 *          registers, 2 given -> est. achieved occupancy 25 %
 *   attn   grid 1320, block 128, 64 registers, 100 KiB dynamic shared memory (opted in): 2 blocks/SM
 *          by shared memory, 10 given -> 12.5 % (Kineto's default 48 KiB limit would say 0)
 *   add    grid 132, block 1024, 16 registers: 2 blocks/SM by warps, 1 given -> 50 %
 * and PM sampling (MetricSource PmSampling) every 1 ms from kPmT0 - 2 ms to kPmT0 + 20 ms (sample j
 * at kPmT0 + j ms): sm_active 20 % on even j and 60 % on odd j, tensor_active 25 %,
 * dram_bandwidth 10 + j %. Ends with a Footer.
 */
inline constexpr uint64_t kPmT0 = 1'000'000'000;
inline constexpr uint64_t kPmMs = 1'000'000;

inline std::string pmSamplingStream() {
    using namespace ws::wscap;
    std::string out = fileHeader();
    auto add = [&](const auto& record) { appendRecord(out, record); };
    StreamHeaderRecord h;
    h.pid = 100;
    h.hostname = "host";
    h.commandLine = {"python3", "train.py"};
    add(h);
    DeviceRecord d;
    d.name = "NVIDIA H100 80GB HBM3";
    d.smCount = 132;
    d.ccMajor = 9;
    d.threadsPerWarp = 32;
    d.maxWarpsPerSm = 64;
    d.maxBlocksPerSm = 32;
    d.registersPerSm = 65536;
    d.sharedMemoryPerSm = 233472;
    d.maxThreadsPerBlock = 1024;
    d.globalMemoryBytes = 80ull << 30;
    add(d);
    add(ContextRecord{1, 0, 7, 0});
    add(StringRecord{1, "cudaLaunchKernel_v7000"});
    add(StringRecord{2, "gemm"});
    add(StringRecord{3, "attn"});
    add(StringRecord{4, "add"});
    const char* const metrics[] = {"sm_active", "tensor_active", "dram_bandwidth"};
    for (uint32_t m = 0; m < 3; ++m) {
        MetricDescriptorRecord md;
        md.metricId = 101 + m;
        md.source = static_cast<uint8_t>(MetricSource::PmSampling);
        md.name = metrics[m];
        md.unit = "%";
        add(md);
    }
    uint32_t corr = 1;
    for (uint64_t k = 0; k < 4; ++k)
        for (uint32_t i = 0; i < 3; ++i, ++corr) {
            const uint64_t t = kPmT0 + k * 4 * kPmMs + i * kPmMs;
            ApiRecord a;
            a.cbid = 211;
            a.nameId = 1;
            a.start = t;
            a.end = t + 10'000;
            a.processId = 100;
            a.threadId = 100;
            a.correlationId = corr;
            add(a);
            KernelRecord r;
            r.start = t + 100'000;
            r.end = r.start + 500'000;
            r.contextId = 1;
            r.streamId = 7;
            r.correlationId = corr;
            r.nameId = 2 + i;
            r.gridY = r.gridZ = r.blockY = r.blockZ = 1;
            r.gridX = i == 0 ? 264 : i == 1 ? 1320 : 132;
            r.blockX = i == 0 ? 256 : i == 1 ? 128 : 1024;
            r.registersPerThread = i == 0 ? 32 : i == 1 ? 64 : 16;
            r.dynamicSharedMemory = i == 1 ? 100 * 1024 : 0;
            add(r);
        }
    for (int64_t j = -2; j <= 20; ++j) {
        const uint64_t ts = kPmT0 + static_cast<uint64_t>(j * static_cast<int64_t>(kPmMs));
        add(MetricSampleRecord{ts, 0, 101, (j % 2 == 0) ? 20.0 : 60.0});
        add(MetricSampleRecord{ts, 0, 102, 25.0});
        add(MetricSampleRecord{ts, 0, 103, 10.0 + static_cast<double>(j)});
    }
    FooterRecord f;
    f.timestamp = kPmT0 + 30 * kPmMs;
    add(f);
    return out;
}

} // namespace wstest
