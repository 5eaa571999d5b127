#include "inject/tracer.h"

#include "format/activitylist.h"
#include "format/wscapcodec.h"
#include "inject/apifilter.h"
#include "inject/hostticks.h"
#include "inject/ittrecorder.h"
#include "inject/operatorwindows.h"
#include "inject/ncclrecorder.h"
#include "inject/nvtxrecorder.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace ws {

using namespace wscap;

namespace {

struct KindChoice {
    uint32_t bit;
    CUpti_ActivityKind kind;
};
constexpr KindChoice kKinds[] = {
    {ActKernel, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL},
    {ActMemcpy, CUPTI_ACTIVITY_KIND_MEMCPY},
    {ActMemcpy, CUPTI_ACTIVITY_KIND_MEMCPY2},
    {ActMemset, CUPTI_ACTIVITY_KIND_MEMSET},
    {ActRuntime, CUPTI_ACTIVITY_KIND_RUNTIME},
    {ActDriver, CUPTI_ACTIVITY_KIND_DRIVER},
    {ActSync, CUPTI_ACTIVITY_KIND_SYNCHRONIZATION},
    {ActMemory, CUPTI_ACTIVITY_KIND_MEMORY2},
    {ActNvtx, CUPTI_ACTIVITY_KIND_MARKER},
    {ActNvtx, CUPTI_ACTIVITY_KIND_MARKER_DATA},
    {ActOverhead, CUPTI_ACTIVITY_KIND_OVERHEAD},
    {ActExternalCorrelation, CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION},
};

std::string cuptiMessage(CUptiResult r) {
    const char* text = nullptr;
    if (cuptiGetResultString(r, &text) != CUPTI_SUCCESS || !text)
        return "CUPTI error " + std::to_string(static_cast<int>(r));
    std::string message = text;
    if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
        message += " (GPU performance counters are restricted to admin users: see "
                   "https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
    return message;
}

std::vector<std::string> commandLine() {
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    std::vector<std::string> args;
    std::string arg;
    while (std::getline(in, arg, '\0'))
        args.push_back(arg);
    return args;
}

int32_t rankFromEnvironment() {
    for (const char* var : {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"})
        if (const char* v = std::getenv(var); v && *v)
            return static_cast<int32_t>(std::strtol(v, nullptr, 10));
    return -1;
}

uint32_t cudaDriverVersion() {
    void* cuda = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!cuda)
        return 0;
    int version = 0;
    using Fn = int (*)(int*);
    if (auto fn = reinterpret_cast<Fn>(::dlsym(cuda, "cuDriverGetVersion")))
        fn(&version);
    ::dlclose(cuda);
    return static_cast<uint32_t>(version);
}

} // namespace

Tracer& Tracer::instance() {
    // Never destroyed: CUPTI may still call back while the process runs its exit handlers.
    static Tracer* tracer = new Tracer();
    return *tracer;
}

uint64_t Tracer::timestamp() const {
    uint64_t ts = 0;
    if (cuptiGetTimestamp(&ts) != CUPTI_SUCCESS) {
        timespec t{};
        ::clock_gettime(CLOCK_REALTIME, &t);
        ts = static_cast<uint64_t>(t.tv_sec) * 1000000000ull + static_cast<uint64_t>(t.tv_nsec);
    }
    return ts;
}


void Tracer::report(ErrorSeverity severity, const std::string& where, int code, const std::string& message) {
    ErrorRecord e;
    e.timestamp = timestamp();
    e.severity = static_cast<uint8_t>(severity);
    e.code = code;
    e.where = where;
    e.message = message;
    std::string bytes;
    appendRecord(bytes, e);
    m_queue.push(std::move(bytes));
    // One line per problem on stderr; after a fatal error the rest only go to the stream.
    if (severity == ErrorSeverity::Info || m_printedError.load())
        return;
    if (severity == ErrorSeverity::Error)
        m_printedError = true;
    std::fprintf(stderr, "[warpscope] %s: %s: %s%s\n", severity == ErrorSeverity::Error ? "error" : "warning",
                 where.c_str(), message.c_str(), severity == ErrorSeverity::Error ? "; tracing stopped" : "");
}

bool Tracer::check(CUptiResult result, const char* where, bool fatal) {
    if (result == CUPTI_SUCCESS)
        return true;
    report(fatal ? ErrorSeverity::Error : ErrorSeverity::Warning, where, static_cast<int>(result), cuptiMessage(result));
    if (fatal) {
        m_stopRequested = true;
        m_queue.notify();
    }
    return false;
}

void Tracer::writeStreamHeader() {
    StreamHeaderRecord h;
    h.pid = static_cast<uint32_t>(m_pid);
    h.parentPid = static_cast<uint32_t>(::getppid());
    char host[256] = {};
    ::gethostname(host, sizeof(host) - 1);
    h.hostname = host;
    timespec t{};
    ::clock_gettime(CLOCK_REALTIME, &t);
    h.startWallNs = static_cast<uint64_t>(t.tv_sec) * 1000000000ull + static_cast<uint64_t>(t.tv_nsec);
    cuptiGetTimestamp(&h.startCuptiNs);
    h.commandLine = commandLine();
    uint32_t version = 0;
    if (cuptiGetVersion(&version) == CUPTI_SUCCESS)
        h.cuptiApiVersion = version;
    h.cudaDriverVersion = cudaDriverVersion();
    h.nvidiaDriverVersion = m_nvml.driverVersion();
    h.captureName = m_config.name;
    h.rank = rankFromEnvironment();
    h.activities = m_config.activities;
    h.flushPeriodMs = m_config.flushMs;
    h.sampleHz = (m_config.activities & ActNvml) ? m_config.sampleHz : 0;
    std::string bytes;
    appendRecord(bytes, h);
    std::string error;
    m_writer.write(bytes, &error);
}

bool Tracer::initialize() {
    std::lock_guard<std::mutex> lock(m_initMutex);
    if (m_initialized)
        return true;
    m_initialized = true;
    m_pid = ::getpid();
    std::vector<std::string> warnings;
    m_config = InjectConfig::fromEnvironment(&warnings);
    // Before any communicator exists: NCCL asks at ncclCommInitRank whether to report to us.
    NcclRecorder::instance().configure(m_config.activities & ActCollectives);
    ::mkdir(m_config.outputDir.c_str(), 0755); // EEXIST is fine; open() reports real problems
    std::string error;
    // <host>-<pid>.wscap, never replacing a stream: the processes of a multi-node job writing into
    // one shared folder may have equal pids, and a second run may write into the same folder.
    char host[256] = {};
    ::gethostname(host, sizeof(host) - 1);
    std::string path;
    if (!m_writer.createNew(m_config.outputDir, streamStem(host, static_cast<uint32_t>(m_pid)), &path, &error)) {
        std::fprintf(stderr, "[warpscope] error: %s; nothing is captured for process %d\n", error.c_str(), m_pid);
        m_closed = true;
        return false;
    }
    std::string nvmlWhy;
    const bool haveNvml = (m_config.activities & ActNvml) && m_nvml.load(&nvmlWhy);
    writeStreamHeader();
    for (const std::string& w : warnings)
        report(ErrorSeverity::Warning, "configuration", 0, w);
    if ((m_config.activities & ActNvml) && !haveNvml)
        report(ErrorSeverity::Warning, "nvml", 0, nvmlWhy);

    check(cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM), "cuptiSetThreadIdType", false);
    // The counter is chosen before anything records, and the line starts before the first launch.
    HostTicks::choose();
    {
        std::lock_guard<std::mutex> encoding(m_encoderMutex);
        HostTicks::calibrate(m_tickLine);
    }
    if (m_config.benchCallbacks)
        benchCallbacks(m_config.benchCallbacks);
    LaunchCallbacks::setSelfTiming(m_config.timeCallbacks);
    {
        // Our buffers come zeroed (bufferRequested), so CUPTI need not zero them in the program's launches.
        uint8_t zeroed = 1;
        size_t size = sizeof zeroed;
        check(cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &size, &zeroed),
              "cuptiActivitySetAttribute(ZEROED_OUT_ACTIVITY_BUFFER)", false);
    }
    check(cuptiActivityRegisterCallbacks(&Tracer::bufferRequested, &Tracer::bufferCompleted),
          "cuptiActivityRegisterCallbacks", true);
    if (!m_stopRequested) {
        check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DEVICE), "cuptiActivityEnable(DEVICE)", false);
        if (m_config.activities & ActGraphs)
            watchGraphs();
        // --graph-trace=graph: CUPTI traces each replay as one record and none of its nodes. Enabled
        // once, before any graph is instantiated, and never switched with the recording: enabled after
        // a graph's instantiation (a capture paused by --capture-range at start-up), its replays
        // crashed the process (SIGSEGV, CUDA 13.0 driver 580, H200). The importer keeps the replays
        // inside the recorded spans.
        if (m_config.activities & ActGraphTrace)
            check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_GRAPH_TRACE), "cuptiActivityEnable(GRAPH_TRACE)", false);
        check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONTEXT), "cuptiActivityEnable(CONTEXT)", false);
        if (m_config.profilerApiRange) {
            std::string why;
            m_rangeMode = m_callbacks.watchProfilerApi(&Tracer::onProfilerRange, &why);
            if (!m_rangeMode) {
                report(ErrorSeverity::Warning, "capture range", 0,
                       why + "; recording everything instead of the cudaProfilerStart/Stop ranges");
                OperatorWindows::instance().resume(); // it started paused, from the environment
            }
        }
        if (m_config.delayMs == 0 && !m_rangeMode)
            enableActivities();
    }
    m_writerThread = std::thread([this] { writerLoop(); });
    if (haveNvml && !m_stopRequested)
        m_nvml.start(m_config.sampleHz, &m_queue, [this] { return timestamp(); });
    if ((m_config.activities & ActHost) && !m_stopRequested)
        m_host.start(m_config.sampleHz, &m_queue, [this] { return timestamp(); });
    if ((m_config.activities & ActPySample) && !m_stopRequested)
        m_pySampler.start(m_config.pySampleHz, &m_queue, [this] { return timestamp(); },
                          [this](bool warning, const std::string& message) {
                              report(warning ? ErrorSeverity::Warning : ErrorSeverity::Info, "pysample", 0, message);
                          });
    if ((m_config.activities & ActPmSampling) && !m_stopRequested) {
        // PM sampling is device-wide: sample the device this process most likely drives (a launcher
        // such as torchrun says so in LOCAL_RANK), not every GPU from every rank.
        int device = 0;
        if (const char* local = std::getenv("LOCAL_RANK"); local && *local)
            device = static_cast<int>(std::strtol(local, nullptr, 10));
        m_pm.start(device, m_config.pmIntervalUs, &m_queue,
                   [this](bool warning, const std::string& where, int code, const std::string& message) {
                       report(warning ? ErrorSeverity::Warning : ErrorSeverity::Info, where, code, message);
                   });
    }
    return true;
}

