#pragma once

#include "import/capture_collectives.h"
#include "import/stack_samples.h"
#include "import/capture_stacks.h"
#include "import/trace_import.h"
#include "model/arg_columns.h"
#include "model/chunk_result.h"

#include "format/wscapformat.h"

#include <array>
#include <compare>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ws {

namespace wscap {
class WscapReader;
}

/*
 * CaptureDeviceRef: one GPU as one capture stream names it: a CUDA ordinal (Device records, kernels,
 * PM sampling) or an NVML index (metric samples). The importer resolves every ref to one global
 * device index once all streams are read (by UUID, so a GPU seen by several processes, or by CUDA
 * and NVML under different numbers, is one device); until then tracks use the placeholder pid
 * -(1 + slot).
 */
struct CaptureDeviceRef {
    uint32_t stream = 0;
    bool cuda = true;   // CUDA ordinal, else NVML index
    uint32_t index = 0; // the ordinal or NVML index
    bool hasUuid = false;
    wscap::Uuid uuid{};
    std::string name;
    std::optional<wscap::DeviceRecord> device; // the CUDA Device record, when the stream had one
};

/*
 * CaptureStreamConverter: turns one capture stream into one ChunkResult for the TraceBuilder.
 *
 * Host work (API calls, NVTX) goes on (pid, OS tid) tracks; GPU work (kernels, copies, memsets,
 * synchronization) on (device placeholder, stream) tracks; metric samples become counters of the
 * device; MEMORY2 records become memory events with running totals per device; Dropped, Error and a
 * missing Footer go to the chunk's report; call stacks (Module, StackDef, CallStack, Symbol, PyFrame,
 * PyStack) are gathered into a CaptureStacks that CaptureEventText shows as the launch call's `Call stack`
 * argument; Python stack samples become python_function slices of their threads (StackSamples). CPU-to-GPU flows ("ac2g", id = stream << 32 | correlation)
 * link each API call to the GPU activities that carry its correlation id. argRef points back to the
 * record (CaptureEventText). One pass, O(records); memory is the chunk plus a few maps per stream.
 */
class CaptureStreamConverter {
public:
    explicit CaptureStreamConverter(uint32_t streamIndex);

    // Reads every record; returns false only when cancelled.
    bool read(wscap::WscapReader& reader, const ImportControl& control);
    // Reads the records the reader has now and leaves the stream open: a live capture reads on
    // once the file grew (WscapReader::resume). Returns false only when cancelled.
    bool readAvailable(wscap::WscapReader& reader, const ImportControl& control);
    // The stream as read so far, finished as read() finishes it (flows, memory totals, stacks), while
    // this converter goes on reading. O(records read) copying.
    std::unique_ptr<CaptureStreamConverter> finishedCopy(const wscap::WscapReader& reader) const;
    // Rewrites placeholder pids once devices are resolved: globalOfSlot maps this stream's slots
    // (deviceRefs) to global device indices; a device used by several streams gets stream tids unique per process.
    void resolveDevices(const std::vector<int>& globalOfSlot, const std::vector<uint32_t>& streamsOfGlobal,
                        const std::unordered_set<int64_t>& deviceIndices);

