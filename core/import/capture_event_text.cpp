#include "import/capture_event_text.h"

#include "import/torch_nvtx.h"

#include "format/wscapcodec.h"
#include "import/capture_names.h"
#include "model/json_object_writer.h"


#include <atomic>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace ws {

using namespace wscap;

CaptureEventText::~CaptureEventText() {
    for (int fd : m_fds)
        if (fd >= 0)
            ::close(fd);
}

void CaptureEventText::addStream(Stream stream) {
    int fd = -1;
    if (!stream.bytes && !stream.path.empty())
        fd = ::open(stream.path.c_str(), O_RDONLY | O_CLOEXEC);
    m_fds.push_back(fd);
    m_streams.push_back(std::move(stream));
}

namespace {

// The bytes of a stream file around the last read, per thread: reading every event's arguments in
// file order (storing a session) then takes one pread per kReadWindow bytes instead of two per
// record. Keyed by the reader's generation, never by its address (a new reader may reuse one). A
// stream only grows and written bytes never change, so bytes once read stay right.
constexpr size_t kReadWindow = 256 << 10;
std::atomic<uint64_t> g_nextGeneration{1};

struct ReadWindow {
    uint64_t generation = 0;
    int fd = -1;
    uint64_t start = 0;
    std::vector<uint8_t> bytes;
};
thread_local ReadWindow t_window;

bool preadFully(int fd, uint8_t* dst, size_t n, uint64_t at) {
    size_t done = 0;
    while (done < n) {
        const ssize_t got = ::pread(fd, dst + done, n - done, static_cast<off_t>(at + done));
        if (got <= 0)
            return false;
        done += static_cast<size_t>(got);
    }
    return true;
}

} // namespace

CaptureEventText::CaptureEventText() : m_generation(g_nextGeneration.fetch_add(1)) {}

bool CaptureEventText::readWindowed(int fd, void* dst, size_t n, uint64_t at) const {
    if (n == 0) // an empty payload: dst may be null (memcpy must not see it)
        return true;
    ReadWindow& w = t_window;
    auto holds = [&] { return w.generation == m_generation && w.fd == fd && at >= w.start && at - w.start + n <= w.bytes.size(); };
    if (!holds()) {
        if (n > kReadWindow / 2) // a large record: straight into place
            return preadFully(fd, static_cast<uint8_t*>(dst), n, at);
        w.generation = m_generation;
        w.fd = fd;
        w.start = at;
        w.bytes.resize(kReadWindow);
        const ssize_t got = ::pread(fd, w.bytes.data(), kReadWindow, static_cast<off_t>(at));
        w.bytes.resize(got > 0 ? static_cast<size_t>(got) : 0);
        if (!holds())
            return preadFully(fd, static_cast<uint8_t*>(dst), n, at); // a short read: the plain way
    }
    std::memcpy(dst, w.bytes.data() + (at - w.start), n);
    return true;
}

bool CaptureEventText::readRecord(const Stream& s, int fd, uint64_t offset, uint16_t* type,
                                  std::vector<uint8_t>* payload) const {
    uint8_t head[kRecordHeaderSize];
    auto readAt = [&](void* dst, size_t n, uint64_t at) {
        if (s.bytes) {
            if (at > s.bytes->size() || s.bytes->size() - at < n)
                return false;
            std::memcpy(dst, s.bytes->data() + at, n);
            return true;
        }
        if (fd < 0)
            return false;
        return readWindowed(fd, dst, n, at);
    };
    if (!readAt(head, sizeof head, offset))
        return false;
    *type = static_cast<uint16_t>(head[0] | head[1] << 8);
    const uint32_t size = uint32_t(head[4]) | uint32_t(head[5]) << 8 | uint32_t(head[6]) << 16 | uint32_t(head[7]) << 24;
    if (size > kMaxPayloadSize)
        return false;
    payload->resize(size);
    return readAt(payload->data(), size, offset + kRecordHeaderSize);
}