void Tracer::benchCallbacks(uint32_t n) {
    using Clock = std::chrono::steady_clock;
    auto nsPerRead = [n](auto read) {
        uint64_t sum = 0;
        const auto start = Clock::now();
        for (uint32_t i = 0; i < n; ++i)
            sum += read();
        const std::chrono::duration<double, std::nano> spent = Clock::now() - start;
        __asm__ volatile("" : : "r"(sum) : "memory"); // the reads are used: not optimized away
        return spent.count() / n;
    };
    double launchNs = 0;
    {
        LaunchRecorder scratch; // the simulated launches stay out of the capture
        scratch.setRecording(true);
        launchNs = LaunchCallbacks::benchLaunches(&scratch, n);
    }
    const double ticksNs = nsPerRead([] { return HostTicks::now(); });
    const double cuptiNs = nsPerRead([] { return cuptiNow(); });
    char message[256];
    std::snprintf(message, sizeof message,
                  "launch callbacks: %.1f ns per launch (entry and exit, without CUPTI's dispatch); clock read: "
                  "%.1f ns (%s), cuptiGetTimestamp %.1f ns; %u of each",
                  launchNs, ticksNs, HostTicks::counting() ? "hardware counter" : "CUPTI's clock", cuptiNs, n);
    report(ErrorSeverity::Info, "callback bench", 0, message);
    std::fprintf(stderr, "[warpscope] %s\n", message);
}

