#pragma once

// The Warpscope capture stream ("wscap"): what warpscope_inject writes inside a profiled process
// and what core's importer reads. Header-only and dependency-free (standard library only) so the
// injection library, the capture tools and core can all include it.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ws::wscap {

/*
 * File layout
 * -----------
 *   FileHeader (16 bytes) then records until end of file.
 *   FileHeader: magic "WSCAP\0\r\n" (8 bytes; the CR/LF catch text-mode mangling), u16 major,
 *               u16 minor, u32 reserved (0).
 *   Record:     u16 type, u16 flags (0; reserved), u32 payload size N, then N payload bytes.
 *
 * All integers are little-endian; doubles are IEEE-754 binary64 little-endian; strings are
 * u32 byte length + UTF-8 bytes (no terminator); string lists are u32 count + strings; UUIDs are
 * 16 raw bytes; address lists are u32 count + u64 values. No padding anywhere.
 *
 * Compatibility rules (the invariants a reader relies on):
 *   - A reader refuses another major version and accepts any minor version.
 *   - Record types are never renumbered. A reader skips types it does not know by their size.
 *   - A minor version may only append fields at the end of a payload. A reader decodes the fields
 *     it knows and ignores trailing bytes; fields missing from a shorter payload keep defaults.
 *   - The writer only appends whole records, so a file cut anywhere (a killed process) holds a
 *     valid prefix; the reader returns every complete record and flags the torn tail.
 *
 * Times are uint64 ns in the CUPTI timestamp domain (CLOCK_REALTIME on Linux unless said
 * otherwise); StreamHeader gives the pair (wall clock, CUPTI clock) taken at the same moment.
 * Names (kernels, APIs, NVTX strings and domains, metric units) are interned: a String record
 * defines id -> text before any record that uses the id; id 0 means "none".
 *
 * One file per process: the launcher's output directory OUT holds OUT/<host>-<pid>.wscap.
 */

inline constexpr char kMagic[8] = {'W', 'S', 'C', 'A', 'P', '\0', '\r', '\n'};
inline constexpr uint16_t kVersionMajor = 1;
// 1.1: native call stacks at kernel launch (Module, StackDef, CallStack, Symbol records; ActStacks).
// 1.2: Python call stacks (PyFrame, PyStack records, CallStack.pyStackId; ActPyStacks).
// 1.3: NCCL collectives (Collective records; ActCollectives).
// 1.4: Python stack samples (PySample records; ActPySample).
// 1.5: operator windows (OpsWindow records); PySample's CUDA call in progress (cudaDomain, cudaCbid).
// 1.6: recorded spans of a capture that follows cudaProfilerStart/Stop (Recording records).
// 1.7: CUDA graphs: what each node was made from (GraphNode, GraphExec records), graph-level replays
//      (GraphTrace records, --graph-trace=graph).
inline constexpr uint16_t kVersionMinor = 7;
inline constexpr size_t kFileHeaderSize = 16;
inline constexpr size_t kRecordHeaderSize = 8;
// Sanity bound for one payload: anything larger is treated as corruption, not as a record.
inline constexpr uint32_t kMaxPayloadSize = 64u << 20;

using Uuid = std::array<uint8_t, 16>;

enum class RecordType : uint16_t {
    StreamHeader = 1,
    Device = 2,
    Context = 3,
    String = 4,
    Kernel = 5,
    Memcpy = 6,
    Memset = 7,
    Api = 8,
    Synchronization = 9,
    Memory = 10,
    NvtxRange = 11,
    NvtxMark = 12,
    Overhead = 13,
    Dropped = 14,
    MetricDescriptor = 15,
    MetricSample = 16,
    Error = 17,
    Flush = 18,
    Footer = 19,
    ExternalCorrelation = 20,
    MetricDevice = 21,
    Module = 22,
    StackDef = 23,
    CallStack = 24,
    Symbol = 25,
    PyFrame = 26,
    PyStack = 27,
    Collective = 28,
    PySample = 29,
    OpsWindow = 30,
    Recording = 31,
    GraphNode = 32,
    GraphExec = 33,
    GraphTrace = 34,
};
inline constexpr uint16_t kMaxKnownRecordType = 34;

inline const char* recordTypeName(uint16_t t) {
    static const char* const names[] = {"?",          "StreamHeader",     "Device",       "Context",
                                        "String",     "Kernel",           "Memcpy",       "Memset",
                                        "Api",        "Synchronization",  "Memory",       "NvtxRange",
                                        "NvtxMark",   "Overhead",         "Dropped",      "MetricDescriptor",
                                        "MetricSample", "Error",          "Flush",        "Footer",
                                        "ExternalCorrelation", "MetricDevice", "Module", "StackDef",
                                        "CallStack",  "Symbol", "PyFrame", "PyStack",
                                        "Collective", "PySample", "OpsWindow", "Recording",
                                        "GraphNode",  "GraphExec", "GraphTrace"};
    return t <= kMaxKnownRecordType ? names[t] : "Unknown";
}

