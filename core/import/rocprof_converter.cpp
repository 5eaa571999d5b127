#include "import/rocprof_converter.h"

#include "analysis/amd_occupancy.h"
#include "model/trace_builder.h"

#include <algorithm>
#include <climits>
#include <cstdlib>

namespace ws {

const std::vector<std::string>& RocprofConverter::recordPaths() {
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

namespace {

namespace dom = simdjson::dom;

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

// The row of a GPU's copies: a tid no queue handle takes (they count from 0), sorted after the queues.
constexpr int64_t kCopyRow = INT64_MAX - 1;
// Events per chunk handed to the TraceBuilder while reading.
constexpr uint64_t kChunkEvents = 1 << 16;

uint64_t correlationKey(uint32_t process, uint64_t correlation) {
    return (uint64_t(process) << 48) ^ correlation;
}

// Calls fn(key, value) for each member of an On-Demand object; false when `v` is not an object,
// a member does not read, or fn says so.
template <class Fn>
bool forEachMember(simdjson::ondemand::value v, Fn&& fn) {
    simdjson::ondemand::object o;
    if (v.get_object().get(o))
        return false;
    for (auto field : o) {
        std::string_view key;
        simdjson::ondemand::value value;
        if (field.unescaped_key().get(key) || field.value().get(value) || !fn(key, value))
            return false;
    }
    return true;
}

} // namespace

uint32_t RocprofConverter::row(int64_t pid, int64_t tid) {
    const auto [it, fresh] = m_rowIndex.emplace(std::make_pair(pid, tid), static_cast<uint32_t>(m_rows.size()));
    if (fresh)
        m_rows.emplace_back(pid, tid);
    return it->second;
}

void RocprofConverter::slice(ChunkResult::Slice& s, int64_t pid, int64_t tid) {
    s.track = m_w.track(pid, tid);
    m_w.noteTime(s.ts, s.ts + s.dur);
    m_w.chunk().slices.push_back(s);
    ++m_w.chunk().events;
    ++m_events;
}

void RocprofConverter::flushIfFull() {
    if (m_w.chunk().events >= kChunkEvents) {
        ChunkResult c = m_w.takeChunk();
        m_builder.addChunk(c);
    }
}

bool RocprofConverter::times(dom::element e, int64_t& start, int64_t& end, const char* what) {
    start = i64(e, "start_timestamp", INT64_MIN);
    end = i64(e, "end_timestamp", INT64_MIN);
    if (start == INT64_MIN || end == INT64_MIN) {
        m_w.report().add("record without start or end time (skipped)", what);
        return false;
    }
    constexpr int64_t kMaxTime = int64_t(1) << 61; // far beyond any clock; keeps sums from overflowing
    if (start < 0 || start > kMaxTime || end < 0 || end > kMaxTime) {
        m_w.report().add("record with a time out of range (skipped)", what);
        return false;
    }
    if (end < start) {
        m_w.report().add("record ends before it starts (duration set to 0)", what);
        end = start;
    }
    return true;
}

void RocprofConverter::readMetadata(dom::element e, RocprofProcess& p) {
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

void RocprofConverter::readAgent(dom::element e) {
    RocprofAgent a;
    a.handle = handle(e, "id");
    a.type = static_cast<int>(u64(e, "type"));
    a.gpuIndex = static_cast<int>(i64(e, "gpu_index", -1));
    if (a.type == 2 && a.gpuIndex < 0)
        a.gpuIndex = static_cast<int>(i64(e, "logical_node_type_id", -1));
    if (a.gpuIndex > 4095)
        a.gpuIndex = -1; // not a GPU number a session can hold
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
    m_data->agents[a.handle] = std::move(a);
}

void RocprofConverter::readSymbol(dom::element e, RocprofProcess& p) {
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

void RocprofConverter::readDispatch(dom::element e, uint32_t process) {
    DispatchRecord d;
    if (!times(e, d.start, d.end, "kernel_dispatch"))
        return;
    const dom::element info = member(e, "dispatch_info");
    RocprofLaunchShape& shape = d.shape;
    shape.agent = handle(info, "agent_id");
    shape.queue = handle(info, "queue_id");
    shape.kernelId = u64(info, "kernel_id");
    shape.groupSegment = u32(info, "group_segment_size");
    shape.privateSegment = u32(info, "private_segment_size");
    const dom::element wg = member(info, "workgroup_size"), grid = member(info, "grid_size");
    const char* axes[3] = {"x", "y", "z"};
    for (int i = 0; i < 3; ++i) {
        shape.workgroup[i] = u32(wg, axes[i]);
        shape.grid[i] = u32(grid, axes[i]);
    }
    d.correlation = u64(member(e, "correlation_id"), "internal");
    d.stream = static_cast<uint32_t>(handle(e, "stream_id"));
    addDispatch(d, process);
}

void RocprofConverter::addDispatch(DispatchRecord& d, uint32_t process) {
    ChunkResult::Slice s;
    const int64_t start = d.start, end = d.end;
    RocprofLaunchShape& shape = d.shape;
    shape.process = process;
    const int gpu = gpuOf(shape.agent);
    if (gpu < 0) {
        ++m_unknownAgent;
        return;
    }
    const RocprofAgent& a = m_data->agents.at(shape.agent);
    const RocprofProcess& p = m_data->processes[process];
    const auto sym = p.symbols.find(shape.kernelId);
    const uint64_t nameKey = (uint64_t(process) << 48) ^ shape.kernelId;
    auto n = m_kernelNames.find(nameKey);
    if (n == m_kernelNames.end()) {
        if (sym == p.symbols.end())
            ++m_unknownKernel;
        n = m_kernelNames
                .emplace(nameKey, m_w.string(sym != p.symbols.end() ? sym->second.name
                                                                      : "kernel " + std::to_string(shape.kernelId)))
                .first;
    }
    const auto [shapeIt, freshShape] = m_shapeIndex.emplace(shape, static_cast<uint32_t>(m_data->shapes.size()));
    if (freshShape)
        m_data->shapes.push_back(shape);

    RocprofDispatchArgs args;
    args.correlation = d.correlation;
    args.shape = shapeIt->second;
    args.stream = d.stream;

    s.ts = start;
    s.dur = end - start;
    s.name = n->second;
    s.cat = m_kernelCat;
    s.argRef = rocprofArgRef(RocprofTable::Dispatch, m_data->dispatches.size());
    m_data->dispatches.push_back(args);
    if (args.correlation) {
        s.corr = static_cast<uint32_t>(args.correlation);
        s.have |= ChunkResult::kCorr;
        gpuWork(correlationKey(process, args.correlation), start, row(gpu, static_cast<int64_t>(shape.queue)));
    }
    AmdKernelShape k;
    k.workgroupSize = uint64_t(std::max(1u, shape.workgroup[0])) * std::max(1u, shape.workgroup[1]) *
                      std::max(1u, shape.workgroup[2]);
    uint64_t groups = 1;
    for (int i = 0; i < 3; ++i) {
        const uint64_t w = std::max(1u, shape.workgroup[i]);
        groups *= (std::max(1u, shape.grid[i]) + w - 1) / w;
    }
    k.workgroups = groups;
    if (a.cuCount > 0) {
        s.bps = static_cast<float>(static_cast<double>(groups) / a.cuCount);
        s.have |= ChunkResult::kBps;
    }
    if (sym != p.symbols.end()) {
        k.archVgprs = sym->second.archVgprs;
        k.accumVgprs = sym->second.accumVgprs;
        k.sgprs = sym->second.sgprs;
        k.ldsBytes = std::max(shape.groupSegment, sym->second.groupSegment);
        const AmdComputeUnit cu{a.cuCount, a.simdPerCu, a.maxWavesPerSimd, a.maxWavesPerCu, a.waveSize,
                                uint64_t(a.ldsKb) * 1024};
        if (const auto occ = amdOccupancyPercent(k, cu)) {
            s.occ = static_cast<float>(*occ);
            s.have |= ChunkResult::kOcc;
        }
    }
    m_queues.emplace(gpu, shape.queue);
    slice(s, gpu, static_cast<int64_t>(shape.queue));
}

void RocprofConverter::readCall(dom::element e, uint32_t process, Domain domain) {
    int64_t start = 0, end = 0;
    if (!times(e, start, end, "API call"))
        return;
    RocprofCallArgs args;
    args.correlation = u64(member(e, "correlation_id"), "internal");
    const auto thread = static_cast<uint32_t>(u64(e, "thread_id"));
    args.kind = static_cast<uint16_t>(std::min<uint32_t>(u32(e, "kind"), UINT16_MAX));
    args.operation = u32(e, "operation");
    args.process = static_cast<uint16_t>(process);
    const int64_t pid = hostPid(process);

    ChunkResult::Slice s;
    s.ts = start;
    s.dur = end - start;
    if (domain == kMarker) {
        // A roctx range is named by its message; the API name is the fallback.
        const auto& messages = m_data->processes[process].markerMessages;
        const auto m = messages.find(args.correlation);
        s.name = m_w.string(m != messages.end() ? m->second
                                                : m_data->operationName(process, args.kind, args.operation));
        s.cat = m_markerCat;
    } else {
        const uint64_t nameKey = (uint64_t(process) << 48) ^ (uint64_t(args.kind) << 32) ^ args.operation;
        auto n = m_callNames.find(nameKey);
        if (n == m_callNames.end())
            n = m_callNames.emplace(nameKey, m_w.string(m_data->operationName(process, args.kind, args.operation))).first;
        s.name = n->second;
        s.cat = domain == kHip ? m_runtimeCat : domain == kHsa ? m_hsaCat : m_rcclCat;
        if (args.correlation)
            launch(correlationKey(process, args.correlation), start, row(pid, thread));
    }
    s.argRef = rocprofArgRef(RocprofTable::Call, m_data->calls.size());
    if (args.correlation) {
        s.corr = static_cast<uint32_t>(args.correlation);
        s.have |= ChunkResult::kCorr;
    }
    m_data->calls.push_back(args);
    slice(s, pid, thread);
}

void RocprofConverter::readCopy(dom::element e, uint32_t process) {
    int64_t start = 0, end = 0;
    if (!times(e, start, end, "memory_copy"))
        return;
    RocprofCopyArgs args;
    args.correlation = u64(member(e, "correlation_id"), "internal");
    args.thread = static_cast<uint32_t>(u64(e, "thread_id"));
    args.source = handle(e, "src_agent_id");
    args.destination = handle(e, "dst_agent_id");
    args.bytes = u64(e, "bytes");
    args.stream = static_cast<uint32_t>(handle(e, "stream_id"));
    args.kind = static_cast<uint16_t>(std::min<uint32_t>(u32(e, "kind"), UINT16_MAX));
    args.operation = u32(e, "operation");
    args.process = static_cast<uint16_t>(process);
    const int dst = gpuOf(args.destination), src = gpuOf(args.source);
    const int gpu = dst >= 0 ? dst : src;
    const std::string op = m_data->operationName(process, args.kind, args.operation);
    if (gpu < 0) {
        m_w.report().add("memory copy between host agents (skipped)", op);
        return;
    }
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
    ChunkResult::Slice s;
    s.ts = start;
    s.dur = end - start;
    s.name = m_w.string(name);
    s.cat = m_copyCat;
    s.bytes = static_cast<int64_t>(std::min<uint64_t>(args.bytes, INT64_MAX));
    s.have |= ChunkResult::kBytes;
    s.argRef = rocprofArgRef(RocprofTable::Copy, m_data->copies.size());
    if (args.correlation) {
        s.corr = static_cast<uint32_t>(args.correlation);
        s.have |= ChunkResult::kCorr;
        gpuWork(correlationKey(process, args.correlation), start, row(gpu, kCopyRow));
    }
    m_data->copies.push_back(args);
    m_copyRows.insert(gpu);
    slice(s, gpu, kCopyRow);
}

void RocprofConverter::readAllocation(dom::element e, uint32_t process, bool scratch) {
    int64_t start = 0, end = 0;
    if (!times(e, start, end, scratch ? "scratch_memory" : "memory_allocation"))
        return;
    if (scratch)
        return; // per-queue backing store the runtime manages: not the program's memory
    const uint32_t kind = u32(e, "kind"), operation = u32(e, "operation");
    const std::string op = m_data->operationName(process, kind, operation);
    const bool free = op.find("FREE") != std::string::npos;
    const bool alloc = op.find("ALLOC") != std::string::npos && !free;
    if (!free && !alloc)
        return;
    PendingAllocation a;
    a.ts = start;
    a.address = handle(e, "address");
    a.bytes = has(e, "allocation_size") ? u64(e, "allocation_size") : u64(e, "size");
    a.agent = handle(e, "agent_id");
    a.process = process;
    a.thread = static_cast<uint32_t>(u64(e, "thread_id"));
    a.free = free;
    m_allocations.push_back(a);
}


bool RocprofConverter::readDispatchFast(const JsonRecord& r, uint32_t process) {
    namespace od = simdjson::ondemand;
    if (process >= m_data->processes.size())
        return false;
    od::document doc;
    if (m_fastParser.iterate(r.text.data(), r.text.size(), r.text.size() + kRecordPadding).get(doc))
        return false;
    od::value top;
    if (doc.get_value().get(top))
        return false;
    DispatchRecord d;
    bool haveStart = false, haveEnd = false, haveInfo = false;
    auto uint = [](od::value v, uint64_t& out) { return v.get_uint64().get(out) == simdjson::SUCCESS; };
    auto uint32 = [&uint](od::value v, uint32_t& out) {
        uint64_t n = 0;
        if (!uint(v, n) || n > UINT32_MAX)
            return false;
        out = static_cast<uint32_t>(n);
        return true;
    };
    // {"handle": N}
    auto handleOf = [&uint](od::value v, uint64_t& out) {
        return forEachMember(v, [&](std::string_view k, od::value h) { return k != "handle" || uint(h, out); });
    };
    // {"x": .., "y": .., "z": ..}
    auto xyz = [&uint32](od::value v, uint32_t out[3]) {
        return forEachMember(v, [&](std::string_view k, od::value n) {
            return k.size() != 1 || k[0] < 'x' || k[0] > 'z' || uint32(n, out[k[0] - 'x']);
        });
    };
    const bool ok = forEachMember(top, [&](std::string_view key, od::value v) {
        uint64_t n = 0;
        if (key == "start_timestamp" || key == "end_timestamp") {
            if (!uint(v, n) || n > (uint64_t(1) << 61))
                return false;
            (key[0] == 's' ? d.start : d.end) = static_cast<int64_t>(n);
            (key[0] == 's' ? haveStart : haveEnd) = true;
            return true;
        }
        if (key == "correlation_id")
            return forEachMember(v, [&](std::string_view k, od::value c) { return k != "internal" || uint(c, d.correlation); });
        if (key == "stream_id") {
            if (!handleOf(v, n) || n > UINT32_MAX)
                return false;
            d.stream = static_cast<uint32_t>(n);
            return true;
        }
        if (key != "dispatch_info")
            return true;
        haveInfo = true;
        return forEachMember(v, [&](std::string_view k, od::value iv) {
            if (k == "agent_id")
                return handleOf(iv, d.shape.agent);
            if (k == "queue_id")
                return handleOf(iv, d.shape.queue);
            if (k == "kernel_id")
                return uint(iv, d.shape.kernelId);
            if (k == "group_segment_size")
                return uint32(iv, d.shape.groupSegment);
            if (k == "private_segment_size")
                return uint32(iv, d.shape.privateSegment);
            if (k == "workgroup_size")
                return xyz(iv, d.shape.workgroup);
            if (k == "grid_size")
                return xyz(iv, d.shape.grid);
            return true;
        });
    });
    if (!ok || !haveStart || !haveEnd || !haveInfo || d.end < d.start)
        return false; // the DOM path reports what is wrong
    addDispatch(d, process);
    return true;
}

bool RocprofConverter::read(const JsonRecord& r) {
    // Dispatches are nearly all of a large file: read them with On-Demand (no DOM), falling back to
    // the DOM path for anything unusual (a missing or odd field, an error).
    if (r.path == kDispatch && r.outerIndex <= UINT16_MAX && !m_data->processes.empty() && readDispatchFast(r, r.outerIndex)) {
        ++m_records;
        m_sawEvent = true;
        flushIfFull();
        return true;
    }
    dom::element e;
    if (m_parser.parse(r.text.data(), r.text.size(), false).get(e) != simdjson::SUCCESS || !e.is_object()) {
        m_w.report().add("record that is not a JSON object (skipped)", "byte " + std::to_string(r.offset));
        return true;
    }
    ++m_records;
    if (r.outerIndex > UINT16_MAX)
        return true; // more profiled processes than a file can sensibly hold
    RocprofProcess& p = m_data->process(r.outerIndex);
    const bool table = r.path < kDispatch;
    if (table && m_tablesKnown)
        return true;
    m_tablesLate = m_tablesLate || (table && m_sawEvent);
    m_sawEvent = m_sawEvent || !table;
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
    case kHipApi: readCall(e, r.outerIndex, kHip); break;
    case kHsaApi: readCall(e, r.outerIndex, kHsa); break;
    case kMarkerApi: readCall(e, r.outerIndex, kMarker); break;
    case kRcclApi: readCall(e, r.outerIndex, kRccl); break;
    case kMemoryCopy: readCopy(e, r.outerIndex); break;
    case kMemoryAllocation: readAllocation(e, r.outerIndex, false); break;
    case kScratchMemory: readAllocation(e, r.outerIndex, true); break;
    default: break;
    }
    flushIfFull();
    return true;
}

void RocprofConverter::flowEnd(const FlowCandidate& c, char ph) {
    ChunkResult::FlowEnd f;
    f.ts = c.ts;
    f.seq = m_w.nextSeq();
    f.id = c.key;
    f.track = m_w.track(m_rows[c.row].first, m_rows[c.row].second);
    f.cat = m_flowCat;
    f.ph = ph;
    f.bindEnclosing = true;
    m_w.chunk().flows.push_back(f);
    ++m_w.chunk().events;
}

void RocprofConverter::gpuWork(uint64_t key, int64_t ts, uint32_t row) {
    m_gpuWork.insert(key);
    if (m_hasCalls)
        flowEnd({key, ts, row}, 'f');
    else
        m_gpuEnds.push_back({key, ts, row});
}

void RocprofConverter::launch(uint64_t key, int64_t ts, uint32_t row) {
    if (!m_hasCalls) {
        m_hasCalls = true;
        // Usually a launch for each GPU activity so far: their ends and as many starts.
        m_builder.reserveFlows(2 * m_gpuEnds.size() + 2 * m_w.chunk().flows.size());
        for (const FlowCandidate& c : m_gpuEnds) {
            flowEnd(c, 'f');
            flushIfFull();
        }
        m_gpuEnds = {};
    }
    if (!m_gpuWork.contains(key))
        m_earlyCalls.push_back({key, ts, row});
    else if (m_launched.insert(key))
        flowEnd({key, ts, row}, 's');
}

void RocprofConverter::writeAllocations() {
    // Device memory as the Memory tab's curve: allocations and frees by address, with the running
    // total per GPU (rocprofiler-sdk records the runtime's allocations, not a caching allocator's).
    // A FREE record carries only the address: it is paired with the allocation at that address.
    std::stable_sort(m_allocations.begin(), m_allocations.end(),
                     [](const PendingAllocation& a, const PendingAllocation& b) { return a.ts < b.ts; });
    std::map<int, int64_t> total;
    std::map<std::pair<uint32_t, uint64_t>, std::pair<int, int64_t>> live; // (process, address) -> (gpu, bytes)
    uint64_t unmatchedFrees = 0;
    for (const PendingAllocation& a : m_allocations) {
        int gpu = gpuOf(a.agent);
        int64_t delta = 0;
        if (!a.free) {
            if (gpu < 0)
                continue; // host memory
            delta = static_cast<int64_t>(std::min<uint64_t>(a.bytes, INT64_MAX / 4));
            live[{a.process, a.address}] = {gpu, delta};
        } else {
            const auto it = live.find({a.process, a.address});
            if (it == live.end()) {
                ++unmatchedFrees;
                continue;
            }
            gpu = it->second.first;
            delta = -it->second.second;
            live.erase(it);
        }
        total[gpu] += delta;
        ChunkResult::Memory m;
        m.ts = a.ts;
        m.addr = static_cast<int64_t>(a.address & 0x7FFFFFFFFFFFFFFFull);
        m.bytes = delta;
        m.totalAllocated = total[gpu];
        m.track = m_w.track(hostPid(a.process), a.thread);
        m.deviceType = 1;
        m.deviceId = static_cast<int16_t>(gpu);
        m_w.noteTime(m.ts, m.ts);
        m_w.chunk().memory.push_back(m);
        ++m_w.chunk().events;
    }
    if (unmatchedFrees)
        m_w.report().addNote("free of memory allocated before the capture started (not in the curve)", {},
                             unmatchedFrees);
    m_allocations = {};
}

void RocprofConverter::writeNames() {
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
        for (const auto& [handle, a] : m_data->agents)
            if (a.type == 2 && a.gpuIndex == gpu && !a.name.empty())
                m_w.meta(K::ProcessName, gpu, 0, m_w.string(a.name));
        m_w.meta(K::ProcessSortIndex, gpu, 0, 0, 0x10000000 + gpu);
    }
    std::set<int64_t> named;
    for (const RocprofProcess& p : m_data->processes)
        if (!p.command.empty() && named.insert(p.pid).second)
            m_w.meta(K::ProcessName, p.pid, 0, m_w.string(p.command));
}

void RocprofConverter::finish() {
    for (const FlowCandidate& c : m_earlyCalls)
        if (m_gpuWork.contains(c.key) && m_launched.insert(c.key))
            flowEnd(c, 's');
    m_earlyCalls = {};
    m_gpuEnds = {}; // no calls in the file: no flows
    writeAllocations();
    writeNames();
    if (m_unknownAgent)
        m_w.report().add("kernel dispatch on an agent that is not a listed GPU (skipped)", {}, m_unknownAgent);
    if (m_unknownKernel)
        m_w.report().add("kernel without a symbol before its dispatches (named by its id)", {}, m_unknownKernel);
    if (m_data->dispatches.empty() && m_data->calls.empty() && m_data->copies.empty())
        m_w.report().add("no kernel dispatches, API calls or copies in the file (was rocprofv3 run with "
                         "--kernel-trace or --hip-trace?)");
    ChunkResult c = m_w.takeChunk();
    m_builder.addChunk(c);
    m_kernelNames = {};
    m_callNames = {};
    m_shapeIndex = {};
}

std::vector<DeviceInfo> RocprofConverter::devices() const {
    std::vector<DeviceInfo> out;
    for (const auto& [handle, a] : m_data->agents) {
        if (a.type != 2 || a.gpuIndex < 0)
            continue;
        DeviceInfo d;
        d.id = a.gpuIndex;
        d.name = a.name;
        if (a.cuCount)
            d.numSms = static_cast<int>(std::min<uint32_t>(a.cuCount, INT32_MAX));
        if (a.memoryBytes)
            d.totalGlobalMem = static_cast<int64_t>(std::min<uint64_t>(a.memoryBytes, INT64_MAX));
        if (a.gfxVersion) { // gfx950 is 90500: major 9, minor 5
            d.computeMajor = static_cast<int>(a.gfxVersion / 10000);
            d.computeMinor = static_cast<int>(a.gfxVersion / 100 % 100);
        }
        if (a.maxWavesPerCu && a.waveSize)
            d.maxThreadsPerMultiprocessor = static_cast<int>(std::min<uint64_t>(uint64_t(a.maxWavesPerCu) * a.waveSize, INT32_MAX));
        d.vendor = DeviceInfo::Vendor::Amd;
        out.push_back(std::move(d));
    }
    std::sort(out.begin(), out.end(), [](const DeviceInfo& a, const DeviceInfo& b) { return a.id < b.id; });
    return out;
}

} // namespace ws
