#include "import/rocprof_importer.h"

#include "analysis/amd_occupancy.h"
#include "import/json_record_reader.h"
#include "import/nsys_chunk_writer.h"
#include "import/rocprof_data.h"
#include "import/rocprof_event_text.h"
#include "model/trace_builder.h"

// simdjson's inlined iterator code trips -Wnull-dereference in its own header; not ours to fix.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <simdjson.h>
#pragma GCC diagnostic pop

#include <chrono>
#include <climits>
#include <cstdlib>
#include <set>
#include <thread>
#include <unordered_map>
#include <unordered_set>

namespace ws {

namespace {

namespace dom = simdjson::dom;

// The places of a rocprofv3 JSON document the importer reads (JsonRecordScanner paths), in the
// order of the Path enum.
const std::vector<std::string>& recordPaths() {
    static const std::vector<std::string> paths = [] {
        const std::string tool = "rocprofiler-sdk-tool[].";
        return std::vector<std::string>{
            tool + "metadata",
            tool + "agents[]",
            tool + "strings.buffer_records[]",
            tool + "strings.marker_api[]",
            tool + "kernel_symbols[]",
            tool + "buffer_records.kernel_dispatch[]",
            tool + "buffer_records.hip_api[]",
            tool + "buffer_records.hsa_api[]",
            tool + "buffer_records.marker_api[]",
            tool + "buffer_records.rccl_api[]",
            tool + "buffer_records.memory_copy[]",
            tool + "buffer_records.memory_allocation[]",
            tool + "buffer_records.scratch_memory[]",
        };
    }();
    return paths;
}
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

// Numbers as rocprofv3 writes them (unsigned, sometimes signed); 0 when absent or not a number.
uint64_t u64(dom::element e) {
    uint64_t u = 0;
    if (e.get_uint64().get(u) == simdjson::SUCCESS)
        return u;
    int64_t i = 0;
    if (e.get_int64().get(i) == simdjson::SUCCESS)
        return static_cast<uint64_t>(i);
    double d = 0;
    if (e.get_double().get(d) == simdjson::SUCCESS && d >= 0 && d < 1.8e19)
        return static_cast<uint64_t>(d);
    return 0;
}
uint64_t u64(dom::element e, std::string_view key) {
    dom::element v;
    return e.at_key(key).get(v) == simdjson::SUCCESS ? u64(v) : 0;
}
int64_t i64(dom::element e, std::string_view key, int64_t missing) {
    dom::element v;
    if (e.at_key(key).get(v) != simdjson::SUCCESS)
        return missing;
    int64_t i = 0;
    if (v.get_int64().get(i) == simdjson::SUCCESS)
        return i;
    return static_cast<int64_t>(u64(v));
}
uint32_t u32(dom::element e, std::string_view key) {
    return static_cast<uint32_t>(std::min<uint64_t>(u64(e, key), UINT32_MAX));
}
// {"handle": N} objects (agent_id, queue_id, stream_id), plain numbers and "0x..." strings (the
// `address` of memory allocations) alike.
uint64_t handle(dom::element e, std::string_view key) {
    dom::element v;
    if (e.at_key(key).get(v) != simdjson::SUCCESS)
        return 0;
    dom::element h;
    if (v.is_object() && v.at_key("handle").get(h) == simdjson::SUCCESS)
        return u64(h);
    std::string_view text;
    if (v.get_string().get(text) == simdjson::SUCCESS) {
        const std::string s(text);
        return std::strtoull(s.c_str(), nullptr, 0);
    }
    return u64(v);
}
std::string str(dom::element e, std::string_view key) {
    std::string_view s;
    return e.at_key(key).get_string().get(s) == simdjson::SUCCESS ? std::string(s) : std::string();
}
// An empty object, what member() gives for a member the record lacks, so that lookups in it find
// nothing (a default dom::element has no document behind it and must not be used).
dom::element emptyObject() {
    static dom::parser parser;
    static const dom::element empty = parser.parse(std::string("{}")).value_unsafe();
    return empty;
}
dom::element member(dom::element e, std::string_view key) {
    dom::element v;
    if (e.at_key(key).get(v) != simdjson::SUCCESS)
        return emptyObject();
    return v;
}
bool has(dom::element e, std::string_view key) {
    dom::element v;
    return e.is_object() && e.at_key(key).get(v) == simdjson::SUCCESS;
}

std::string withoutCloneSuffix(std::string name) {
    for (std::string_view suffix : {" [clone .kd]", ".kd"})
        if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            name.resize(name.size() - suffix.size());
    return name;
}

/*
 * RocprofReader: turns each record the scanner found into a compact record of RocprofData. One
 * simdjson DOM parse per record (a few hundred bytes each), in place in the reader's block.
 */
class RocprofReader {
public:
    explicit RocprofReader(ImportReport& report) : m_report(report) {}