// Bits of StreamHeader::activities (what the injection library was asked to record).
enum ActivityBit : uint32_t {
    ActKernel = 1u << 0,
    ActMemcpy = 1u << 1,
    ActMemset = 1u << 2,
    ActRuntime = 1u << 3,
    ActDriver = 1u << 4,
    ActSync = 1u << 5,
    ActMemory = 1u << 6,
    ActNvtx = 1u << 7,
    ActOverhead = 1u << 8,
    ActNvml = 1u << 9,
    ActPmSampling = 1u << 10,
    ActExternalCorrelation = 1u << 11,
    ActChattyApi = 1u << 12, // also record query-only API calls (cudaGetDevice, ...) that are filtered by default
    ActStacks = 1u << 13,    // native call stack at each kernel / graph launch (CallStack records)
    ActHost = 1u << 14,      // CPU use of the process and its children, its RSS, host memory (MetricSample, source Host)
    ActPyStacks = 1u << 15,  // CPython frames at each launch, memcpy, memset and allocation call (PyFrame/PyStack)
    ActLaunches = 1u << 16,  // driver-API kernel and graph launches as Api records, without the rest of the driver domain
    ActCollectives = 1u << 17, // NCCL's collective calls as its profiler plugin reports them (Collective records)
    ActPySample = 1u << 18,    // every Python thread's stack sampled at a fixed rate (PySample records)
    ActGraphs = 1u << 19,      // what each CUDA graph node was made from (GraphNode, GraphExec records)
    ActGraphTrace = 1u << 20,  // a graph replay as one record (GraphTrace), its nodes not traced (--graph-trace=graph)
};

enum class ApiDomain : uint8_t { Runtime = 0, Driver = 1 };
enum class ErrorSeverity : uint8_t { Info = 0, Warning = 1, Error = 2 };
enum class MetricSource : uint8_t { Nvml = 0, PmSampling = 1, Host = 2 }; // Host: the traced process's CPU and memory
enum class DropSource : uint8_t { Cupti = 0, BufferRefused = 1 };
enum class FooterReason : uint8_t { ProcessExit = 0, TracingStopped = 1, Error = 2 };

/*
 * Record structs. Each lists its fields in wire order in fields(self, visitor): the one place
 * that defines the layout, used by the encoder, the decoder and the text printer. Enum-like
 * fields keep CUPTI's numeric values (FORMATS.md 6.5) so nothing is lost in translation.
 */

struct StreamHeaderRecord {
    static constexpr RecordType kType = RecordType::StreamHeader;
    uint32_t pid = 0;
    uint32_t parentPid = 0;
    std::string hostname;
    uint64_t startWallNs = 0;  // CLOCK_REALTIME
    uint64_t startCuptiNs = 0; // cuptiGetTimestamp() at the same moment (0 when unknown)
    std::vector<std::string> commandLine;
    uint32_t cuptiApiVersion = 0;
    uint32_t cudaDriverVersion = 0; // e.g. 13000
    std::string nvidiaDriverVersion; // from NVML, "" when unknown
    std::string captureName;
    int32_t rank = -1; // RANK (or OMPI/PMI rank) from the environment, -1 when not set
    uint32_t activities = 0; // ActivityBit
    uint32_t flushPeriodMs = 0;
    uint32_t sampleHz = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("pid", s.pid); v("parentPid", s.parentPid); v("hostname", s.hostname);
        v("startWallNs", s.startWallNs); v("startCuptiNs", s.startCuptiNs);
        v("commandLine", s.commandLine); v("cuptiApiVersion", s.cuptiApiVersion);
        v("cudaDriverVersion", s.cudaDriverVersion); v("nvidiaDriverVersion", s.nvidiaDriverVersion);
        v("captureName", s.captureName); v("rank", s.rank); v("activities", s.activities);
        v("flushPeriodMs", s.flushPeriodMs); v("sampleHz", s.sampleHz);
    }
};

