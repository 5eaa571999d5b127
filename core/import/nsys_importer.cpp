#include "import/nsys_importer.h"

#include "import/import_finish.h"
#include "import/nsys_chunk_writer.h"
#include "import/nsys_column_select.h"
#include "import/nsys_enums.h"
#include "import/nsys_event_text.h"
#include "import/nsys_string_ids.h"
#include "import/nsys_table_id.h"
#include "import/stack_samples.h"
#include "io/usable_cores.h"
#include "model/run_on_threads.h"
#include "model/session.h"
#include "model/trace_builder.h"
#include "io/sqlite_database.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <thread>
#include <unordered_map>
#include <unordered_set>

namespace ws {

namespace {

constexpr int64_t kMaxTime = int64_t(1) << 61;
bool timeInRange(int64_t t) {
    return t >= -kMaxTime && t <= kMaxTime;
}
int64_t pidOf(int64_t globalId) {
    return (globalId >> 24) & 0xFFFFFF;
}
int64_t tidOf(int64_t globalId) {
    return globalId & 0xFFFFFF;
}
uint64_t flowKey(int64_t pid, int64_t corr) {
    return (static_cast<uint64_t>(pid) << 32) | (static_cast<uint64_t>(corr) & 0xFFFFFFFFu);
}

/*
 * NsysReader: one pass per table over an opened Nsight Systems export, appending to one chunk.
 * GPU tables come first so the runtime pass knows which (pid, correlationId) pairs have GPU work
 * and emits flow starts only for those. Each row costs O(1) hash lookups; memory is the chunk.
 */
class NsysReader {
public:
    // One unit of work: a table (or a rowid range of one), read by its own reader on its own connection.
    enum class Table { Kernel, Memcpy, Memset, Sync, Runtime, Osrt, GpuMetrics, MemoryUsage, Nvtx, Sampling, Names };
    static const char* tableName(Table t);
    // Whether rowid ranges of the table may be read independently (running sums may not; a thread's
    // samples become slices only all together).
    static bool splittable(Table t) { return t != Table::MemoryUsage && t != Table::Names && t != Table::Sampling; }

    NsysReader(SqliteDatabase& db, const ImportControl& control, uint32_t worker)
        : m_db(db), m_control(control), m_w(worker) {}
    // One process of a multi-process export (ImportControl::process): GPU metrics are kept for
    // the devices it used (`gpus`, "0,3"; empty: every device, nothing says which it used).
    void setProcessGpus(std::string gpus) { m_processGpus = std::move(gpus); }

    // Reads `table`, only rows with lo <= rowid < hi when hi > lo.
    bool run(Table table, int64_t lo = 0, int64_t hi = 0);
    // After the parallel groups: API flow starts only where GPU work has the same (pid, correlation).
    void keepFlowStartsFor(const std::unordered_set<uint64_t>& gpuKeys);
    // NVTX ranges that never ended end at `at` (the last time of the whole session).
    void closeOpenRanges(int64_t at);
    // The names reader: names the tracks the other readers made.
    void emitNamesFor(const std::vector<NsysReader*>& readers);
    const std::unordered_set<uint64_t>& gpuCorrelations() const { return m_gpuCorrelations; }
    void shareStrings(const NsysReader& other) { m_strings.shareValues(other.m_strings); }
    NsysChunkWriter& writer() { return m_w; }
    std::vector<DeviceInfo> devices() const;
    int64_t baseTime() const { return m_base; }
    bool cancelled() const { return m_cancelled; }
    std::vector<std::pair<std::string, std::string>> metadata() const { return m_metadata; }

private:
    /* One TARGET_INFO_GPU row; smCount turns grid sizes into Kineto's "blocks per SM". */
    struct Gpu {
        DeviceInfo info;
        int smCount = 0;
    };

    bool cancelPoint(uint64_t row);
    // Steps through q; false when the table stopped early (reported as truncation).
    bool finishTable(SqliteStatement& q, const std::string& table);
    // GPU activity with a correlation id: keep it on the slice and end a flow at it, keyed by
    // (pid, correlation) so the runtime call that launched it can start that flow.
    void linkToLaunch(ChunkResult::Slice& s, const SqliteStatement& q, int corrColumn, int pidColumn);
    void readMeta();
    void readGpus();
    void readKernels();
    void readMemcpy();
    void readMemset();
    void readSync();
    void readRuntime();
    void readNvtx();
    void readOsrt();
    void readSampling();
    void readGpuMetrics();
    void readMemoryUsage();
    void emitNames();
    uint32_t gpuTrack(int64_t device, int64_t stream);
    uint32_t hostTrack(int64_t globalTid);
    bool validTimes(SqliteStatement& q, int col, int64_t& start, int64_t& dur, const char* table,
                    bool needEnd);
    void flowEnd(uint32_t track, int64_t ts, uint64_t id, char ph);

