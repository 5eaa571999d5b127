#include "import/nvprof_importer.h"

#include "import/import_finish.h"
#include "import/nsys_chunk_writer.h"
#include "import/nsys_column_select.h"
#include "import/nsys_enums.h"
#include "import/nsys_string_ids.h"
#include "import/nsys_table_id.h"
#include "import/nvprof_cbid_names.h"
#include "import/nvprof_event_text.h"
#include "model/session.h"
#include "model/trace_builder.h"
#include "io/sqlite_database.h"

#include <chrono>
#include <cstring>
#include <cxxabi.h>
#include <map>
#include <set>
#include <thread>
#include <unordered_map>
#include <unordered_set>

namespace ws {

namespace {

constexpr int64_t kMaxTime = int64_t(1) << 61;
// nvprof stores thread ids as signed 32-bit values; markers carry them unsigned.
int64_t threadIdOf(int64_t raw) {
    return raw & 0xFFFFFFFF;
}

std::string demangle(std::string_view mangled) {
    if (mangled.size() < 2 || mangled[0] != '_' || mangled[1] != 'Z') return std::string(mangled);
    int status = 0;
    const std::string in(mangled);
    char* out = abi::__cxa_demangle(in.c_str(), nullptr, nullptr, &status);
    std::string result = status == 0 && out ? std::string(out) : in;
    std::free(out);
    return result;
}

/*
 * NvprofReader: one pass per table of an nvprof database into one chunk. Kernels and copies are
 * read first so API calls emit flow starts only for correlation ids that have GPU work. Markers are
 * paired by marker id with a hash map of open starts: O(rows) overall.
 */
class NvprofReader {
public:
    NvprofReader(SqliteDatabase& db, const ImportControl& control) : m_db(db), m_control(control) {}

    bool run();
    NsysChunkWriter& writer() { return m_w; }
    std::vector<DeviceInfo> devices() const;

private:
    bool cancelPoint(uint64_t row);
    void finishTable(SqliteStatement& q, const std::string& table);
    bool validTimes(SqliteStatement& q, int col, int64_t& start, int64_t& dur, const std::string& table);
    void flowEnd(uint32_t track, int64_t ts, uint64_t id, char ph);
    uint32_t gpuTrack(int64_t device, int64_t stream);
    void readDevices();
    void readContexts();
    void readKernels(const char* table, NsysTableId id);
    void readMemcpy(const char* table, NsysTableId id);
    void readMemset();
    void readSync();
    void readApi(const char* table, NsysTableId id, bool driver);
    void readMarkers();
    void emitNames();

