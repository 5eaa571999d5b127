#include "inject/pmsampler.h"

#include "format/wscapcodec.h"
#include "inject/chunkqueue.h"

#include <cupti.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <dlfcn.h>

namespace ws {

using namespace wscap;

namespace {

struct Quantity {
    uint32_t metricId;
    const char* name;
    std::vector<const char*> candidates; // PerfWorks metric names, first supported one wins
};

const std::vector<Quantity>& quantities() {
    static const std::vector<Quantity> q = {
        {101, "sm_active", {"sm__cycles_active.avg.pct_of_peak_sustained_elapsed"}},
        {102, "tensor_active",
         {"sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed",
          "sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed",
          "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed",
          "sm__inst_executed_pipe_tensor.avg.pct_of_peak_sustained_elapsed"}},
        {103, "dram_bandwidth",
         {"dram__throughput.avg.pct_of_peak_sustained_elapsed",
          "dram__bytes.sum.pct_of_peak_sustained_elapsed"}},
    };
    return q;
}

// Samples one counter data image holds; a decode round that fills it is simply followed by another.
constexpr uint32_t kMaxSamples = 2000;

std::string resultText(CUptiResult r) {
    const char* text = nullptr;
    std::string s = cuptiGetResultString(r, &text) == CUPTI_SUCCESS && text ? text : "CUPTI error";
    if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
        s += " (GPU performance counters are restricted to admin users; see "
             "https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
    return s;
}

} // namespace

struct PmSampler::Session {
    std::string chip;
    std::vector<uint8_t> availability;
    CUpti_Profiler_Host_Object* host = nullptr;
    CUpti_PmSampling_Object* pm = nullptr;
    std::vector<uint8_t> config;
    std::vector<uint8_t> counterData;
    std::vector<const char*> metrics;
    std::vector<uint32_t> metricIds;
    bool profilerInitialized = false;
    bool started = false;
    bool warnedOverflow = false;
};

PmSampler::~PmSampler() {
    stop();
}

void PmSampler::start(int deviceIndex, uint32_t intervalUs, ChunkQueue* queue, Report report) {
    if (m_thread.joinable())
        return;
    m_device = deviceIndex;
    m_intervalUs = intervalUs;
    m_queue = queue;
    m_report = std::move(report);
    m_thread = std::thread([this] { run(); });
}

namespace {
std::atomic<PmSampler*> g_running{nullptr}; // the sampler whose thread runs, for the exit handler
} // namespace

void PmSampler::registerExitStop(PmSampler* sampler) {
    g_running = sampler;
    static std::once_flag once;
    std::call_once(once, [] {
        std::atexit([] {
            if (PmSampler* p = g_running.exchange(nullptr))
                p->stop();
        });
    });
}

void PmSampler::stop() {
    std::lock_guard<std::mutex> stopping(m_stopMutex); // the exit handler and the tracer may both stop
    if (!m_thread.joinable())
        return;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_cv.notify_all();
    m_thread.join();
}

bool PmSampler::waitForContext() {
    using DeviceGet = int (*)(int*, int);
    using PrimaryState = int (*)(int, unsigned int*, int*);
    void* cuda = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!cuda)
        return false;
    auto deviceGet = reinterpret_cast<DeviceGet>(::dlsym(cuda, "cuDeviceGet"));
    auto primaryState = reinterpret_cast<PrimaryState>(::dlsym(cuda, "cuDevicePrimaryCtxGetState"));
    bool active = false;
    std::unique_lock<std::mutex> lock(m_mutex);
    while (deviceGet && primaryState && !m_stop) {
        lock.unlock();
        int dev = 0;
        unsigned int flags = 0;
        int isActive = 0;
        active = deviceGet(&dev, m_device) == 0 && primaryState(dev, &flags, &isActive) == 0 && isActive;
        lock.lock();
        if (active)
            break;
        m_cv.wait_for(lock, std::chrono::milliseconds(50), [this] { return m_stop; });
    }
    ::dlclose(cuda);
    return active;
}