    ChunkResult& chunk() { return m_chunk; }
    // The chunk with its strings, for TraceBuilder::addChunk, once nothing is interned any more
    // (after resolveDevices). For a finished copy, the strings it shares with its converter
    // (sharedStrings, local ids 1..n) go to the builder first (TraceBuilder::addStrings).
    ChunkResult& sealedChunk();
    const std::vector<std::string>* sharedStrings() const { return m_baseStrings ? &m_baseStrings->list : nullptr; }
    std::unordered_map<uint32_t, std::string> takeStrings() { return std::move(m_strings); }
    // (domain << 24 | cbid) -> String id of the API calls seen, in streams with Python samples.
    std::unordered_map<uint32_t, uint32_t> takeCallNames() { return std::move(m_callNames); }
    // The stream's native call stacks (finished), or null when it recorded none.
    std::shared_ptr<const CaptureStacks> takeStacks();
    // The stream's NCCL calls by launch, or null when it recorded none.
    std::shared_ptr<const CaptureCollectives> takeCollectives();
    const wscap::StreamHeaderRecord& header() const { return m_header; }
    bool sawHeader() const { return m_sawHeader; }
    bool sawFooter() const { return m_sawFooter; }
    // The spans the capture recorded (Recording records, --capture-range=cudaProfilerApi), in stream
    // order; empty when it recorded throughout.
    const std::vector<std::pair<int64_t, int64_t>>& recorded() const { return m_recorded; }
    uint64_t records() const { return m_records; }
    uint64_t dropped() const { return m_dropped; }
    // Device slots of this stream's GPU tracks (which devices it ran work on).
    std::vector<uint32_t> streamSlots() const;
    // The GPUs this stream named, by slot (the placeholder pid of slot s is -(1 + s)). Each stream
    // keeps its own, so streams can be read in parallel (the live import); mergeCaptureStreams puts
    // them one after the other in stream order, the order a sequential read would have found them.
    const std::vector<CaptureDeviceRef>& deviceRefs() const { return m_refs; }

private:
    /* A GPU track of this stream, named once its device is resolved. */
    struct GpuTrack {
        uint32_t track;
        uint32_t slot;
        uint32_t streamId;
        bool syncOnly; // synchronization without a stream
    };
    /* (pid, tid) of a track as this stream keys it (pid may be a device placeholder). */
    struct TrackKey {
        int64_t pid;
        int64_t tid;
        uint32_t tidString;
        bool tidIsString;
        auto operator<=>(const TrackKey&) const = default;
    };
    struct PendingMemory {
        int64_t ts;
        int64_t bytes; // < 0: release
        int64_t addr;
        uint32_t slot;
    };
    struct Metric {
        std::string name;
        std::string unit;
        uint8_t source = 0;
    };

    uint32_t intern(const std::string& s);
    const std::string& localString(uint32_t id) const; // what intern() gave `id` for
    // The argument columns (arg_columns.h) of a kernel and an operator as local string ids (0: none);
    // eventJson gives the same values.
    uint32_t argColumn(const std::array<ArgColumnField, 4>& fields);
    uint32_t launchArgs(const wscap::KernelRecord& r);
    uint32_t operatorArgs(std::string_view inputDims, const std::string* stack); // inputDims: compact JSON or ""
    std::string inputDimsOf(uint32_t opArgs) const; // the Input Dims of an operatorArgs column
    uint32_t track(IdValue pid, IdValue tid);
    uint32_t gpuTrack(uint32_t slot, uint32_t streamId, bool syncOnly);
    uint32_t cudaSlot(uint32_t ordinal);
    uint32_t nvmlSlot(uint32_t index);
    IdValue hostPid(uint32_t pid) const;
    void addSlice(uint32_t track, uint64_t start, uint64_t end, uint32_t name, uint32_t cat, uint64_t offset);
    void addMeta(ChunkResult::MetaKind kind, IdValue pid, IdValue tid, uint32_t str);
    // The slice just added is GPU work of this correlation (its flows), maybe a replayed graph node's.
    void markGpuWork(uint32_t correlationId, uint64_t graphNodeId);
    // Gives each PyTorch operator range the Python stack of the first stacked API call inside it.
    void linkOperatorStacks();
    // CUDA graphs (GraphNode, GraphExec records): a graph_node slice where each node was made, and an
    // attribution flow from it to every replayed kernel, copy and set of the node (linkGraphNodes).
    void linkGraphNodes();
    // A graph replay's launch call named after its graph: "cuGraphLaunch: decode_step (decode.py:41)".
    // From linkGraphNodes: each replayed activity's created node, and each node id's record.
    void nameGraphLaunches(const std::vector<size_t>& createdOfActivity, const std::unordered_map<uint64_t, size_t>& byId);
    // GPU activities that run past the end of the recorded span they began in end there (Recording records).
    void clipToRecordedSpans();
    // Launches outside the operator windows (OpsWindow records) take the operator of their launch
    // context (OperatorInference) as a cpu_op slice around the launch call.
    void inferOperators();
    void finishStream(const wscap::WscapReader& reader);
    void handle(uint16_t type, const std::vector<uint8_t>& payload, uint64_t offset);