struct DeviceRecord {
    static constexpr RecordType kType = RecordType::Device;
    uint32_t id = 0; // CUDA device ordinal as seen by the process
    std::string name;
    Uuid uuid{};
    uint32_t smCount = 0;
    uint32_t ccMajor = 0;
    uint32_t ccMinor = 0;
    uint64_t globalMemoryBytes = 0;
    uint64_t memoryBandwidthKBs = 0;
    uint32_t l2CacheBytes = 0;
    uint32_t coreClockKHz = 0;
    uint32_t threadsPerWarp = 0;
    uint32_t maxWarpsPerSm = 0; // max threads per SM = maxWarpsPerSm * threadsPerWarp
    uint32_t maxBlocksPerSm = 0;
    uint32_t registersPerSm = 0;
    uint32_t sharedMemoryPerSm = 0;
    uint32_t maxThreadsPerBlock = 0;
    uint32_t maxRegistersPerBlock = 0;
    uint32_t maxSharedMemoryPerBlock = 0;
    uint8_t migEnabled = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("id", s.id); v("name", s.name); v("uuid", s.uuid); v("smCount", s.smCount);
        v("ccMajor", s.ccMajor); v("ccMinor", s.ccMinor); v("globalMemoryBytes", s.globalMemoryBytes);
        v("memoryBandwidthKBs", s.memoryBandwidthKBs); v("l2CacheBytes", s.l2CacheBytes);
        v("coreClockKHz", s.coreClockKHz); v("threadsPerWarp", s.threadsPerWarp);
        v("maxWarpsPerSm", s.maxWarpsPerSm); v("maxBlocksPerSm", s.maxBlocksPerSm);
        v("registersPerSm", s.registersPerSm); v("sharedMemoryPerSm", s.sharedMemoryPerSm);
        v("maxThreadsPerBlock", s.maxThreadsPerBlock); v("maxRegistersPerBlock", s.maxRegistersPerBlock);
        v("maxSharedMemoryPerBlock", s.maxSharedMemoryPerBlock); v("migEnabled", s.migEnabled);
    }
};

struct ContextRecord {
    static constexpr RecordType kType = RecordType::Context;
    uint32_t contextId = 0;
    uint32_t deviceId = 0;
    uint32_t nullStreamId = 0;
    uint8_t isGreenContext = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("contextId", s.contextId); v("deviceId", s.deviceId); v("nullStreamId", s.nullStreamId);
        v("isGreenContext", s.isGreenContext);
    }
};

struct StringRecord {
    static constexpr RecordType kType = RecordType::String;
    uint32_t id = 0; // > 0, unique per file
    std::string text;
    template <class S, class V> static void fields(S& s, V& v) { v("id", s.id); v("text", s.text); }
};

// A kernel as CUPTI CONCURRENT_KERNEL reports it; nameId is the mangled name.
struct KernelRecord {
    static constexpr RecordType kType = RecordType::Kernel;
    uint64_t start = 0;
    uint64_t end = 0;
    uint32_t deviceId = 0;
    uint32_t contextId = 0;
    uint32_t streamId = 0;
    uint32_t correlationId = 0;
    int32_t gridX = 0, gridY = 0, gridZ = 0;
    int32_t blockX = 0, blockY = 0, blockZ = 0;
    uint32_t registersPerThread = 0;
    int32_t staticSharedMemory = 0;
    int32_t dynamicSharedMemory = 0;
    uint32_t localMemoryPerThread = 0;
    uint32_t nameId = 0;
    uint32_t graphId = 0;
    uint64_t graphNodeId = 0;
    int64_t gridId = 0;
    uint64_t queued = 0;    // 0 unless latency timestamps were enabled
    uint64_t submitted = 0;
    uint8_t launchType = 0;
    uint8_t isDeviceLaunched = 0;
    uint32_t clusterX = 0, clusterY = 0, clusterZ = 0;
    uint32_t sharedMemoryExecuted = 0;
    uint32_t channelId = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("start", s.start); v("end", s.end); v("deviceId", s.deviceId); v("contextId", s.contextId);
        v("streamId", s.streamId); v("correlationId", s.correlationId);
        v("gridX", s.gridX); v("gridY", s.gridY); v("gridZ", s.gridZ);
        v("blockX", s.blockX); v("blockY", s.blockY); v("blockZ", s.blockZ);
        v("registersPerThread", s.registersPerThread); v("staticSharedMemory", s.staticSharedMemory);
        v("dynamicSharedMemory", s.dynamicSharedMemory); v("localMemoryPerThread", s.localMemoryPerThread);
        v("nameId", s.nameId); v("graphId", s.graphId); v("graphNodeId", s.graphNodeId);
        v("gridId", s.gridId); v("queued", s.queued); v("submitted", s.submitted);
        v("launchType", s.launchType); v("isDeviceLaunched", s.isDeviceLaunched);
        v("clusterX", s.clusterX); v("clusterY", s.clusterY); v("clusterZ", s.clusterZ);
        v("sharedMemoryExecuted", s.sharedMemoryExecuted); v("channelId", s.channelId);
    }
};