void Tracer::reportCallbackTime() {
    const auto [ticks, calls] = LaunchCallbacks::selfTime();
    uint64_t ns = ticks;
    if (HostTicks::counting()) {
        std::lock_guard<std::mutex> encoding(m_encoderMutex);
        HostTicks::calibrate(m_tickLine);
        const uint64_t end = HostTicks::now();
        ns = m_tickLine.toNs(end) - m_tickLine.toNs(end - std::min(ticks, end));
    }
    char message[200];
    std::snprintf(message, sizeof message, "launch callbacks in the program: %llu callbacks, %.1f ns each, %.3f ms in all",
                  static_cast<unsigned long long>(calls), calls ? static_cast<double>(ns) / calls : 0.0, ns / 1e6);
    report(ErrorSeverity::Info, "callback time", 0, message);
    std::fprintf(stderr, "[warpscope] %s\n", message);
}

bool Tracer::enableActivities() {
    for (const KindChoice& k : kKinds) {
        if (!(m_config.activities & k.bit))
            continue;
        if (!check(cuptiActivityEnable(k.kind), "cuptiActivityEnable", true))
            return false;
        m_enabledKinds.push_back(k.kind);
    }
    if (!(m_config.activities & ActChattyApi))
        disableChattyApiRecords(m_config.activities & ActRuntime, m_config.activities & ActDriver);
    startCallbacks();
    NvtxRecorder::instance().setRecording(m_config.activities & ActNvtx);
    IttRecorder::instance().setRecording(m_config.activities & ActNvtx);
    NcclRecorder::instance().setRecording(m_config.activities & ActCollectives);
    m_collecting = true;
    return true;
}