    bool read(const JsonRecord& r);
    RocprofData& data() { return m_data; }
    uint64_t records() const { return m_records; }

private:
    void readMetadata(dom::element e, RocprofProcess& p);
    void readAgent(dom::element e);
    void readSymbol(dom::element e, RocprofProcess& p);
    void readDispatch(dom::element e, uint32_t process);
    void readCall(dom::element e, uint32_t process, RocprofCall::Domain domain);
    void readCopy(dom::element e, uint32_t process);
    void readAllocation(dom::element e, uint32_t process, bool scratch);
    bool times(dom::element e, int64_t& start, int64_t& end, const char* what);

    ImportReport& m_report;
    RocprofData m_data;
    dom::parser m_parser;
    uint64_t m_records = 0;
};

bool RocprofReader::times(dom::element e, int64_t& start, int64_t& end, const char* what) {
    start = i64(e, "start_timestamp", INT64_MIN);
    end = i64(e, "end_timestamp", INT64_MIN);
    if (start == INT64_MIN || end == INT64_MIN) {
        m_report.add("record without start or end time (skipped)", what);
        return false;
    }
    constexpr int64_t kMaxTime = int64_t(1) << 61; // far beyond any clock; keeps sums from overflowing
    if (start < 0 || start > kMaxTime || end < 0 || end > kMaxTime) {
        m_report.add("record with a time out of range (skipped)", what);
        return false;
    }
    if (end < start) {
        m_report.add("record ends before it starts (duration set to 0)", what);
        end = start;
    }
    return true;
}

void RocprofReader::readMetadata(dom::element e, RocprofProcess& p) {
    p.pid = i64(e, "pid", 0);
    dom::array command;
    if (e.at_key("command").get_array().get(command) == simdjson::SUCCESS)
        for (dom::element part : command) {
            std::string_view s;
            if (part.get_string().get(s) != simdjson::SUCCESS)
                continue;
            if (!p.command.empty())
                p.command += ' ';
            p.command += s;
        }
}

void RocprofReader::readAgent(dom::element e) {
    RocprofAgent a;
    a.handle = handle(e, "id");
    a.type = static_cast<int>(u64(e, "type"));
    a.gpuIndex = static_cast<int>(i64(e, "gpu_index", -1));
    if (a.type == 2 && a.gpuIndex < 0)
        a.gpuIndex = static_cast<int>(i64(e, "logical_node_type_id", -1));
    a.name = str(e, "product_name");
    a.arch = str(e, "name");
    if (a.name.empty())
        a.name = a.arch;
    a.cuCount = u32(e, "cu_count");
    a.simdPerCu = u32(e, "simd_per_cu");
    a.maxWavesPerSimd = u32(e, "max_waves_per_simd");
    a.maxWavesPerCu = u32(e, "max_waves_per_cu");
    a.waveSize = u32(e, "wave_front_size");
    a.ldsKb = u32(e, "lds_size_in_kb");
    a.gfxVersion = u32(e, "gfx_target_version");
    a.memoryBytes = u64(e, "local_mem_size");
    m_data.agents[a.handle] = std::move(a);
}

void RocprofReader::readSymbol(dom::element e, RocprofProcess& p) {
    RocprofSymbol s;
    s.mangled = withoutCloneSuffix(str(e, "kernel_name"));
    s.name = withoutCloneSuffix(str(e, "formatted_kernel_name"));
    if (s.name.empty())
        s.name = withoutCloneSuffix(str(e, "demangled_kernel_name"));
    if (s.name.empty())
        s.name = s.mangled;
    s.sgprs = u32(e, "sgpr_count");
    s.archVgprs = u32(e, "arch_vgpr_count");
    s.accumVgprs = u32(e, "accum_vgpr_count");
    s.groupSegment = u32(e, "group_segment_size");
    s.privateSegment = u32(e, "private_segment_size");
    p.symbols[u64(e, "kernel_id")] = std::move(s);
}

void RocprofReader::readDispatch(dom::element e, uint32_t process) {
    RocprofDispatch d;
    if (!times(e, d.start, d.end, "kernel_dispatch"))
        return;
    const dom::element corr = member(e, "correlation_id");
    d.correlation = u64(corr, "internal");
    d.external = u64(corr, "external");
    d.thread = static_cast<uint32_t>(u64(e, "thread_id"));
    d.stream = handle(e, "stream_id");
    d.process = process;
    const dom::element info = member(e, "dispatch_info");
    if (!info.is_object()) {
        m_report.add("kernel dispatch without dispatch_info (skipped)");
        return;
    }
    d.agent = handle(info, "agent_id");
    d.queue = handle(info, "queue_id");
    d.kernelId = u64(info, "kernel_id");
    d.dispatchId = u64(info, "dispatch_id");
    d.groupSegment = u32(info, "group_segment_size");
    d.privateSegment = u32(info, "private_segment_size");
    const dom::element wg = member(info, "workgroup_size"), grid = member(info, "grid_size");
    const char* axes[3] = {"x", "y", "z"};
    for (int i = 0; i < 3; ++i) {
        d.workgroup[i] = u32(wg, axes[i]);
        d.grid[i] = u32(grid, axes[i]);
    }
    m_data.dispatches.push_back(d);
}

void RocprofReader::readCall(dom::element e, uint32_t process, RocprofCall::Domain domain) {
    RocprofCall c;
    if (!times(e, c.start, c.end, "API call"))
        return;
    const dom::element corr = member(e, "correlation_id");
    c.correlation = u64(corr, "internal");
    c.external = u64(corr, "external");
    c.thread = static_cast<uint32_t>(u64(e, "thread_id"));
    c.kind = u32(e, "kind");
    c.operation = u32(e, "operation");
    c.process = process;
    c.domain = domain;
    m_data.calls.push_back(c);
}

void RocprofReader::readCopy(dom::element e, uint32_t process) {
    RocprofCopy c;
    if (!times(e, c.start, c.end, "memory_copy"))
        return;
    c.correlation = u64(member(e, "correlation_id"), "internal");
    c.thread = static_cast<uint32_t>(u64(e, "thread_id"));
    c.srcAgent = handle(e, "src_agent_id");
    c.dstAgent = handle(e, "dst_agent_id");
    c.bytes = u64(e, "bytes");
    c.stream = handle(e, "stream_id");
    c.kind = u32(e, "kind");
    c.operation = u32(e, "operation");
    c.process = process;
    m_data.copies.push_back(c);
}

void RocprofReader::readAllocation(dom::element e, uint32_t process, bool scratch) {
    RocprofAllocation a;
    if (!times(e, a.start, a.end, scratch ? "scratch_memory" : "memory_allocation"))
        return;
    a.correlation = u64(member(e, "correlation_id"), "internal");
    a.thread = static_cast<uint32_t>(u64(e, "thread_id"));
    a.agent = handle(e, "agent_id");
    a.address = handle(e, "address");
    a.bytes = has(e, "allocation_size") ? u64(e, "allocation_size") : u64(e, "size");
    a.kind = u32(e, "kind");
    a.operation = u32(e, "operation");
    a.process = process;
    a.scratch = scratch;
    m_data.allocations.push_back(a);
}

bool RocprofReader::read(const JsonRecord& r) {
    dom::element e;
    if (m_parser.parse(r.text.data(), r.text.size(), false).get(e) != simdjson::SUCCESS || !e.is_object()) {
        m_report.add("record that is not a JSON object (skipped)", "byte " + std::to_string(r.offset));
        return true;
    }
    ++m_records;
    RocprofProcess& p = m_data.process(r.outerIndex);
    switch (r.path) {
    case kMetadata: readMetadata(e, p); break;
    case kAgent: readAgent(e); break;
    case kOperationNames: {
        const size_t kind = p.kindNames.size();
        p.kindNames.push_back(str(e, "kind"));
        p.operationNames.resize(kind + 1);
        dom::array ops;
        if (e.at_key("operations").get_array().get(ops) == simdjson::SUCCESS)
            for (dom::element op : ops) {
                std::string_view s;
                p.operationNames[kind].emplace_back(op.get_string().get(s) == simdjson::SUCCESS ? s : std::string_view());
            }
        break;
    }
    case kMarkerMessage: {
        // {"key": correlation id, "value": message}
        std::string_view s;
        if (e.at_key("value").get_string().get(s) == simdjson::SUCCESS)
            p.markerMessages[u64(e, "key")] = std::string(s);
        break;
    }
    case kKernelSymbol: readSymbol(e, p); break;
    case kDispatch: readDispatch(e, r.outerIndex); break;
    case kHipApi: readCall(e, r.outerIndex, RocprofCall::Hip); break;
    case kHsaApi: readCall(e, r.outerIndex, RocprofCall::Hsa); break;
    case kMarkerApi: readCall(e, r.outerIndex, RocprofCall::Marker); break;
    case kRcclApi: readCall(e, r.outerIndex, RocprofCall::Rccl); break;
    case kMemoryCopy: readCopy(e, r.outerIndex); break;
    case kMemoryAllocation: readAllocation(e, r.outerIndex, false); break;
    case kScratchMemory: readAllocation(e, r.outerIndex, true); break;
    default: break;
    }
    return true;
}

/*
 * The session's layout: each GPU is a process (pid = its GPU index, named by its product) with a
 * row per hardware queue, as rocprofv3's own timeline groups dispatches; host calls and roctx
 * ranges sit on their thread of the profiled process; copies on a "memory copies" row of the GPU
 * they write to (or read from, for device-to-host). API calls that launched GPU work get a flow to
 * it by correlation id, as Kineto's ac2g flows.
 */
class RocprofSessionWriter {
public:
    RocprofSessionWriter(const RocprofData& data, NsysChunkWriter& w) : m_data(data), m_w(w) {}
    void write();
    std::vector<DeviceInfo> devices() const;

private:
    int gpuOf(uint64_t agent) const {
        const RocprofAgent* a = m_data.agent(agent);
        return a && a->type == 2 && a->gpuIndex >= 0 ? a->gpuIndex : -1;
    }
    int64_t hostPid(uint32_t process) const {
        return process < m_data.processes.size() ? m_data.processes[process].pid : 0;
    }
    void flow(uint32_t track, int64_t ts, uint64_t id, char ph);
    void writeDispatches();
    void writeCopies();
    void writeCalls();
    void writeAllocations();
    void writeNames();

