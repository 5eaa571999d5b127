#include "inject/nvmlsampler.h"

#include "format/wscapcodec.h"
#include "inject/chunkqueue.h"

#include <chrono>
#include <dlfcn.h>

namespace ws {

using namespace wscap;

namespace {

enum Metric : uint32_t { Power = 1, SmClock, MemClock, GpuUtil, MemUtil, MemUsed, Temperature };
struct MetricInfo {
    Metric id;
    const char* name;
    const char* unit;
};
constexpr MetricInfo kMetrics[] = {
    {Power, "gpu_power", "W"},           {SmClock, "sm_clock", "MHz"},
    {MemClock, "memory_clock", "MHz"},   {GpuUtil, "gpu_utilization", "%"},
    {MemUtil, "memory_utilization", "%"}, {MemUsed, "memory_used", "B"},
    {Temperature, "gpu_temperature", "C"},
};

template <class F> bool bind(void* lib, const char* name, F& fn) {
    fn = reinterpret_cast<F>(::dlsym(lib, name));
    return fn != nullptr;
}

bool parseUuid(const char* text, Uuid* uuid) {
    std::string hex;
    for (const char* p = text; *p; ++p)
        if (std::isxdigit(static_cast<unsigned char>(*p)))
            hex += *p;
    // "GPU-" contributes no hex digits except none; the 32 digits that remain are the UUID.
    if (hex.size() != 32)
        return false;
    for (size_t i = 0; i < 16; ++i)
        (*uuid)[i] = static_cast<uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
    return true;
}

} // namespace

NvmlSampler::~NvmlSampler() {
    stop();
}

bool NvmlSampler::load(std::string* why) {
    m_library = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!m_library) {
        *why = "libnvidia-ml.so.1 not loadable; no power/clock/utilization samples";
        return false;
    }
    bool ok = bind(m_library, "nvmlInit_v2", m_api.init) && bind(m_library, "nvmlShutdown", m_api.shutdown) &&
              bind(m_library, "nvmlErrorString", m_api.errorString) &&
              bind(m_library, "nvmlDeviceGetCount_v2", m_api.deviceGetCount) &&
              bind(m_library, "nvmlDeviceGetHandleByIndex_v2", m_api.deviceGetHandleByIndex);
    if (!ok) {
        *why = "libnvidia-ml.so.1 lacks the expected entry points";
        return false;
    }
    bind(m_library, "nvmlDeviceGetName", m_api.deviceGetName);
    bind(m_library, "nvmlDeviceGetUUID", m_api.deviceGetUuid);
    bind(m_library, "nvmlDeviceGetPowerUsage", m_api.deviceGetPowerUsage);
    bind(m_library, "nvmlDeviceGetClockInfo", m_api.deviceGetClockInfo);
    bind(m_library, "nvmlDeviceGetUtilizationRates", m_api.deviceGetUtilizationRates);
    bind(m_library, "nvmlDeviceGetMemoryInfo", m_api.deviceGetMemoryInfo);
    bind(m_library, "nvmlDeviceGetTemperature", m_api.deviceGetTemperature);
    bind(m_library, "nvmlSystemGetDriverVersion", m_api.systemGetDriverVersion);
    const nvml::Return r = m_api.init();
    if (r != 0) {
        *why = std::string("nvmlInit failed: ") + m_api.errorString(r);
        m_api.init = nullptr;
        return false;
    }
    unsigned int count = 0;
    if (m_api.deviceGetCount(&count) == 0)
        for (unsigned int i = 0; i < count; ++i) {
            Gpu g;
            g.index = i;
            if (m_api.deviceGetHandleByIndex(i, &g.handle) == 0)
                m_gpus.push_back(g);
        }
    return true;
}

std::string NvmlSampler::driverVersion() const {
    char buf[96] = {};
    if (m_api.init && m_api.systemGetDriverVersion && m_api.systemGetDriverVersion(buf, sizeof(buf)) == 0)
        return buf;
    return {};
}