// MEMCPY and MEMCPY2 (peer-to-peer). For plain copies srcDeviceId == dstDeviceId == deviceId.
struct MemcpyRecord {
    static constexpr RecordType kType = RecordType::Memcpy;
    uint64_t start = 0;
    uint64_t end = 0;
    uint64_t bytes = 0;
    uint32_t deviceId = 0;
    uint32_t contextId = 0;
    uint32_t streamId = 0;
    uint32_t correlationId = 0;
    uint32_t runtimeCorrelationId = 0;
    uint8_t copyKind = 0; // CUpti_ActivityMemcpyKind
    uint8_t srcKind = 0;  // CUpti_ActivityMemoryKind
    uint8_t dstKind = 0;
    uint8_t flags = 0;    // bit 0: async
    uint32_t srcDeviceId = 0;
    uint32_t dstDeviceId = 0;
    uint32_t graphId = 0;
    uint64_t graphNodeId = 0;
    uint64_t copyCount = 0;
    uint8_t peerToPeer = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("start", s.start); v("end", s.end); v("bytes", s.bytes); v("deviceId", s.deviceId);
        v("contextId", s.contextId); v("streamId", s.streamId); v("correlationId", s.correlationId);
        v("runtimeCorrelationId", s.runtimeCorrelationId); v("copyKind", s.copyKind);
        v("srcKind", s.srcKind); v("dstKind", s.dstKind); v("flags", s.flags);
        v("srcDeviceId", s.srcDeviceId); v("dstDeviceId", s.dstDeviceId); v("graphId", s.graphId);
        v("graphNodeId", s.graphNodeId); v("copyCount", s.copyCount); v("peerToPeer", s.peerToPeer);
    }
};

struct MemsetRecord {
    static constexpr RecordType kType = RecordType::Memset;
    uint64_t start = 0;
    uint64_t end = 0;
    uint64_t bytes = 0;
    uint32_t value = 0;
    uint32_t deviceId = 0;
    uint32_t contextId = 0;
    uint32_t streamId = 0;
    uint32_t correlationId = 0;
    uint16_t memoryKind = 0;
    uint16_t flags = 0;
    uint32_t graphId = 0;
    uint64_t graphNodeId = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("start", s.start); v("end", s.end); v("bytes", s.bytes); v("value", s.value);
        v("deviceId", s.deviceId); v("contextId", s.contextId); v("streamId", s.streamId);
        v("correlationId", s.correlationId); v("memoryKind", s.memoryKind); v("flags", s.flags);
        v("graphId", s.graphId); v("graphNodeId", s.graphNodeId);
    }
};

// A runtime or driver API call. nameId names the callback as CUPTI does ("cudaLaunchKernel_v7000").
struct ApiRecord {
    static constexpr RecordType kType = RecordType::Api;
    uint8_t domain = 0; // ApiDomain
    uint32_t cbid = 0;
    uint32_t nameId = 0;
    uint64_t start = 0;
    uint64_t end = 0;
    uint32_t processId = 0;
    uint32_t threadId = 0; // OS thread id
    uint32_t correlationId = 0;
    uint32_t returnValue = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("domain", s.domain); v("cbid", s.cbid); v("nameId", s.nameId); v("start", s.start);
        v("end", s.end); v("processId", s.processId); v("threadId", s.threadId);
        v("correlationId", s.correlationId); v("returnValue", s.returnValue);
    }
};

struct SynchronizationRecord {
    static constexpr RecordType kType = RecordType::Synchronization;
    uint32_t type = 0; // CUpti_ActivitySynchronizationType
    uint64_t start = 0;
    uint64_t end = 0;
    uint32_t correlationId = 0;
    uint32_t contextId = 0;
    uint32_t streamId = 0; // 0xffffffff when not applicable
    uint32_t cudaEventId = 0;
    uint32_t returnValue = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("type", s.type); v("start", s.start); v("end", s.end); v("correlationId", s.correlationId);
        v("contextId", s.contextId); v("streamId", s.streamId); v("cudaEventId", s.cudaEventId);
        v("returnValue", s.returnValue);
    }
};

// MEMORY2: one allocation (operation 1) or release (operation 2) by the CUDA driver.
struct MemoryRecord {
    static constexpr RecordType kType = RecordType::Memory;
    uint8_t operation = 0;  // CUpti_ActivityMemoryOperationType
    uint8_t memoryKind = 0; // CUpti_ActivityMemoryKind
    uint64_t address = 0;
    uint64_t bytes = 0;
    uint64_t timestamp = 0;
    uint32_t deviceId = 0;
    uint32_t contextId = 0;
    uint32_t streamId = 0;
    uint32_t correlationId = 0;
    uint32_t processId = 0;
    uint8_t isAsync = 0;
    uint8_t poolType = 0; // CUpti_ActivityMemoryPoolType
    uint64_t poolAddress = 0;
    uint64_t pc = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("operation", s.operation); v("memoryKind", s.memoryKind); v("address", s.address);
        v("bytes", s.bytes); v("timestamp", s.timestamp); v("deviceId", s.deviceId);
        v("contextId", s.contextId); v("streamId", s.streamId); v("correlationId", s.correlationId);
        v("processId", s.processId); v("isAsync", s.isAsync); v("poolType", s.poolType);
        v("poolAddress", s.poolAddress); v("pc", s.pc);
    }
};