void Tracer::startCallbacks() {
    // With `driver`, CUPTI records every driver call, launches included.
    const bool launches = (m_config.activities & ActLaunches) && !(m_config.activities & ActDriver);
    const bool stacks = m_config.activities & (ActStacks | ActPyStacks);
    // NCCL's kernel launches name the collectives they carry out (NcclRecorder), seen by the callbacks.
    const bool collectives = m_config.activities & ActCollectives;
    // The sampler's samples say which blocking CUDA call their thread is in (CudaCallWatch).
    const bool watchCalls = m_config.activities & ActPySample;
    if (!launches && !stacks && !collectives && !watchCalls)
        return;
    configureStacks();
    // Optional: the kernels are recorded without them, so a refusal is a warning (and said in it).
    std::string why;
    // Without the runtime's records, every launch is found at the driver (LaunchCallbacks).
    const bool atDriver = !(m_config.activities & ActRuntime);
    if (!m_callbacks.start(launches ? &m_launches : nullptr, stacks ? &m_stacks : nullptr, watchCalls, atDriver,
                           &why)) {
        report(ErrorSeverity::Warning, "callbacks", 0,
               why + (launches ? (atDriver ? "; kernels get no launching call, operator or stack"
                                           : "; kernels launched through the driver API (cuBLASLt, cuDNN, Triton) get no "
                                             "launching call, operator or stack")
                               : "") +
                   (stacks ? "; call stacks are not recorded" : "") +
                   (collectives ? "; NCCL kernels get no collective sizes" : ""));
        return;
    }
    m_launches.setRecording(launches);
    if (stacks)
        m_stacks.start();
}

bool Tracer::configureStacks() {
    if (!(m_config.activities & (ActStacks | ActPyStacks)))
        return false;
    m_stacks.configure((m_config.activities & ActStacks) ? static_cast<int>(m_config.stackDepth) : 0,
                       (m_config.activities & ActPyStacks) ? static_cast<int>(m_config.pythonStackDepth) : 0);
    return true;
}

void Tracer::watchGraphs() {
    // A node's stacks are taken when it is made, also while recording is paused (GraphRecorder).
    m_graphs.configure(configureStacks() ? &m_stacks : nullptr);
    std::string why;
    if (!m_callbacks.watchGraphs(&m_graphs, &why))
        report(ErrorSeverity::Warning, "graphs", 0,
               why + "; a replayed CUDA graph's kernels get no operator or Python line of their own");
}

void Tracer::disableActivities() {
    m_stacks.stop();
    m_launches.setRecording(false);
    NvtxRecorder::instance().setRecording(false);
    IttRecorder::instance().setRecording(false);
    NcclRecorder::instance().setRecording(false);
    for (CUpti_ActivityKind kind : m_enabledKinds)
        cuptiActivityDisable(kind);
    m_enabledKinds.clear();
    m_collecting = false;
}

