#include "import/capture_stream_converter.h"

#include "import/operator_inference.h"

#include "import/torch_nvtx.h"

#include "import/capture_event_text.h"
#include "import/capture_names.h"
#include "analysis/program_frames.h"
#include "model/graph_flows.h"
#include "model/json_object_writer.h"

#include "format/wscapcodec.h"
#include "format/wscapreader.h"

#include <algorithm>
#include <unordered_map>

namespace ws {

using namespace wscap;

namespace {

// CUDA ordinals and NVML indices above this are corruption, not devices.
constexpr uint32_t kMaxDeviceIndex = 1023;
constexpr uint32_t kNoStream = 0xffffffffu;

IdValue number(int64_t n) {
    IdValue v;
    v.number = n;
    return v;
}

bool nonZero(const Uuid& u) {
    return std::any_of(u.begin(), u.end(), [](uint8_t b) { return b != 0; });
}

std::string offsetText(uint64_t offset) { return "at offset " + std::to_string(offset); }

} // namespace

CaptureStreamConverter::CaptureStreamConverter(uint32_t streamIndex) : m_stream(streamIndex) {
    m_chunk.worker = streamIndex;
    m_chunk.firstNewString = 1;
    m_pySamples.setEveryThreadEachRound(true); // the PySampler records every Python thread at each round
    m_catKernel = intern("kernel");
    m_catMemcpy = intern("gpu_memcpy");
    m_catMemset = intern("gpu_memset");
    m_catRuntime = intern("cuda_runtime");
    m_catDriver = intern("cuda_driver");
    m_catSync = intern("cuda_sync");
    m_catUser = intern("user_annotation");
    m_catCpuOp = intern("cpu_op");
    m_catOverhead = intern("overhead");
    m_catFlow = intern("ac2g");
    m_catGraph = intern("cuda_graph");
}

uint32_t CaptureStreamConverter::intern(const std::string& s) {
    if (s.empty())
        return 0;
    if (m_baseStrings)
        if (auto base = m_baseStrings->index.find(s); base != m_baseStrings->index.end())
            return base->second;
    const size_t before = m_baseStrings ? m_baseStrings->list.size() : 0;
    auto [it, added] = m_interned->index.try_emplace(s, static_cast<uint32_t>(before + m_interned->list.size() + 1));
    if (added)
        m_interned->list.push_back(s);
    return it->second;
}

const std::string& CaptureStreamConverter::localString(uint32_t id) const {
    static const std::string kNone;
    const size_t base = m_baseStrings ? m_baseStrings->list.size() : 0;
    if (id == 0)
        return kNone;
    if (id <= base)
        return m_baseStrings->list[id - 1];
    return id - 1 - base < m_interned->list.size() ? m_interned->list[id - 1 - base] : kNone;
}

uint32_t CaptureStreamConverter::argColumn(const std::array<ArgColumnField, 4>& fields) {
    for (const ArgColumnField& f : fields)
        if (f.present && f.isString && !validUtf8(f.text)) {
            // Its text as eventJson gives it has U+FFFD in place of the bad bytes: the column would
            // not read the same, so the session reads arguments from the stream (arg_columns.h).
            m_chunk.argColumnsLost = true;
            return 0;
        }
    if (!joinArgColumn(fields, m_columnText)) {
        m_chunk.argColumnsLost = true;
        return 0;
    }
    return intern(m_columnText);
}

uint32_t CaptureStreamConverter::launchArgs(const wscap::KernelRecord& r) {
    // As CaptureEventText writes them: grid, block, registers per thread, shared memory (static +
    // dynamic), each raw JSON.
    std::string grid, block;
    JsonObjectWriter::appendDims(grid, r.gridX, r.gridY, r.gridZ);
    JsonObjectWriter::appendDims(block, r.blockX, r.blockY, r.blockZ);
    const std::string registers = std::to_string(r.registersPerThread);
    const std::string shared = std::to_string(int64_t(r.staticSharedMemory) + r.dynamicSharedMemory);
    return argColumn({ArgColumnField{true, false, grid}, ArgColumnField{true, false, block},
                      ArgColumnField{true, false, registers}, ArgColumnField{true, false, shared}});
}

uint32_t CaptureStreamConverter::operatorArgs(std::string_view inputDims, const std::string* stack) {
    // Input Dims and Call stack; a capture has no Input type or Concrete Inputs.
    std::array<ArgColumnField, 4> fields{};
    if (!inputDims.empty())
        fields[0] = {true, false, inputDims};
    if (stack)
        fields[3] = {true, true, *stack};
    return fields[0].present || fields[3].present ? argColumn(fields) : 0;
}

std::string CaptureStreamConverter::inputDimsOf(uint32_t opArgs) const {
    // The field of a column made by operatorArgs: 'r' and the compact JSON, which reads back as is.
    const std::string_view dims = splitArgColumn<kOpArgKeys.size()>(localString(opArgs))[0];
    return dims.empty() ? std::string() : std::string(dims.substr(1));
}

uint32_t CaptureStreamConverter::track(IdValue pid, IdValue tid) {
    const TrackKey key{pid.number, tid.number, tid.isString ? tid.string : 0, tid.isString};
    auto [it, added] = m_trackIndex.try_emplace(key, static_cast<uint32_t>(m_chunk.tracks.size()));
    if (added)
        m_chunk.tracks.push_back({pid, tid, ChunkResult::kThread});
    return it->second;
}

uint32_t CaptureStreamConverter::gpuTrack(uint32_t slot, uint32_t streamId, bool syncOnly) {
    const size_t before = m_chunk.tracks.size();
    const uint32_t t = track(number(-1 - static_cast<int64_t>(slot)), number(streamId));
    if (m_chunk.tracks.size() != before)
        m_gpuTracks.push_back({t, slot, streamId, syncOnly});
    return t;
}

uint32_t CaptureStreamConverter::cudaSlot(uint32_t ordinal) {
    auto [it, added] = m_cudaSlots.try_emplace(ordinal, static_cast<uint32_t>(m_refs.size()));
    if (added) {
        CaptureDeviceRef r;
        r.stream = m_stream;
        r.cuda = true;
        r.index = ordinal;
        m_refs.push_back(std::move(r));
    }
    return it->second;
}

uint32_t CaptureStreamConverter::nvmlSlot(uint32_t index) {
    auto [it, added] = m_nvmlSlots.try_emplace(index, static_cast<uint32_t>(m_refs.size()));
    if (added) {
        CaptureDeviceRef r;
        r.stream = m_stream;
        r.cuda = false;
        r.index = index;
        m_refs.push_back(std::move(r));
    }
    return it->second;
}

IdValue CaptureStreamConverter::hostPid(uint32_t pid) const { return number(pid ? pid : m_header.pid); }

void CaptureStreamConverter::addSlice(uint32_t trackIndex, uint64_t start, uint64_t end, uint32_t name, uint32_t cat,
                                      uint64_t offset) {
    ChunkResult::Slice s;
    s.ts = static_cast<int64_t>(std::min<uint64_t>(start, INT64_MAX / 2));
    if (end < start) {
        m_chunk.report.add("capture records that end before they start (duration set to 0)", offsetText(offset));
        end = start;
    }
    s.dur = static_cast<int64_t>(std::min<uint64_t>(end - start, INT64_MAX / 4));
    s.track = trackIndex;
    s.name = name;
    s.cat = cat;
    s.argRef = offset <= CaptureEventText::kMaxOffset ? CaptureEventText::makeRef(m_stream, offset) : ~uint64_t(0);
    m_chunk.minTs = std::min(m_chunk.minTs, s.ts);
    m_chunk.maxTs = std::max(m_chunk.maxTs, s.ts + s.dur);
    m_chunk.slices.push_back(s);
}

void CaptureStreamConverter::markGpuWork(uint32_t correlationId, uint64_t graphNodeId) {
    const auto slice = static_cast<uint32_t>(m_chunk.slices.size() - 1);
    ChunkResult::Slice& s = m_chunk.slices[slice];
    s.corr = correlationId;
    s.have |= ChunkResult::kCorr;
    m_gpuSlices.emplace_back(slice, correlationId);
    m_read->gpuCorr.insert(correlationId);
    if (graphNodeId)
        m_graphActivities.emplace_back(slice, graphNodeId);
}

void CaptureStreamConverter::addMeta(ChunkResult::MetaKind kind, IdValue pid, IdValue tid, uint32_t str) {
    ChunkResult::Meta m;
    m.kind = kind;
    m.pid = pid;
    m.tid = tid;
    m.str = str;
    m.seq = m_seq++;
    m_chunk.metas.push_back(m);
}

bool CaptureStreamConverter::read(WscapReader& reader, const ImportControl& control) {
    if (!readAvailable(reader, control))
        return false;
    finishStream(reader);
    return true;
}

std::unique_ptr<CaptureStreamConverter> CaptureStreamConverter::finishedCopy(const WscapReader& reader) const {
    auto copy = std::make_unique<CaptureStreamConverter>(*this);
    // finishStream changes the stacks and collectives: the copy gets its own.
    copy->m_stacks = std::make_shared<CaptureStacks>(*m_stacks);
    copy->m_collectives = std::make_shared<CaptureCollectives>(*m_collectives);
    // m_read is shared, not copied: finishStream only looks up correlations in it. The string index
    // too: the copy finds the strings interned so far in this converter's index (which does not
    // change while the copy is finished and merged) and indexes only those it adds.
    copy->m_baseStrings = m_interned;
    copy->m_interned = std::make_shared<InternedStrings>();
    copy->finishStream(reader);
    copy->m_read.reset(); // the copy reads no more records
    return copy;
}

ChunkResult& CaptureStreamConverter::sealedChunk() {
    m_chunk.firstNewString = static_cast<uint32_t>((m_baseStrings ? m_baseStrings->list.size() : 0) + 1);
    m_chunk.newStrings = std::move(m_interned->list);
    m_interned = std::make_shared<InternedStrings>(); // sealed: nothing is interned after
    return m_chunk;
}

bool CaptureStreamConverter::readAvailable(WscapReader& reader, const ImportControl& control) {
    RawRecord rec;
    for (;;) {
        const WscapReader::Status st = reader.next(&rec);
        if (st != WscapReader::Status::Record)
            break;
        ++m_records;
        if ((m_records & 0xfff) == 0 && control.cancel && control.cancel->load())
            return false;
        handle(rec.type, rec.payload, rec.offset);
    }
    return true;
}

void CaptureStreamConverter::handle(uint16_t type, const std::vector<uint8_t>& payload, uint64_t offset) {
    auto bad = [&](const char* what) {
        m_chunk.report.add("malformed capture records (skipped)", std::string(what) + " " + offsetText(offset));
    };
    auto decode = [&](auto* r) {
        if (decodeRecord(payload.data(), payload.size(), r))
            return true;
        bad(recordTypeName(type));
        return false;
    };
    auto badDevice = [&](uint32_t device) {
        if (device <= kMaxDeviceIndex)
            return false;
        m_chunk.report.add("capture records with an impossible device id (skipped)",
                           "device " + std::to_string(device) + " " + offsetText(offset));
        return true;
    };
    ++m_chunk.events;
    switch (static_cast<RecordType>(type)) {
    case RecordType::StreamHeader: {
        StreamHeaderRecord r;
        if (!decode(&r))
            return;
        if (m_sawHeader) {
            m_chunk.report.add("repeated capture stream headers (ignored)", offsetText(offset));
            return;
        }
        m_header = std::move(r);
        m_sawHeader = true;
        m_callsAtDriver = !(m_header.activities & (ActRuntime | ActDriver)) && (m_header.activities & ActLaunches);
        std::string command;
        for (const std::string& arg : m_header.commandLine) {
            if (!command.empty())
                command += ' ';
            command += arg;
        }
        if (command.size() > 160)
            command = command.substr(0, 157) + "...";
        if (command.empty())
            command = m_header.captureName.empty() ? "process" : m_header.captureName;
        addMeta(ChunkResult::MetaKind::ProcessName, hostPid(0), {}, intern(command));
        if (m_header.rank >= 0)
            addMeta(ChunkResult::MetaKind::ProcessLabels, hostPid(0), {}, intern("rank " + std::to_string(m_header.rank)));
        return;
    }
    case RecordType::String: {
        StringRecord r;
        if (!decode(&r))
            return;
        m_strings[r.id] = std::move(r.text);
        return;
    }
    case RecordType::Device: {
        DeviceRecord r;
        if (!decode(&r) || badDevice(r.id))
            return;
        CaptureDeviceRef& ref = m_refs[cudaSlot(r.id)];
        ref.hasUuid = nonZero(r.uuid);
        ref.uuid = r.uuid;
        ref.name = r.name;
        ref.device = std::move(r);
        return;
    }
    case RecordType::Context: {
        ContextRecord r;
        if (decode(&r) && !badDevice(r.deviceId))
            m_read->contextDevice[r.contextId] = r.deviceId;
        return;
    }
    case RecordType::Kernel: {
        KernelRecord r;
        if (!decode(&r) || badDevice(r.deviceId))
            return;
        const uint32_t slot = cudaSlot(r.deviceId);
        auto [it, added] = m_read->kernelNames.try_emplace(r.nameId, 0);
        if (added) {
            auto s = m_strings.find(r.nameId);
            it->second = intern(s == m_strings.end() || s->second.empty() ? std::string("(unnamed kernel)")
                                                                           : capture::demangle(s->second));
        }
        addSlice(gpuTrack(slot, r.streamId, false), r.start, r.end, it->second, m_catKernel, offset);
        ChunkResult::Slice& s = m_chunk.slices.back();
        s.launchArgs = launchArgs(r);
        const CaptureDeviceRef& ref = m_refs[slot];
        if (ref.device && ref.device->smCount > 0) {
            const double blocks = double(std::max(r.gridX, 0)) * std::max(r.gridY, 0) * std::max(r.gridZ, 0);
            s.bps = static_cast<float>(blocks / ref.device->smCount);
            s.have |= ChunkResult::kBps;
        }
        markGpuWork(r.correlationId, r.graphNodeId);
        return;
    }
    case RecordType::Memcpy: {
        MemcpyRecord r;
        if (!decode(&r) || badDevice(r.deviceId))
            return;
        std::string name = std::string("Memcpy ") + capture::memcpyKindName(r.copyKind) + " (" +
                           capture::memoryKindName(r.srcKind) + " -> " + capture::memoryKindName(r.dstKind) + ")";
        addSlice(gpuTrack(cudaSlot(r.deviceId), r.streamId, false), r.start, r.end, intern(name), m_catMemcpy, offset);
        ChunkResult::Slice& s = m_chunk.slices.back();
        s.bytes = static_cast<int64_t>(std::min<uint64_t>(r.bytes, INT64_MAX));
        s.have |= ChunkResult::kBytes;
        markGpuWork(r.correlationId, r.graphNodeId);
        return;
    }
    case RecordType::Memset: {
        MemsetRecord r;
        if (!decode(&r) || badDevice(r.deviceId))
            return;
        const std::string name = std::string("Memset (") + capture::memoryKindName(r.memoryKind) + ")";
        addSlice(gpuTrack(cudaSlot(r.deviceId), r.streamId, false), r.start, r.end, intern(name), m_catMemset, offset);
        ChunkResult::Slice& s = m_chunk.slices.back();
        s.bytes = static_cast<int64_t>(std::min<uint64_t>(r.bytes, INT64_MAX));
        s.have |= ChunkResult::kBytes;
        markGpuWork(r.correlationId, r.graphNodeId);
        return;
    }
    case RecordType::Api: {
        ApiRecord r;
        if (!decode(&r))
            return;
        if (m_header.activities & ActPySample) // samples name the CUDA call they were in by its cbid
            m_callNames.try_emplace(uint32_t(r.domain) << 24 | r.cbid, r.nameId);
        auto [it, added] = m_read->apiNames.try_emplace(r.nameId, 0);
        if (added) {
            auto s = m_strings.find(r.nameId);
            it->second = intern(s == m_strings.end() || s->second.empty()
                                    ? "API call " + std::to_string(r.cbid)
                                    : std::string(capture::apiDisplayName(s->second)));
        }
        const IdValue pid = hostPid(r.processId);
        // A stream recorded without the runtime found every launch, copy and wait at the driver (the
        // default since issue #25): those driver calls are the program's CUDA calls, in the role the
        // runtime's have elsewhere (flow starts, the step breakdown's Runtime, steps' device work).
        const bool driver = r.domain == static_cast<uint8_t>(ApiDomain::Driver) && !m_callsAtDriver;
        addSlice(track(pid, number(r.threadId ? r.threadId : pid.number)), r.start, r.end, it->second,
                 driver ? m_catDriver : m_catRuntime, offset);
        ChunkResult::Slice& s = m_chunk.slices.back();
        s.corr = r.correlationId;
        s.have |= ChunkResult::kCorr;
        if (auto ext = m_read->external.find(r.correlationId); ext != m_read->external.end()) {
            s.ext = static_cast<uint32_t>(ext->second);
            s.have |= ChunkResult::kExt;
        }
        m_apiSlices.emplace_back(static_cast<uint32_t>(m_chunk.slices.size() - 1), r.correlationId);
        m_read->apiCorr.insert(r.correlationId);
        if (m_header.activities & ActPySample) // a sample inside a call stands for the call (StackSamples)
            m_pySamples.addCall(r.threadId, static_cast<int64_t>(std::min<uint64_t>(r.start, INT64_MAX / 2)),
                                static_cast<int64_t>(std::min<uint64_t>(r.end, INT64_MAX / 2)));
        return;
    }
    case RecordType::Synchronization: {
        SynchronizationRecord r;
        if (!decode(&r))
            return;
        auto ctx = m_read->contextDevice.find(r.contextId);
        if (ctx == m_read->contextDevice.end()) {
            m_chunk.report.add("synchronization records of an unknown CUDA context (skipped)", offsetText(offset));
            return;
        }
        const bool noStream = r.streamId == kNoStream;
        addSlice(gpuTrack(cudaSlot(ctx->second), r.streamId, noStream), r.start, r.end,
                 intern(capture::syncTypeName(r.type)), m_catSync, offset);
        markGpuWork(r.correlationId, 0);
        return;
    }
    case RecordType::Memory: {
        MemoryRecord r;
        if (!decode(&r) || badDevice(r.deviceId))
            return;
        if (r.operation != 1 && r.operation != 2)
            return;
        const int64_t bytes = static_cast<int64_t>(std::min<uint64_t>(r.bytes, INT64_MAX / 2));
        m_memory.push_back({static_cast<int64_t>(std::min<uint64_t>(r.timestamp, INT64_MAX / 2)),
                            r.operation == 1 ? bytes : -bytes, static_cast<int64_t>(r.address & INT64_MAX),
                            cudaSlot(r.deviceId)});
        return;
    }
    case RecordType::NvtxRange: {
        NvtxRangeRecord r;
        if (!decode(&r))
            return;
        const IdValue pid = hostPid(r.processId);
        const auto text = r.nameId ? m_strings.find(r.nameId) : m_strings.end();
        uint32_t name = 0, opArgs = 0;
        uint32_t category = m_catUser;
        // PyTorch's own operator ranges (emit_nvtx, `--torch-ops`) are operators; other domains' never.
        // An operator is named by its op alone: its range's text (with sizes and ids, different at
        // every call) is not interned.
        const auto domain = r.domainId ? m_strings.find(r.domainId) : m_strings.end();
        if (text != m_strings.end()) {
            if (const auto op = torchOperatorRange(domain == m_strings.end() ? std::string_view() : domain->second, text->second)) {
                name = intern(std::string(op->name));
                category = m_catCpuOp;
                // Its shapes as CaptureEventText writes them (compact JSON).
                const bool dims = !op->sizes.empty() && torchInputDimsJson(op->sizes, m_dimsText);
                opArgs = operatorArgs(dims ? std::string_view(m_dimsText) : std::string_view(), nullptr);
            } else {
                name = intern(text->second);
            }
        }
        addSlice(track(pid, number(r.threadId ? r.threadId : pid.number)), r.start, r.end ? r.end : r.start,
                 name ? name : intern("(unnamed range)"), category, offset);
        m_chunk.slices.back().opArgs = opArgs;
        if (r.end == 0)
            m_openRanges.push_back(m_chunk.slices.size() - 1);
        return;
    }
    case RecordType::NvtxMark: {
        NvtxMarkRecord r;
        if (!decode(&r))
            return;
        const IdValue pid = hostPid(r.processId);
        ChunkResult::Instant in;
        in.ts = static_cast<int64_t>(std::min<uint64_t>(r.timestamp, INT64_MAX / 2));
        in.track = track(pid, number(r.threadId ? r.threadId : pid.number));
        auto s = m_strings.find(r.nameId);
        in.name = intern(s == m_strings.end() || s->second.empty() ? std::string("(unnamed mark)") : s->second);
        in.cat = m_catUser;
        in.argRef = offset <= CaptureEventText::kMaxOffset ? CaptureEventText::makeRef(m_stream, offset) : ~uint64_t(0);
        m_chunk.minTs = std::min(m_chunk.minTs, in.ts);
        m_chunk.maxTs = std::max(m_chunk.maxTs, in.ts);
        m_chunk.instants.push_back(in);
        return;
    }
    case RecordType::Overhead: {
        OverheadRecord r;
        if (!decode(&r))
            return;
        // Overhead spans overlap the API calls of their thread: one row per process keeps them apart.
        const IdValue pid = hostPid(r.objectKind == 1 || r.objectKind == 2 ? r.objectId0 : 0);
        IdValue tid;
        tid.isString = true;
        tid.string = intern("CUPTI overhead");
        addSlice(track(pid, tid), r.start, r.end, intern(capture::overheadKindName(r.overheadKind)), m_catOverhead,
                 offset);
        return;
    }
    case RecordType::Dropped: {
        DroppedRecord r;
        if (!decode(&r) || r.count == 0)
            return;
        m_dropped += r.count;
        m_chunk.report.add(r.source == static_cast<uint8_t>(DropSource::BufferRefused)
                               ? "activity records lost: the capture's buffer limit was reached"
                               : "activity records dropped by CUPTI",
                           "pid " + std::to_string(m_header.pid), r.count);
        return;
    }
    case RecordType::MetricDescriptor: {
        MetricDescriptorRecord r;
        if (!decode(&r))
            return;
        m_read->metrics[r.metricId] = {r.name, r.unit, r.source};
        return;
    }
    case RecordType::MetricDevice: {
        MetricDeviceRecord r;
        if (!decode(&r) || badDevice(r.index))
            return;
        CaptureDeviceRef& ref = m_refs[r.source == static_cast<uint8_t>(MetricSource::PmSampling) ? cudaSlot(r.index)
                                                                                                    : nvmlSlot(r.index)];
        if (nonZero(r.uuid)) {
            ref.hasUuid = true;
            ref.uuid = r.uuid;
        }
        if (ref.name.empty())
            ref.name = r.name;
        return;
    }
    case RecordType::MetricSample: {
        MetricSampleRecord r;
        if (!decode(&r) || badDevice(r.device))
            return;
        auto m = m_read->metrics.find(r.metricId);
        const bool pm = m != m_read->metrics.end() ? m->second.source == static_cast<uint8_t>(MetricSource::PmSampling)
                                             : r.metricId > 100 && r.metricId <= 200;
        // Host samples (the `host` activity) belong to the traced process, not to a GPU.
        const bool host = m != m_read->metrics.end() ? m->second.source == static_cast<uint8_t>(MetricSource::Host)
                                               : r.metricId > 200;
        ChunkResult::Counter c;
        c.pid = host ? hostPid(m_header.pid)
                     : number(-1 - static_cast<int64_t>(pm ? cudaSlot(r.device) : nvmlSlot(r.device)));
        c.ts = static_cast<int64_t>(std::min<uint64_t>(r.timestamp, INT64_MAX / 2));
        c.value = r.value;
        c.seq = m_seq++;
        c.name = intern(m != m_read->metrics.end() && !m->second.name.empty() ? m->second.name
                                                                          : "metric " + std::to_string(r.metricId));
        c.series = intern(m != m_read->metrics.end() && !m->second.unit.empty() ? m->second.unit : std::string("value"));
        c.cat = intern(host ? "host" : pm ? "pm_sampling" : "nvml");
        m_chunk.minTs = std::min(m_chunk.minTs, c.ts);
        m_chunk.maxTs = std::max(m_chunk.maxTs, c.ts);
        m_chunk.counters.push_back(c);
        return;
    }
    case RecordType::Error: {
        ErrorRecord r;
        if (!decode(&r))
            return;
        const char* kind = r.severity >= static_cast<uint8_t>(ErrorSeverity::Error)     ? "capture errors"
                           : r.severity == static_cast<uint8_t>(ErrorSeverity::Warning) ? "capture warnings"
                                                                                         : "capture notes";
        std::string text = r.where.empty() ? r.message : r.where + ": " + r.message;
        if (r.code)
            text += " (code " + std::to_string(r.code) + ")";
        // A note (Info: what the Python sampler cost, say) is no problem of the file: no warning banner.
        if (r.severity == static_cast<uint8_t>(ErrorSeverity::Info))
            m_chunk.report.addNote(kind, text);
        else
            m_chunk.report.add(kind, text);
        return;
    }
    case RecordType::Footer: {
        FooterRecord r;
        if (!decode(&r))
            return;
        m_sawFooter = true;
        if (r.reason == static_cast<uint8_t>(FooterReason::Error))
            m_chunk.report.add("capture stopped early by an error in the injection library", "pid " + std::to_string(m_header.pid));
        return;
    }
    case RecordType::ExternalCorrelation: {
        ExternalCorrelationRecord r;
        if (decode(&r))
            m_read->external[r.correlationId] = r.externalId;
        return;
    }
    case RecordType::Module: {
        ModuleRecord r;
        if (decode(&r))
            m_stacks->addModule(std::move(r));
        return;
    }
    case RecordType::StackDef: {
        StackDefRecord r;
        if (decode(&r))
            m_stacks->addStack(std::move(r));
        return;
    }
    case RecordType::CallStack: {
        CallStackRecord r;
        if (decode(&r))
            m_stacks->addLaunch(r);
        return;
    }
    case RecordType::Symbol: {
        SymbolRecord r;
        if (decode(&r))
            m_stacks->addSymbol(std::move(r));
        return;
    }
    case RecordType::PyFrame: {
        PyFrameRecord r;
        if (decode(&r))
            m_stacks->addPyFrame(std::move(r));
        return;
    }
    case RecordType::PySample: {
        PySampleRecord r;
        if (decode(&r))
            m_pySamples.add(r.threadId, static_cast<int64_t>(std::min<uint64_t>(r.timestamp, INT64_MAX / 2)), r.pyStackId,
                            r.periodNs, offset);
        return;
    }
    case RecordType::PyStack: {
        PyStackRecord r;
        if (decode(&r))
            m_stacks->addPyStack(std::move(r));
        return;
    }
    case RecordType::Collective: {
        CollectiveRecord r;
        if (decode(&r))
            m_collectives->add(r, m_strings);
        return;
    }
    case RecordType::OpsWindow: {
        OpsWindowRecord r;
        if (decode(&r) && r.end >= r.start) {
            const IdValue pid = hostPid(r.processId);
            m_opsWindowsOf[track(pid, number(r.threadId ? r.threadId : pid.number))].emplace_back(
                static_cast<int64_t>(std::min<uint64_t>(r.start, INT64_MAX / 2)),
                static_cast<int64_t>(std::min<uint64_t>(r.end, INT64_MAX / 2)));
        }
        return;
    }
    case RecordType::Recording: {
        RecordingRecord r;
        if (decode(&r) && r.end >= r.start)
            m_recorded.emplace_back(static_cast<int64_t>(std::min<uint64_t>(r.start, INT64_MAX / 2)),
                                    static_cast<int64_t>(std::min<uint64_t>(r.end, INT64_MAX / 2)));
        return;
    }
    case RecordType::GraphNode: {
        GraphNodeRecord r;
        if (decode(&r) && r.nodeId) {
            m_stacks->addGraphNode(r.nodeId, r.stackId, r.pyStackId);
            m_graphNodes.emplace_back(r, offset);
        }
        return;
    }
    case RecordType::GraphExec: {
        GraphExecRecord r;
        if (decode(&r) && r.graphExecId) {
            m_stacks->addGraphNode(CaptureStacks::kGraphExecKey | r.graphExecId, r.stackId, r.pyStackId);
            m_graphExecs.emplace_back(r, offset);
        }
        return;
    }
    case RecordType::GraphTrace: { // a replay as one span (--graph-trace=graph): its nodes were not traced
        GraphTraceRecord r;
        if (!decode(&r))
            return;
        auto ctx = m_read->contextDevice.find(r.contextId);
        const uint32_t device = ctx != m_read->contextDevice.end() ? ctx->second : r.deviceId;
        if (badDevice(device))
            return;
        addSlice(gpuTrack(cudaSlot(device), r.streamId, false), r.start, r.end,
                 intern("CUDA graph " + std::to_string(r.graphId)), m_catGraph, offset);
        markGpuWork(r.correlationId, 0);
        return;
    }
    case RecordType::Flush: return;
    }
    m_chunk.report.add("unknown capture record types (skipped)", "type " + std::to_string(type) + " " + offsetText(offset));
}

void CaptureStreamConverter::linkOperatorStacks() {
    // Per thread, the API calls that carry a Python stack, in time order.
    std::unordered_map<uint32_t, std::vector<std::pair<int64_t, uint32_t>>> calls; // track -> (start, correlation)
    for (const auto& [slice, corr] : m_apiSlices)
        if (corr && m_stacks->forCorrelation(corr)) {
            const ChunkResult::Slice& s = m_chunk.slices[slice];
            calls[s.track].emplace_back(s.ts, corr);
        }
    for (auto& [track, list] : calls)
        std::sort(list.begin(), list.end());
    for (ChunkResult::Slice& op : m_chunk.slices) {
        if (op.cat != m_catCpuOp || op.argRef == ~uint64_t(0))
            continue;
        const auto list = calls.find(op.track);
        if (list == calls.end())
            continue;
        const auto first = std::lower_bound(list->second.begin(), list->second.end(), std::make_pair(op.ts, uint32_t(0)));
        if (first != list->second.end() && first->first <= op.ts + op.dur) {
            m_stacks->setOperatorStack(op.argRef & CaptureEventText::kMaxOffset, first->second);
            // The stack joins the operator's argument column (its shapes are there already).
            if (const std::string* stack = m_stacks->forCorrelation(first->second))
                op.opArgs = operatorArgs(inputDimsOf(op.opArgs), stack);
        }
    }
}

namespace {

const char* graphNodeTypeName(uint32_t type) {
    // CUgraphNodeType
    static const char* const kNames[] = {"kernel",      "memcpy",     "memset",      "host",
                                         "graph",       "empty",      "wait event",  "event record",
                                         "signal",      "wait",       "mem alloc",   "mem free",
                                         "batch memop", "conditional"};
    return type < std::size(kNames) ? kNames[type] : "node";
}

} // namespace

void CaptureStreamConverter::nameGraphLaunches(const std::vector<size_t>& createdOfActivity,
                                               const std::unordered_map<uint64_t, size_t>& byId) {
    // Each executable graph by the line that captured it, as GraphReplays names it: the innermost
    // frame outside torch that the Python stacks of all its nodes share (the line inside `with
    // torch.cuda.graph(g):` that ran the model), else its cudaGraphInstantiate's. A replayed
    // activity's node is a clone in the executable graph, whose graph id is the executable graph's.
    std::unordered_map<uint32_t, std::vector<uint64_t>> shared; // exec -> common outer frame ids, outermost first
    std::unordered_set<uint64_t> folded;                        // (exec, created node) already in shared
    std::unordered_map<uint32_t, uint32_t> execOfLaunch;        // correlation -> executable graph
    for (size_t k = 0; k < m_graphActivities.size(); ++k) {
        const size_t created = createdOfActivity[k];
        if (created == SIZE_MAX)
            continue;
        const auto& [slice, nodeId] = m_graphActivities[k];
        const uint32_t exec = m_graphNodes[byId.at(nodeId)].first.graphId;
        execOfLaunch.try_emplace(m_chunk.slices[slice].corr, exec);
        if (!folded.insert(uint64_t(exec) << 32 | created).second)
            continue;
        const std::vector<uint64_t>* frames = m_stacks->pyStack(m_graphNodes[created].first.pyStackId);
        if (!frames)
            continue;
        std::vector<uint64_t> outer(frames->rbegin(), frames->rend());
        auto [common, first] = shared.try_emplace(exec, std::move(outer));
        if (first)
            continue;
        size_t n = 0;
        while (n < common->second.size() && n < frames->size() && common->second[n] == (*frames)[frames->size() - 1 - n])
            ++n;
        common->second.resize(n);
    }
    auto label = [&](auto firstFrame, auto lastFrame) -> std::string { // frame ids, innermost first
        std::vector<const wscap::PyFrameRecord*> frames;
        for (auto id = firstFrame; id != lastFrame; ++id)
            if (const wscap::PyFrameRecord* f = m_stacks->pyFrame(static_cast<uint32_t>(*id)); f && f->line > 0)
                frames.push_back(f);
        const auto chosen = programFrame(frames.begin(), frames.end(),
                                         [](const wscap::PyFrameRecord* f) { return std::string_view(f->file); });
        if (chosen == frames.end())
            return {};
        return ((*chosen)->function.empty() ? std::string() : (*chosen)->function + " ") + "(" +
               shortLocation((*chosen)->file, static_cast<int32_t>((*chosen)->line)) + ")";
    };
    std::unordered_map<uint32_t, std::string> labels;
    for (const auto& [exec, outer] : shared)
        if (std::string text = label(outer.rbegin(), outer.rend()); !text.empty())
            labels[exec] = std::move(text);
    for (const auto& [r, offset] : m_graphExecs)
        if (!labels.count(r.graphExecId))
            if (const std::vector<uint64_t>* frames = m_stacks->pyStack(r.pyStackId))
                if (std::string text = label(frames->begin(), frames->end()); !text.empty())
                    labels[r.graphExecId] = std::move(text);
    // Each replay's launch call (same correlation) is named after its graph: the one range on the
    // launching thread that stands for the replay.
    std::unordered_map<uint64_t, uint32_t> renamed; // (exec, API name) -> local string
    for (const auto& [slice, corr] : m_apiSlices) {
        const auto e = execOfLaunch.find(corr);
        if (e == execOfLaunch.end() || !labels.count(e->second))
            continue;
        ChunkResult::Slice& s = m_chunk.slices[slice];
        auto [name, added] = renamed.try_emplace(uint64_t(e->second) << 32 | s.name, 0);
        if (added)
            name->second = intern(localString(s.name) + ": " + labels[e->second]);
        s.name = name->second;
    }
}

void CaptureStreamConverter::linkGraphNodes() {
    // Interned here, not with the other categories: a session without graph_node flows has no such
    // string, and GraphReplays tells it has no graphs from that alone (no pass over its flows).
    m_catGraphNode = intern("graph_node");
    m_catGraphFlow = intern(std::string(kGraphNodeFlowCategory));
    // Each node id to its record; a clone leads to its original, the created node at the end.
    // Instantiation reports each node of the executable graph twice, as created (in the executable
    // graph's own graph, whose id is the executable graph's) and as a clone of the captured node
    // under the same id (CUDA 13.0 driver 580): the clone says where it came from, so it wins.
    std::unordered_set<uint32_t> execGraphs;
    for (const auto& [r, offset] : m_graphExecs)
        execGraphs.insert(r.graphExecId);
    std::unordered_map<uint64_t, size_t> byId;
    byId.reserve(m_graphNodes.size());
    for (size_t i = 0; i < m_graphNodes.size(); ++i)
        if (m_graphNodes[i].first.originalNodeId == 0)
            byId.try_emplace(m_graphNodes[i].first.nodeId, i);
    for (size_t i = 0; i < m_graphNodes.size(); ++i)
        if (m_graphNodes[i].first.originalNodeId != 0)
            byId[m_graphNodes[i].first.nodeId] = i;
    // A node made by the program: created, not an executable graph's copy of one.
    auto madeByProgram = [&](size_t i) {
        const GraphNodeRecord& r = m_graphNodes[i].first;
        return r.originalNodeId == 0 && byId.at(r.nodeId) == i && !execGraphs.count(r.graphId);
    };
    auto createdOf = [&](uint64_t nodeId) -> size_t {
        // Clone chains are short (instantiation, maybe a cudaGraphClone before); the bound stops a cycle.
        for (int hop = 0; hop < 16; ++hop) {
            const auto it = byId.find(nodeId);
            if (it == byId.end())
                return SIZE_MAX;
            const GraphNodeRecord& r = m_graphNodes[it->second].first;
            if (r.originalNodeId == 0)
                return madeByProgram(it->second) ? it->second : SIZE_MAX;
            nodeId = r.originalNodeId;
        }
        return SIZE_MAX;
    };
    // Each replayed activity's created node, and each node's first replayed activity.
    std::vector<size_t> createdOfActivity(m_graphActivities.size(), SIZE_MAX);
    std::vector<uint32_t> firstActivity(m_graphNodes.size(), UINT32_MAX);
    size_t unknown = 0;
    for (size_t k = 0; k < m_graphActivities.size(); ++k) {
        const size_t created = createdOf(m_graphActivities[k].second);
        createdOfActivity[k] = created;
        if (created == SIZE_MAX)
            ++unknown;
        else if (firstActivity[created] == UINT32_MAX)
            firstActivity[created] = m_graphActivities[k].first;
    }
    // A slice where each node was made, on its thread, inside the call that made it, named by what
    // its replays run (the driver's node type at creation says 0, kernel, for copies and sets too).
    std::vector<uint32_t> sliceOf(m_graphNodes.size(), UINT32_MAX);
    std::unordered_map<std::string, uint32_t> names;
    for (size_t i = 0; i < m_graphNodes.size(); ++i) {
        const auto& [r, offset] = m_graphNodes[i];
        if (!madeByProgram(i))
            continue;
        std::string what = graphNodeTypeName(r.nodeType);
        if (firstActivity[i] != UINT32_MAX) {
            const uint32_t cat = m_chunk.slices[firstActivity[i]].cat;
            what = cat == m_catMemcpy ? "memcpy" : cat == m_catMemset ? "memset" : "kernel";
        }
        auto [name, added] = names.try_emplace(what, 0);
        if (added)
            name->second = intern("graph node: " + what);
        const IdValue pid = hostPid(r.processId);
        sliceOf[i] = static_cast<uint32_t>(m_chunk.slices.size());
        addSlice(track(pid, number(r.threadId ? r.threadId : pid.number)), r.timestamp, r.timestamp, name->second,
                 m_catGraphNode, offset);
    }
    const uint32_t instantiated = m_graphExecs.empty() ? 0 : intern("graph instantiated");
    const uint32_t execCategory = m_graphExecs.empty() ? 0 : intern("graph_exec");
    for (const auto& [r, offset] : m_graphExecs) {
        const IdValue pid = hostPid(r.processId);
        addSlice(track(pid, number(r.threadId ? r.threadId : pid.number)), r.timestamp, r.timestamp, instantiated,
                 execCategory, offset);
    }
    nameGraphLaunches(createdOfActivity, byId);
    // The attribution flows: from the created node's slice to each replayed activity of it.
    std::vector<bool> started(m_graphNodes.size(), false);
    for (size_t k = 0; k < m_graphActivities.size(); ++k) {
        const size_t created = createdOfActivity[k];
        if (created == SIZE_MAX)
            continue;
        const uint32_t slice = m_graphActivities[k].first;
        const uint64_t id = uint64_t(m_stream) << 32 | created;
        if (!started[created]) {
            started[created] = true;
            const ChunkResult::Slice& from = m_chunk.slices[sliceOf[created]];
            m_chunk.flows.push_back({from.ts, m_seq++, id, from.track, m_catGraphFlow, 's', false, false});
            // The captured call's own correlation has no GPU work: operator inference learns it as the
            // node's activity, the same launch as when it ran eagerly.
            if (const uint32_t corr = m_graphNodes[created].first.correlationId; corr && !m_read->gpuCorr.count(corr))
                m_capturedActivity.try_emplace(corr, m_chunk.slices[slice].name);
        }
        const ChunkResult::Slice& to = m_chunk.slices[slice];
        // Bound to the slice starting there, not the one around it: adjacent nodes overlap by a few ns
        // on CUPTI's clock, and the one around would be the node before (ac2g flows below alike).
        m_chunk.flows.push_back({to.ts, m_seq++, id, to.track, m_catGraphFlow, 'f', false, false});
    }
    // Only when the capture watched graphs being built: an older capture, or one with `-graphs`, has
    // graph kernels and no nodes, as expected.
    if (unknown && !m_graphNodes.empty())
        m_chunk.report.addNote("replayed graph kernels, copies and sets whose node was made before the capture "
                               "watched (they keep the graph launch's attribution)",
                               "pid " + std::to_string(m_header.pid), unknown);
}

void CaptureStreamConverter::inferOperators() {
    // The GPU activity of each correlation; a graph launch (several) is left out: torch.profiler gives
    // a replay's kernels no operator, and its first kernel's context would be the captured launch's.
    std::unordered_map<uint32_t, uint32_t> activityOf;
    for (const auto& [slice, corr] : m_gpuSlices) {
        auto [it, added] = activityOf.try_emplace(corr, m_chunk.slices[slice].name);
        if (!added)
            it->second = 0;
    }
    std::erase_if(activityOf, [](const auto& entry) { return entry.second == 0; });
    for (const auto& [corr, name] : m_capturedActivity)
        activityOf.try_emplace(corr, name);
    // Each thread's operator ranges, for the innermost one around each launch.
    std::unordered_map<uint32_t, std::vector<uint32_t>> opsOf;
    for (uint32_t i = 0; i < m_chunk.slices.size(); ++i)
        if (m_chunk.slices[i].cat == m_catCpuOp)
            opsOf[m_chunk.slices[i].track].push_back(i);
    std::vector<uint32_t> launchSlices;
    std::vector<uint32_t> launchCorr;
    for (const auto& [slice, corr] : m_apiSlices)
        if (corr && activityOf.count(corr)) {
            launchSlices.push_back(slice);
            launchCorr.push_back(corr);
        }
    std::vector<size_t> order(launchSlices.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    const auto& slices = m_chunk.slices;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const ChunkResult::Slice& x = slices[launchSlices[a]];
        const ChunkResult::Slice& y = slices[launchSlices[b]];
        return x.track != y.track ? x.track < y.track : x.ts < y.ts;
    });
    for (auto& [t, windows] : m_opsWindowsOf)
        std::sort(windows.begin(), windows.end());
    for (auto& [track, ops] : opsOf)
        std::sort(ops.begin(), ops.end(), [&](uint32_t a, uint32_t b) {
            return slices[a].ts != slices[b].ts ? slices[a].ts < slices[b].ts : slices[a].dur > slices[b].dur;
        });