// An NVTX range, paired from CUPTI's start and end markers. end == 0: the range never ended.
struct NvtxRangeRecord {
    static constexpr RecordType kType = RecordType::NvtxRange;
    uint64_t start = 0;
    uint64_t end = 0;
    uint32_t nameId = 0;
    uint32_t domainId = 0; // 0 = default domain
    uint32_t processId = 0;
    uint32_t threadId = 0;    // thread that started it
    uint32_t endThreadId = 0; // thread that ended it
    uint32_t color = 0;       // ARGB, valid when hasColor
    uint8_t hasColor = 0;
    uint32_t category = 0;
    uint32_t markerId = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("start", s.start); v("end", s.end); v("nameId", s.nameId); v("domainId", s.domainId);
        v("processId", s.processId); v("threadId", s.threadId); v("endThreadId", s.endThreadId);
        v("color", s.color); v("hasColor", s.hasColor); v("category", s.category);
        v("markerId", s.markerId);
    }
};

struct NvtxMarkRecord {
    static constexpr RecordType kType = RecordType::NvtxMark;
    uint64_t timestamp = 0;
    uint32_t nameId = 0;
    uint32_t domainId = 0;
    uint32_t processId = 0;
    uint32_t threadId = 0;
    uint32_t color = 0;
    uint8_t hasColor = 0;
    uint32_t category = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("timestamp", s.timestamp); v("nameId", s.nameId); v("domainId", s.domainId);
        v("processId", s.processId); v("threadId", s.threadId); v("color", s.color);
        v("hasColor", s.hasColor); v("category", s.category);
    }
};

struct OverheadRecord {
    static constexpr RecordType kType = RecordType::Overhead;
    uint32_t overheadKind = 0; // CUpti_ActivityOverheadKind
    uint32_t objectKind = 0;   // CUpti_ActivityObjectKind
    uint32_t objectId0 = 0;    // processId or deviceId
    uint32_t objectId1 = 0;    // threadId or contextId
    uint32_t objectId2 = 0;    // streamId
    uint64_t start = 0;
    uint64_t end = 0;
    uint32_t correlationId = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("overheadKind", s.overheadKind); v("objectKind", s.objectKind); v("objectId0", s.objectId0);
        v("objectId1", s.objectId1); v("objectId2", s.objectId2); v("start", s.start); v("end", s.end);
        v("correlationId", s.correlationId);
    }
};

// Records lost since the previous Dropped record of the same source.
struct DroppedRecord {
    static constexpr RecordType kType = RecordType::Dropped;
    uint64_t timestamp = 0;
    uint8_t source = 0; // DropSource
    uint64_t count = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("timestamp", s.timestamp); v("source", s.source); v("count", s.count);
    }
};

// Defines a metric before its first sample: "power" in "W", "sm_clock" in "MHz", ...
struct MetricDescriptorRecord {
    static constexpr RecordType kType = RecordType::MetricDescriptor;
    uint32_t metricId = 0;
    uint8_t source = 0; // MetricSource
    std::string name;
    std::string unit;
    template <class S, class V> static void fields(S& s, V& v) {
        v("metricId", s.metricId); v("source", s.source); v("name", s.name); v("unit", s.unit);
    }
};

// Maps a metric device index (NVML index for NVML metrics) to the GPU's UUID; match it with
// DeviceRecord::uuid to find the CUDA device (NVML and CUDA orders differ in general).
struct MetricDeviceRecord {
    static constexpr RecordType kType = RecordType::MetricDevice;
    uint8_t source = 0; // MetricSource
    uint32_t index = 0;
    Uuid uuid{};
    std::string name;
    template <class S, class V> static void fields(S& s, V& v) {
        v("source", s.source); v("index", s.index); v("uuid", s.uuid); v("name", s.name);
    }
};

struct MetricSampleRecord {
    static constexpr RecordType kType = RecordType::MetricSample;
    uint64_t timestamp = 0;
    uint32_t device = 0; // MetricDeviceRecord::index for NVML, CUDA device id for PM sampling
    uint32_t metricId = 0;
    double value = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("timestamp", s.timestamp); v("device", s.device); v("metricId", s.metricId); v("value", s.value);
    }
};

// Something went wrong (or is worth knowing) inside the injection library. code is the CUPTI or
// NVML result when there is one.
struct ErrorRecord {
    static constexpr RecordType kType = RecordType::Error;
    uint64_t timestamp = 0;
    uint8_t severity = 0; // ErrorSeverity
    int32_t code = 0;
    std::string where;
    std::string message;
    template <class S, class V> static void fields(S& s, V& v) {
        v("timestamp", s.timestamp); v("severity", s.severity); v("code", s.code); v("where", s.where);
        v("message", s.message);
    }
};

// Written after every periodic flush: everything before it reached the file.
struct FlushRecord {
    static constexpr RecordType kType = RecordType::Flush;
    uint64_t timestamp = 0;
    uint32_t sequence = 0;
    uint64_t recordsSoFar = 0;
    uint64_t droppedSoFar = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("timestamp", s.timestamp); v("sequence", s.sequence); v("recordsSoFar", s.recordsSoFar);
        v("droppedSoFar", s.droppedSoFar);
    }
};

