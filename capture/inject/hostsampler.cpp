#include "inject/hostsampler.h"

#include "format/wscapcodec.h"
#include "format/wscapformat.h"

#include <dirent.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace ws {

using namespace wscap;

namespace {

enum HostMetric : uint32_t { ProcessCpu = 201, ChildrenCpu = 202, ProcessRss = 203, HostMemUsed = 204 };

struct HostMetricInfo {
    HostMetric id;
    const char* name;
    const char* unit;
};

constexpr HostMetricInfo kHostMetrics[] = {
    {ProcessCpu, "host_cpu_process", "%"},
    {ChildrenCpu, "host_cpu_children", "%"},
    {ProcessRss, "host_rss", "B"},
    {HostMemUsed, "host_memory_used", "B"},
};

// utime + stime (clock ticks) and the parent pid from /proc/<pid>/stat; false when it is gone.
bool readStat(int pid, uint64_t* ticks, int* ppid) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE* f = std::fopen(path, "r");
    if (!f)
        return false;
    char buf[1024];
    const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    buf[n] = '\0';
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    const char* p = std::strrchr(buf, ')');
    if (!p)
        return false;
    // state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime
    char state = 0;
    int parent = 0;
    unsigned long long fields[11] = {};
    if (std::sscanf(p + 2, "%c %d %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &state, &parent, &fields[0],
                    &fields[1], &fields[2], &fields[3], &fields[4], &fields[5], &fields[6], &fields[7], &fields[8],
                    &fields[9], &fields[10]) != 13)
        return false;
    *ticks = fields[9] + fields[10];
    *ppid = parent;
    return true;
}

uint64_t readRssBytes() {
    FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    unsigned long long size = 0, resident = 0;
    const int got = std::fscanf(f, "%llu %llu", &size, &resident);
    std::fclose(f);
    return got == 2 ? resident * static_cast<uint64_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

uint64_t readHostMemUsedBytes() {
    FILE* f = std::fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    unsigned long long total = 0, available = 0, v = 0;
    char key[64];
    while (std::fscanf(f, "%63s %llu kB\n", key, &v) == 2) {
        if (std::strcmp(key, "MemTotal:") == 0)
            total = v;
        else if (std::strcmp(key, "MemAvailable:") == 0)
            available = v;
    }
    std::fclose(f);
    return total > available ? (total - available) * 1024 : 0;
}

} // namespace

void HostSampler::start(uint32_t hz, ChunkQueue* queue, std::function<uint64_t()> timestamp) {
    if (hz == 0 || m_thread.joinable())
        return;
    m_queue = queue;
    m_timestamp = std::move(timestamp);
    std::string out;
    for (const HostMetricInfo& m : kHostMetrics)
        appendRecord(out, MetricDescriptorRecord{m.id, static_cast<uint8_t>(MetricSource::Host), m.name, m.unit});
    m_queue->push(std::move(out));
    m_thread = std::thread([this, hz] { run(hz); });
}

void HostSampler::stop() {
    if (!m_thread.joinable())
        return;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_cv.notify_all();
    m_thread.join();
}

void HostSampler::run(uint32_t hz) {
    const auto period = std::chrono::nanoseconds(1000000000ull / hz);
    auto next = std::chrono::steady_clock::now();
    std::unique_lock<std::mutex> lock(m_mutex);
    while (!m_stop) {
        lock.unlock();
        std::string out;
        sample(m_timestamp(), out);
        if (!out.empty())
            m_queue->push(std::move(out));
        next += period;
        const auto now = std::chrono::steady_clock::now();
        if (next < now)
            next = now;
        lock.lock();
        m_cv.wait_until(lock, next, [this] { return m_stop; });
    }
}

void HostSampler::sample(uint64_t ts, std::string& out) {
    const int self = static_cast<int>(::getpid());
    // This process and its direct children (DataLoader workers are forked or spawned by it).
    std::map<int, uint64_t> ticks;
    uint64_t t = 0;
    int ppid = 0;
    if (readStat(self, &t, &ppid))
        ticks[self] = t;
    if (DIR* proc = ::opendir("/proc")) {
        while (const dirent* e = ::readdir(proc)) {
            char* end = nullptr;
            const long pid = std::strtol(e->d_name, &end, 10);
            if (*end != '\0' || pid <= 0 || pid == self)
                continue;
            if (readStat(static_cast<int>(pid), &t, &ppid) && ppid == self)
                ticks[static_cast<int>(pid)] = t;
        }
        ::closedir(proc);
    }
    if (m_lastTs != 0 && ts > m_lastTs) {
        const double hzTicks = static_cast<double>(::sysconf(_SC_CLK_TCK));
        const double seconds = static_cast<double>(ts - m_lastTs) / 1e9;
        double selfPct = 0, childrenPct = 0;
        for (const auto& [pid, now] : ticks) {
            const auto before = m_lastTicks.find(pid);
            if (before == m_lastTicks.end() || now < before->second)
                continue; // a new child: counted from its next sample on
            const double pct = static_cast<double>(now - before->second) / hzTicks / seconds * 100.0;
            (pid == self ? selfPct : childrenPct) += pct;
        }
        appendRecord(out, MetricSampleRecord{ts, 0, ProcessCpu, selfPct});
        appendRecord(out, MetricSampleRecord{ts, 0, ChildrenCpu, childrenPct});
    }
    appendRecord(out, MetricSampleRecord{ts, 0, ProcessRss, static_cast<double>(readRssBytes())});
    appendRecord(out, MetricSampleRecord{ts, 0, HostMemUsed, static_cast<double>(readHostMemUsedBytes())});
    m_lastTicks = std::move(ticks);
    m_lastTs = ts;
}

} // namespace ws