    const RocprofData& m_data;
    NsysChunkWriter& m_w;
    std::unordered_set<uint64_t> m_callCorrelations; // (process << 48) ^ correlation of API calls
    std::unordered_set<uint64_t> m_gpuCorrelations;  // ... that launched GPU work
    std::set<std::pair<int, uint64_t>> m_queues;
    std::set<int> m_copyRows;
    std::set<std::pair<int64_t, uint32_t>> m_threads;
    uint32_t m_flowCat = 0;
};

// The row of a GPU's copies: a tid no queue handle takes (they count from 0), sorted after the queues.
constexpr int64_t kCopyRow = INT64_MAX - 1;

uint64_t correlationKey(uint32_t process, uint64_t correlation) {
    return (uint64_t(process) << 48) ^ correlation;
}

void RocprofSessionWriter::flow(uint32_t track, int64_t ts, uint64_t id, char ph) {
    ChunkResult::FlowEnd f;
    f.ts = ts;
    f.seq = m_w.nextSeq();
    f.id = id;
    f.track = track;
    f.cat = m_flowCat;
    f.ph = ph;
    f.bindEnclosing = true;
    m_w.chunk().flows.push_back(f);
}

void RocprofSessionWriter::writeDispatches() {
    const uint32_t cat = m_w.string("kernel");
    std::unordered_map<uint64_t, uint32_t> names; // (process, kernel id) -> local string
    uint64_t unknownAgent = 0;
    for (size_t i = 0; i < m_data.dispatches.size(); ++i) {
        const RocprofDispatch& d = m_data.dispatches[i];
        const int gpu = gpuOf(d.agent);
        if (gpu < 0) {
            ++unknownAgent;
            continue;
        }
        const RocprofProcess& p = m_data.processes[d.process];
        const auto sym = p.symbols.find(d.kernelId);
        const uint64_t nameKey = (uint64_t(d.process) << 48) ^ d.kernelId;
        auto n = names.find(nameKey);
        if (n == names.end())
            n = names.emplace(nameKey, m_w.string(sym != p.symbols.end() ? sym->second.name
                                                                           : "kernel " + std::to_string(d.kernelId)))
                    .first;
        ChunkResult::Slice s;
        s.ts = d.start;
        s.dur = d.end - d.start;
        s.track = m_w.track(gpu, static_cast<int64_t>(d.queue));
        m_queues.emplace(gpu, d.queue);
        s.name = n->second;
        s.cat = cat;
        s.argRef = rocprofArgRef(RocprofTable::Dispatch, i);
        if (d.correlation) {
            s.corr = static_cast<uint32_t>(d.correlation);
            s.have |= ChunkResult::kCorr;
            const uint64_t key = correlationKey(d.process, d.correlation);
            if (m_callCorrelations.count(key)) {
                m_gpuCorrelations.insert(key);
                flow(s.track, s.ts, key, 'f');
            }
        }
        const RocprofAgent* agent = m_data.agent(d.agent);
        if (!agent)
            continue; // gpuOf found it: never taken
        const RocprofAgent& a = *agent;
        AmdKernelShape shape;
        shape.workgroupSize = uint64_t(std::max(1u, d.workgroup[0])) * std::max(1u, d.workgroup[1]) * std::max(1u, d.workgroup[2]);
        uint64_t groups = 1;
        for (int k = 0; k < 3; ++k) {
            const uint64_t w = std::max(1u, d.workgroup[k]);
            groups *= (std::max(1u, d.grid[k]) + w - 1) / w;
        }
        shape.workgroups = groups;
        if (a.cuCount > 0) {
            s.bps = static_cast<float>(static_cast<double>(groups) / a.cuCount);
            s.have |= ChunkResult::kBps;
        }
        if (sym != p.symbols.end()) {
            shape.archVgprs = sym->second.archVgprs;
            shape.accumVgprs = sym->second.accumVgprs;
            shape.sgprs = sym->second.sgprs;
            shape.ldsBytes = std::max(d.groupSegment, sym->second.groupSegment);
            const AmdComputeUnit cu{a.cuCount, a.simdPerCu, a.maxWavesPerSimd, a.maxWavesPerCu, a.waveSize,
                                    uint64_t(a.ldsKb) * 1024};
            if (const auto occ = amdOccupancyPercent(shape, cu)) {
                s.occ = static_cast<float>(*occ);
                s.have |= ChunkResult::kOcc;
            }
        }
        m_w.noteTime(s.ts, s.ts + s.dur);
        m_w.chunk().slices.push_back(s);
        ++m_w.chunk().events;
    }
    if (unknownAgent)
        m_w.report().add("kernel dispatch on an agent that is not a listed GPU (skipped)", {}, unknownAgent);
}

void RocprofSessionWriter::writeCopies() {
    const uint32_t cat = m_w.string("gpu_memcpy");
    for (size_t i = 0; i < m_data.copies.size(); ++i) {
        const RocprofCopy& c = m_data.copies[i];
        const int dst = gpuOf(c.dstAgent), src = gpuOf(c.srcAgent);
        const int gpu = dst >= 0 ? dst : src;
        const std::string op = m_data.operationName(c.process, c.kind, c.operation);
        if (gpu < 0) {
            m_w.report().add("memory copy between host agents (skipped)", op);
            continue;
        }
        ChunkResult::Slice s;
        s.ts = c.start;
        s.dur = c.end - c.start;
        s.track = m_w.track(gpu, kCopyRow);
        m_copyRows.insert(gpu);
        // MEMORY_COPY_HOST_TO_DEVICE -> "Memcpy HtoD", Kineto's naming, so the memcpy views group them.
        std::string name = "Memcpy";
        if (op.find("HOST_TO_DEVICE") != std::string::npos)
            name += " HtoD";
        else if (op.find("DEVICE_TO_HOST") != std::string::npos)
            name += " DtoH";
        else if (op.find("DEVICE_TO_DEVICE") != std::string::npos)
            name += src != dst ? " PtoP" : " DtoD";
        else if (op.find("HOST_TO_HOST") != std::string::npos)
            name += " HtoH";
        s.name = m_w.string(name);
        s.cat = cat;
        s.bytes = static_cast<int64_t>(std::min<uint64_t>(c.bytes, INT64_MAX));
        s.have |= ChunkResult::kBytes;
        s.argRef = rocprofArgRef(RocprofTable::Copy, i);
        if (c.correlation) {
            s.corr = static_cast<uint32_t>(c.correlation);
            s.have |= ChunkResult::kCorr;
            const uint64_t key = correlationKey(c.process, c.correlation);
            if (m_callCorrelations.count(key)) {
                m_gpuCorrelations.insert(key);
                flow(s.track, s.ts, key, 'f');
            }
        }
        m_w.noteTime(s.ts, s.ts + s.dur);
        m_w.chunk().slices.push_back(s);
        ++m_w.chunk().events;
    }
}

void RocprofSessionWriter::writeCalls() {
    const uint32_t runtimeCat = m_w.string("cuda_runtime"), hsaCat = m_w.string("hsa_api"),
                   markerCat = m_w.string("user_annotation"), rcclCat = m_w.string("rccl_api");
    // One launch flow per correlation id: from the HIP call when there is one, else the first call.
    std::unordered_map<uint64_t, size_t> launcher;
    for (size_t i = 0; i < m_data.calls.size(); ++i) {
        const RocprofCall& c = m_data.calls[i];
        const uint64_t key = correlationKey(c.process, c.correlation);
        if (c.correlation == 0 || c.domain == RocprofCall::Marker || !m_gpuCorrelations.count(key))
            continue;
        auto [it, fresh] = launcher.emplace(key, i);
        if (!fresh && m_data.calls[it->second].domain != RocprofCall::Hip && c.domain == RocprofCall::Hip)
            it->second = i;
    }
    std::unordered_map<uint64_t, uint32_t> names;
    for (size_t i = 0; i < m_data.calls.size(); ++i) {
        const RocprofCall& c = m_data.calls[i];
        const int64_t pid = hostPid(c.process);
        ChunkResult::Slice s;
        s.ts = c.start;
        s.dur = c.end - c.start;
        s.track = m_w.track(pid, c.thread);
        m_threads.emplace(pid, c.thread);
        if (c.domain == RocprofCall::Marker) {
            // A roctx range is named by its message; the API name is the fallback.
            const auto& messages = m_data.processes[c.process].markerMessages;
            const auto m = messages.find(c.correlation);
            s.name = m_w.string(m != messages.end() ? m->second : m_data.operationName(c.process, c.kind, c.operation));
            s.cat = markerCat;
        } else {
            const uint64_t nameKey = (uint64_t(c.process) << 48) ^ (uint64_t(c.kind) << 24) ^ c.operation;
            auto n = names.find(nameKey);
            if (n == names.end())
                n = names.emplace(nameKey, m_w.string(m_data.operationName(c.process, c.kind, c.operation))).first;
            s.name = n->second;
            s.cat = c.domain == RocprofCall::Hip ? runtimeCat : c.domain == RocprofCall::Hsa ? hsaCat : rcclCat;
        }
        s.argRef = rocprofArgRef(RocprofTable::Call, i);
        if (c.correlation) {
            s.corr = static_cast<uint32_t>(c.correlation);
            s.have |= ChunkResult::kCorr;
            const auto l = launcher.find(correlationKey(c.process, c.correlation));
            if (l != launcher.end() && l->second == i)
                flow(s.track, s.ts, l->first, 's');
        }
        m_w.noteTime(s.ts, s.ts + s.dur);
        m_w.chunk().slices.push_back(s);
        ++m_w.chunk().events;
    }
}

void RocprofSessionWriter::writeAllocations() {
    // Device memory as the Memory tab's curve: allocations and frees by address, with the running
    // total per GPU (rocprofiler-sdk records the runtime's allocations, not a caching allocator's).
    std::vector<size_t> order(m_data.allocations.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return m_data.allocations[a].start < m_data.allocations[b].start; });
    std::map<int, int64_t> total;
    // (process, address) -> (gpu, bytes): a FREE record carries only the address.
    std::map<std::pair<uint32_t, uint64_t>, std::pair<int, uint64_t>> live;
    uint64_t unmatchedFrees = 0;
    for (size_t i : order) {
        const RocprofAllocation& a = m_data.allocations[i];
        int gpu = gpuOf(a.agent);
        const std::string op = m_data.operationName(a.process, a.kind, a.operation);
        const bool free = op.find("FREE") != std::string::npos || op.find("RECLAIM") != std::string::npos;
        const bool alloc = op.find("ALLOC") != std::string::npos && !free;
        if (a.scratch || (!free && !alloc) || (alloc && gpu < 0))
            continue; // scratch is per-queue backing store, host allocations are not device memory
        int64_t delta = 0;
        if (alloc) {
            delta = static_cast<int64_t>(std::min<uint64_t>(a.bytes, INT64_MAX / 4));
            live[{a.process, a.address}] = {gpu, static_cast<uint64_t>(delta)};
        } else {
            const auto it = live.find({a.process, a.address});
            if (it == live.end()) {
                ++unmatchedFrees;
                continue;
            }
            gpu = it->second.first;
            delta = -static_cast<int64_t>(it->second.second);
            live.erase(it);
        }
        total[gpu] += delta;
        ChunkResult::Memory m;
        m.ts = a.start;
        m.addr = static_cast<int64_t>(a.address & 0x7FFFFFFFFFFFFFFFull);
        m.bytes = delta;
        m.totalAllocated = total[gpu];
        const int64_t pid = hostPid(a.process);
        m.track = m_w.track(pid, a.thread);
        m_threads.emplace(pid, a.thread);
        m.deviceType = 1;
        m.deviceId = static_cast<int16_t>(gpu);
        m_w.noteTime(m.ts, m.ts);
        m_w.chunk().memory.push_back(m);
        ++m_w.chunk().events;
    }
    if (unmatchedFrees)
        m_w.report().addNote("free of memory allocated before the capture started (not in the curve)", {}, unmatchedFrees);
}

void RocprofSessionWriter::writeNames() {
    using K = ChunkResult::MetaKind;
    std::set<int> gpus;
    for (const auto& [gpu, queue] : m_queues) {
        gpus.insert(gpu);
        m_w.meta(K::ThreadName, gpu, static_cast<int64_t>(queue), m_w.string("queue " + std::to_string(queue)));
    }
    for (int gpu : m_copyRows) {
        gpus.insert(gpu);
        m_w.meta(K::ThreadName, gpu, kCopyRow, m_w.string("memory copies"));
    }
    for (int gpu : gpus) {
        m_w.meta(K::ProcessLabels, gpu, 0, m_w.string("GPU " + std::to_string(gpu)));
        for (const auto& [handle, a] : m_data.agents)
            if (a.type == 2 && a.gpuIndex == gpu && !a.name.empty())
                m_w.meta(K::ProcessName, gpu, 0, m_w.string(a.name));
        m_w.meta(K::ProcessSortIndex, gpu, 0, 0, 0x10000000 + gpu);
    }
    std::set<int64_t> named;
    for (const RocprofProcess& p : m_data.processes)
        if (!p.command.empty() && named.insert(p.pid).second)
            m_w.meta(K::ProcessName, p.pid, 0, m_w.string(p.command));
}

void RocprofSessionWriter::write() {
    m_flowCat = m_w.string("ac2g");
    for (const RocprofCall& c : m_data.calls)
        if (c.correlation && c.domain != RocprofCall::Marker)
            m_callCorrelations.insert(correlationKey(c.process, c.correlation));
    writeDispatches();
    writeCopies();
    writeCalls();
    writeAllocations();
    writeNames();
}

std::vector<DeviceInfo> RocprofSessionWriter::devices() const {
    std::vector<DeviceInfo> out;
    for (const auto& [handle, a] : m_data.agents) {
        if (a.type != 2 || a.gpuIndex < 0)
            continue;
        DeviceInfo d;
        d.id = a.gpuIndex;
        d.name = a.name;
        if (a.cuCount)
            d.numSms = static_cast<int>(a.cuCount);
        if (a.memoryBytes)
            d.totalGlobalMem = static_cast<int64_t>(a.memoryBytes);
        if (a.gfxVersion) { // gfx950 is 90500: major 9, minor 5
            d.computeMajor = static_cast<int>(a.gfxVersion / 10000);
            d.computeMinor = static_cast<int>(a.gfxVersion / 100 % 100);
        }
        if (a.maxWavesPerCu && a.waveSize)
            d.maxThreadsPerMultiprocessor = static_cast<int>(a.maxWavesPerCu * a.waveSize);
        d.vendor = DeviceInfo::Vendor::Amd;
        out.push_back(std::move(d));
    }
    std::sort(out.begin(), out.end(), [](const DeviceInfo& a, const DeviceInfo& b) { return a.id < b.id; });
    return out;
}

} // namespace