void PmSampler::run() {
    // Never freed: sampling is never stopped (below), so CUPTI may still hold the configuration and
    // counter data images it was given until the driver releases the context at the end.
    Session& s = *new Session;
    if (!waitForContext() || !setUp(s))
        return;
    // Exit handlers run last-registered first. CUPTI's profiler registers its own teardown during
    // setUp (cuptiProfilerInitialize), after the tracer's handler: left running until the tracer's
    // finalize, this thread decoded into a torn-down sampler and corrupted the heap at exit
    // (issue #25: "malloc(): unsorted double linked list corrupted", no Footer). Registered now,
    // this stop runs before CUPTI's teardown.
    registerExitStop(this);
    std::unique_lock<std::mutex> lock(m_mutex);
    while (!m_stop) {
        m_cv.wait_for(lock, std::chrono::milliseconds(100), [this] { return m_stop; });
        lock.unlock();
        decode(s); // after stop() too: the last samples before exit
        lock.lock();
    }
    // No cuptiPmSamplingStop/Disable here. Measured on H200 (CUDA 13.0, driver 580.159): called
    // while the process exits, they corrupted the heap ("double free or corruption") or hung;
    // without them the process exits cleanly and the driver releases the sampler with the context.
}

bool PmSampler::setUp(Session& s) {
    const std::string where = "pm-sampling";
    auto fail = [&](const char* call, CUptiResult r) {
        m_report(true, where, static_cast<int>(r),
                 std::string("PM sampling (SM/tensor/DRAM activity) unavailable on device ") + std::to_string(m_device) +
                     ": " + call + ": " + resultText(r));
        return false;
    };
    CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE, nullptr};
    CUptiResult r = cuptiProfilerInitialize(&init);
    if (r != CUPTI_SUCCESS)
        return fail("cuptiProfilerInitialize", r);
    s.profilerInitialized = true;

    CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE, nullptr, 0, nullptr};
    chip.deviceIndex = static_cast<size_t>(m_device);
    if ((r = cuptiDeviceGetChipName(&chip)) != CUPTI_SUCCESS)
        return fail("cuptiDeviceGetChipName", r);
    s.chip = chip.pChipName;

    CUpti_PmSampling_GetCounterAvailability_Params avail{};
    avail.structSize = CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE;
    avail.deviceIndex = static_cast<size_t>(m_device);
    if ((r = cuptiPmSamplingGetCounterAvailability(&avail)) != CUPTI_SUCCESS)
        return fail("cuptiPmSamplingGetCounterAvailability", r);
    s.availability.resize(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = s.availability.data();
    if ((r = cuptiPmSamplingGetCounterAvailability(&avail)) != CUPTI_SUCCESS)
        return fail("cuptiPmSamplingGetCounterAvailability", r);

    auto newHost = [&](CUpti_Profiler_Host_Object** host) {
        CUpti_Profiler_Host_Initialize_Params p{};
        p.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
        p.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
        p.pChipName = s.chip.c_str();
        p.pCounterAvailabilityImage = s.availability.data();
        const CUptiResult res = cuptiProfilerHostInitialize(&p);
        *host = p.pHostObject;
        return res;
    };
    auto dropHost = [](CUpti_Profiler_Host_Object* host) {
        CUpti_Profiler_Host_Deinitialize_Params p{};
        p.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
        p.pHostObject = host;
        cuptiProfilerHostDeinitialize(&p);
    };
    auto addMetrics = [](CUpti_Profiler_Host_Object* host, std::vector<const char*>& names) {
        CUpti_Profiler_Host_ConfigAddMetrics_Params p{};
        p.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
        p.pHostObject = host;
        p.ppMetricNames = names.data();
        p.numMetrics = names.size();
        return cuptiProfilerHostConfigAddMetrics(&p);
    };

    // Pick the first candidate of each quantity that this chip accepts.
    std::string missing;
    for (const Quantity& q : quantities()) {
        bool found = false;
        for (const char* candidate : q.candidates) {
            CUpti_Profiler_Host_Object* probe = nullptr;
            if ((r = newHost(&probe)) != CUPTI_SUCCESS)
                return fail("cuptiProfilerHostInitialize", r);
            std::vector<const char*> one{candidate};
            found = addMetrics(probe, one) == CUPTI_SUCCESS;
            dropHost(probe);
            if (found) {
                s.metrics.push_back(candidate);
                s.metricIds.push_back(q.metricId);
                break;
            }
        }
        if (!found)
            missing += std::string(missing.empty() ? "" : ", ") + q.name;
    }
    // Keep what fits into one pass (PM sampling cannot replay), dropping from the end.
    while (!s.metrics.empty()) {
        if ((r = newHost(&s.host)) != CUPTI_SUCCESS)
            return fail("cuptiProfilerHostInitialize", r);
        if ((r = addMetrics(s.host, s.metrics)) != CUPTI_SUCCESS)
            return fail("cuptiProfilerHostConfigAddMetrics", r);
        CUpti_Profiler_Host_GetConfigImageSize_Params size{};
        size.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
        size.pHostObject = s.host;
        if ((r = cuptiProfilerHostGetConfigImageSize(&size)) != CUPTI_SUCCESS)
            return fail("cuptiProfilerHostGetConfigImageSize", r);
        s.config.resize(size.configImageSize);
        CUpti_Profiler_Host_GetConfigImage_Params image{};
        image.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
        image.pHostObject = s.host;
        image.configImageSize = s.config.size();
        image.pConfigImage = s.config.data();
        if ((r = cuptiProfilerHostGetConfigImage(&image)) != CUPTI_SUCCESS)
            return fail("cuptiProfilerHostGetConfigImage", r);
        CUpti_Profiler_Host_GetNumOfPasses_Params passes{};
        passes.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
        passes.configImageSize = s.config.size();
        passes.pConfigImage = s.config.data();
        if ((r = cuptiProfilerHostGetNumOfPasses(&passes)) != CUPTI_SUCCESS)
            return fail("cuptiProfilerHostGetNumOfPasses", r);
        if (passes.numOfPasses == 1)
            break;
        dropHost(s.host);
        s.host = nullptr;
        missing += std::string(missing.empty() ? "" : ", ") + s.metrics.back() + " (needs a second pass)";
        s.metrics.pop_back();
        s.metricIds.pop_back();
    }
    if (s.metrics.empty()) {
        m_report(true, where, 0, "PM sampling unavailable on " + s.chip + ": no supported metric (" + missing + ")");
        return false;
    }

    CUpti_PmSampling_Enable_Params enable{};
    enable.structSize = CUpti_PmSampling_Enable_Params_STRUCT_SIZE;
    enable.deviceIndex = static_cast<size_t>(m_device);
    if ((r = cuptiPmSamplingEnable(&enable)) != CUPTI_SUCCESS)
        return fail("cuptiPmSamplingEnable", r);
    s.pm = enable.pPmSamplingObject;

    CUpti_PmSampling_SetConfig_Params config{};
    config.structSize = CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE;
    config.pPmSamplingObject = s.pm;
    config.configSize = s.config.size();
    config.pConfig = s.config.data();
    config.hardwareBufferSize = 64u << 20;
    config.samplingInterval = static_cast<uint64_t>(m_intervalUs) * 1000;
    config.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
    config.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
    if ((r = cuptiPmSamplingSetConfig(&config)) != CUPTI_SUCCESS)
        return fail("cuptiPmSamplingSetConfig", r);

    CUpti_PmSampling_GetCounterDataSize_Params dataSize{};
    dataSize.structSize = CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE;
    dataSize.pPmSamplingObject = s.pm;
    dataSize.pMetricNames = s.metrics.data();
    dataSize.numMetrics = s.metrics.size();
    dataSize.maxSamples = kMaxSamples;
    if ((r = cuptiPmSamplingGetCounterDataSize(&dataSize)) != CUPTI_SUCCESS)
        return fail("cuptiPmSamplingGetCounterDataSize", r);
    s.counterData.resize(dataSize.counterDataSize);
    CUpti_PmSampling_CounterDataImage_Initialize_Params initData{};
    initData.structSize = CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE;
    initData.pPmSamplingObject = s.pm;
    initData.counterDataSize = s.counterData.size();
    initData.pCounterData = s.counterData.data();
    if ((r = cuptiPmSamplingCounterDataImageInitialize(&initData)) != CUPTI_SUCCESS)
        return fail("cuptiPmSamplingCounterDataImageInitialize", r);

    CUpti_PmSampling_Start_Params startParams{};
    startParams.structSize = CUpti_PmSampling_Start_Params_STRUCT_SIZE;
    startParams.pPmSamplingObject = s.pm;
    if ((r = cuptiPmSamplingStart(&startParams)) != CUPTI_SUCCESS)
        return fail("cuptiPmSamplingStart", r);
    s.started = true;

    std::string out;
    std::string names;
    for (size_t i = 0; i < s.metrics.size(); ++i) {
        const Quantity* q = nullptr;
        for (const Quantity& candidate : quantities())
            if (candidate.metricId == s.metricIds[i])
                q = &candidate;
        appendRecord(out, MetricDescriptorRecord{s.metricIds[i], static_cast<uint8_t>(MetricSource::PmSampling),
                                                 q ? q->name : s.metrics[i], "%"});
        names += std::string(names.empty() ? "" : ", ") + s.metrics[i];
    }
    m_queue->push(std::move(out));
    std::string info = "PM sampling on device " + std::to_string(m_device) + " (" + s.chip + ") every " +
                       std::to_string(m_intervalUs) + " us: " + names;
    if (!missing.empty())
        info += "; not available: " + missing;
    m_report(false, where, 0, info);
    return true;
}