// Last record of a cleanly closed stream. Its absence means the process died or was killed.
struct FooterRecord {
    static constexpr RecordType kType = RecordType::Footer;
    uint64_t timestamp = 0;
    uint8_t reason = 0; // FooterReason
    uint64_t totalRecords = 0;
    uint64_t totalDropped = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("timestamp", s.timestamp); v("reason", s.reason); v("totalRecords", s.totalRecords);
        v("totalDropped", s.totalDropped);
    }
};

// Framework correlation (e.g. PyTorch op ids pushed by Kineto-style code); applies to the API
// record with the same correlationId.
struct ExternalCorrelationRecord {
    static constexpr RecordType kType = RecordType::ExternalCorrelation;
    uint32_t externalKind = 0;
    uint64_t externalId = 0;
    uint32_t correlationId = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("externalKind", s.externalKind); v("externalId", s.externalId); v("correlationId", s.correlationId);
    }
};

/*
 * Native call stacks (format 1.1, activity "stacks"; off by default).
 *
 * At the entry of each kernel or graph launch call the injection library takes the return
 * addresses of the calling thread (backtrace(), innermost first, its own frames left out). Stacks
 * are deduplicated: a StackDef defines a stack id once, then every launch writes a small CallStack
 * {correlation, stack id}. Module records say which file was mapped where, written before the first
 * StackDef whose addresses they cover (again after a dlopen brings new code). Addresses are raw
 * return addresses; offset = address - Module.loadBias is the ELF virtual address addr2line takes.
 * Symbol records are appended after the process exits by the launcher (warpscope-capture, or the
 * GUI through capture/launch/stacksymbolizer.h), one per (module, offset) and inline level.
 */

// A mapped ELF object of the process: [start, start + size) holds its code.
struct ModuleRecord {
    static constexpr RecordType kType = RecordType::Module;
    uint32_t moduleId = 0; // > 0, unique per file
    uint64_t loadBias = 0; // dl_iterate_phdr's dlpi_addr: address = ELF virtual address + loadBias
    uint64_t start = 0;    // lowest address of its executable segments
    uint64_t size = 0;
    std::string path;      // absolute when known (the main program's from /proc/self/exe)
    std::string buildId;   // GNU build id, lowercase hex; "" when the file has none
    template <class S, class V> static void fields(S& s, V& v) {
        v("moduleId", s.moduleId); v("loadBias", s.loadBias); v("start", s.start); v("size", s.size);
        v("path", s.path); v("buildId", s.buildId);
    }
};

// One distinct native stack: return addresses, innermost first (at most 32).
struct StackDefRecord {
    static constexpr RecordType kType = RecordType::StackDef;
    uint32_t stackId = 0; // > 0, unique per file
    std::vector<uint64_t> addresses;
    template <class S, class V> static void fields(S& s, V& v) { v("stackId", s.stackId); v("addresses", s.addresses); }
};

// The stack of one launch call: the Api record with the same correlationId (domain/cbid say which).
struct CallStackRecord {
    static constexpr RecordType kType = RecordType::CallStack;
    uint32_t correlationId = 0;
    uint32_t stackId = 0;
    uint8_t domain = 0; // ApiDomain of the call the stack was taken in
    uint32_t cbid = 0;
    uint32_t threadId = 0; // OS thread id
    uint32_t pyStackId = 0; // 1.2: the PyStack of the call, 0 = none (not a Python thread, or not recorded)
    template <class S, class V> static void fields(S& s, V& v) {
        v("correlationId", s.correlationId); v("stackId", s.stackId); v("domain", s.domain); v("cbid", s.cbid);
        v("threadId", s.threadId); v("pyStackId", s.pyStackId);
    }
};

/*
 * Python call stacks (format 1.2, activity "pystacks"). At the same calls as native stacks, when the
 * calling thread holds the GIL, the injection library reads its CPython frames. A PyFrame defines a
 * (function, file, line) once; a PyStack defines a list of frame ids once (innermost first); each
 * call's CallStack names its PyStack. stackId 0 in a CallStack means no native stack was taken.
 */
struct PyFrameRecord {
    static constexpr RecordType kType = RecordType::PyFrame;
    uint32_t frameId = 0; // > 0, unique per file
    uint32_t line = 0;    // 0 when unknown
    std::string function; // co_qualname (Python >= 3.11), else co_name
    std::string file;     // co_filename as Python has it
    template <class S, class V> static void fields(S& s, V& v) {
        v("frameId", s.frameId); v("line", s.line); v("function", s.function); v("file", s.file);
    }
};

struct PyStackRecord {
    static constexpr RecordType kType = RecordType::PyStack;
    uint32_t stackId = 0;           // > 0, unique per file (its own id space, apart from StackDef's)
    std::vector<uint64_t> frameIds; // innermost first
    template <class S, class V> static void fields(S& s, V& v) { v("stackId", s.stackId); v("frameIds", s.frameIds); }
};