void Tracer::onProfilerRange(bool start) {
    Tracer& t = instance();
    // PyTorch's RecordFunction is switched on the thread that owns it: at a stop, when that is this
    // one. The writer thread switches the rest.
    if (start)
        OperatorWindows::instance().resume();
    else
        OperatorWindows::instance().pause();
    t.m_rangeWanted.store(start);
    t.m_queue.notify();
    // The range begins and ends at the call, as the program means it: wait (bounded, never hang the
    // program) until the writer thread has switched. CUPTI is not switched here, inside its callback.
    if (!t.m_started.load() || t.m_exitRequested.load() || t.m_closed.load())
        return;
    std::unique_lock<std::mutex> lock(t.m_rangeMutex);
    if (!t.m_rangeSwitched.wait_for(lock, std::chrono::seconds(2), [&t, start] {
            return t.m_collecting.load() == start || t.m_rangeWanted.load() != start || t.m_closed.load();
        }) &&
        !t.m_warnedRangeWait.exchange(true))
        t.report(ErrorSeverity::Warning, "capture range", 0,
                 std::string("recording took over 2 s to ") + (start ? "start" : "stop") +
                     " at cudaProfiler" + (start ? "Start" : "Stop") + "; the range's edges are approximate");
}

void Tracer::pauseRecording() {
    disableActivities();
    m_callbacks.setPaused(true);
    closeRange();
}

void Tracer::closeRange() {
    if (!m_rangeStart)
        return;
    const uint64_t now = timestamp();
    m_rangeNs += now - m_rangeStart;
    std::string bytes;
    appendRecord(bytes, RecordingRecord{m_rangeStart, now});
    m_queue.push(std::move(bytes));
    m_rangeStart = 0;
}

void Tracer::resumeRecording() {
    m_callbacks.setPaused(false);
    if (!enableActivities())
        return;
    ++m_ranges;
    m_rangeStart = timestamp();
}

void Tracer::writeThreadRecords(bool final) {
    std::vector<std::string> chunk(1);
    m_stacks.take(chunk[0]);
    {
        std::lock_guard<std::mutex> lock(m_encoderMutex);
        const auto intern = [this](std::string_view name, std::string& out) { return m_encoder.intern(name, out); };
        NvtxRecorder::instance().take(static_cast<uint32_t>(m_pid), intern, chunk[0]);
        HostTicks::calibrate(m_tickLine); // before the takes: their ticks are (nearly all) inside the line
        IttRecorder::instance().take(static_cast<uint32_t>(m_pid), intern, m_tickLine, chunk[0]);
        NcclRecorder::instance().take(intern, chunk[0]);
        OperatorWindows::instance().take(static_cast<uint32_t>(m_pid), final, chunk[0]);
        m_graphs.take(static_cast<uint32_t>(m_pid), m_tickLine, chunk[0]);
        m_launches.take(
            static_cast<uint32_t>(m_pid),
            [this](uint32_t cbid, std::string& out) {
                return m_encoder.apiName(static_cast<uint8_t>(ApiDomain::Driver), cbid, out);
            },
            m_tickLine, chunk[0]);
    }
    if (!chunk[0].empty())
        writeQueued(std::move(chunk));
}

void Tracer::stopSamplers() {
    m_pySampler.stop();
    m_nvml.stop();
    m_host.stop();
    m_pm.stop();
}

void CUPTIAPI Tracer::bufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords) {
    Tracer& t = instance();
    *maxNumRecords = 0;
    *buffer = nullptr;
    *size = 0;
    if (t.m_forked || t.m_closed)
        return;
    const size_t bytes = t.m_config.bufferBytes;
    if (t.m_outstandingBytes.load() + bytes > t.m_config.maxBufferBytes) {
        // Declining makes CUPTI drop records, which it counts; better than exhausting host memory.
        if (!t.m_warnedRefusal.exchange(true))
            t.report(ErrorSeverity::Warning, "bufferRequested", 0,
                     "activity buffers reached WARPSCOPE_MAX_BUFFER_MB; records are being dropped");
        return;
    }
    uint8_t* b = nullptr;
    {
        std::lock_guard<std::mutex> lock(t.m_poolMutex);
        if (!t.m_pool.empty()) {
            b = t.m_pool.back();
            t.m_pool.pop_back();
        }
    }
    if (!b) // fresh pages are zero already: no memset on this (the program's) thread
        b = static_cast<uint8_t*>(std::calloc(1, bytes));
    if (!b)
        return;
    t.m_outstandingBytes += bytes;
    *buffer = b;
    *size = bytes;
}

void Tracer::releaseBuffer(uint8_t* buffer, bool zero) {
    if (!buffer)
        return;
    m_outstandingBytes -= m_config.bufferBytes;
    if (zero && poolHasRoom())
        addZeroedToPool(buffer);
    else
        std::free(buffer);
}