void PmSampler::decode(Session& s) {
    if (!s.started)
        return;
    // Each round decodes what the hardware buffer holds into a freshly initialized counter data
    // image, evaluates every completed sample and resets the image, until the buffer is drained.
    for (int round = 0; round < 16; ++round) {
        CUpti_PmSampling_DecodeData_Params d{};
        d.structSize = CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE;
        d.pPmSamplingObject = s.pm;
        d.pCounterDataImage = s.counterData.data();
        d.counterDataImageSize = s.counterData.size();
        const CUptiResult r = cuptiPmSamplingDecodeData(&d);
        if (r != CUPTI_SUCCESS) {
            m_report(true, "pm-sampling", static_cast<int>(r),
                     "cuptiPmSamplingDecodeData: " + resultText(r) + "; PM sampling stopped");
            s.started = false;
            return;
        }
        if (d.overflow && !s.warnedOverflow) {
            s.warnedOverflow = true;
            m_report(true, "pm-sampling", 0, "PM sampling hardware buffer overflowed; some samples were lost");
        }
        CUpti_PmSampling_GetCounterDataInfo_Params info{};
        info.structSize = CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE;
        info.pCounterDataImage = s.counterData.data();
        info.counterDataImageSize = s.counterData.size();
        if (cuptiPmSamplingGetCounterDataInfo(&info) != CUPTI_SUCCESS)
            return;
        std::string out;
        std::vector<double> values(s.metrics.size());
        const size_t completed = std::min<size_t>(info.numCompletedSamples, kMaxSamples);
        for (size_t i = 0; i < completed; ++i) {
            CUpti_PmSampling_CounterData_GetSampleInfo_Params sample{};
            sample.structSize = CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE;
            sample.pPmSamplingObject = s.pm;
            sample.pCounterDataImage = s.counterData.data();
            sample.counterDataImageSize = s.counterData.size();
            sample.sampleIndex = i;
            if (cuptiPmSamplingCounterDataGetSampleInfo(&sample) != CUPTI_SUCCESS)
                continue;
            CUpti_Profiler_Host_EvaluateToGpuValues_Params eval{};
            eval.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE;
            eval.pHostObject = s.host;
            eval.pCounterDataImage = s.counterData.data();
            eval.counterDataImageSize = s.counterData.size();
            eval.rangeIndex = i;
            eval.ppMetricNames = s.metrics.data();
            eval.numMetrics = s.metrics.size();
            eval.pMetricValues = values.data();
            if (cuptiProfilerHostEvaluateToGpuValues(&eval) != CUPTI_SUCCESS)
                continue;
            for (size_t m = 0; m < values.size(); ++m)
                appendRecord(out, MetricSampleRecord{sample.startTimestamp, static_cast<uint32_t>(m_device),
                                                     s.metricIds[m], values[m]});
        }
        m_queue->push(std::move(out));
        CUpti_PmSampling_CounterDataImage_Initialize_Params initData{};
        initData.structSize = CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE;
        initData.pPmSamplingObject = s.pm;
        initData.counterDataSize = s.counterData.size();
        initData.pCounterData = s.counterData.data();
        if (cuptiPmSamplingCounterDataImageInitialize(&initData) != CUPTI_SUCCESS) {
            s.started = false;
            return;
        }
        if (d.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_END_OF_RECORDS)
            return;
    }
}

} // namespace ws