    std::vector<OperatorInference::Launch> launches(order.size());
    std::vector<uint32_t> open;                          // operator slices around the current time
    std::unordered_map<uint32_t, uint32_t> launchesInOp; // operator slice -> launches seen in it
    uint32_t track = ~0u;
    size_t nextOp = 0;
    const std::vector<uint32_t>* ops = nullptr;
    for (size_t k = 0; k < order.size(); ++k) {
        const ChunkResult::Slice& s = slices[launchSlices[order[k]]];
        if (s.track != track) {
            track = s.track;
            const auto it = opsOf.find(track);
            ops = it == opsOf.end() ? nullptr : &it->second;
            nextOp = 0;
            open.clear();
        }
        while (ops && nextOp < ops->size() && slices[(*ops)[nextOp]].ts <= s.ts) {
            const uint32_t op = (*ops)[nextOp++];
            while (!open.empty() && slices[open.back()].ts + slices[open.back()].dur < slices[op].ts)
                open.pop_back();
            open.push_back(op);
        }
        while (!open.empty() && slices[open.back()].ts + slices[open.back()].dur < s.ts)
            open.pop_back();
        OperatorInference::Launch& l = launches[k];
        l.thread = s.track;
        l.ts = s.ts;
        l.stackKey = m_stacks->stackKeyFor(launchCorr[order[k]]);
        l.activity = activityOf[launchCorr[order[k]]];
        // On the thread whose operators were switched on and off, a launch outside its windows saw
        // none, and one inside may be in an operator that began before the window (not recorded)
        // and see only an outer one; after a window, one that began in it may still be open: such
        // launches learn nothing and are inferred like the others.
        bool observed = true;
        if (const auto w = m_opsWindowsOf.find(s.track); w != m_opsWindowsOf.end()) {
            const auto after = std::upper_bound(w->second.begin(), w->second.end(), std::make_pair(s.ts, INT64_MAX));
            observed = after != w->second.begin() && s.ts <= (after - 1)->second && !open.empty() &&
                       slices[open.back()].ts >= (after - 1)->first;
        }
        if (!open.empty() && observed) {
            l.op = slices[open.back()].name;
            l.position = launchesInOp[open.back()]++;
        }
    }
    const std::vector<OperatorInference::Call> calls = OperatorInference::infer(launches);
    size_t inferred = 0;
    // Annotation ranges (CCCL's cub::DeviceRadixSort inside aten::embedding_dense_backward) may hold
    // some of an inferred call's launches: the call then grows to hold them whole, as the operator
    // held them, else it would not nest on its thread.
    std::unordered_map<uint32_t, std::vector<std::pair<int64_t, int64_t>>> annotationsOf;
    for (const ChunkResult::Slice& s : slices)
        if (s.cat == m_catUser)
            annotationsOf[s.track].emplace_back(s.ts, s.ts + s.dur);
    for (auto& [t, list] : annotationsOf)
        std::sort(list.begin(), list.end());
    for (const OperatorInference::Call& c : calls) {
        const ChunkResult::Slice& first = slices[launchSlices[order[c.first]]];
        const ChunkResult::Slice& last = slices[launchSlices[order[c.last]]];
        const uint32_t onTrack = first.track;
        // One nanosecond wider than its launches, so the operator is their parent.
        int64_t begin = std::max<int64_t>(0, first.ts - 1);
        int64_t end = last.ts + last.dur + 1;
        if (const auto a = annotationsOf.find(onTrack); a != annotationsOf.end())
            for (const auto& [from, to] : a->second) {
                if (from >= end)
                    break;
                const bool crossesBegin = from < begin && to > begin && to < end;
                const bool crossesEnd = from > begin && from < end && to > end;
                if (crossesBegin)
                    begin = from - 1;
                if (crossesEnd)
                    end = to + 1;
            }
        const uint64_t launchRef = first.argRef;
        // Its first launch's Python stack is the operator's, as linkOperatorStacks gives a recorded
        // operator the stack of its first call (so an inferred addmm still names the user's line).
        const std::string* stack = m_stacks->forCorrelation(first.corr);
        addSlice(onTrack, static_cast<uint64_t>(begin), static_cast<uint64_t>(end), c.op, m_catCpuOp, ~uint64_t(0));
        if (launchRef != ~uint64_t(0))
            m_chunk.slices.back().argRef = launchRef | CaptureEventText::kInferredOperator;
        if (stack)
            m_chunk.slices.back().opArgs = operatorArgs({}, stack);
        inferred += c.last - c.first + 1;
    }
    size_t windowCount = 0;
    int64_t windowNs = 0;
    for (const auto& [t, windows] : m_opsWindowsOf)
        for (const auto& [from, to] : windows) {
            ++windowCount;
            windowNs += to - from;
        }
    const int64_t span = std::max<int64_t>(0, m_chunk.maxTs - m_chunk.minTs);
    const int percent = span ? static_cast<int>(100.0 * static_cast<double>(windowNs) / static_cast<double>(span) + 0.5) : 0;
    m_chunk.report.addNote("PyTorch operators recorded in windows (--torch-ops); launches outside them take the "
                           "operator of the same launch inside one (its host time is then its launch calls')",
                           "pid " + std::to_string(m_header.pid) + ": " + std::to_string(windowCount) + " windows, about " +
                               std::to_string(percent) + " % of the capture; " + std::to_string(inferred) +
                               " launches given an inferred operator",
                           inferred);
}