    /*
     * The lookups that reading needs and finishing only reads (correlations for the flows): the
     * largest maps of a stream, one entry per API call or GPU activity. finishedCopy shares them
     * with its copy for the copy's finishStream instead of copying them (the live import makes a
     * finished copy of every stream at each update), and the copy drops them once finished.
     */
    struct ReadingIndex {
        std::unordered_map<uint32_t, uint32_t> kernelNames;   // name id -> local string (demangled)
        std::unordered_map<uint32_t, uint32_t> apiNames;      // name id -> local string (no _vNNNN)
        std::unordered_map<uint32_t, uint32_t> contextDevice; // context id -> CUDA ordinal
        std::unordered_map<uint32_t, Metric> metrics;
        std::unordered_map<uint32_t, uint64_t> external;      // correlation -> external id
        std::unordered_set<uint32_t> apiCorr, gpuCorr;        // correlations with an API call / GPU work
    };

    uint32_t m_stream;
    std::vector<CaptureDeviceRef> m_refs;
    std::shared_ptr<ReadingIndex> m_read = std::make_shared<ReadingIndex>();
    ChunkResult m_chunk;
    /*
     * The strings a converter interned (local id = position in list + 1) and their ids by text. A
     * finished copy (finishedCopy) shares its converter's as m_baseStrings, read-only while the
     * copy is finished and merged, and interns what it adds after them in its own: a stream holds
     * tens of thousands of distinct strings (kernel names, argument columns, Python frames), which
     * the copy made at every live update no longer copies.
     */
    struct InternedStrings {
        std::unordered_map<std::string, uint32_t> index;
        std::vector<std::string> list;
    };
    std::shared_ptr<InternedStrings> m_interned = std::make_shared<InternedStrings>();
    std::shared_ptr<const InternedStrings> m_baseStrings;
    std::unordered_map<uint32_t, std::string> m_strings;         // the stream's String records
    std::map<TrackKey, uint32_t> m_trackIndex; // few tracks, one lookup per record
    std::unordered_map<uint32_t, uint32_t> m_cudaSlots, m_nvmlSlots;
    std::vector<GpuTrack> m_gpuTracks;
    std::vector<PendingMemory> m_memory;
    std::vector<std::pair<uint32_t, uint32_t>> m_apiSlices; // (slice index, correlation)
    std::vector<std::pair<uint32_t, uint32_t>> m_gpuSlices;
    std::vector<uint64_t> m_openRanges; // slice indices of NVTX ranges that never ended
    // CUDA graphs: the GraphNode and GraphExec records with their offsets, and the GPU slices of
    // replayed nodes (slice index, graph node id of the record).
    std::vector<std::pair<wscap::GraphNodeRecord, uint64_t>> m_graphNodes;
    std::vector<std::pair<wscap::GraphExecRecord, uint64_t>> m_graphExecs;
    std::vector<std::pair<uint32_t, uint64_t>> m_graphActivities;
    // Correlation of a captured call (no GPU work of its own) -> the name of its node's replayed
    // activity, so that operator inference learns it as the same launch run eagerly (linkGraphNodes).
    std::unordered_map<uint32_t, uint32_t> m_capturedActivity;
    std::unordered_map<uint32_t, uint32_t> m_callNames;
    // Operator windows (OpsWindow records) by track: the thread's [start, end] in which its
    // operators were recorded.
    std::unordered_map<uint32_t, std::vector<std::pair<int64_t, int64_t>>> m_opsWindowsOf;
    std::shared_ptr<CaptureStacks> m_stacks = std::make_shared<CaptureStacks>();
    StackSamples m_pySamples; // Python samples (tag: record offset), python_function slices in finishStream
    std::shared_ptr<CaptureCollectives> m_collectives = std::make_shared<CaptureCollectives>();
    wscap::StreamHeaderRecord m_header;
    bool m_sawHeader = false;
    bool m_sawFooter = false;
    std::vector<std::pair<int64_t, int64_t>> m_recorded;
    uint64_t m_records = 0;
    uint64_t m_dropped = 0;
    uint64_t m_seq = 0;
    std::string m_columnText, m_dimsText; // scratch of argColumn / an NVTX range's Input Dims
    // Recorded without the runtime: launches, copies and waits were recorded at the driver.
    bool m_callsAtDriver = false;
    uint32_t m_catKernel = 0, m_catMemcpy = 0, m_catMemset = 0, m_catRuntime = 0, m_catDriver = 0, m_catSync = 0,
             m_catUser = 0, m_catCpuOp = 0, m_catOverhead = 0, m_catFlow = 0, m_catGraphNode = 0, m_catGraphFlow = 0, m_catGraph = 0;
};

} // namespace ws