namespace {

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

// Kineto's names for an NCCL kernel's collective (from record_param_comms); the calls of one group
// launch add up when they agree on operation and type.
void collectiveArgs(const std::vector<CaptureCollectives::Call>& calls, JsonObjectWriter& a) {
    const CaptureCollectives::Call& first = calls.front();
    uint64_t in = 0, out = 0;
    bool uniform = true;
    for (const auto& c : calls) {
        uniform = uniform && c.func == first.func && c.datatype == first.datatype;
        const auto [i, o] = CaptureCollectives::messageElements(c);
        in += i;
        out += o;
    }
    a.add("Collective name", first.func);
    if (uniform) {
        a.add("In msg nelems", in);
        a.add("Out msg nelems", out);
        a.add("dtype", CaptureCollectives::torchDtypeName(first.datatype));
    }
    a.add("Group size", first.ranks);
    a.add("Process Group Name", first.commName.empty() ? hex(first.commHash) : first.commName);
    a.add("Communicator", hex(first.commHash));
    a.add("Rank in group", first.rank);
    if (first.root >= 0 && calls.size() == 1)
        a.add("Root", first.root);
    if (calls.size() > 1) {
        std::string list = "[";
        for (const auto& c : calls) {
            if (list.size() > 1)
                list += ',';
            JsonObjectWriter::appendString(list, c.func + "(" + std::to_string(c.count) + " x " +
                                                     CaptureCollectives::torchDtypeName(c.datatype) + ")");
        }
        list += ']';
        a.addRaw("Collectives", list);
    }
}

// What each thread reuses from one event to the next, so its buffers are allocated once.
thread_local JsonObjectWriter t_writer;
thread_local std::vector<uint8_t> t_payload;
thread_local std::string t_dims;

} // namespace