void CaptureStreamConverter::clipToRecordedSpans() {
    // CUPTI's record of GPU work still running when recording paused ends when recording resumed
    // (a CUDA graph replay in flight at cudaProfilerStop: its nodes "ran" 150 ms, into the next range).
    // Its true end is unseen: it ends at the pause, as everything else the capture shows.
    std::vector<std::pair<int64_t, int64_t>> spans = m_recorded;
    std::sort(spans.begin(), spans.end());
    size_t clipped = 0;
    for (const auto& [slice, corr] : m_gpuSlices) {
        ChunkResult::Slice& s = m_chunk.slices[slice];
        auto after = std::upper_bound(spans.begin(), spans.end(), std::make_pair(s.ts, INT64_MAX));
        const int64_t spanEnd = after == spans.begin() ? INT64_MIN : (after - 1)->second;
        // Graph-level replays are traced through pauses too (tracer.cpp): those outside every span
        // are not of the recording, and take no time.
        if (s.cat == m_catGraph && s.ts > spanEnd) {
            s.dur = 0;
            continue;
        }
        if (after == spans.begin())
            continue;
        if (s.ts <= spanEnd && s.ts + s.dur > spanEnd) {
            s.dur = spanEnd - s.ts;
            ++clipped;
        }
    }
    if (clipped)
        m_chunk.report.addNote("GPU activities still running when recording paused (--capture-range; shown ending at "
                               "the pause)",
                               "pid " + std::to_string(m_header.pid), clipped);
}