// What addr2line said about one return address (module, offset as in StackDef - loadBias).
// inlineDepth 0 is the innermost (the code at the address); 1, 2, ... the functions it was inlined
// into, outwards. file "" / line 0: no debug information (function may still be known).
struct SymbolRecord {
    static constexpr RecordType kType = RecordType::Symbol;
    uint32_t moduleId = 0;
    uint64_t offset = 0;
    uint32_t inlineDepth = 0;
    std::string function; // demangled; "" when unknown
    std::string file;
    uint32_t line = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("moduleId", s.moduleId); v("offset", s.offset); v("inlineDepth", s.inlineDepth); v("function", s.function);
        v("file", s.file); v("line", s.line);
    }
};

/*
 * One NCCL collective or point-to-point call (ncclAllReduce, ncclSend, ...) as NCCL's profiler
 * plugin reports it (format 1.3, `collectives`), tied to the kernel launch that carried it out:
 * correlationId is that launch's CUPTI correlation id (the kernel's), 0 when no launch followed on
 * the calling thread (a call inside CUDA graph capture, or one NCCL never launched). count is the
 * call's own count argument (per rank: the send count of all_gather, the receive count of
 * reduce_scatter); funcNameId ("AllReduce") and datatypeNameId ("ncclBfloat16") name NCCL's spellings.
 * The communicator: commHash (NCCL's id, equal on every rank of it), its name when the program set
 * one, this process's rank in it and its size.
 */
struct CollectiveRecord {
    static constexpr RecordType kType = RecordType::Collective;
    uint64_t start = 0; // the call, on the calling thread
    uint64_t end = 0;
    uint32_t threadId = 0;
    uint32_t correlationId = 0;
    uint32_t funcNameId = 0;
    uint32_t datatypeNameId = 0;
    uint64_t count = 0;
    int32_t root = -1;
    uint64_t commHash = 0;
    uint32_t commNameId = 0;
    int32_t rank = -1;
    int32_t ranks = 0;
    uint8_t graphCaptured = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("start", s.start); v("end", s.end); v("threadId", s.threadId); v("correlationId", s.correlationId);
        v("funcNameId", s.funcNameId); v("datatypeNameId", s.datatypeNameId); v("count", s.count);
        v("root", s.root); v("commHash", s.commHash); v("commNameId", s.commNameId); v("rank", s.rank);
        v("ranks", s.ranks); v("graphCaptured", s.graphCaptured);
    }
};

/*
 * One sample of one Python thread's stack (format 1.4, activity "pysample", issue #27): at a fixed
 * rate a sampler thread of the injection library reads every Python thread's frames, without
 * stopping it and without the GIL. pyStackId names a PyStack (the same id space as the launches'
 * stacks); 0 is a thread that ran no Python code at that moment. flags: kPySampleHoldsGil when the
 * thread held the GIL, kPySampleGilKnown when the sampler could tell. periodNs is the sampling period.
 */
inline constexpr uint8_t kPySampleHoldsGil = 1;
inline constexpr uint8_t kPySampleGilKnown = 2;
// (1.5) cudaDomain/cudaCbid name the CUDA call the thread was inside (a synchronization or a copy
// that may block; ApiDomain and CUPTI callback id); kPySampleCudaKnown when the capture watched them.
inline constexpr uint8_t kPySampleCudaKnown = 4;
struct PySampleRecord {
    static constexpr RecordType kType = RecordType::PySample;
    uint64_t timestamp = 0;
    uint32_t threadId = 0; // OS thread id
    uint32_t pyStackId = 0;
    uint8_t flags = 0;
    uint32_t periodNs = 0;
    uint8_t cudaDomain = 0;
    uint32_t cudaCbid = 0; // 0: not inside a watched CUDA call
    template <class S, class V> static void fields(S& s, V& v) {
        v("timestamp", s.timestamp); v("threadId", s.threadId); v("pyStackId", s.pyStackId); v("flags", s.flags);
        v("periodNs", s.periodNs); v("cudaDomain", s.cudaDomain); v("cudaCbid", s.cudaCbid);
    }
};

/*
 * (1.5) A window in which PyTorch's operator ranges were recorded on one thread (`--torch-ops` in
 * windows, issue #25: inject/operatorwindows.h). A stream with OpsWindow records recorded that
 * thread's operators only inside them; launches outside get their operators from the importer's
 * inference. A stream without any recorded operators all the time.
 */
struct OpsWindowRecord {
    static constexpr RecordType kType = RecordType::OpsWindow;
    uint64_t start = 0;
    uint64_t end = 0;
    uint32_t processId = 0;
    uint32_t threadId = 0; // OS thread id
    template <class S, class V> static void fields(S& s, V& v) {
        v("start", s.start); v("end", s.end); v("processId", s.processId); v("threadId", s.threadId);
    }
};