    SqliteDatabase& m_db;
    const ImportControl& m_control;
    NsysChunkWriter m_w;
    NsysStringIds m_strings;
    std::map<int64_t, Gpu> m_gpus;
    std::set<std::pair<int64_t, int64_t>> m_streams;     // (device, stream)
    std::set<std::pair<int64_t, int64_t>> m_hostThreads; // (pid, tid)
    std::unordered_set<uint64_t> m_gpuCorrelations;      // flowKey(pid, correlationId)
    std::vector<std::pair<std::string, std::string>> m_metadata;
    int64_t m_base = 0;
    uint32_t m_flowCat = UINT32_MAX;
    // The last track looked up: consecutive rows mostly share one, which skips the hash and set work.
    int64_t m_lastPid = INT64_MIN, m_lastTid = INT64_MIN;
    uint32_t m_lastTrack = 0;
    bool m_lastGpu = false;
    std::vector<size_t> m_openRanges; // slice indices of NVTX ranges without an end
    // The rows a read takes: this unit's rowid range, and with ImportControl::process only that
    // process's rows (its pid is bits 24-47 of the table's globalPid or globalTid, FORMATS.md 4.1).
    std::string rows(const NsysColumnSelect& sel, size_t ownerColumn, std::string_view order = {});
    std::string m_range;              // "rowid >= ... AND rowid < ..." of this unit, or empty
    std::string m_processGpus;
    bool m_cancelled = false;
};

bool NsysReader::cancelPoint(uint64_t row) {
    if ((row & 0xFFFF) == 0 && m_control.cancel && m_control.cancel->load()) m_cancelled = true;
    return m_cancelled;
}

void NsysReader::linkToLaunch(ChunkResult::Slice& s, const SqliteStatement& q, int corrColumn, int pidColumn) {
    if (q.isNull(corrColumn))
        return;
    s.corr = static_cast<uint32_t>(q.int64(corrColumn));
    s.have |= ChunkResult::kCorr;
    const uint64_t key = flowKey(pidOf(q.int64(pidColumn)), q.int64(corrColumn));
    m_gpuCorrelations.insert(key);
    flowEnd(s.track, s.ts, key, 'f');
}

bool NsysReader::finishTable(SqliteStatement& q, const std::string& table) {
    if (q.ok() || m_cancelled) return true;
    // A cut or corrupt file shows up as a failing step in the middle of a table.
    m_w.report().setTruncated(table + ": " + q.error());
    m_w.report().add("table read stopped early (rows after the error are missing)", table + ": " + q.error());
    return false;
}

bool NsysReader::validTimes(SqliteStatement& q, int col, int64_t& start, int64_t& dur, const char* table,
                            bool needEnd) {
    if (q.isNull(col) || (needEnd && q.isNull(col + 1))) {
        m_w.report().add("row without start or end time (skipped)",
                         std::string(table) + " rowid " + std::to_string(q.int64(0)));
        return false;
    }
    start = q.int64(col);
    const int64_t end = needEnd ? q.int64(col + 1) : start;
    // Far outside any real capture; also keeps start + dur and the epoch base from overflowing.
    if (start < -kMaxTime || start > kMaxTime || end < -kMaxTime || end > kMaxTime) {
        m_w.report().add("row with a time out of range (skipped)",
                         std::string(table) + " rowid " + std::to_string(q.int64(0)));
        return false;
    }
    dur = end - start;
    if (dur < 0) {
        m_w.report().add("row ends before it starts (duration set to 0)",
                         std::string(table) + " rowid " + std::to_string(q.int64(0)));
        dur = 0;
    }
    m_w.noteTime(start, start + dur);
    return true;
}

uint32_t NsysReader::gpuTrack(int64_t device, int64_t stream) {
    if (m_lastGpu && device == m_lastPid && stream == m_lastTid) return m_lastTrack;
    m_streams.emplace(device, stream);
    m_lastGpu = true;
    m_lastPid = device;
    m_lastTid = stream;
    return m_lastTrack = m_w.track(device, stream);
}

uint32_t NsysReader::hostTrack(int64_t globalTid) {
    const int64_t pid = pidOf(globalTid), tid = tidOf(globalTid);
    if (!m_lastGpu && pid == m_lastPid && tid == m_lastTid) return m_lastTrack;
    m_hostThreads.emplace(pid, tid);
    m_lastGpu = false;
    m_lastPid = pid;
    m_lastTid = tid;
    return m_lastTrack = m_w.track(pid, tid);
}

std::string NsysReader::rows(const NsysColumnSelect& sel, size_t ownerColumn, std::string_view order) {
    std::string where = m_range;
    auto add = [&](const std::string& condition) {
        if (!where.empty())
            where.append(" AND ");
        where.append(condition);
    };
    if (m_control.process >= 0) {
        if (ownerColumn == SIZE_MAX) {
            // GPU metrics belong to a device, not a process: those of the process's GPUs.
            if (!m_processGpus.empty())
                add("(typeId & 255) IN (" + m_processGpus + ")");
        } else if (sel.has(ownerColumn)) {
            std::string condition = "((";
            condition.append(sel.column(ownerColumn)).append(" >> 24) & 16777215) = ");
            condition.append(std::to_string(m_control.process));
            add(condition);
        } else {
            m_w.report().add("table without a process column: the rows of every process were kept", sel.table());
        }
    }
    std::string tail = where.empty() ? std::string() : std::string(" WHERE ").append(where);
    return tail.append(order);
}

void NsysReader::flowEnd(uint32_t track, int64_t ts, uint64_t id, char ph) {
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

void NsysReader::readMeta() {
    if (m_db.tableExists("TARGET_INFO_SESSION_START_TIME")) {
        SqliteStatement q(m_db, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME LIMIT 1");
        if (q.step() && !q.isNull(0)) {
            m_base = q.int64(0);
            m_metadata.emplace_back("baseTimeNanoseconds", std::to_string(m_base));
        }
    }
    for (const char* table : {"META_DATA_EXPORT", "EXPORT_META_DATA"}) {
        if (!m_db.tableExists(table)) continue;
        SqliteStatement q(m_db, std::string("SELECT name, value FROM ") + table +
                                    " WHERE name IN ('EXPORT_SCHEMA_VERSION', 'EXPORT_PRODUCT_VERSION')");
        while (q.step()) {
            const std::string key =
                q.text(0) == "EXPORT_SCHEMA_VERSION" ? "nsysExportSchemaVersion" : "nsysVersion";
            std::string value = "\"";
            for (char c : q.text(1))
                if (c != '"' && c != '\\' && static_cast<unsigned char>(c) >= 0x20) value += c;
            m_metadata.emplace_back(key, value + "\"");
        }
    }
}

void NsysReader::readGpus() {
    NsysColumnSelect sel(m_db, "TARGET_INFO_GPU",
                         {"id", "name", "totalMemory", "smCount", "computeMajor", "computeMinor",
                          "maxWarpsPerSm", "threadsPerWarp"});
    if (!sel.tableExists() || !sel.has(0)) return;
    SqliteStatement q(m_db, sel.sql());
    while (q.step()) {
        Gpu g;
        g.info.id = static_cast<int>(q.int64(1));
        g.info.name = std::string(q.text(2));
        if (!q.isNull(3)) g.info.totalGlobalMem = q.int64(3);
        if (!q.isNull(4)) {
            g.smCount = static_cast<int>(q.int64(4));
            g.info.numSms = g.smCount;
        }
        if (!q.isNull(5)) g.info.computeMajor = static_cast<int>(q.int64(5));
        if (!q.isNull(6)) g.info.computeMinor = static_cast<int>(q.int64(6));
        if (!q.isNull(7) && !q.isNull(8))
            g.info.maxThreadsPerMultiprocessor = static_cast<int>(q.int64(7) * q.int64(8));
        if (g.info.id >= 0 && g.info.id < 4096) m_gpus[g.info.id] = std::move(g);
    }
    finishTable(q, sel.table());
}

std::vector<DeviceInfo> NsysReader::devices() const {
    std::vector<DeviceInfo> out;
    for (const auto& [id, g] : m_gpus)
        out.push_back(g.info);
    return out;
}

void NsysReader::readKernels() {
    enum {
        kStart,
        kEnd,
        kDevice,
        kStream,
        kCorr,
        kPid,
        kDemangled,
        kShort,
        kMangled,
        kGridX,
        kGridY,
        kGridZ
    };
    NsysColumnSelect sel(m_db, "CUPTI_ACTIVITY_KIND_KERNEL",
                         {"start", "end", "deviceId", "streamId", "correlationId", "globalPid",
                          "demangledName", "shortName", "mangledName", "gridX", "gridY", "gridZ"});
    if (!sel.tableExists()) return;
    if (!sel.hasAll({kStart, kEnd})) {
        m_w.report().add("table without start/end columns (ignored)", sel.table());
        return;
    }
    SqliteStatement q(m_db, sel.sql(rows(sel, kPid)));
    const uint32_t cat = m_w.string("kernel");
    uint64_t row = 0, untimed = 0;
    auto& chunk = m_w.chunk();
    while (q.step() && !cancelPoint(++row)) {
        int64_t start = 0, dur = 0;
        if (!q.isNull(1 + kStart) && !q.isNull(1 + kEnd) && q.int64(1 + kStart) == 0 &&
            q.int64(1 + kEnd) == 0) {
            ++untimed; // CUPTI: no timestamps collected
            continue;
        }
        if (!validTimes(q, 1 + kStart, start, dur, "CUPTI_ACTIVITY_KIND_KERNEL", true)) continue;
        const int64_t device = q.int64(1 + kDevice);
        ChunkResult::Slice s;
        s.ts = start;
        s.dur = dur;
        s.track = gpuTrack(device, q.int64(1 + kStream));
        s.cat = cat;
        s.argRef = nsysArgRef(NsysTableId::Kernel, q.int64(0));
        for (int c : {kDemangled, kShort, kMangled})
            if (!q.isNull(1 + c) && m_strings.contains(q.int64(1 + c))) {
                s.name = m_strings.local(q.int64(1 + c), m_w);
                break;
            }
        linkToLaunch(s, q, 1 + kCorr, 1 + kPid);
        auto gpu = m_gpus.find(device);
        if (gpu != m_gpus.end() && gpu->second.smCount > 0 && !q.isNull(1 + kGridX)) {
            const double blocks = static_cast<double>(q.int64(1 + kGridX)) *
                                  static_cast<double>(q.isNull(1 + kGridY) ? 1 : q.int64(1 + kGridY)) *
                                  static_cast<double>(q.isNull(1 + kGridZ) ? 1 : q.int64(1 + kGridZ));
            s.bps = static_cast<float>(blocks / gpu->second.smCount);
            s.have |= ChunkResult::kBps;
        }
        chunk.slices.push_back(s);
        ++chunk.events;
    }
    finishTable(q, sel.table());
    if (untimed) m_w.report().add("kernels without timestamps (skipped)", {}, untimed);
}

void NsysReader::readMemcpy() {
    enum { kStart, kEnd, kDevice, kStream, kCorr, kPid, kBytes, kCopyKind, kSrcKind, kDstKind };
    NsysColumnSelect sel(m_db, "CUPTI_ACTIVITY_KIND_MEMCPY",
                         {"start", "end", "deviceId", "streamId", "correlationId", "globalPid", "bytes",
                          "copyKind", "srcKind", "dstKind"});
    if (!sel.tableExists()) return;
    SqliteStatement q(m_db, sel.sql(rows(sel, kPid)));
    const uint32_t cat = m_w.string("gpu_memcpy");
    std::unordered_map<int64_t, uint32_t> names; // by (copyKind, srcKind, dstKind) packed
    uint64_t row = 0;
    auto& chunk = m_w.chunk();
    while (q.step() && !cancelPoint(++row)) {
        int64_t start = 0, dur = 0;
        if (!validTimes(q, 1 + kStart, start, dur, "CUPTI_ACTIVITY_KIND_MEMCPY", true)) continue;
        ChunkResult::Slice s;
        s.ts = start;
        s.dur = dur;
        s.track = gpuTrack(q.int64(1 + kDevice), q.int64(1 + kStream));
        s.cat = cat;
        s.argRef = nsysArgRef(NsysTableId::Memcpy, q.int64(0));
        const int64_t ck = q.int64(1 + kCopyKind), sk = q.int64(1 + kSrcKind), dk = q.int64(1 + kDstKind);
        const int64_t packed = ((ck & 0xFFFF) << 32) | ((sk & 0xFFFF) << 16) | (dk & 0xFFFF);
        auto it = names.find(packed);
        if (it == names.end())
            it = names.emplace(packed, m_w.string(memcpyName(ck, sk, dk, CudaEnumNumbering::Nsys))).first;
        s.name = it->second;
        if (!q.isNull(1 + kBytes)) {
            s.bytes = q.int64(1 + kBytes);
            s.have |= ChunkResult::kBytes;
        }
        linkToLaunch(s, q, 1 + kCorr, 1 + kPid);
        chunk.slices.push_back(s);
        ++chunk.events;
    }
    finishTable(q, sel.table());
}

void NsysReader::readMemset() {
    enum { kStart, kEnd, kDevice, kStream, kCorr, kPid, kBytes, kMemKind };
    NsysColumnSelect sel(
        m_db, "CUPTI_ACTIVITY_KIND_MEMSET",
        {"start", "end", "deviceId", "streamId", "correlationId", "globalPid", "bytes", "memKind"});
    if (!sel.tableExists()) return;
    SqliteStatement q(m_db, sel.sql(rows(sel, kPid)));
    const uint32_t cat = m_w.string("gpu_memset");
    uint64_t row = 0;
    auto& chunk = m_w.chunk();
    while (q.step() && !cancelPoint(++row)) {
        int64_t start = 0, dur = 0;
        if (!validTimes(q, 1 + kStart, start, dur, "CUPTI_ACTIVITY_KIND_MEMSET", true)) continue;
        ChunkResult::Slice s;
        s.ts = start;
        s.dur = dur;
        s.track = gpuTrack(q.int64(1 + kDevice), q.int64(1 + kStream));
        s.cat = cat;
        s.argRef = nsysArgRef(NsysTableId::Memset, q.int64(0));
        s.name = m_w.string(
            memsetName(q.isNull(1 + kMemKind) ? 7 : q.int64(1 + kMemKind), CudaEnumNumbering::Nsys));
        if (!q.isNull(1 + kBytes)) {
            s.bytes = q.int64(1 + kBytes);
            s.have |= ChunkResult::kBytes;
        }
        linkToLaunch(s, q, 1 + kCorr, 1 + kPid);
        chunk.slices.push_back(s);
        ++chunk.events;
    }
    finishTable(q, sel.table());
}

void NsysReader::readSync() {
    enum { kStart, kEnd, kDevice, kStream, kCorr, kType, kPid };
    NsysColumnSelect sel(m_db, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                         {"start", "end", "deviceId", "streamId", "correlationId", "syncType", "globalPid"});
    if (!sel.tableExists()) return;
    SqliteStatement q(m_db, sel.sql(rows(sel, kPid)));
    const uint32_t cat = m_w.string("cuda_sync");
    uint64_t row = 0;
    auto& chunk = m_w.chunk();
    while (q.step() && !cancelPoint(++row)) {
        int64_t start = 0, dur = 0;
        if (!validTimes(q, 1 + kStart, start, dur, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", true)) continue;
        ChunkResult::Slice s;
        s.ts = start;
        s.dur = dur;
        s.track = gpuTrack(q.int64(1 + kDevice), q.int64(1 + kStream));
        s.cat = cat;
        s.argRef = nsysArgRef(NsysTableId::Sync, q.int64(0));
        s.name = m_w.string(syncTypeName(q.int64(1 + kType)));
        if (!q.isNull(1 + kCorr)) {
            s.corr = static_cast<uint32_t>(q.int64(1 + kCorr));
            s.have |= ChunkResult::kCorr;
        }
        chunk.slices.push_back(s);
        ++chunk.events;
    }
    finishTable(q, sel.table());
}

void NsysReader::readRuntime() {
    enum { kStart, kEnd, kClass, kTid, kCorr, kNameId };
    NsysColumnSelect sel(m_db, "CUPTI_ACTIVITY_KIND_RUNTIME",
                         {"start", "end", "eventClass", "globalTid", "correlationId", "nameId"});
    if (!sel.tableExists()) return;
    SqliteStatement q(m_db, sel.sql(rows(sel, kTid)));
    const uint32_t runtimeCat = m_w.string("cuda_runtime"), driverCat = m_w.string("cuda_driver"),
                   otherCat = m_w.string("cuda_api");
    std::unordered_map<int64_t, uint32_t> names; // nameId -> local display name
    uint64_t row = 0;
    auto& chunk = m_w.chunk();
    while (q.step() && !cancelPoint(++row)) {
        const int64_t eventClass = q.isNull(1 + kClass) ? 0 : q.int64(1 + kClass);
        if (eventClass == 67) continue; // CUDA backtrace rows duplicate the API rows
        int64_t start = 0, dur = 0;
        if (!validTimes(q, 1 + kStart, start, dur, "CUPTI_ACTIVITY_KIND_RUNTIME", true)) continue;
        ChunkResult::Slice s;
        s.ts = start;
        s.dur = dur;
        s.track = hostTrack(q.int64(1 + kTid));
        s.cat = eventClass == 0 ? runtimeCat : eventClass == 1 ? driverCat : otherCat;
        s.argRef = nsysArgRef(NsysTableId::Runtime, q.int64(0));
        const int64_t nameId = q.int64(1 + kNameId);
        auto it = names.find(nameId);
        if (it == names.end())
            it = names.emplace(nameId, m_w.string(apiDisplayName(m_strings.value(nameId)))).first;
        s.name = it->second;
        if (!q.isNull(1 + kCorr) && q.int64(1 + kCorr) != 0) {
            s.corr = static_cast<uint32_t>(q.int64(1 + kCorr));
            s.have |= ChunkResult::kCorr;
            const uint64_t key = flowKey(pidOf(q.int64(1 + kTid)), q.int64(1 + kCorr));
            flowEnd(s.track, start, key, 's'); // filtered by keepFlowStartsFor()
        }
        chunk.slices.push_back(s);
        ++chunk.events;
    }
    finishTable(q, sel.table());
}

void NsysReader::readNvtx() {
    enum { kStart, kEnd, kType, kText, kTid, kEndTid, kTextId, kDomain };
    NsysColumnSelect sel(
        m_db, "NVTX_EVENTS",
        {"start", "end", "eventType", "text", "globalTid", "endGlobalTid", "textId", "domainId"});
    if (!sel.tableExists()) return;
    if (!sel.hasAll({kStart, kType, kTid})) {
        m_w.report().add("table without the expected columns (ignored)", sel.table());
        return;
    }
    SqliteStatement q(m_db, sel.sql(rows(sel, kTid)));
    const uint32_t cat = m_w.string("user_annotation");
    uint64_t row = 0, unterminated = 0;
    auto& chunk = m_w.chunk();
    while (q.step() && !cancelPoint(++row)) {
        const int64_t type = q.int64(1 + kType);
        const bool pushPop = type == 59 || type == 70, startEnd = type == 60 || type == 71,
                   mark = type == 34 || type == 65;
        const bool threadName = type == 39;
        if (!pushPop && !startEnd && !mark && !threadName) continue; // domain, category and other definitions
        uint32_t name = 0;
        if (!q.isNull(1 + kTextId) && m_strings.contains(q.int64(1 + kTextId)))
            name = m_strings.local(q.int64(1 + kTextId), m_w);
        else if (!q.isNull(1 + kText))
            name = m_w.string(q.text(1 + kText));
        const int64_t gtid = q.int64(1 + kTid);
        if (threadName) {
            if (name) m_w.meta(ChunkResult::MetaKind::ThreadName, pidOf(gtid), tidOf(gtid), name);
            continue;
        }
        if (q.isNull(1 + kStart)) {
            m_w.report().add("row without start or end time (skipped)",
                             "NVTX_EVENTS rowid " + std::to_string(q.int64(0)));
            continue;
        }
        const int64_t start = q.int64(1 + kStart);
        if (!timeInRange(start) || (!q.isNull(1 + kEnd) && !timeInRange(q.int64(1 + kEnd)))) {
            m_w.report().add("row with a time out of range (skipped)",
                             "NVTX_EVENTS rowid " + std::to_string(q.int64(0)));
            continue;
        }
        const uint64_t argRef = nsysArgRef(NsysTableId::Nvtx, q.int64(0));
        if (mark) {
            ChunkResult::Instant in;
            in.ts = start;
            in.track = hostTrack(gtid);
            in.name = name;
            in.cat = cat;
            in.argRef = argRef;
            chunk.instants.push_back(in);
            m_w.noteTime(start, start);
            ++chunk.events;
            continue;
        }
        int64_t end = start;
        const bool open = q.isNull(1 + kEnd);
        if (open) {
            ++unterminated;
            m_openRanges.push_back(chunk.slices.size());
        } else {
            end = q.int64(1 + kEnd);
        }
        if (end < start) {
            m_w.report().add("row ends before it starts (duration set to 0)",
                             "NVTX_EVENTS rowid " + std::to_string(q.int64(0)));
            end = start;
        }
        ChunkResult::Slice s;
        s.ts = start;
        s.dur = end - start;
        // Start/end ranges may end on another thread and overlap freely: one async row per process.
        const bool crossThread = !q.isNull(1 + kEndTid) && q.int64(1 + kEndTid) != gtid;
        if (startEnd || crossThread) {
            m_hostThreads.emplace(pidOf(gtid), tidOf(gtid));
            s.track = m_w.namedTrack(pidOf(gtid), "NVTX start/end ranges", ChunkResult::kAsync);
        } else {
            s.track = hostTrack(gtid);
        }
        s.name = name;
        s.cat = cat;
        s.argRef = argRef;
        m_w.noteTime(start, end);
        chunk.slices.push_back(s);
        ++chunk.events;
    }
    finishTable(q, sel.table());
    if (unterminated)
        m_w.report().add("NVTX range without end (closed at the last GPU/API time)", {}, unterminated);
}

void NsysReader::readOsrt() {
    enum { kStart, kEnd, kTid, kNameId };
    NsysColumnSelect sel(m_db, "OSRT_API", {"start", "end", "globalTid", "nameId"});
    if (!sel.tableExists()) return;
    SqliteStatement q(m_db, sel.sql(rows(sel, kTid)));
    const uint32_t cat = m_w.string("os_runtime");
    uint64_t row = 0;
    auto& chunk = m_w.chunk();
    while (q.step() && !cancelPoint(++row)) {
        int64_t start = 0, dur = 0;
        if (!validTimes(q, 1 + kStart, start, dur, "OSRT_API", true)) continue;
        ChunkResult::Slice s;
        s.ts = start;
        s.dur = dur;
        s.track = hostTrack(q.int64(1 + kTid));
        s.cat = cat;
        s.name = m_strings.local(q.int64(1 + kNameId), m_w);
        s.argRef = nsysArgRef(NsysTableId::Osrt, q.int64(0));
        chunk.slices.push_back(s);
        ++chunk.events;
    }
    finishTable(q, sel.table());
}

/*
 * CPU samples (--sample=process-tree): COMPOSITE_EVENTS holds one row per sample (time, thread),
 * SAMPLING_CALLCHAINS its frames (stackDepth 0 innermost; symbol and module in StringIds). Runs of
 * samples become call-stack slices on the thread's row (import/stack_samples.h), category
 * cpu_sample, named "module(0): function" as the backtraces of API calls are (nsys_event_text.cpp).
 * nsys samples a thread only while it runs on a CPU, so a thread off the CPU for three periods ends
 * its slices: they are CPU time, as the Flame tab's CPU weight wants.
 */
void NsysReader::readSampling() {
    if (!m_db.tableExists("COMPOSITE_EVENTS") || !m_db.tableExists("SAMPLING_CALLCHAINS"))
        return;
    std::string sql = "SELECT e.id, e.start, e.globalTid, c.symbol, c.module FROM COMPOSITE_EVENTS e"
                      " JOIN SAMPLING_CALLCHAINS c ON c.id = e.id";
    if (m_control.process >= 0)
        sql += " WHERE ((e.globalTid >> 24) & 16777215) = " + std::to_string(m_control.process);
    sql += " ORDER BY e.id, c.stackDepth";
    SqliteStatement q(m_db, sql);
    StackSamples samples;
    std::map<std::vector<uint64_t>, uint32_t> stackIds;
    std::vector<std::vector<uint64_t>> stacks; // stack id - 1 -> frames (symbol << 32 | module), innermost first
    std::vector<uint64_t> frames;
    int64_t id = -1, start = 0, globalTid = 0;
    auto flush = [&] {
        if (id < 0)
            return;
        auto [it, added] = stackIds.try_emplace(frames, static_cast<uint32_t>(stacks.size() + 1));
        if (added)
            stacks.push_back(frames);
        samples.add(globalTid, start, it->second, 0, static_cast<uint64_t>(id));
        frames.clear();
    };
    uint64_t row = 0, badTimes = 0;
    while (q.step() && !cancelPoint(++row)) {
        if (q.int64(0) != id) {
            flush();
            id = q.int64(0);
            start = q.int64(1);
            globalTid = q.int64(2);
            if (!timeInRange(start)) {
                ++badTimes;
                id = -1;
                continue;
            }
        } else if (id < 0) {
            continue;
        }
        frames.push_back(static_cast<uint64_t>(q.int64(3)) << 32 | static_cast<uint32_t>(q.int64(4)));
    }
    flush();
    finishTable(q, "COMPOSITE_EVENTS");
    if (badTimes)
        m_w.report().add("CPU samples with a time out of range (skipped)", "COMPOSITE_EVENTS", badTimes);
    const uint32_t cat = m_w.string("cpu_sample");
    std::unordered_map<uint64_t, uint32_t> names;
    auto& chunk = m_w.chunk();
    samples.slices([&](uint32_t stack) { return stack ? &stacks[stack - 1] : nullptr; },
                   [&](const StackSamples::Slice& s) {
                       auto [name, added] = names.try_emplace(s.frame, 0);
                       if (added) {
                           std::string module(m_strings.value(static_cast<int64_t>(s.frame & 0xffffffffu)));
                           if (const size_t slash = module.rfind('/'); slash != std::string::npos)
                               module.erase(0, slash + 1);
                           std::string function(m_strings.value(static_cast<int64_t>(s.frame >> 32)));
                           name->second = m_w.string((module.empty() ? std::string("?") : module) + "(0): " +
                                                     (function.empty() ? std::string("??") : function));
                       }
                       ChunkResult::Slice slice;
                       slice.ts = s.start;
                       slice.dur = s.end - s.start;
                       slice.track = hostTrack(s.thread);
                       slice.cat = cat;
                       slice.name = name->second;
                       chunk.slices.push_back(slice);
                       ++chunk.events;
                   });
}

void NsysReader::readGpuMetrics() {
    if (!m_db.tableExists("GPU_METRICS") || !m_db.tableExists("TARGET_INFO_GPU_METRICS")) return;
    NsysColumnSelect sel(m_db, "GPU_METRICS", {"timestamp", "typeId", "metricId", "value"});
    NsysColumnSelect names(m_db, "TARGET_INFO_GPU_METRICS", {"typeId", "metricId", "metricName"});
    if (!sel.hasAll({0, 1, 2, 3}) || !names.hasAll({0, 1, 2})) {
        m_w.report().add("table without the expected columns (ignored)", "GPU_METRICS");
        return;
    }
    std::map<std::pair<int64_t, int64_t>, uint32_t> metricName;
    {
        SqliteStatement q(m_db, names.sql());
        while (q.step())
            metricName[{q.int64(1), q.int64(2)}] = m_w.string(q.text(3));
        finishTable(q, names.table());
    }
    SqliteStatement q(m_db, sel.sql(rows(sel, SIZE_MAX)));
    const uint32_t cat = m_w.string("gpu_metrics");
    uint64_t row = 0, unnamed = 0;
    auto& chunk = m_w.chunk();
    while (q.step() && !cancelPoint(++row)) {
        if (q.isNull(1) || q.isNull(4) || !timeInRange(q.int64(1))) continue;
        const int64_t typeId = q.int64(2);
        auto it = metricName.find({typeId, q.int64(3)});
        if (it == metricName.end()) {
            ++unnamed;
            continue;
        }
        ChunkResult::Counter c;
        c.pid.number = typeId & 0xFF;
        c.ts = q.int64(1);
        c.value = q.real(4);
        c.seq = m_w.nextSeq();
        c.name = it->second;
        c.cat = cat;
        m_streams.emplace(c.pid.number, INT64_MIN); // marks the device as a GPU process
        m_w.noteTime(c.ts, c.ts);
        chunk.counters.push_back(c);
        ++chunk.events;
    }
    finishTable(q, sel.table());
    if (unnamed) m_w.report().add("GPU metric samples without a metric name (skipped)", {}, unnamed);
}

void NsysReader::readMemoryUsage() {
    enum { kStart, kPid, kDevice, kAddress, kBytes, kOper };
    NsysColumnSelect sel(m_db, "CUDA_GPU_MEMORY_USAGE_EVENTS",
                         {"start", "globalPid", "deviceId", "address", "bytes", "memoryOperationType"});
    if (!sel.tableExists()) return;
    if (!sel.hasAll({kStart, kPid, kDevice, kBytes, kOper})) {
        m_w.report().add("table without the expected columns (ignored)", sel.table());
        return;
    }
    SqliteStatement q(m_db, sel.sql(rows(sel, kPid, " ORDER BY start")));
    std::map<std::pair<int64_t, int64_t>, int64_t> inUse; // (pid, device) -> bytes
    uint64_t row = 0;
    auto& chunk = m_w.chunk();
    while (q.step() && !cancelPoint(++row)) {
        if (q.isNull(1 + kStart) || !timeInRange(q.int64(1 + kStart))) continue;
        const int64_t pid = pidOf(q.int64(1 + kPid)), device = q.int64(1 + kDevice);
        const int64_t bytes = q.int64(1 + kBytes) * (q.int64(1 + kOper) == 1 ? -1 : 1);
        int64_t& total = inUse[{pid, device}];
        total += bytes;
        ChunkResult::Memory m;
        m.ts = q.int64(1 + kStart);
        m.addr = q.isNull(1 + kAddress) ? INT64_MIN : q.int64(1 + kAddress);
        m.bytes = bytes;
        m.totalAllocated = total;
        m.track = m_w.track(pid, pid);
        m_hostThreads.emplace(pid, pid);
        m.deviceType = 1;
        m.deviceId = static_cast<int16_t>(device >= 0 && device < 4096 ? device : -1);
        m_w.noteTime(m.ts, m.ts);
        chunk.memory.push_back(m);
        ++chunk.events;
    }
    finishTable(q, sel.table());
}

void NsysReader::emitNames() {
    using K = ChunkResult::MetaKind;
    std::set<int64_t> pids;
    m_w.nameGpuStreams(m_streams, [this](int64_t d) {
        auto g = m_gpus.find(d);
        return g != m_gpus.end() ? g->second.info.name : std::string();
    });
    for (const auto& [pid, tid] : m_hostThreads)
        pids.insert(pid);
    if (m_db.tableExists("PROCESSES")) {
        NsysColumnSelect sel(m_db, "PROCESSES", {"globalPid", "pid", "name"});
        SqliteStatement q(m_db, sel.sql());
        std::set<int64_t> named;
        while (q.step()) {
            const int64_t pid = q.isNull(2) ? pidOf(q.int64(1)) : q.int64(2);
            if (!pids.count(pid) || named.count(pid) || q.text(3).empty()) continue;
            named.insert(pid);
            m_w.meta(K::ProcessName, pid, 0, m_w.string(q.text(3)));
        }
        finishTable(q, sel.table());
    }
    if (m_db.tableExists("ThreadNames")) {
        NsysColumnSelect sel(m_db, "ThreadNames", {"nameId", "globalTid"});
        SqliteStatement q(m_db, sel.sql());
        while (q.step()) {
            const int64_t g = q.int64(2);
            if (!m_hostThreads.count({pidOf(g), tidOf(g)}) || !m_strings.contains(q.int64(1))) continue;
            m_w.meta(K::ThreadName, pidOf(g), tidOf(g), m_strings.local(q.int64(1), m_w));
        }
        finishTable(q, sel.table());
    }
}

const char* NsysReader::tableName(Table t) {
    switch (t) {
    case Table::Kernel:
        return "CUPTI_ACTIVITY_KIND_KERNEL";
    case Table::Memcpy:
        return "CUPTI_ACTIVITY_KIND_MEMCPY";
    case Table::Memset:
        return "CUPTI_ACTIVITY_KIND_MEMSET";
    case Table::Sync:
        return "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
    case Table::Runtime:
        return "CUPTI_ACTIVITY_KIND_RUNTIME";
    case Table::Osrt:
        return "OSRT_API";
    case Table::GpuMetrics:
        return "GPU_METRICS";
    case Table::MemoryUsage:
        return "CUDA_GPU_MEMORY_USAGE_EVENTS";
    case Table::Nvtx:
        return "NVTX_EVENTS";
    case Table::Sampling:
        return "COMPOSITE_EVENTS";
    case Table::Names:
        return "StringIds";
    }
    return "";
}

bool NsysReader::run(Table table, int64_t lo, int64_t hi) {
    m_flowCat = m_w.string("ac2g");
    if (hi > lo) m_range = "rowid >= " + std::to_string(lo) + " AND rowid < " + std::to_string(hi);
    if (table == Table::Names) readMeta();
    if (!m_strings.loaded()) {
        if (m_db.tableExists("StringIds"))
            m_strings.load(m_db, "StringIds", "id", "value", m_w.report());
        else if (table == Table::Names)
            m_w.report().add("no StringIds table (names missing)");
    }
    readGpus();
    switch (table) {
    case Table::Kernel:
        readKernels();
        break;
    case Table::Memcpy:
        readMemcpy();
        break;
    case Table::Memset:
        readMemset();
        break;
    case Table::Sync:
        readSync();
        break;
    case Table::Runtime:
        readRuntime();
        break;
    case Table::Osrt:
        readOsrt();
        break;
    case Table::GpuMetrics:
        readGpuMetrics();
        break;
    case Table::MemoryUsage:
        readMemoryUsage();
        break;
    case Table::Nvtx:
        readNvtx();
        break;
    case Table::Sampling:
        readSampling();
        break;
    case Table::Names:
        break;
    }
    return !m_cancelled;
}

void NsysReader::keepFlowStartsFor(const std::unordered_set<uint64_t>& gpuKeys) {
    auto& flows = m_w.chunk().flows;
    flows.erase(
        std::remove_if(flows.begin(), flows.end(),
                       [&](const ChunkResult::FlowEnd& f) { return f.ph == 's' && !gpuKeys.count(f.id); }),
        flows.end());
}

void NsysReader::closeOpenRanges(int64_t at) {
    auto& slices = m_w.chunk().slices;
    for (size_t i : m_openRanges)
        slices[i].dur = std::max<int64_t>(0, at - slices[i].ts);
}

void NsysReader::emitNamesFor(const std::vector<NsysReader*>& readers) {
    for (const NsysReader* r : readers) {
        m_streams.insert(r->m_streams.begin(), r->m_streams.end());
        m_hostThreads.insert(r->m_hostThreads.begin(), r->m_hostThreads.end());
    }
    emitNames();
}

// The devices one process ran work on, as "0,3": from its CUDA contexts, or (exports without that
// table) its kernels; empty when neither says.
std::string processGpus(SqliteDatabase& db, int64_t pid) {
    std::string sql;
    if (!db.columns("TARGET_INFO_CUDA_CONTEXT_INFO").empty())
        sql = "SELECT DISTINCT deviceId FROM TARGET_INFO_CUDA_CONTEXT_INFO WHERE processId = " + std::to_string(pid);
    else if (!db.columns("CUPTI_ACTIVITY_KIND_KERNEL").empty())
        sql = "SELECT DISTINCT deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE ((globalPid >> 24) & 16777215) = " +
              std::to_string(pid);
    std::string list;
    if (sql.empty())
        return list;
    SqliteStatement q(db, sql);
    while (q.step())
        if (!q.isNull(0)) {
            if (!list.empty())
                list.push_back(',');
            list.append(std::to_string(q.int64(0)));
        }
    return list;
}

} // namespace

ImportResult importNsightSqlite(const std::string& path, const ImportControl& control) {
    ImportResult result;
    const auto t0 = std::chrono::steady_clock::now();
    SqliteDatabase db;
    if (!db.open(path, SqliteDatabase::Mode::ReadOnly)) {
        result.error = "cannot read the Nsight Systems export: " + db.error();
        return result;
    }
    const unsigned threads =
        control.threads ? control.threads : usableCores();
    // Units of work: each table, big ones cut into rowid ranges, read on their own connections by a
    // small thread pool; SQLite decoding is most of the cost. Chunks merge in unit order, so the
    // session does not depend on the thread count.
    using T = NsysReader::Table;
    /* A unit of work: one table, or the rowid range [lo, hi) of one when hi > lo. */
    struct Unit {
        T table;
        int64_t lo = 0, hi = 0;
    };
    // blockBytes (bytes of text per block for JSON) maps to ~64 bytes a row here; tests use it to
    // cut small tables into many units.
    const int64_t rowsPerUnit =
        control.blockBytes ? std::max<int64_t>(1, static_cast<int64_t>(control.blockBytes / 64)) : 128 * 1024;
    std::vector<Unit> units;
    for (T t : {T::Kernel, T::Memcpy, T::Memset, T::Sync, T::Runtime, T::Osrt, T::GpuMetrics, T::MemoryUsage,
                T::Nvtx, T::Sampling}) {
        const std::string table = NsysReader::tableName(t);
        if (!db.tableExists(table)) continue;
        const auto range = db.queryInt("SELECT min(rowid) FROM \"" + table + "\"");
        const auto last = db.queryInt("SELECT max(rowid) FROM \"" + table + "\"");
        if (!NsysReader::splittable(t) || (threads < 2 && !control.blockBytes) || !range || !last ||
            *last - *range < 2 * rowsPerUnit) {
            units.push_back({t, 0, 0});
            continue;
        }
        for (int64_t lo = *range; lo <= *last; lo += rowsPerUnit)
            units.push_back({t, lo, lo + rowsPerUnit > *last ? *last + 1 : lo + rowsPerUnit});
    }
    const std::string gpus = control.process >= 0 ? processGpus(db, control.process) : std::string();
    // The names reader loads StringIds once; the units share its values.
    NsysReader names(db, control, static_cast<uint32_t>(units.size()));
    if (!names.run(T::Names)) {
        result.cancelled = true;
        return result;
    }
    std::vector<std::unique_ptr<SqliteDatabase>> dbs(units.size());
    std::vector<std::unique_ptr<NsysReader>> readers(units.size());
    std::vector<char> ok(units.size(), 0);
    for (size_t k = 0; k < units.size(); ++k) {
        dbs[k] = std::make_unique<SqliteDatabase>();
        readers[k] = std::make_unique<NsysReader>(*dbs[k], control, static_cast<uint32_t>(k));
        readers[k]->shareStrings(names);
        readers[k]->setProcessGpus(gpus);
    }
    forEachIndexOnThreads(units.size(), threads, [&](size_t k) {
        if (!dbs[k]->open(path, SqliteDatabase::Mode::ReadOnly)) {
            readers[k]->writer().report().add("table unreadable", std::string(NsysReader::tableName(units[k].table)) +
                                                                      ": " + dbs[k]->error());
            ok[k] = 1;
            return;
        }
        ok[k] = readers[k]->run(units[k].table, units[k].lo, units[k].hi) ? 1 : 0;
        dbs[k]->close();
    });
    if (control.progress) control.progress(0.6);
    if (std::count(ok.begin(), ok.end(), 0) > 0) {
        result.cancelled = true;
        return result;
    }
    std::unordered_set<uint64_t> gpuKeys;
    int64_t lastTs = INT64_MIN;
    std::vector<NsysReader*> all;
    for (auto& r : readers) {
        gpuKeys.insert(r->gpuCorrelations().begin(), r->gpuCorrelations().end());
        lastTs = std::max(lastTs, r->writer().chunk().maxTs);
        all.push_back(r.get());
    }
    for (auto& r : readers) {
        r->keepFlowStartsFor(gpuKeys);
        r->closeOpenRanges(lastTs);
    }
    names.emitNamesFor(all);

    TraceBuilder builder(path, TraceFormat::NsightSqlite);
    builder.setTopLevelMembers(names.metadata());
    std::vector<DeviceInfo> devices = names.devices();
    if (!gpus.empty()) { // one process of several: the GPUs it used, not every GPU of the node
        std::set<int64_t> used;
        for (const char* p = gpus.c_str(); *p;) {
            char* end = nullptr;
            used.insert(std::strtoll(p, &end, 10));
            p = *end ? end + 1 : end;
        }
        std::erase_if(devices, [&](const DeviceInfo& d) { return !used.count(d.id); });
    }
    builder.setDevices(devices);
    builder.setEventTextSource(std::make_shared<NsysEventText>(path));
    for (auto& r : readers)
        builder.addChunk(r->writer().chunk());
    builder.addChunk(names.writer().chunk());
    readers.clear();
    const double read = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (control.progress) control.progress(0.8);
    finishImport(builder, result, control, "read tables", read);
    return result;
}

} // namespace ws
