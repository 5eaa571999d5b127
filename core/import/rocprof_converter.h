#pragma once

/*
 * The conversion of rocprofiler-sdk JSON records (`rocprofv3 --output-format json`) into a session:
 * the record paths the importer scans for, and RocprofConverter, fed one record at a time by
 * rocprof_importer.cpp's passes over the file.
 */
#include "import/json_record_reader.h"
#include "import/nsys_chunk_writer.h"
#include "import/rocprof_data.h"
#include "model/device_info.h"

// simdjson's inlined iterator code trips -Wnull-dereference in its own header; not ours to fix.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <simdjson.h>
#pragma GCC diagnostic pop

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ws {

class TraceBuilder;

struct RocprofLaunchShapeHash {
    size_t operator()(const RocprofLaunchShape& s) const noexcept {
        uint64_t h = s.agent * 0x9E3779B97F4A7C15ull ^ s.queue ^ (s.kernelId << 20) ^ s.process;
        for (int k = 0; k < 3; ++k)
            h = h * 1000003u ^ s.workgroup[k] ^ (uint64_t(s.grid[k]) << 32);
        return std::hash<uint64_t>()(h ^ s.groupSegment ^ (uint64_t(s.privateSegment) << 40));
    }
};

/*
 * CorrelationSet: correlation keys seen. rocprofiler-sdk hands out dense ids per process, so a
 * bitmap per process holds them in a bit each (1.3 M ids: 160 KB); ids beyond 2^26 go to a hash set.
 */
class CorrelationSet {
public:
    // True when the key was not there yet.
    bool insert(uint64_t key) {
        const uint64_t process = key >> 48, id = key & ((uint64_t(1) << 48) - 1);
        if (id >= kDense || process >= 64)
            return m_other.insert(key).second;
        if (process >= m_bits.size())
            m_bits.resize(process + 1);
        std::vector<bool>& b = m_bits[process];
        if (id >= b.size())
            b.resize(std::max<uint64_t>(id + 1, b.size() * 2));
        if (b[id])
            return false;
        b[id] = true;
        return true;
    }
    bool contains(uint64_t key) const {
        const uint64_t process = key >> 48, id = key & ((uint64_t(1) << 48) - 1);
        if (id >= kDense || process >= 64)
            return m_other.count(key) != 0;
        return process < m_bits.size() && id < m_bits[process].size() && m_bits[process][id];
    }

private:
    static constexpr uint64_t kDense = uint64_t(1) << 26;
    std::vector<std::vector<bool>> m_bits;
    std::unordered_set<uint64_t> m_other;
};

/*
 * RocprofConverter: turns each record the scanner finds straight into the session's events, in
 * chunks handed to the TraceBuilder as they fill, keeping only the small tables and the argument
 * fields (RocprofData). rocprofv3 writes the tables (agents, strings, kernel symbols) before the
 * buffer records, so names and shapes are known when a dispatch arrives; a file in another order
 * still imports, with "kernel N" names (reported).
 *
 * Layout: each GPU is a process (pid = its GPU index, named by its product) with a row per
 * hardware queue, as rocprofv3's own timeline groups dispatches; host calls and roctx ranges sit on
 * their thread of the profiled process; copies on a "memory copies" row of the GPU they write to
 * (or read from, for device-to-host). API calls that launched GPU work get a flow to it by
 * correlation id, as Kineto's ac2g flows.
 */
class RocprofConverter {
public:
    // The places of a rocprofv3 JSON document the importer reads (JsonRecordScanner paths), in the
    // order of the Path enum.
    static const std::vector<std::string>& recordPaths();
    enum Path : uint32_t {
        kMetadata,
        kAgent,
        kOperationNames,
        kMarkerMessage,
        kKernelSymbol,
        kDispatch,
        kHipApi,
        kHsaApi,
        kMarkerApi,
        kRcclApi,
        kMemoryCopy,
        kMemoryAllocation,
        kScratchMemory,
    };

    // `tables`: the tables of an earlier pass over the file (its table records are then skipped).
    RocprofConverter(TraceBuilder& builder, NsysChunkWriter& w, std::shared_ptr<RocprofData> tables = nullptr)
        : m_builder(builder), m_w(w), m_tablesKnown(tables != nullptr) {
        if (tables)
            m_data = std::move(tables);
        m_kernelCat = m_w.string("kernel");
        m_copyCat = m_w.string("gpu_memcpy");
        m_runtimeCat = m_w.string("cuda_runtime");
        m_hsaCat = m_w.string("hsa_api");
        m_markerCat = m_w.string("user_annotation");
        m_rcclCat = m_w.string("rccl_api");
        m_flowCat = m_w.string("ac2g");
    }

    bool read(const JsonRecord& r);
    void finish();
    std::vector<DeviceInfo> devices() const;
    std::shared_ptr<RocprofData> data() { return m_data; }
    uint64_t records() const { return m_records; }
    uint64_t events() const { return m_events; }
    // Whether a table (agents, strings, kernel symbols) came after events that needed it: the
    // events were then converted without it, and a second pass with the tables known fixes that.
    bool tablesLate() const { return m_tablesLate; }

private:
    enum Domain : uint8_t { kHip, kHsa, kMarker, kRccl };
    // A GPU activity or an API call with a correlation id, kept until its flow can be decided.
    struct FlowCandidate {
        uint64_t key; // correlationKey
        int64_t ts;
        uint32_t row; // index into m_rows
    };
    struct PendingAllocation {
        int64_t ts;
        uint64_t address;
        uint64_t bytes;
        uint64_t agent;
        uint32_t process;
        uint32_t thread;
        bool free;
    };

    void readMetadata(simdjson::dom::element e, RocprofProcess& p);
    void readAgent(simdjson::dom::element e);
    void readSymbol(simdjson::dom::element e, RocprofProcess& p);
    // The fields of a kernel dispatch record, however they were parsed.
    struct DispatchRecord {
        int64_t start = 0;
        int64_t end = 0;
        uint64_t correlation = 0;
        uint32_t stream = 0;
        RocprofLaunchShape shape;
    };
    void readDispatch(simdjson::dom::element e, uint32_t process);
    void addDispatch(DispatchRecord& d, uint32_t process);
    bool readDispatchFast(const JsonRecord& r, uint32_t process);
    void readCall(simdjson::dom::element e, uint32_t process, Domain domain);
    void readCopy(simdjson::dom::element e, uint32_t process);
    void readAllocation(simdjson::dom::element e, uint32_t process, bool scratch);
    bool times(simdjson::dom::element e, int64_t& start, int64_t& end, const char* what);
    int gpuOf(uint64_t agent) const {
        const RocprofAgent* a = m_data->agent(agent);
        return a && a->type == 2 && a->gpuIndex >= 0 ? a->gpuIndex : -1;
    }
    int64_t hostPid(uint32_t process) const {
        return process < m_data->processes.size() ? m_data->processes[process].pid : 0;
    }
    uint32_t row(int64_t pid, int64_t tid);
    void slice(ChunkResult::Slice& s, int64_t pid, int64_t tid);
    void flushIfFull();
    void gpuWork(uint64_t key, int64_t ts, uint32_t row);
    void launch(uint64_t key, int64_t ts, uint32_t row);
    void flowEnd(const FlowCandidate& c, char ph);
    void writeAllocations();
    void writeNames();

    TraceBuilder& m_builder;
    NsysChunkWriter& m_w;
    std::shared_ptr<RocprofData> m_data = std::make_shared<RocprofData>();
    simdjson::dom::parser m_parser;
    simdjson::ondemand::parser m_fastParser;
    std::unordered_map<RocprofLaunchShape, uint32_t, RocprofLaunchShapeHash> m_shapeIndex;
    std::unordered_map<uint64_t, uint32_t> m_kernelNames; // (process, kernel id) -> local string
    std::unordered_map<uint64_t, uint32_t> m_callNames;   // (process, kind, operation) -> local string
    std::vector<std::pair<int64_t, int64_t>> m_rows;      // (pid, tid) of the rows flows start or end on
    std::map<std::pair<int64_t, int64_t>, uint32_t> m_rowIndex;
    // Launch flows (rocprofv3 writes the dispatches and copies before the calls): GPU work is
    // remembered until the first API call shows the file has calls (a kernel-only trace gets no
    // flows), then flows are emitted as records come; calls met before their GPU work wait in
    // m_earlyCalls. One launch per correlation id, the first call's (HIP comes before HSA).
    std::vector<FlowCandidate> m_gpuEnds, m_earlyCalls;
    CorrelationSet m_gpuWork, m_launched;
    bool m_hasCalls = false;
    std::vector<PendingAllocation> m_allocations;
    std::set<std::pair<int, uint64_t>> m_queues;
    std::set<int> m_copyRows;
    uint64_t m_records = 0, m_events = 0, m_unknownAgent = 0, m_unknownKernel = 0;
    bool m_tablesKnown = false;
    bool m_sawEvent = false;
    bool m_tablesLate = false;
    uint32_t m_kernelCat, m_copyCat, m_runtimeCat, m_hsaCat, m_markerCat, m_rcclCat, m_flowCat;
};

} // namespace ws