void CaptureStreamConverter::finishStream(const WscapReader& reader) {
    const std::string who = "pid " + std::to_string(m_header.pid);
    if (reader.truncated()) {
        m_chunk.report.setTruncated(who + ": the stream ends inside a record (" + reader.problem() + "); the " +
                                    std::to_string(m_records) + " complete records before the cut were imported");
    } else if (!reader.problem().empty()) {
        m_chunk.report.add("corrupt capture stream (rest of the stream ignored)", who + ": " + reader.problem());
    } else if (!m_sawFooter) {
        m_chunk.report.setTruncated(who + ": the stream has no Footer (the process was killed or crashed); the " +
                                    std::to_string(m_records) + " records written before were imported");
    }
    if (!m_sawHeader)
        m_chunk.report.add("capture streams without a StreamHeader", "stream " + std::to_string(m_stream));
    m_stacks->finish();
    if (m_stacks->stacks() > 0 && !m_stacks->symbolized())
        m_chunk.report.add("native call stacks without symbols (addr2line did not run after the capture): frames "
                           "show module+offset",
                           who);

    // NVTX ranges that never ended run to the end of what the stream saw.
    if (!m_openRanges.empty()) {
        for (uint64_t i : m_openRanges) {
            ChunkResult::Slice& s = m_chunk.slices[i];
            s.dur = std::max<int64_t>(0, m_chunk.maxTs - s.ts);
        }
        m_chunk.report.add("NVTX ranges that never ended (shown up to the end of the capture)", who,
                           m_openRanges.size());
    }

    if (m_stacks->pythonStacks() > 0)
        linkOperatorStacks();
    if (!m_graphNodes.empty() || !m_graphExecs.empty())
        linkGraphNodes();
    if (!m_opsWindowsOf.empty())
        inferOperators();
    if (!m_pySamples.empty()) {
        const uint32_t cat = intern("python_function");
        const IdValue pid = hostPid(m_header.pid);
        std::unordered_map<uint64_t, uint32_t> names; // frame id -> local string
        const CaptureStacks& stacks = *m_stacks;
        m_pySamples.slices([&](uint32_t stack) { return stacks.pyStack(stack); }, [&](const StackSamples::Slice& s) {
            auto [name, added] = names.try_emplace(s.frame, 0);
            if (added)
                name->second = intern(stacks.pyFrameText(static_cast<uint32_t>(s.frame)));
            addSlice(track(pid, number(s.thread ? s.thread : pid.number)), static_cast<uint64_t>(s.start),
                     static_cast<uint64_t>(s.end), name->second, cat, s.tag);
        });
    }

    if (!m_recorded.empty())
        clipToRecordedSpans();

    // Flows: each API call with GPU work to each of its activities, by correlation id.
    auto flowId = [&](uint32_t corr) { return uint64_t(m_stream) << 32 | corr; };
    for (const auto& [slice, corr] : m_apiSlices)
        if (corr && m_read->gpuCorr.count(corr)) {
            const ChunkResult::Slice& s = m_chunk.slices[slice];
            m_chunk.flows.push_back({s.ts, m_seq++, flowId(corr), s.track, m_catFlow, 's', false, false});
        }
    for (const auto& [slice, corr] : m_gpuSlices)
        if (corr && m_read->apiCorr.count(corr)) {
            const ChunkResult::Slice& s = m_chunk.slices[slice];
            m_chunk.flows.push_back({s.ts, m_seq++, flowId(corr), s.track, m_catFlow, 'f', false, false});
        }

    // Memory events in time order with running totals per device, on the process's main thread.
    std::stable_sort(m_memory.begin(), m_memory.end(), [](const PendingMemory& a, const PendingMemory& b) { return a.ts < b.ts; });
    std::unordered_map<uint32_t, int64_t> total;
    const uint32_t mainThread = m_memory.empty() ? 0 : track(hostPid(0), hostPid(0));
    for (const PendingMemory& pm : m_memory) {
        ChunkResult::Memory m;
        m.ts = pm.ts;
        m.addr = pm.addr;
        m.bytes = pm.bytes;
        m.totalAllocated = (total[pm.slot] += pm.bytes);
        m.track = mainThread;
        m.deviceType = 1; // c10::DeviceType CUDA
        m.deviceId = static_cast<int16_t>(std::min<uint32_t>(pm.slot, INT16_MAX)); // slot until resolveDevices
        m_chunk.memory.push_back(m);
    }
    m_memory.clear();
}