bool Tracer::poolHasRoom() {
    std::lock_guard<std::mutex> lock(m_poolMutex);
    return m_pool.size() < kPoolBuffers;
}

void Tracer::addZeroedToPool(uint8_t* buffer) {
    // CUPTI takes our buffers as zeroed (CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER): the writer
    // thread zeroes them, where CUPTI would zero each at its request, inside the program's next launch
    // (0.4 ms for 4 MB, per launching thread at every flush, issue #25). One thread adds at a time
    // (the writer, or finalize() after it ended), so the room poolHasRoom() saw is still there.
    std::memset(buffer, 0, m_config.bufferBytes);
    std::lock_guard<std::mutex> lock(m_poolMutex);
    m_pool.push_back(buffer);
}

void Tracer::fillBufferPool() {
    while (poolHasRoom()) {
        // Zeroed by touching every page here, not by CUPTI's first records in a launch.
        auto* b = static_cast<uint8_t*>(std::malloc(m_config.bufferBytes));
        if (!b)
            return;
        addZeroedToPool(b);
    }
}

void CUPTIAPI Tracer::bufferCompleted(CUcontext ctx, uint32_t streamId, uint8_t* buffer, size_t, size_t validSize) {
    Tracer& t = instance();
    if (t.m_forked)
        return; // the parent's locks may be held by threads that do not exist here: touch nothing
    t.onBufferCompleted(ctx, streamId, buffer, validSize);
}

void Tracer::onBufferCompleted(CUcontext ctx, uint32_t streamId, uint8_t* buffer, size_t validSize) {
    // Only hand the buffer over here: this may run on an application thread inside a CUPTI call,
    // and CUPTI may hold locks the application's next launch needs. The writer thread encodes it.
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(ctx, streamId, &dropped) == CUPTI_SUCCESS && dropped > 0) {
        m_dropped += dropped;
        try {
            std::string out;
            appendRecord(out, DroppedRecord{timestamp(), static_cast<uint8_t>(DropSource::Cupti), dropped});
            m_queue.push(std::move(out));
        } catch (const std::exception&) {
            // Out of memory: the Footer's total still counts these drops.
        }
    }
    if (validSize == 0 || m_closed) {
        releaseBuffer(buffer, false); // maybe on a program thread: freed, not zeroed here
        return;
    }
    {
        std::lock_guard<std::mutex> lock(m_bufferMutex);
        m_completedBuffers.emplace_back(buffer, validSize);
    }
    m_queue.notify();
}

void Tracer::encodeCompletedBuffers() {
    std::vector<std::pair<uint8_t*, size_t>> buffers;
    {
        std::lock_guard<std::mutex> lock(m_bufferMutex);
        buffers.swap(m_completedBuffers);
    }
    for (const auto& [buffer, validSize] : buffers) {
        try {
            std::string out;
            out.reserve(validSize);
            {
                std::lock_guard<std::mutex> lock(m_encoderMutex);
                m_encoder.encodeBuffer(buffer, validSize, out);
            }
            std::vector<std::string> chunk;
            chunk.push_back(std::move(out));
            writeQueued(std::move(chunk));
        } catch (const std::exception& e) {
            report(ErrorSeverity::Error, "encoding activity records", 0, e.what());
            m_stopRequested = true;
        }
        releaseBuffer(buffer, true);
    }
}

void Tracer::writeQueued(std::vector<std::string>&& chunks) {
    std::string error;
    for (std::string& c : chunks) {
        if (m_writer.isOpen() && !m_writer.write(c, &error)) {
            // The disk is full or gone: nothing more can be recorded, say so once and stop.
            std::fprintf(stderr, "[warpscope] error: %s; tracing stopped\n", error.c_str());
            m_writer.close();
            m_stopRequested = true;
        }
    }
}

void Tracer::closeStream(FooterReason reason) {
    encodeCompletedBuffers();
    writeThreadRecords(true);
    std::string tail;
    {
        std::lock_guard<std::mutex> lock(m_encoderMutex);
        m_encoder.finish(tail);
        appendRecord(tail, FooterRecord{timestamp(), static_cast<uint8_t>(reason), m_encoder.records(), m_dropped.load()});
    }
    writeQueued(m_queue.takeAll(std::chrono::steady_clock::now()));
    std::vector<std::string> last;
    last.push_back(std::move(tail));
    writeQueued(std::move(last));
    m_writer.close();
    m_closed = true;
}

