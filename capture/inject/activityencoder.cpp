#include "inject/activityencoder.h"

#include "format/wscapcodec.h"

#include <cstring>

namespace ws {

using namespace wscap;

namespace {

template <class T> const T& as(const CUpti_Activity* r) {
    return *reinterpret_cast<const T*>(r);
}

} // namespace

uint32_t ActivityEncoder::intern(std::string_view text, std::string& out) {
    if (text.empty())
        return 0;
    const auto it = m_strings.find(text);
    if (it != m_strings.end())
        return it->second;
    const uint32_t id = m_nextStringId++;
    m_strings.emplace(m_stringTexts.emplace_back(text), id);
    appendRecord(out, StringRecord{id, std::string(text)});
    return id;
}

uint32_t ActivityEncoder::apiName(uint8_t domain, uint32_t cbid, std::string& out) {
    const uint64_t key = static_cast<uint64_t>(domain) << 32 | cbid;
    const auto it = m_apiNames.find(key);
    if (it != m_apiNames.end())
        return it->second;
    const char* name = nullptr;
    const CUpti_CallbackDomain cbDomain =
        domain == static_cast<uint8_t>(ApiDomain::Runtime) ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API;
    uint32_t id = 0;
    if (cuptiGetCallbackName(cbDomain, cbid, &name) == CUPTI_SUCCESS && name)
        id = intern(name, out);
    else
        id = intern((domain == 0 ? "cudaRuntimeApi#" : "cuDriverApi#") + std::to_string(cbid), out);
    m_apiNames.emplace(key, id);
    return id;
}

void ActivityEncoder::encodeBuffer(uint8_t* buffer, size_t validSize, std::string& out) {
    CUpti_Activity* record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS)
        encodeRecord(record, out);
    emitInstants(out);
}