std::string RocprofData::operationName(uint32_t process, uint32_t kind, uint32_t operation) const {
    if (process < processes.size()) {
        const RocprofProcess& p = processes[process];
        if (kind < p.operationNames.size() && operation < p.operationNames[kind].size() &&
            !p.operationNames[kind][operation].empty())
            return p.operationNames[kind][operation];
    }
    return kindName(process, kind) + " operation " + std::to_string(operation);
}

std::string RocprofData::kindName(uint32_t process, uint32_t kind) const {
    if (process < processes.size() && kind < processes[process].kindNames.size() &&
        !processes[process].kindNames[kind].empty())
        return processes[process].kindNames[kind];
    return "kind " + std::to_string(kind);
}

bool looksLikeRocprofJson(std::string_view head) {
    // {"rocprofiler-sdk-tool": [...]}: the tool's key comes first in every version seen.
    size_t i = 0;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
        ++i;
    if (i >= head.size() || head[i] != '{')
        return false;
    ++i;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
        ++i;
    return head.substr(i, 22) == "\"rocprofiler-sdk-tool\"";
}

ImportResult importRocprofJson(const std::string& path, const ImportControl& control) {
    ImportResult result;
    const auto t0 = std::chrono::steady_clock::now();
    NsysChunkWriter w;
    RocprofReader reader(w.report());
    const JsonRecordReadResult read =
        readJsonRecords(path, recordPaths(), control, w.report(), [&](const JsonRecord& r) { return reader.read(r); });
    result.textBytes = read.textBytes;
    if (read.cancelled) {
        result.cancelled = true;
        return result;
    }
    if (!read.opened || !read.error.empty()) {
        result.error = read.error.empty() ? "cannot read the file" : read.error;
        return result;
    }
    if (read.firstKey != "rocprofiler-sdk-tool" && reader.records() == 0) {
        result.error = "JSON, but not rocprofiler-sdk output: there is no rocprofiler-sdk-tool member";
        return result;
    }
    auto data = std::make_shared<RocprofData>(std::move(reader.data()));
    RocprofSessionWriter writer(*data, w);
    writer.write();
    if (data->dispatches.empty() && data->calls.empty() && data->copies.empty())
        w.report().add("no kernel dispatches, API calls or copies in the file (was rocprofv3 run with --kernel-trace "
                       "or --hip-trace?)");
    TraceBuilder builder(path, TraceFormat::RocprofJson);
    builder.setDevices(writer.devices());
    builder.setEventTextSource(std::make_shared<RocprofEventText>(data));
    builder.addChunk(w.chunk());
    const double parsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const unsigned threads = control.threads ? control.threads : std::max(1u, std::thread::hardware_concurrency());
    result.session = builder.finish(threads);
    result.timings.emplace_back("read, parse and convert", parsed);
    for (const auto& t : builder.timings())
        result.timings.push_back(t);
    if (control.progress)
        control.progress(1.0);
    return result;
}

} // namespace ws