std::shared_ptr<const CaptureStacks> CaptureStreamConverter::takeStacks() {
    std::shared_ptr<const CaptureStacks> out;
    if (m_stacks && !m_stacks->empty())
        out = std::move(m_stacks);
    m_stacks.reset();
    return out;
}

std::shared_ptr<const CaptureCollectives> CaptureStreamConverter::takeCollectives() {
    std::shared_ptr<const CaptureCollectives> out;
    if (m_collectives && !m_collectives->empty())
        out = std::move(m_collectives);
    m_collectives.reset();
    return out;
}

std::vector<uint32_t> CaptureStreamConverter::streamSlots() const {
    std::vector<uint32_t> slots;
    for (const GpuTrack& g : m_gpuTracks)
        slots.push_back(g.slot);
    return slots;
}

void CaptureStreamConverter::resolveDevices(const std::vector<int>& globalOfSlot,
                                            const std::vector<uint32_t>& streamsOfGlobal,
                                            const std::unordered_set<int64_t>& deviceIndices) {
    auto global = [&](int64_t placeholder) { return globalOfSlot[static_cast<size_t>(-1 - placeholder)]; };
    // A host pid equal to a device index would merge the process into the GPU's row group.
    auto hostFix = [&](IdValue& pid) {
        if (!pid.isString && pid.number >= 0 && deviceIndices.count(pid.number))
            pid.number += int64_t(1) << 32;
    };
    // Every meta so far names a host process or thread (the stream names are added below).
    for (ChunkResult::Meta& m : m_chunk.metas)
        hostFix(m.pid);
    std::unordered_map<uint32_t, const GpuTrack*> gpuOf;
    for (const GpuTrack& g : m_gpuTracks)
        gpuOf[g.track] = &g;
    for (uint32_t i = 0; i < m_chunk.tracks.size(); ++i) {
        ChunkResult::TrackKey& k = m_chunk.tracks[i];
        if (k.pid.number >= 0) {
            hostFix(k.pid);
            continue;
        }
        const int device = global(k.pid.number);
        k.pid.number = device;
        const GpuTrack* g = gpuOf.count(i) ? gpuOf[i] : nullptr;
        if (!g)
            continue;
        const bool shared = streamsOfGlobal[static_cast<size_t>(device)] > 1;
        std::string name = g->syncOnly ? std::string("synchronization") : "stream " + std::to_string(g->streamId);
        if (shared) {
            // Several processes on one GPU reuse stream numbers: keep each process's streams apart.
            k.tid.number = static_cast<int64_t>(g->streamId) | int64_t(m_stream + 1) << 32;
            name += " (pid " + std::to_string(m_header.pid) + ")";
        }
        addMeta(ChunkResult::MetaKind::ThreadName, k.pid, k.tid, intern(name));
    }
    for (ChunkResult::Counter& c : m_chunk.counters) {
        if (c.pid.number >= 0)
            hostFix(c.pid); // a host sample: the process, as its tracks
        else
            c.pid.number = global(c.pid.number);
    }
    for (ChunkResult::Memory& m : m_chunk.memory)
        m.deviceId = static_cast<int16_t>(globalOfSlot[static_cast<size_t>(m.deviceId)]);
}

} // namespace ws