void ActivityEncoder::encodeRecord(const CUpti_Activity* r, std::string& out) {
    ++m_records;
    switch (r->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const auto& k = as<CUpti_ActivityKernel10>(r);
        KernelRecord o;
        o.start = k.start;
        o.end = k.end;
        o.deviceId = k.deviceId;
        o.contextId = k.contextId;
        o.streamId = k.streamId;
        o.correlationId = k.correlationId;
        o.gridX = k.gridX;
        o.gridY = k.gridY;
        o.gridZ = k.gridZ;
        o.blockX = k.blockX;
        o.blockY = k.blockY;
        o.blockZ = k.blockZ;
        o.registersPerThread = k.registersPerThread;
        o.staticSharedMemory = k.staticSharedMemory;
        o.dynamicSharedMemory = k.dynamicSharedMemory;
        o.localMemoryPerThread = k.localMemoryPerThread;
        o.nameId = k.name ? intern(k.name, out) : 0;
        o.graphId = k.graphId;
        o.graphNodeId = k.graphNodeId;
        o.gridId = k.gridId;
        o.queued = k.queued;
        o.submitted = k.submitted;
        o.launchType = k.launchType;
        o.isDeviceLaunched = k.isDeviceLaunched;
        o.clusterX = k.clusterX;
        o.clusterY = k.clusterY;
        o.clusterZ = k.clusterZ;
        o.sharedMemoryExecuted = k.sharedMemoryExecuted;
        o.channelId = k.channelID;
        appendRecord(out, o);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto& m = as<CUpti_ActivityMemcpy6>(r);
        MemcpyRecord o;
        o.start = m.start;
        o.end = m.end;
        o.bytes = m.bytes;
        o.deviceId = o.srcDeviceId = o.dstDeviceId = m.deviceId;
        o.contextId = m.contextId;
        o.streamId = m.streamId;
        o.correlationId = m.correlationId;
        o.runtimeCorrelationId = m.runtimeCorrelationId;
        o.copyKind = m.copyKind;
        o.srcKind = m.srcKind;
        o.dstKind = m.dstKind;
        o.flags = m.flags;
        o.graphId = m.graphId;
        o.graphNodeId = m.graphNodeId;
        o.copyCount = m.copyCount;
        appendRecord(out, o);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY2: {
        const auto& m = as<CUpti_ActivityMemcpyPtoP4>(r);
        MemcpyRecord o;
        o.start = m.start;
        o.end = m.end;
        o.bytes = m.bytes;
        o.deviceId = m.deviceId;
        o.srcDeviceId = m.srcDeviceId;
        o.dstDeviceId = m.dstDeviceId;
        o.contextId = m.contextId;
        o.streamId = m.streamId;
        o.correlationId = m.correlationId;
        o.copyKind = m.copyKind;
        o.srcKind = m.srcKind;
        o.dstKind = m.dstKind;
        o.flags = m.flags;
        o.graphId = m.graphId;
        o.graphNodeId = m.graphNodeId;
        o.peerToPeer = 1;
        appendRecord(out, o);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto& m = as<CUpti_ActivityMemset4>(r);
        MemsetRecord o;
        o.start = m.start;
        o.end = m.end;
        o.bytes = m.bytes;
        o.value = m.value;
        o.deviceId = m.deviceId;
        o.contextId = m.contextId;
        o.streamId = m.streamId;
        o.correlationId = m.correlationId;
        o.memoryKind = m.memoryKind;
        o.flags = m.flags;
        o.graphId = m.graphId;
        o.graphNodeId = m.graphNodeId;
        appendRecord(out, o);
        break;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: {
        const auto& a = as<CUpti_ActivityAPI>(r);
        ApiRecord o;
        o.domain = static_cast<uint8_t>(r->kind == CUPTI_ACTIVITY_KIND_RUNTIME ? ApiDomain::Runtime : ApiDomain::Driver);
        o.cbid = a.cbid;
        o.nameId = apiName(o.domain, a.cbid, out);
        o.start = a.start;
        o.end = a.end;
        o.processId = a.processId;
        o.threadId = a.threadId;
        o.correlationId = a.correlationId;
        o.returnValue = a.returnValue;
        appendRecord(out, o);
        break;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
        const auto& s = as<CUpti_ActivitySynchronization2>(r);
        SynchronizationRecord o;
        o.type = static_cast<uint32_t>(s.type);
        o.start = s.start;
        o.end = s.end;
        o.correlationId = s.correlationId;
        o.contextId = s.contextId;
        o.streamId = s.streamId;
        o.cudaEventId = s.cudaEventId;
        o.returnValue = s.returnValue;
        appendRecord(out, o);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMORY2: {
        const auto& m = as<CUpti_ActivityMemory4>(r);
        MemoryRecord o;
        o.operation = static_cast<uint8_t>(m.memoryOperationType);
        o.memoryKind = static_cast<uint8_t>(m.memoryKind);
        o.address = m.address;
        o.bytes = m.bytes;
        o.timestamp = m.timestamp;
        o.deviceId = m.deviceId;
        o.contextId = m.contextId;
        o.streamId = m.streamId;
        o.correlationId = m.correlationId;
        o.processId = m.processId;
        o.isAsync = static_cast<uint8_t>(m.isAsync);
        o.poolType = static_cast<uint8_t>(m.memoryPoolConfig.memoryPoolType);
        o.poolAddress = m.memoryPoolConfig.address;
        o.pc = m.PC;
        appendRecord(out, o);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MARKER:
        marker(as<CUpti_ActivityMarker2>(r), out);
        break;
    case CUPTI_ACTIVITY_KIND_MARKER_DATA:
        markerData(as<CUpti_ActivityMarkerData2>(r));
        break;
    case CUPTI_ACTIVITY_KIND_OVERHEAD: {
        const auto& h = as<CUpti_ActivityOverhead3>(r);
        OverheadRecord o;
        o.overheadKind = static_cast<uint32_t>(h.overheadKind);
        o.objectKind = static_cast<uint32_t>(h.objectKind);
        if (h.objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS || h.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD) {
            o.objectId0 = h.objectId.pt.processId;
            o.objectId1 = h.objectId.pt.threadId;
        } else {
            o.objectId0 = h.objectId.dcs.deviceId;
            o.objectId1 = h.objectId.dcs.contextId;
            o.objectId2 = h.objectId.dcs.streamId;
        }
        o.start = h.start;
        o.end = h.end;
        o.correlationId = h.correlationId;
        appendRecord(out, o);
        break;
    }
    case CUPTI_ACTIVITY_KIND_DEVICE: {
        const auto& d = as<CUpti_ActivityDevice5>(r);
        DeviceRecord o;
        o.id = d.id;
        o.name = d.name ? d.name : "";
        std::memcpy(o.uuid.data(), &d.uuid, o.uuid.size());
        o.smCount = d.numMultiprocessors;
        o.ccMajor = d.computeCapabilityMajor;
        o.ccMinor = d.computeCapabilityMinor;
        o.globalMemoryBytes = d.globalMemorySize;
        o.memoryBandwidthKBs = d.globalMemoryBandwidth;
        o.l2CacheBytes = d.l2CacheSize;
        o.coreClockKHz = d.coreClockRate;
        o.threadsPerWarp = d.numThreadsPerWarp;
        o.maxWarpsPerSm = d.maxWarpsPerMultiprocessor;
        o.maxBlocksPerSm = d.maxBlocksPerMultiprocessor;
        o.registersPerSm = d.maxRegistersPerMultiprocessor;
        o.sharedMemoryPerSm = d.maxSharedMemoryPerMultiprocessor;
        o.maxThreadsPerBlock = d.maxThreadsPerBlock;
        o.maxRegistersPerBlock = d.maxRegistersPerBlock;
        o.maxSharedMemoryPerBlock = d.maxSharedMemoryPerBlock;
        o.migEnabled = d.isMigEnabled;
        appendRecord(out, o);
        break;
    }
    case CUPTI_ACTIVITY_KIND_CONTEXT: {
        const auto& c = as<CUpti_ActivityContext3>(r);
        appendRecord(out, ContextRecord{c.contextId, c.deviceId, c.nullStreamId, c.isGreenContext});
        break;
    }
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
        const auto& e = as<CUpti_ActivityExternalCorrelation>(r);
        appendRecord(out, ExternalCorrelationRecord{static_cast<uint32_t>(e.externalKind), e.externalId, e.correlationId});
        break;
    }
    case CUPTI_ACTIVITY_KIND_GRAPH_TRACE: {
        const auto& g = as<CUpti_ActivityGraphTrace2>(r);
        GraphTraceRecord o;
        o.start = g.start;
        o.end = g.end;
        o.deviceId = g.deviceId;
        o.contextId = g.contextId;
        o.streamId = g.streamId;
        o.correlationId = g.correlationId;
        o.graphId = g.graphId;
        o.endDeviceId = g.endDeviceId;
        appendRecord(out, o);
        break;
    }
    default:
        --m_records; // kinds we did not ask for are not counted
        break;
    }
}

void ActivityEncoder::marker(const CUpti_ActivityMarker2& m, std::string& out) {
    PendingMarker& p = m_markers[m.id];
    const bool threadObject = m.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD || m.objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS;
    const uint32_t pid = threadObject ? m.objectId.pt.processId : 0;
    const uint32_t tid = threadObject ? m.objectId.pt.threadId : 0;
    if (m.flags & CUPTI_ACTIVITY_FLAG_MARKER_END) {
        p.end = m.timestamp;
        p.endThreadId = tid;
        p.ended = true;
    } else {
        p.start = m.timestamp;
        p.nameId = m.name ? intern(m.name, out) : 0;
        p.domainId = m.domain ? intern(m.domain, out) : 0;
        p.processId = pid;
        p.threadId = tid;
        p.started = true;
        p.instant = (m.flags & CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS) != 0;
    }
    if (p.started && p.ended) {
        emitMarker(m.id, p, out);
        m_markers.erase(m.id);
    }
}

void ActivityEncoder::markerData(const CUpti_ActivityMarkerData2& d) {
    const auto it = m_markers.find(d.id);
    if (it == m_markers.end())
        return; // the range already ended: its colour arrived too late to matter
    it->second.hasColor = (d.flags & CUPTI_ACTIVITY_FLAG_MARKER_COLOR_ARGB) != 0;
    it->second.color = d.color;
    it->second.category = d.category;
}

void ActivityEncoder::emitMarker(uint32_t id, const PendingMarker& p, std::string& out) {
    if (p.instant) {
        NvtxMarkRecord o;
        o.timestamp = p.start;
        o.nameId = p.nameId;
        o.domainId = p.domainId;
        o.processId = p.processId;
        o.threadId = p.threadId;
        o.color = p.color;
        o.hasColor = p.hasColor;
        o.category = p.category;
        appendRecord(out, o);
        return;
    }
    NvtxRangeRecord o;
    o.start = p.start;
    o.end = p.end;
    o.nameId = p.nameId;
    o.domainId = p.domainId;
    o.processId = p.processId;
    o.threadId = p.threadId;
    o.endThreadId = p.endThreadId;
    o.color = p.color;
    o.hasColor = p.hasColor;
    o.category = p.category;
    o.markerId = id;
    appendRecord(out, o);
}

void ActivityEncoder::emitInstants(std::string& out) {
    for (auto it = m_markers.begin(); it != m_markers.end();) {
        if (it->second.instant) {
            emitMarker(it->first, it->second, out);
            it = m_markers.erase(it);
        } else {
            ++it;
        }
    }
}

void ActivityEncoder::finish(std::string& out) {
    for (const auto& [id, p] : m_markers)
        if (p.started)
            emitMarker(id, p, out);
    m_markers.clear();
}

} // namespace ws