void Tracer::writerLoop() {
    try {
        runWriter();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "[warpscope] error: writer thread: %s; tracing stopped\n", e.what());
        m_writer.close();
        m_closed = true;
    }
}

void Tracer::runWriter() {
    using Clock = std::chrono::steady_clock;
    const auto begin = Clock::now();
    const auto period = std::chrono::milliseconds(m_config.flushMs);
    const auto startAt = begin + std::chrono::milliseconds(m_config.delayMs);
    const auto stopAt = startAt + std::chrono::milliseconds(m_config.durationMs);
    auto nextFlush = begin + period;
    m_started = m_config.delayMs == 0;
    for (;;) {
        auto wake = nextFlush;
        if (!m_started && startAt < wake)
            wake = startAt;
        if (m_started && m_config.durationMs > 0 && stopAt < wake)
            wake = stopAt;
        writeQueued(m_queue.takeAll(wake));
        encodeCompletedBuffers();
        writeThreadRecords(false);
        if (m_collecting)
            fillBufferPool();
        if (m_exitRequested)
            return; // finalize() finishes the stream on its own thread
        if (m_stopRequested) {
            stopSamplers();
            disableActivities();
            cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
            closeRange();
            closeStream(FooterReason::Error);
            return;
        }
        const auto now = Clock::now();
        if (!m_started && now >= startAt) {
            m_started = true;
            if (!m_rangeMode)
                enableActivities();
        }
        if (m_rangeMode && m_started && m_rangeWanted.load() != m_collecting.load()) {
            m_rangeWanted.load() ? resumeRecording() : pauseRecording();
            { std::lock_guard<std::mutex> lock(m_rangeMutex); }
            m_rangeSwitched.notify_all();
        }
        if (m_started && m_config.durationMs > 0 && now >= stopAt) {
            stopSamplers();
            disableActivities();
            cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
            report(ErrorSeverity::Info, "duration", 0, "recording stopped after WARPSCOPE_DURATION_MS");
            closeRange();
            closeStream(FooterReason::TracingStopped);
            return;
        }
        if (now >= nextFlush) {
            if (m_collecting || m_rangeMode) // a paused range's last records come out too
                check(cuptiActivityFlushAll(0), "cuptiActivityFlushAll", true);
            encodeCompletedBuffers();
            writeQueued(m_queue.takeAll(Clock::now()));
            uint64_t records;
            {
                std::lock_guard<std::mutex> lock(m_encoderMutex);
                records = m_encoder.records();
            }
            std::string flush;
            appendRecord(flush, FlushRecord{timestamp(), ++m_flushSequence, records, m_dropped.load()});
            std::string error;
            if (m_writer.isOpen())
                m_writer.write(flush, &error);
            nextFlush += period;
            if (nextFlush < now)
                nextFlush = now + period;
        }
    }
}

void Tracer::finalize() {
    if (m_forked || !m_initialized || m_closed)
        return;
    m_exitRequested = true;
    m_queue.notify();
    if (m_writerThread.joinable())
        m_writerThread.join();
    stopSamplers();
    if (m_closed)
        return; // the writer already stopped tracing after an error or the duration
    if (m_rangeMode) {
        closeRange(); // the program exits inside a range
        const uint64_t ns = m_rangeNs;
        if (m_ranges == 0)
            report(ErrorSeverity::Warning, "capture range", 0,
                   "the program never called cudaProfilerStart (torch.cuda.profiler.start()), so nothing was recorded");
        else
            report(ErrorSeverity::Info, "capture range", 0,
                   "recorded " + std::to_string(m_ranges) + " range(s) between cudaProfilerStart and cudaProfilerStop, " +
                       std::to_string(ns / 1000000) + " ms in all");
    }
    if (m_collecting || m_rangeMode) {
        disableActivities();
        cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    }
    if (m_config.timeCallbacks)
        reportCallbackTime();
    closeStream(FooterReason::ProcessExit);
}

void Tracer::forkedChild() {
    m_forked = true;
    NvtxRecorder::instance().setRecording(false);
    IttRecorder::instance().setRecording(false);
    NcclRecorder::instance().setRecording(false);
    m_writer.close();
    m_closed = true;
    // The writer and sampler threads were not copied into the child. Their std::thread objects are
    // never touched again (the tracer is never destroyed), so nothing joins a thread that is not there.
}

} // namespace ws