    SqliteDatabase& m_db;
    const ImportControl& m_control;
    NsysChunkWriter m_w;
    NsysStringIds m_strings;
    std::map<int64_t, DeviceInfo> m_devices;
    std::map<int64_t, int64_t> m_contextDevice;
    std::set<std::pair<int64_t, int64_t>> m_streams;
    std::set<std::pair<int64_t, int64_t>> m_hostThreads;
    std::unordered_set<int64_t> m_gpuCorrelations;
    std::unordered_map<int64_t, uint32_t> m_kernelNames; // StringTable id -> local demangled name
    int64_t m_lastTs = INT64_MIN;
    uint32_t m_flowCat = UINT32_MAX;
    // The last track looked up: consecutive rows mostly share one, which skips the hash and set work.
    int64_t m_lastPid = INT64_MIN, m_lastTid = INT64_MIN;
    uint32_t m_lastTrack = 0;
    bool m_lastGpu = false;
    bool m_cancelled = false;
};

bool NvprofReader::cancelPoint(uint64_t row) {
    if ((row & 0xFFFF) == 0 && m_control.cancel && m_control.cancel->load()) m_cancelled = true;
    return m_cancelled;
}

void NvprofReader::finishTable(SqliteStatement& q, const std::string& table) {
    if (q.ok() || m_cancelled) return;
    m_w.report().setTruncated(table + ": " + q.error());
    m_w.report().add("table read stopped early (rows after the error are missing)", table + ": " + q.error());
}

bool NvprofReader::validTimes(SqliteStatement& q, int col, int64_t& start, int64_t& dur,
                              const std::string& table) {
    if (q.isNull(col) || q.isNull(col + 1)) {
        m_w.report().add("row without start or end time (skipped)",
                         table + " rowid " + std::to_string(q.int64(0)));
        return false;
    }
    start = q.int64(col);
    const int64_t end = q.int64(col + 1);
    // Far outside any real capture; also keeps start + dur and the epoch base from overflowing.
    if (start < -kMaxTime || start > kMaxTime || end < -kMaxTime || end > kMaxTime) {
        m_w.report().add("row with a time out of range (skipped)",
                         table + " rowid " + std::to_string(q.int64(0)));
        return false;
    }
    dur = end - start;
    if (dur < 0) {
        m_w.report().add("row ends before it starts (duration set to 0)",
                         table + " rowid " + std::to_string(q.int64(0)));
        dur = 0;
    }
    m_w.noteTime(start, start + dur);
    m_lastTs = std::max(m_lastTs, start + dur);
    return true;
}

void NvprofReader::flowEnd(uint32_t track, int64_t ts, uint64_t id, char ph) {
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

uint32_t NvprofReader::gpuTrack(int64_t device, int64_t stream) {
    if (m_lastGpu && device == m_lastPid && stream == m_lastTid) return m_lastTrack;
    m_streams.emplace(device, stream);
    m_lastGpu = true;
    m_lastPid = device;
    m_lastTid = stream;
    return m_lastTrack = m_w.track(device, stream);
}

void NvprofReader::readDevices() {
    NsysColumnSelect sel(m_db, "CUPTI_ACTIVITY_KIND_DEVICE",
                         {"id", "name", "globalMemorySize", "numMultiprocessors", "computeCapabilityMajor",
                          "computeCapabilityMinor", "maxWarpsPerMultiprocessor", "numThreadsPerWarp"});
    if (!sel.tableExists() || !sel.has(0)) return;
    SqliteStatement q(m_db, sel.sql());
    while (q.step()) {
        DeviceInfo d;
        d.id = static_cast<int>(q.int64(1));
        d.name = std::string(m_strings.value(q.int64(2)));
        if (!q.isNull(3)) d.totalGlobalMem = q.int64(3);
        if (!q.isNull(4)) d.numSms = static_cast<int>(q.int64(4));
        if (!q.isNull(5)) d.computeMajor = static_cast<int>(q.int64(5));
        if (!q.isNull(6)) d.computeMinor = static_cast<int>(q.int64(6));
        if (!q.isNull(7) && !q.isNull(8))
            d.maxThreadsPerMultiprocessor = static_cast<int>(q.int64(7) * q.int64(8));
        if (d.id >= 0 && d.id < 4096) m_devices[d.id] = std::move(d);
    }
    finishTable(q, sel.table());
}

std::vector<DeviceInfo> NvprofReader::devices() const {
    std::vector<DeviceInfo> out;
    for (const auto& [id, d] : m_devices)
        out.push_back(d);
    return out;
}

void NvprofReader::readContexts() {
    NsysColumnSelect sel(m_db, "CUPTI_ACTIVITY_KIND_CONTEXT", {"contextId", "deviceId"});
    if (!sel.tableExists() || !sel.hasAll({0, 1})) return;
    SqliteStatement q(m_db, sel.sql());
    while (q.step())
        m_contextDevice[q.int64(1)] = q.int64(2);
    finishTable(q, sel.table());
}

void NvprofReader::readKernels(const char* table, NsysTableId id) {
    enum { kStart, kEnd, kDevice, kStream, kCorr, kName, kGridX, kGridY, kGridZ };
    NsysColumnSelect sel(
        m_db, table,
        {"start", "end", "deviceId", "streamId", "correlationId", "name", "gridX", "gridY", "gridZ"});
    if (!sel.tableExists()) return;
    SqliteStatement q(m_db, sel.sql());
    const uint32_t cat = m_w.string("kernel");
    uint64_t row = 0, untimed = 0;
    auto& chunk = m_w.chunk();
    while (q.step() && !cancelPoint(++row)) {
        if (!q.isNull(1 + kStart) && q.int64(1 + kStart) == 0 && q.int64(1 + kEnd) == 0) {
            ++untimed;
            continue;
        }
        int64_t start = 0, dur = 0;
        if (!validTimes(q, 1 + kStart, start, dur, table)) continue;
        const int64_t device = q.int64(1 + kDevice);
        ChunkResult::Slice s;
        s.ts = start;
        s.dur = dur;
        s.track = gpuTrack(device, q.int64(1 + kStream));
        s.cat = cat;
        s.argRef = nsysArgRef(id, q.int64(0));
        const int64_t nameId = q.int64(1 + kName);
        auto it = m_kernelNames.find(nameId);
        if (it == m_kernelNames.end())
            it = m_kernelNames.emplace(nameId, m_w.string(demangle(m_strings.value(nameId)))).first;
        s.name = it->second;
        if (!q.isNull(1 + kCorr) && q.int64(1 + kCorr) != 0) {
            s.corr = static_cast<uint32_t>(q.int64(1 + kCorr));
            s.have |= ChunkResult::kCorr;
            m_gpuCorrelations.insert(s.corr);
            flowEnd(s.track, start, s.corr, 'f');
        }
        auto d = m_devices.find(device);
        if (d != m_devices.end() && d->second.numSms.value_or(0) > 0 && !q.isNull(1 + kGridX)) {
            const double blocks = static_cast<double>(q.int64(1 + kGridX)) *
                                  static_cast<double>(q.int64(1 + kGridY)) *
                                  static_cast<double>(q.int64(1 + kGridZ));
            s.bps = static_cast<float>(blocks / *d->second.numSms);
            s.have |= ChunkResult::kBps;
        }
        chunk.slices.push_back(s);
        ++chunk.events;
    }
    finishTable(q, sel.table());
    if (untimed) m_w.report().add("kernels without timestamps (skipped)", {}, untimed);
}

void NvprofReader::readMemcpy(const char* table, NsysTableId id) {
    enum { kStart, kEnd, kDevice, kStream, kCorr, kRuntimeCorr, kBytes, kCopyKind, kSrcKind, kDstKind };
    NsysColumnSelect sel(m_db, table,
                         {"start", "end", "deviceId", "streamId", "correlationId", "runtimeCorrelationId",
                          "bytes", "copyKind", "srcKind", "dstKind"});
    if (!sel.tableExists()) return;
    SqliteStatement q(m_db, sel.sql());
    const uint32_t cat = m_w.string("gpu_memcpy");
    uint64_t row = 0;
    auto& chunk = m_w.chunk();
    while (q.step() && !cancelPoint(++row)) {
        int64_t start = 0, dur = 0;
        if (!validTimes(q, 1 + kStart, start, dur, table)) continue;
        ChunkResult::Slice s;
        s.ts = start;
        s.dur = dur;
        s.track = gpuTrack(q.int64(1 + kDevice), q.int64(1 + kStream));
        s.cat = cat;
        s.argRef = nsysArgRef(id, q.int64(0));
        s.name = m_w.string(memcpyName(q.int64(1 + kCopyKind), q.int64(1 + kSrcKind), q.int64(1 + kDstKind),
                                       CudaEnumNumbering::Cupti));
        if (!q.isNull(1 + kBytes)) {
            s.bytes = q.int64(1 + kBytes);
            s.have |= ChunkResult::kBytes;
        }
        int64_t corr = q.int64(1 + kCorr);
        if (corr == 0) corr = q.int64(1 + kRuntimeCorr);
        if (corr != 0) {
            s.corr = static_cast<uint32_t>(corr);
            s.have |= ChunkResult::kCorr;
            m_gpuCorrelations.insert(s.corr);
            flowEnd(s.track, start, s.corr, 'f');
        }
        chunk.slices.push_back(s);
        ++chunk.events;
    }
    finishTable(q, sel.table());
}

void NvprofReader::readMemset() {
    enum { kStart, kEnd, kDevice, kStream, kCorr, kBytes, kMemKind };
    NsysColumnSelect sel(m_db, "CUPTI_ACTIVITY_KIND_MEMSET",
                         {"start", "end", "deviceId", "streamId", "correlationId", "bytes", "memoryKind"});
    if (!sel.tableExists()) return;
    SqliteStatement q(m_db, sel.sql());
    const uint32_t cat = m_w.string("gpu_memset");
    uint64_t row = 0;
    auto& chunk = m_w.chunk();
    while (q.step() && !cancelPoint(++row)) {
        int64_t start = 0, dur = 0;
        if (!validTimes(q, 1 + kStart, start, dur, sel.table())) continue;
        ChunkResult::Slice s;
        s.ts = start;
        s.dur = dur;
        s.track = gpuTrack(q.int64(1 + kDevice), q.int64(1 + kStream));
        s.cat = cat;
        s.argRef = nsysArgRef(NsysTableId::NvprofMemset, q.int64(0));
        s.name = m_w.string(memsetName(q.int64(1 + kMemKind), CudaEnumNumbering::Cupti));
        if (!q.isNull(1 + kBytes)) {
            s.bytes = q.int64(1 + kBytes);
            s.have |= ChunkResult::kBytes;
        }
        if (q.int64(1 + kCorr) != 0) {
            s.corr = static_cast<uint32_t>(q.int64(1 + kCorr));
            s.have |= ChunkResult::kCorr;
            m_gpuCorrelations.insert(s.corr);
            flowEnd(s.track, start, s.corr, 'f');
        }
        chunk.slices.push_back(s);
        ++chunk.events;
    }
    finishTable(q, sel.table());
}

void NvprofReader::readSync() {
    enum { kStart, kEnd, kContext, kStream, kCorr, kType };
    NsysColumnSelect sel(m_db, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                         {"start", "end", "contextId", "streamId", "correlationId", "type"});
    if (!sel.tableExists()) return;
    SqliteStatement q(m_db, sel.sql());
    const uint32_t cat = m_w.string("cuda_sync");
    uint64_t row = 0;
    auto& chunk = m_w.chunk();
    while (q.step() && !cancelPoint(++row)) {
        int64_t start = 0, dur = 0;
        if (!validTimes(q, 1 + kStart, start, dur, sel.table())) continue;
        auto ctx = m_contextDevice.find(q.int64(1 + kContext));
        ChunkResult::Slice s;
        s.ts = start;
        s.dur = dur;
        s.track = gpuTrack(ctx == m_contextDevice.end() ? 0 : ctx->second, q.int64(1 + kStream));
        s.cat = cat;
        s.argRef = nsysArgRef(NsysTableId::NvprofSync, q.int64(0));
        s.name = m_w.string(syncTypeName(q.int64(1 + kType)));
        if (q.int64(1 + kCorr) != 0) {
            s.corr = static_cast<uint32_t>(q.int64(1 + kCorr));
            s.have |= ChunkResult::kCorr;
        }
        chunk.slices.push_back(s);
        ++chunk.events;
    }
    finishTable(q, sel.table());
}

void NvprofReader::readApi(const char* table, NsysTableId id, bool driver) {
    enum { kStart, kEnd, kCbid, kPid, kTid, kCorr };
    NsysColumnSelect sel(m_db, table, {"start", "end", "cbid", "processId", "threadId", "correlationId"});
    if (!sel.tableExists()) return;
    SqliteStatement q(m_db, sel.sql());
    const uint32_t cat = m_w.string(driver ? "cuda_driver" : "cuda_runtime");
    std::unordered_map<int64_t, uint32_t> names;
    uint64_t row = 0;
    auto& chunk = m_w.chunk();
    while (q.step() && !cancelPoint(++row)) {
        int64_t start = 0, dur = 0;
        if (!validTimes(q, 1 + kStart, start, dur, table)) continue;
        const int64_t pid = q.int64(1 + kPid), tid = threadIdOf(q.int64(1 + kTid));
        m_hostThreads.emplace(pid, tid);
        ChunkResult::Slice s;
        s.ts = start;
        s.dur = dur;
        s.track = m_w.track(pid, tid);
        s.cat = cat;
        s.argRef = nsysArgRef(id, q.int64(0));
        const int64_t cbid = q.int64(1 + kCbid);
        auto it = names.find(cbid);
        if (it == names.end()) {
            std::string_view n = driver ? nvprofDriverApiName(cbid) : nvprofRuntimeApiName(cbid);
            const std::string fallback = (driver ? "driver cbid " : "runtime cbid ") + std::to_string(cbid);
            it = names.emplace(cbid, m_w.string(n.empty() ? std::string_view(fallback) : apiDisplayName(n)))
                     .first;
        }
        s.name = it->second;
        const int64_t corr = q.int64(1 + kCorr);
        if (corr != 0) {
            s.corr = static_cast<uint32_t>(corr);
            s.have |= ChunkResult::kCorr;
            if (m_gpuCorrelations.count(s.corr)) flowEnd(s.track, start, s.corr, 's');
        }
        chunk.slices.push_back(s);
        ++chunk.events;
    }
    finishTable(q, sel.table());
}

void NvprofReader::readMarkers() {
    enum { kFlags, kTimestamp, kId, kObjectKind, kObjectId, kName, kDomain };
    NsysColumnSelect sel(m_db, "CUPTI_ACTIVITY_KIND_MARKER",
                         {"flags", "timestamp", "id", "objectKind", "objectId", "name", "domain"});
    if (!sel.tableExists()) return;
    if (!sel.hasAll({kFlags, kTimestamp, kId})) {
        m_w.report().add("table without the expected columns (ignored)", sel.table());
        return;
    }
    /* A marker start waiting for its end (same marker id); keyed by id in `open`. */
    struct Open {
        int64_t ts;
        int64_t rowid;
        int64_t pid;
        int64_t tid;
        uint32_t name;
    };
    std::unordered_map<int64_t, Open> open;
    SqliteStatement q(m_db, sel.sql(" ORDER BY timestamp, rowid"));
    const uint32_t cat = m_w.string("user_annotation");
    uint64_t row = 0, unmatched = 0;
    auto& chunk = m_w.chunk();
    while (q.step() && !cancelPoint(++row)) {
        const int64_t flags = q.int64(1 + kFlags), ts = q.int64(1 + kTimestamp), id = q.int64(1 + kId);
        if (ts < -kMaxTime || ts > kMaxTime) {
            m_w.report().add("row with a time out of range (skipped)",
                             sel.table() + " rowid " + std::to_string(q.int64(0)));
            continue;
        }
        int64_t pid = 0, tid = 0;
        const std::string_view obj = q.blob(1 + kObjectId);
        if (obj.size() >= 8) {
            uint32_t a = 0, b = 0;
            std::memcpy(&a, obj.data(), 4);
            std::memcpy(&b, obj.data() + 4, 4);
            pid = a;
            // objectKind 1 (process) carries no thread: use the process's main row.
            tid = q.int64(1 + kObjectKind) == 2 ? b : a;
        }
        if (flags & 2) {
            open[id] = {ts, q.int64(0), pid, tid, m_strings.local(q.int64(1 + kName), m_w)};
        } else if (flags & 4) {
            auto it = open.find(id);
            if (it == open.end()) {
                ++unmatched;
                continue;
            }
            const Open& o = it->second;
            ChunkResult::Slice s;
            s.ts = o.ts;
            s.dur = std::max<int64_t>(0, ts - o.ts);
            m_hostThreads.emplace(o.pid, o.tid);
            s.track = m_w.track(o.pid, o.tid);
            s.name = o.name;
            s.cat = cat;
            s.argRef = nsysArgRef(NsysTableId::NvprofMarker, o.rowid);
            m_w.noteTime(s.ts, s.ts + s.dur);
            chunk.slices.push_back(s);
            ++chunk.events;
            open.erase(it);
        } else if (flags & 1) {
            ChunkResult::Instant in;
            in.ts = ts;
            m_hostThreads.emplace(pid, tid);
            in.track = m_w.track(pid, tid);
            in.name = m_strings.local(q.int64(1 + kName), m_w);
            in.cat = cat;
            in.argRef = nsysArgRef(NsysTableId::NvprofMarker, q.int64(0));
            m_w.noteTime(ts, ts);
            chunk.instants.push_back(in);
            ++chunk.events;
        }
    }
    finishTable(q, sel.table());
    // Starts without an end: close them at the last time seen, in start order for determinism.
    std::vector<Open> left;
    for (const auto& [id, o] : open)
        left.push_back(o);
    std::sort(left.begin(), left.end(), [](const Open& a, const Open& b) { return a.rowid < b.rowid; });
    for (const Open& o : left) {
        ChunkResult::Slice s;
        s.ts = o.ts;
        s.dur = std::max<int64_t>(0, m_lastTs - o.ts);
        s.track = m_w.track(o.pid, o.tid);
        s.name = o.name;
        s.cat = cat;
        s.argRef = nsysArgRef(NsysTableId::NvprofMarker, o.rowid);
        chunk.slices.push_back(s);
        ++chunk.events;
    }
    if (!left.empty())
        m_w.report().add("marker range without end (closed at the last time)", {}, left.size());
    if (unmatched) m_w.report().add("marker end without start (dropped)", {}, unmatched);
}

void NvprofReader::emitNames() {
    using K = ChunkResult::MetaKind;
    m_w.nameGpuStreams(m_streams, [this](int64_t d) {
        auto it = m_devices.find(d);
        return it != m_devices.end() ? it->second.name : std::string();
    });
    // NVTX / driver resource names of threads (objectKind 2).
    NsysColumnSelect sel(m_db, "CUPTI_ACTIVITY_KIND_NAME", {"objectKind", "objectId", "name"});
    if (!sel.hasAll({0, 1, 2})) return;
    SqliteStatement q(m_db, sel.sql());
    while (q.step()) {
        const std::string_view obj = q.blob(2);
        if (q.int64(1) != 2 || obj.size() < 8) continue;
        uint32_t pid = 0, tid = 0;
        std::memcpy(&pid, obj.data(), 4);
        std::memcpy(&tid, obj.data() + 4, 4);
        if (m_hostThreads.count({pid, tid}) && m_strings.contains(q.int64(3)))
            m_w.meta(K::ThreadName, pid, tid, m_strings.local(q.int64(3), m_w));
    }
    finishTable(q, sel.table());
}

bool NvprofReader::run() {
    m_flowCat = m_w.string("ac2g");
    if (m_db.tableExists("StringTable"))
        m_strings.load(m_db, "StringTable", "_id_", "value", m_w.report());
    else
        m_w.report().add("no StringTable table (names missing)");
    readDevices();
    readContexts();
    const std::vector<std::function<void()>> steps = {
        [this] { readKernels("CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL", NsysTableId::NvprofConcurrentKernel); },
        [this] { readKernels("CUPTI_ACTIVITY_KIND_KERNEL", NsysTableId::NvprofKernel); },
        [this] { readMemcpy("CUPTI_ACTIVITY_KIND_MEMCPY", NsysTableId::NvprofMemcpy); },
        [this] { readMemcpy("CUPTI_ACTIVITY_KIND_MEMCPY2", NsysTableId::NvprofMemcpy2); },
        [this] { readMemset(); },
        [this] { readSync(); },
        [this] { readApi("CUPTI_ACTIVITY_KIND_RUNTIME", NsysTableId::NvprofRuntime, false); },
        [this] { readApi("CUPTI_ACTIVITY_KIND_DRIVER", NsysTableId::NvprofDriver, true); },
        [this] { readMarkers(); },
        [this] { emitNames(); },
    };
    for (size_t i = 0; i < steps.size() && !m_cancelled; ++i) {
        steps[i]();
        if (m_control.progress)
            m_control.progress(0.8 * static_cast<double>(i + 1) / static_cast<double>(steps.size()));
    }
    return !m_cancelled;
}

} // namespace

ImportResult importNvprofSqlite(const std::string& path, const ImportControl& control) {
    ImportResult result;
    const auto t0 = std::chrono::steady_clock::now();
    SqliteDatabase db;
    if (!db.open(path, SqliteDatabase::Mode::ReadOnly)) {
        result.error = "cannot read the nvprof database: " + db.error();
        return result;
    }
    NvprofReader reader(db, control);
    if (!reader.run()) {
        result.cancelled = true;
        return result;
    }
    TraceBuilder builder(path, TraceFormat::NvprofSqlite);
    builder.setDevices(reader.devices());
    builder.setEventTextSource(std::make_shared<NvprofEventText>(path));
    builder.addChunk(reader.writer().chunk());
    const double read = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    finishImport(builder, result, control, "read tables", read);
    return result;
}

} // namespace ws