std::string CaptureEventText::eventJson(uint64_t argRef) const {
    const uint64_t index = argRef >> kOffsetBits;
    if (index >= m_streams.size())
        return {};
    const Stream& s = m_streams[index];
    uint16_t type = 0;
    std::vector<uint8_t>& p = t_payload;
    if (!readRecord(s, m_fds[index], argRef & kMaxOffset, &type, &p))
        return {};
    static const std::string kNoString;
    auto str = [&](uint32_t id) -> const std::string& {
        auto it = s.strings.find(id);
        return it == s.strings.end() ? kNoString : it->second;
    };
    JsonObjectWriter& a = t_writer;
    a.clear(); // what an earlier call left when it returned early
    if (argRef & kInferredOperator) { // an inferred operator: the record is its first launch call's
        ApiRecord r;
        if (type != static_cast<uint16_t>(RecordType::Api) || !decodeRecord(p.data(), p.size(), &r))
            return {};
        a.add("Operator source", "inferred: this launch's context had this operator inside an operator window "
                                 "(--torch-ops records operators while the launches are new); host time is the "
                                 "launch calls'");
        a.add("First launch correlation", r.correlationId);
        if (s.stacks)
            if (const std::string* stack = s.stacks->forCorrelation(r.correlationId))
                a.add("Call stack", *stack);
        return a.finish("args");
    }
    // Range and mark records share their NVTX attributes.
    auto nvtxArgs = [&](const auto& r) {
        if (r.domainId)
            a.add("domain", str(r.domainId));
        if (r.hasColor)
            a.add("color", hex(r.color));
        if (r.category)
            a.add("category", r.category);
    };
    switch (static_cast<RecordType>(type)) {
    case RecordType::Kernel: {
        KernelRecord r;
        if (!decodeRecord(p.data(), p.size(), &r))
            return {};
        a.add("device", r.deviceId);
        a.add("context", r.contextId);
        a.add("stream", r.streamId);
        a.add("correlation", r.correlationId);
        a.addDims("grid", r.gridX, r.gridY, r.gridZ);
        a.addDims("block", r.blockX, r.blockY, r.blockZ);
        a.add("registers per thread", r.registersPerThread);
        a.add("shared memory", int64_t(r.staticSharedMemory) + r.dynamicSharedMemory);
        a.add("static shared memory", r.staticSharedMemory);
        a.add("dynamic shared memory", r.dynamicSharedMemory);
        a.add("local memory per thread", r.localMemoryPerThread);
        if (r.clusterX || r.clusterY || r.clusterZ)
            a.addDims("cluster", r.clusterX, r.clusterY, r.clusterZ);
        if (r.graphId) {
            a.add("graph id", r.graphId);
            a.add("graph node id", r.graphNodeId);
        }
        a.add("launch type", r.launchType);
        if (r.queued)
            a.add("queued", r.queued);
        if (r.submitted)
            a.add("submitted", r.submitted);
        a.add("mangled name", str(r.nameId));
        if (s.collectives)
            if (const auto* calls = s.collectives->forCorrelation(r.correlationId))
                collectiveArgs(*calls, a);
        break;
    }
    case RecordType::Memcpy: {
        MemcpyRecord r;
        if (!decodeRecord(p.data(), p.size(), &r))
            return {};
        a.add("device", r.deviceId);
        a.add("context", r.contextId);
        a.add("stream", r.streamId);
        a.add("correlation", r.correlationId);
        a.add("bytes", r.bytes);
        if (r.end > r.start)
            a.add("memory bandwidth (GB/s)", static_cast<double>(r.bytes) / static_cast<double>(r.end - r.start));
        a.add("kind", capture::memcpyKindName(r.copyKind));
        a.add("src kind", capture::memoryKindName(r.srcKind));
        a.add("dst kind", capture::memoryKindName(r.dstKind));
        a.add("async", (r.flags & 1) != 0);
        if (r.peerToPeer) {
            a.add("src device", r.srcDeviceId);
            a.add("dst device", r.dstDeviceId);
        }
        if (r.graphId) {
            a.add("graph id", r.graphId);
            a.add("graph node id", r.graphNodeId);
        }
        break;
    }
    case RecordType::Memset: {
        MemsetRecord r;
        if (!decodeRecord(p.data(), p.size(), &r))
            return {};
        a.add("device", r.deviceId);
        a.add("context", r.contextId);
        a.add("stream", r.streamId);
        a.add("correlation", r.correlationId);
        a.add("bytes", r.bytes);
        a.add("value", r.value);
        a.add("memory kind", capture::memoryKindName(r.memoryKind));
        if (r.graphId) {
            a.add("graph id", r.graphId);
            a.add("graph node id", r.graphNodeId);
        }
        break;
    }
    case RecordType::GraphNode: { // where a CUDA graph node was made (linkGraphNodes)
        GraphNodeRecord r;
        if (!decodeRecord(p.data(), p.size(), &r))
            return {};
        a.add("graph id", r.graphId);
        a.add("graph node id", r.nodeId);
        a.add("node type", r.nodeType);
        if (r.correlationId)
            a.add("captured call correlation", r.correlationId);
        a.add("tid", r.threadId);
        // The stacks taken as the node was made, else those of the captured call.
        if (s.stacks) {
            const std::string* stack = s.stacks->forGraphNode(r.nodeId);
            if (!stack && r.correlationId)
                stack = s.stacks->forCorrelation(r.correlationId);
            if (stack)
                a.add("Call stack", *stack);
        }
        break;
    }
    case RecordType::GraphTrace: {
        GraphTraceRecord r;
        if (!decodeRecord(p.data(), p.size(), &r))
            return {};
        a.add("device", r.deviceId);
        a.add("context", r.contextId);
        a.add("stream", r.streamId);
        a.add("correlation", r.correlationId);
        a.add("graph id", r.graphId);
        a.add("recorded", "as one span (--graph-trace=graph): the nodes of this replay were not traced");
        break;
    }
    case RecordType::GraphExec: {
        GraphExecRecord r;
        if (!decodeRecord(p.data(), p.size(), &r))
            return {};
        a.add("graph exec id", r.graphExecId);
        a.add("graph id", r.graphId);
        a.add("tid", r.threadId);
        if (s.stacks)
            if (const std::string* stack = s.stacks->forGraphNode(CaptureStacks::kGraphExecKey | r.graphExecId))
                a.add("Call stack", *stack);
        break;
    }
    case RecordType::Api: {
        ApiRecord r;
        if (!decodeRecord(p.data(), p.size(), &r))
            return {};
        a.add("cbid", r.cbid);
        a.add("correlation", r.correlationId);
        a.add("callback name", str(r.nameId));
        a.add("domain", r.domain == 0 ? "runtime" : "driver");
        a.add("return value", r.returnValue);
        a.add("pid", r.processId);
        a.add("tid", r.threadId);
        if (s.stacks)
            if (const std::string* stack = s.stacks->forCorrelation(r.correlationId))
                a.add("Call stack", *stack);
        break;
    }
    case RecordType::Synchronization: {
        SynchronizationRecord r;
        if (!decodeRecord(p.data(), p.size(), &r))
            return {};
        a.add("type", capture::syncTypeName(r.type));
        a.add("correlation", r.correlationId);
        a.add("context", r.contextId);
        if (r.streamId != 0xffffffffu)
            a.add("stream", r.streamId);
        if (r.cudaEventId)
            a.add("cuda event", r.cudaEventId);
        a.add("return value", r.returnValue);
        break;
    }
    case RecordType::NvtxRange: {
        NvtxRangeRecord r;
        if (!decodeRecord(p.data(), p.size(), &r))
            return {};
        nvtxArgs(r);
        // A PyTorch operator range (emit_nvtx): its shapes and autograd sequence number, as
        // torch.profiler names them.
        if (const std::string rangeName = str(r.nameId); !rangeName.empty())
            if (const auto op = torchOperatorRange(str(r.domainId), rangeName)) {
                if (!op->sizes.empty() && torchInputDimsJson(op->sizes, t_dims))
                    a.addRaw("Input Dims", t_dims);
                if (op->sequence)
                    a.add("Sequence number", *op->sequence);
                if (s.stacks)
                    if (const std::string* stack = s.stacks->forOperator(argRef & kMaxOffset))
                        a.add("Call stack", *stack);
            }
        if (r.endThreadId != r.threadId)
            a.add("end tid", r.endThreadId);
        if (r.end == 0)
            a.add("ended", false);
        break;
    }
    case RecordType::NvtxMark: {
        NvtxMarkRecord r;
        if (!decodeRecord(p.data(), p.size(), &r))
            return {};
        nvtxArgs(r);
        break;
    }
    case RecordType::Overhead: {
        OverheadRecord r;
        if (!decodeRecord(p.data(), p.size(), &r))
            return {};
        a.add("overhead kind", capture::overheadKindName(r.overheadKind));
        a.add("object kind", r.objectKind);
        a.addDims("object id", r.objectId0, r.objectId1, r.objectId2);
        if (r.correlationId)
            a.add("correlation", r.correlationId);
        break;
    }
    case RecordType::PySample: { // the first sample of a sampled python_function slice
        PySampleRecord r;
        if (!decodeRecord(p.data(), p.size(), &r))
            return {};
        a.add("source", "Python stack sampling");
        if (r.periodNs)
            a.add("sampling period (us)", r.periodNs / 1000.0);
        if (r.flags & kPySampleGilKnown)
            a.add("GIL held at first sample", (r.flags & kPySampleHoldsGil) != 0);
        if ((r.flags & kPySampleCudaKnown) && r.cudaCbid == 0) {
            a.add("CUDA call at first sample", "none");
        } else if (r.flags & kPySampleCudaKnown) {
            const auto name = s.callNames.find(uint32_t(r.cudaDomain) << 24 | r.cudaCbid);
            a.add("CUDA call at first sample", name != s.callNames.end() && !str(name->second).empty()
                    ? std::string(capture::apiDisplayName(str(name->second)))
                    : std::string(r.cudaDomain == 0 ? "runtime" : "driver") + " call " + std::to_string(r.cudaCbid));
        }
        break;
    }
    default: return {};
    }
    return a.finish("args");
}

} // namespace ws