/*
 * (1.6) A span in which the capture recorded (`--capture-range=cudaProfilerApi`: from a
 * cudaProfilerStart to the next cudaProfilerStop), written when recording pauses, and at the end for
 * a span still open. A stream with Recording records recorded nothing outside them (the time between
 * is not idle, only unseen); a stream without any recorded from its start (or --delay) on.
 */
struct RecordingRecord {
    static constexpr RecordType kType = RecordType::Recording;
    uint64_t start = 0;
    uint64_t end = 0;
    template <class S, class V> static void fields(S& s, V& v) { v("start", s.start); v("end", s.end); }
};

/*
 * CUDA graphs (format 1.7, activity "graphs", issue #48). A replayed graph's kernels carry the
 * correlation of the graph launch, not of the call that put each kernel into the graph, so nothing
 * in a replay says which operator or Python line a node came from. The injection library watches
 * CUPTI's resource callbacks while graphs are built (stream capture, cudaGraphAdd*Node,
 * instantiation, cloning) and writes:
 *   - GraphNode: a node as it is made. originalNodeId 0: created, inside the call with correlationId
 *     (the launch, copy or set captured on a stream; 0 when that call was not recorded, e.g. a paused
 *     capture or an explicit cudaGraphAdd*Node), on threadId at timestamp, with the stacks taken
 *     there (stackId: a StackDef, pyStackId: a PyStack; 0 none). originalNodeId set: a clone of that
 *     node (instantiation into an executable graph, graphExecId set; or cudaGraphClone). A replay's
 *     kernel, memcpy and memset records carry the node id of the clone in the executable graph
 *     (graphNodeId); following originalNodeId leads to the node that was created.
 *   - GraphExec: an executable graph instantiated from graphId, with the stacks at cudaGraphInstantiate.
 * These are recorded while a capture is paused too (--capture-range): graphs are built once, often
 * long before the replays that are recorded.
 */
struct GraphNodeRecord {
    static constexpr RecordType kType = RecordType::GraphNode;
    uint64_t nodeId = 0;
    uint64_t originalNodeId = 0;
    uint32_t graphId = 0;     // the graph holding the node (0 unknown)
    uint32_t graphExecId = 0; // the executable graph a clone belongs to (0: none)
    uint32_t nodeType = 0;    // CUgraphNodeType: 0 kernel, 1 memcpy, 2 memset, ...
    uint64_t timestamp = 0;
    uint32_t processId = 0;
    uint32_t threadId = 0; // OS thread id
    uint32_t correlationId = 0;
    uint32_t stackId = 0;
    uint32_t pyStackId = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("nodeId", s.nodeId); v("originalNodeId", s.originalNodeId); v("graphId", s.graphId);
        v("graphExecId", s.graphExecId); v("nodeType", s.nodeType); v("timestamp", s.timestamp);
        v("processId", s.processId); v("threadId", s.threadId); v("correlationId", s.correlationId);
        v("stackId", s.stackId); v("pyStackId", s.pyStackId);
    }
};

struct GraphExecRecord {
    static constexpr RecordType kType = RecordType::GraphExec;
    uint32_t graphExecId = 0;
    uint32_t graphId = 0; // the graph it was instantiated from (0 unknown)
    uint64_t timestamp = 0;
    uint32_t processId = 0;
    uint32_t threadId = 0;
    uint32_t stackId = 0;
    uint32_t pyStackId = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("graphExecId", s.graphExecId); v("graphId", s.graphId); v("timestamp", s.timestamp);
        v("processId", s.processId); v("threadId", s.threadId); v("stackId", s.stackId); v("pyStackId", s.pyStackId);
    }
};

// A graph replay as CUPTI's GRAPH_TRACE reports it (--graph-trace=graph): the span from its first
// node's start to its last node's end; its nodes are not traced. correlationId is the graph launch's.
struct GraphTraceRecord {
    static constexpr RecordType kType = RecordType::GraphTrace;
    uint64_t start = 0;
    uint64_t end = 0;
    uint32_t deviceId = 0;
    uint32_t contextId = 0;
    uint32_t streamId = 0;
    uint32_t correlationId = 0;
    uint32_t graphId = 0;
    uint32_t endDeviceId = 0;
    template <class S, class V> static void fields(S& s, V& v) {
        v("start", s.start); v("end", s.end); v("deviceId", s.deviceId); v("contextId", s.contextId);
        v("streamId", s.streamId); v("correlationId", s.correlationId); v("graphId", s.graphId);
        v("endDeviceId", s.endDeviceId);
    }
};

// True for the objects whose frames sit between the application and the GPU in every launch stack
// (this injection library, CUPTI, the CUDA driver and runtime): the stack view leaves them out and
// the symbolizer does not look them up.
inline bool isLaunchPlumbingModule(const std::string& path) {
    const size_t slash = path.rfind('/');
    const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    for (const char* prefix : {"libwarpscope_inject", "libcupti.", "libcuda.", "libcudart.", "libcudart_static"})
        if (base.rfind(prefix, 0) == 0)
            return true;
    return false;
}

} // namespace ws::wscap