void NvmlSampler::start(uint32_t hz, ChunkQueue* queue, std::function<uint64_t()> timestamp) {
    if (!m_api.init || hz == 0 || m_thread.joinable())
        return;
    m_queue = queue;
    m_timestamp = std::move(timestamp);
    std::string out;
    for (const MetricInfo& m : kMetrics)
        appendRecord(out, MetricDescriptorRecord{m.id, static_cast<uint8_t>(MetricSource::Nvml), m.name, m.unit});
    for (const Gpu& g : m_gpus) {
        MetricDeviceRecord d;
        d.source = static_cast<uint8_t>(MetricSource::Nvml);
        d.index = g.index;
        char buf[128] = {};
        if (m_api.deviceGetUuid && m_api.deviceGetUuid(g.handle, buf, sizeof(buf)) == 0)
            parseUuid(buf, &d.uuid);
        buf[0] = '\0';
        if (m_api.deviceGetName && m_api.deviceGetName(g.handle, buf, sizeof(buf)) == 0)
            d.name = buf;
        appendRecord(out, d);
    }
    m_queue->push(std::move(out));
    m_thread = std::thread([this, hz] { run(hz); });
}

void NvmlSampler::stop() {
    if (m_thread.joinable()) {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_stop = true;
        }
        m_cv.notify_all();
        m_thread.join();
    }
}

void NvmlSampler::run(uint32_t hz) {
    const auto period = std::chrono::nanoseconds(1000000000ull / hz);
    auto next = std::chrono::steady_clock::now();
    std::unique_lock<std::mutex> lock(m_mutex);
    while (!m_stop) {
        lock.unlock();
        std::string out;
        const uint64_t ts = m_timestamp();
        for (Gpu& g : m_gpus)
            sample(g, ts, out);
        m_queue->push(std::move(out));
        next += period;
        const auto now = std::chrono::steady_clock::now();
        if (next < now)
            next = now; // fell behind (suspended process): don't burst to catch up
        lock.lock();
        m_cv.wait_until(lock, next, [this] { return m_stop; });
    }
}

void NvmlSampler::sample(Gpu& g, uint64_t ts, std::string& out) {
    auto emit = [&](Metric m, bool ok, double value) {
        if (!ok) {
            g.unsupported |= 1u << m;
            return;
        }
        appendRecord(out, MetricSampleRecord{ts, g.index, m, value});
    };
    auto wanted = [&](Metric m, auto fn) { return fn && !(g.unsupported & (1u << m)); };
    // Each query runs in its own statement: the value must be read after the call that fills it.
    if (wanted(Power, m_api.deviceGetPowerUsage)) {
        unsigned int mw = 0;
        const bool ok = m_api.deviceGetPowerUsage(g.handle, &mw) == 0;
        emit(Power, ok, mw / 1000.0);
    }
    if (wanted(SmClock, m_api.deviceGetClockInfo)) {
        unsigned int mhz = 0;
        const bool ok = m_api.deviceGetClockInfo(g.handle, nvml::kClockSm, &mhz) == 0;
        emit(SmClock, ok, mhz);
    }
    if (wanted(MemClock, m_api.deviceGetClockInfo)) {
        unsigned int mhz = 0;
        const bool ok = m_api.deviceGetClockInfo(g.handle, nvml::kClockMem, &mhz) == 0;
        emit(MemClock, ok, mhz);
    }
    if (wanted(GpuUtil, m_api.deviceGetUtilizationRates)) {
        nvml::Utilization u{};
        const bool ok = m_api.deviceGetUtilizationRates(g.handle, &u) == 0;
        emit(GpuUtil, ok, u.gpu);
        emit(MemUtil, ok, u.memory);
    }
    if (wanted(MemUsed, m_api.deviceGetMemoryInfo)) {
        nvml::Memory mem{};
        const bool ok = m_api.deviceGetMemoryInfo(g.handle, &mem) == 0;
        emit(MemUsed, ok, static_cast<double>(mem.used));
    }
    if (wanted(Temperature, m_api.deviceGetTemperature)) {
        unsigned int c = 0;
        const bool ok = m_api.deviceGetTemperature(g.handle, nvml::kTemperatureGpu, &c) == 0;
        emit(Temperature, ok, c);
    }
}

} // namespace ws
