#include "import/xplane_importer.h"

#include "import/import_finish.h"
#include "import/nsys_chunk_writer.h"
#include "io/input_stream.h"
#include "model/event_text_source.h"
#include "model/trace_builder.h"
#include "xplane.pb.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/gzip_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/wire_format_lite.h>
#include <nlohmann/json.hpp>

#include <array>
#include <chrono>
#include <optional>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <unistd.h>
#include <unordered_map>

namespace ws {

namespace {

namespace pbio = google::protobuf::io;
using google::protobuf::internal::WireFormatLite;

constexpr int64_t kHostPid = 100000; // no pid in an XSpace: the host process gets one no GPU index takes
constexpr int64_t kMaxTime = int64_t(1) << 61;
// The host row of step markers (no XLine has this id: theirs are thread ids and small numbers).
constexpr int64_t kStepsLine = INT64_MIN + 1;

enum class PlaneKind { Host, Device, Other };

// What the first pass learns of a plane: its names (which the wire puts after its lines).
struct PlaneMeta {
    std::string name;
    PlaneKind kind = PlaneKind::Other;
    int device = -1;
    std::unordered_map<int64_t, std::string> eventNames;
    std::unordered_map<int64_t, std::string> statNames;
    std::map<std::string, std::string> stats; // plane stats by name, as text
};

struct Planes {
    std::vector<PlaneMeta> planes;
    std::vector<std::string> hostnames;
};

PlaneKind kindOf(const std::string& name, int& device) {
    if (name.rfind("/host:", 0) == 0)
        return PlaneKind::Host;
    for (const char* prefix : {"/device:GPU:", "/device:TPU:", "/device:CUSTOM:"})
        if (name.rfind(prefix, 0) == 0) {
            const char* digits = name.c_str() + std::strlen(prefix);
            char* end = nullptr;
            const long d = std::strtol(digits, &end, 10);
            if (end != digits && d >= 0 && d < 4096) {
                device = static_cast<int>(d);
                return PlaneKind::Device;
            }
        }
    return PlaneKind::Other;
}

std::string statText(const xplane::XStat& s, const PlaneMeta& p) {
    switch (s.value_case()) {
    case xplane::XStat::kDoubleValue: {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", s.double_value());
        return buf;
    }
    case xplane::XStat::kUint64Value: return std::to_string(s.uint64_value());
    case xplane::XStat::kInt64Value: return std::to_string(s.int64_value());
    case xplane::XStat::kStrValue: return s.str_value();
    case xplane::XStat::kBytesValue: return "(" + std::to_string(s.bytes_value().size()) + " bytes)";
    case xplane::XStat::kRefValue: {
        const auto it = p.statNames.find(static_cast<int64_t>(s.ref_value()));
        return it == p.statNames.end() ? std::string() : it->second;
    }
    default: return {};
    }
}

std::optional<int64_t> statInt(const xplane::XStat& s) {
    switch (s.value_case()) {
    case xplane::XStat::kUint64Value: return static_cast<int64_t>(std::min<uint64_t>(s.uint64_value(), INT64_MAX));
    case xplane::XStat::kInt64Value: return s.int64_value();
    case xplane::XStat::kDoubleValue:
        return s.double_value() > -9e18 && s.double_value() < 9e18 ? std::optional<int64_t>(static_cast<int64_t>(s.double_value()))
                                                                    : std::nullopt;
    default: return std::nullopt;
    }
}

// " grid:1024,1,1 block:256,1,1 private_mem:0 group_mem:49280 occ_pct:0": XLA's kernel details.
struct KernelDetails {
    std::array<int64_t, 3> grid{0, 0, 0};
    std::array<int64_t, 3> block{0, 0, 0};
    int64_t groupMem = -1;
    double occupancy = -1;
    bool ok = false;
};

KernelDetails parseKernelDetails(std::string_view text) {
    KernelDetails k;
    auto triple = [&](std::string_view key, std::array<int64_t, 3>& out) {
        const size_t at = text.find(key);
        if (at == std::string_view::npos)
            return false;
        const char* p = text.data() + at + key.size();
        const char* end = text.data() + text.size();
        for (int i = 0; i < 3; ++i) {
            char* next = nullptr;
            const std::string part(p, static_cast<size_t>(std::min<ptrdiff_t>(end - p, 24)));
            const long long v = std::strtoll(part.c_str(), &next, 10);
            if (next == part.c_str())
                return false;
            out[i] = v;
            p += next - part.c_str();
            if (i < 2) {
                if (p >= end || *p != ',')
                    return false;
                ++p;
            }
        }
        return true;
    };
    auto number = [&](std::string_view key, double& out) {
        const size_t at = text.find(key);
        if (at == std::string_view::npos)
            return false;
        const std::string part(text.substr(at + key.size(), 24));
        char* next = nullptr;
        out = std::strtod(part.c_str(), &next);
        return next != part.c_str();
    };
    k.ok = triple("grid:", k.grid) && triple("block:", k.block);
    double v = 0;
    if (number("group_mem:", v))
        k.groupMem = static_cast<int64_t>(v);
    if (number("occ_pct:", v))
        k.occupancy = v;
    return k;
}

/*
 * SpaceWalker: the XSpace's planes, field by field, on a plain or gzip file, calling back for each
 * plane's fields with a CodedInputStream positioned at their value. One CodedInputStream per plane
 * keeps protobuf's 2 GiB limit per plane rather than per file.
 */
class SpaceWalker {
public:
    bool open(const std::string& path, std::string& error) {
        m_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (m_fd < 0) {
            error = std::string("cannot open the file: ") + std::strerror(errno);
            return false;
        }
        unsigned char magic[2] = {0, 0};
        const bool gzip = ::pread(m_fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
        m_file = std::make_unique<pbio::FileInputStream>(m_fd);
        m_file->SetCloseOnDelete(true);
        if (gzip)
            m_gzip = std::make_unique<pbio::GzipInputStream>(m_file.get());
        m_stream = gzip ? static_cast<pbio::ZeroCopyInputStream*>(m_gzip.get()) : m_file.get();
        return true;
    }

    // onPlaneField(plane index, field, wire type, input, absolute offset of the value): returns
    // false when it did not consume the value (it is skipped then).
    template <class Fn>
    bool walk(Fn&& onPlaneField, std::string& error) {
        uint64_t base = 0;
        int plane = 0;
        while (true) {
            pbio::CodedInputStream in(m_stream);
            in.SetTotalBytesLimit(INT_MAX);
            const uint32_t tag = in.ReadTag();
            if (tag == 0)
                return true; // the end of the file
            const int field = static_cast<int>(WireFormatLite::GetTagFieldNumber(tag));
            const auto wire = WireFormatLite::GetTagWireType(tag);
            if (field == 1 && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
                uint32_t length = 0;
                if (!in.ReadVarint32(&length) || length > static_cast<uint32_t>(INT_MAX) - 64) {
                    error = "a plane larger than 2 GiB (protobuf's limit) at byte " + std::to_string(base);
                    return false;
                }
                const auto limit = in.PushLimit(static_cast<int>(length));
                while (true) {
                    const uint32_t t = in.ReadTag();
                    if (t == 0)
                        break;
                    const int f = static_cast<int>(WireFormatLite::GetTagFieldNumber(t));
                    const auto w = WireFormatLite::GetTagWireType(t);
                    if (!onPlaneField(plane, f, w, in, base) && !WireFormatLite::SkipField(&in, t)) {
                        error = "damaged plane at byte " + std::to_string(base + static_cast<uint64_t>(in.CurrentPosition()));
                        return false;
                    }
                }
                if (in.BytesUntilLimit() > 0) { // ReadTag stopped before the plane's end: the file is cut
                    error = "the file ends inside a plane, at byte " +
                            std::to_string(base + static_cast<uint64_t>(in.CurrentPosition()));
                    return false;
                }
                in.PopLimit(limit);
                ++plane;
            } else if (field == 4 && wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
                std::string host;
                uint32_t length = 0;
                if (!in.ReadVarint32(&length) || !in.ReadString(&host, static_cast<int>(length))) {
                    error = "the file ends inside its host names";
                    return false;
                }
                m_hostnames.push_back(host);
            } else if (!WireFormatLite::SkipField(&in, tag)) {
                error = "damaged data at byte " + std::to_string(base);
                return false;
            }
            base += static_cast<uint64_t>(in.CurrentPosition());
        }
    }
    const std::vector<std::string>& hostnames() const { return m_hostnames; }

private:
    int m_fd = -1;
    std::unique_ptr<pbio::FileInputStream> m_file;
    std::unique_ptr<pbio::GzipInputStream> m_gzip;
    pbio::ZeroCopyInputStream* m_stream = nullptr;
    std::vector<std::string> m_hostnames;
};

// A length-delimited value read whole (metadata entries, events: each small).
bool readBytes(pbio::CodedInputStream& in, std::string& out) {
    uint32_t length = 0;
    return in.ReadVarint32(&length) && length <= static_cast<uint32_t>(INT_MAX) && in.ReadString(&out, static_cast<int>(length));
}

/*
 * XplaneEventText: an event's stats as {"args": {...}}, read back from the file by offset (argRef:
 * the event's offset in the low 40 bits, its plane above, its length in the top 16), with the names
 * kept from the import. Reads go forward on one open stream while they can (argRef order).
 */
class XplaneEventText : public EventTextSource {
public:
    XplaneEventText(std::string path, std::shared_ptr<const Planes> planes)
        : m_path(std::move(path)), m_planes(std::move(planes)) {}

    std::string eventJson(uint64_t argRef) const override {
        const uint64_t offset = argRef & ((uint64_t(1) << 40) - 1);
        const size_t plane = (argRef >> 40) & 0xFF;
        const size_t length = argRef >> 48;
        if (plane >= m_planes->planes.size() || length == 0)
            return {};
        std::string bytes(length, '\0');
        {
            std::lock_guard lock(m_mutex);
            if (!m_in || m_in->textPosition() > offset) {
                m_in = std::make_unique<InputStream>();
                if (!m_in->open(m_path)) {
                    m_in.reset();
                    return {};
                }
            }
            if (!m_in->skip(offset - m_in->textPosition()) || m_in->read(bytes.data(), length) != length) {
                m_in.reset();
                return {};
            }
        }
        xplane::XEvent e;
        if (!e.ParseFromString(bytes))
            return {};
        const PlaneMeta& p = m_planes->planes[plane];
        nlohmann::ordered_json args = nlohmann::ordered_json::object();
        for (const xplane::XStat& s : e.stats()) {
            const auto name = p.statNames.find(s.metadata_id());
            const std::string key = name != p.statNames.end() ? name->second : "stat " + std::to_string(s.metadata_id());
            const std::string text = statText(s, p);
            if (key == "kernel_details") {
                const KernelDetails k = parseKernelDetails(text);
                if (k.ok) {
                    args["grid"] = k.grid;
                    args["block"] = k.block;
                }
                if (k.groupMem >= 0)
                    args["shared memory"] = k.groupMem;
            }
            if (key == "correlation_id") {
                if (const auto v = statInt(s))
                    args["correlation"] = *v;
            }
            if (const auto v = statInt(s))
                args[key] = *v;
            else
                args[key] = text;
        }
        nlohmann::ordered_json event = nlohmann::ordered_json::object();
        event["args"] = std::move(args);
        return event.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    }

private:
    std::string m_path;
    std::shared_ptr<const Planes> m_planes;
    mutable std::mutex m_mutex;
    mutable std::unique_ptr<InputStream> m_in;
};

// The metadata ids of the stats the conversion looks at, per plane (-1: the plane has none).
struct StatIds {
    int64_t correlation = -1, memcpy = -1, kernel = -1, stepNum = -1;
};

// What the conversion takes from one XEvent (xplane.proto's XEvent and XStat).
struct RawEvent {
    int64_t metadataId = 0;
    int64_t offsetPs = 0;
    int64_t durationPs = 0;
    bool timed = false; // offset_ps, not num_occurrences
    bool memcpy = false;
    std::optional<int64_t> correlation;
    std::optional<int64_t> stepNum; // jax.profiler.StepTraceAnnotation / TF's step markers
    std::string_view kernelDetails; // into the event's bytes
};

/*
 * decodeEvent: one XEvent's wire bytes by hand, in place. The generated parser built every stat
 * (string values allocated) to look at three of them; this reads the varints and keeps only those
 * (2.5x less time per event). XplaneEventText still parses with the generated classes.
 */
class WireCursor {
public:
    explicit WireCursor(std::string_view bytes)
        : m_p(reinterpret_cast<const uint8_t*>(bytes.data())), m_end(m_p + bytes.size()) {}
    bool done() const { return m_p >= m_end; }
    // A field's key: its number and wire type.
    bool key(uint64_t& field, uint32_t& wire) {
        uint64_t k = 0;
        if (!varint(k))
            return false;
        field = k >> 3;
        wire = static_cast<uint32_t>(k & 7);
        return true;
    }
    bool varint(uint64_t& v) {
        v = 0;
        for (int shift = 0; shift < 64 && m_p < m_end; shift += 7) {
            const uint8_t b = *m_p++;
            v |= uint64_t(b & 0x7f) << shift;
            if (!(b & 0x80))
                return true;
        }
        return false;
    }
    bool bytes(std::string_view& out) {
        uint64_t n = 0;
        if (!varint(n) || n > static_cast<uint64_t>(m_end - m_p))
            return false;
        out = std::string_view(reinterpret_cast<const char*>(m_p), static_cast<size_t>(n));
        m_p += n;
        return true;
    }
    bool fixed64(uint64_t& v) {
        if (m_end - m_p < 8)
            return false;
        std::memcpy(&v, m_p, 8);
        m_p += 8;
        return true;
    }
    bool skip(uint32_t wire) {
        uint64_t v = 0;
        std::string_view b;
        switch (wire) {
        case 0: return varint(v);
        case 1: return fixed64(v);
        case 2: return bytes(b);
        case 5:
            if (m_end - m_p < 4)
                return false;
            m_p += 4;
            return true;
        default: return false; // groups: not in this schema
        }
    }

private:
    const uint8_t* m_p;
    const uint8_t* m_end;
};

bool decodeStat(std::string_view bytes, const StatIds& ids, RawEvent& e) {
    WireCursor c(bytes);
    int64_t id = -1;
    std::optional<int64_t> number;
    std::string_view text;
    while (!c.done()) {
        uint64_t field = 0, v = 0;
        uint32_t wire = 0;
        if (!c.key(field, wire))
            return false;
        if (field == 1 && wire == 0) {
            if (!c.varint(v))
                return false;
            id = static_cast<int64_t>(v);
        } else if ((field == 3 || field == 4) && wire == 0) { // uint64, int64
            if (!c.varint(v))
                return false;
            number = field == 3 ? static_cast<int64_t>(std::min<uint64_t>(v, INT64_MAX)) : static_cast<int64_t>(v);
        } else if (field == 2 && wire == 1) { // double
            if (!c.fixed64(v))
                return false;
            double d = 0;
            std::memcpy(&d, &v, 8);
            number = d > -9e18 && d < 9e18 ? std::optional<int64_t>(static_cast<int64_t>(d)) : std::nullopt;
        } else if (field == 5 && wire == 2) {
            if (!c.bytes(text))
                return false;
        } else if (!c.skip(wire)) {
            return false;
        }
    }
    if (id < 0)
        return true;
    if (id == ids.correlation)
        e.correlation = number;
    else if (id == ids.memcpy)
        e.memcpy = true;
    else if (id == ids.kernel)
        e.kernelDetails = text;
    else if (id == ids.stepNum)
        e.stepNum = number;
    return true;
}

bool decodeEvent(std::string_view bytes, const StatIds& ids, RawEvent& e) {
    e = RawEvent{};
    WireCursor c(bytes);
    while (!c.done()) {
        uint64_t field = 0, v = 0;
        uint32_t wire = 0;
        if (!c.key(field, wire))
            return false;
        if (wire == 0 && (field == 1 || field == 2 || field == 3 || field == 5)) {
            if (!c.varint(v))
                return false;
            const auto value = static_cast<int64_t>(v);
            if (field == 1)
                e.metadataId = value;
            else if (field == 2)
                e.offsetPs = value, e.timed = true;
            else if (field == 3)
                e.durationPs = value;
            else
                e.timed = false; // num_occurrences: the oneof's other member
        } else if (field == 4 && wire == 2) {
            std::string_view stat;
            if (!c.bytes(stat) || !decodeStat(stat, ids, e))
                return false;
        } else if (!c.skip(wire)) {
            return false;
        }
    }
    return true;
}

/*
 * EventWriter: the second pass's events as slices, in chunks handed to the TraceBuilder.
 */
class EventWriter {
public:
    EventWriter(TraceBuilder& builder, NsysChunkWriter& w, const Planes& planes,
                std::map<std::pair<int, int64_t>, uint64_t> lineEvents)
        : m_builder(builder), m_w(w), m_planes(planes), m_lineEvents(std::move(lineEvents)) {
        m_kernel = m_w.string("kernel");
        m_memcpy = m_w.string("gpu_memcpy");
        m_gpuAnnotation = m_w.string("gpu_user_annotation");
        m_runtime = m_w.string("cuda_runtime");
        m_cpuOp = m_w.string("cpu_op");
        m_flowCat = m_w.string("ac2g");
        m_userAnnotation = m_w.string("user_annotation");
    }

    void line(int plane, int64_t id, const std::string& name) {
        m_plane = plane;
        m_line = id;
        m_lineName = name;
        m_lineTs = 0;
        m_lineTsSet = false;
        const PlaneMeta& p = m_planes.planes[static_cast<size_t>(plane)];
        m_pid = p.kind == PlaneKind::Device ? p.device : kHostPid;
        m_stream = p.kind == PlaneKind::Device && name.rfind("Stream", 0) == 0;
        m_rowNamed = false;
    }
    void lineTimestamp(int64_t ns) {
        m_lineTs = ns;
        m_lineTsSet = true;
    }

    void event(int plane, const RawEvent& e, uint64_t offset, size_t length) {
        const PlaneMeta& p = m_planes.planes[static_cast<size_t>(plane)];
        if (!e.timed) {
            ++m_aggregated;
            return;
        }
        const int64_t ts = m_lineTs + e.offsetPs / 1000, dur = e.durationPs / 1000;
        if (e.offsetPs < 0 || e.durationPs < 0 || ts < 0 || ts > kMaxTime || dur > kMaxTime) {
            m_w.report().add("event with a time out of range (skipped)", m_lineName);
            return;
        }
        ChunkResult::Slice s;
        s.ts = ts;
        s.dur = dur;
        // Names and the kinds of their events, once per metadata id (millions of events share a few).
        const uint64_t key = (uint64_t(plane) << 48) ^ static_cast<uint64_t>(e.metadataId);
        auto known = m_names.find(key);
        if (known == m_names.end()) {
            const auto name = p.eventNames.find(e.metadataId);
            std::string text = name != p.eventNames.end() ? name->second : "event " + std::to_string(e.metadataId);
            if (text.size() > 3 && text.compare(text.size() - 3, 3, ".kd") == 0)
                text.resize(text.size() - 3); // AMD code object symbols
            const bool api = p.kind == PlaneKind::Host && (text.rfind("hip", 0) == 0 || text.rfind("cuda", 0) == 0 ||
                                                         text.rfind("cu", 0) == 0);
            const bool copy = text.find("emcpy") != std::string::npos;
            known = m_names.emplace(key, Name{m_w.string(text), api, copy}).first;
        }
        s.name = known->second.id;
        const bool api = known->second.api;
        const std::optional<int64_t>& correlation = e.correlation;
        const bool memcpy = known->second.copy || e.memcpy;
        KernelDetails details;
        if (!e.kernelDetails.empty() && p.kind == PlaneKind::Device)
            details = parseKernelDetails(e.kernelDetails);
        if (p.kind == PlaneKind::Device)
            s.cat = !m_stream ? m_gpuAnnotation : memcpy ? m_memcpy : m_kernel;
        else
            s.cat = api ? m_runtime : m_cpuOp;
        if (length > 0 && length < 65536 && offset < (uint64_t(1) << 40))
            s.argRef = offset | (uint64_t(plane) << 40) | (uint64_t(length) << 48);
        else
            s.argRef = ~uint64_t(0);
        // A launch and its kernel share a correlation: the column holds it and the builder links
        // them (TraceBuilder::setCorrelationFlows) without a pending record per end beside the
        // model; an id beyond the column's 32 bits is sent as a flow end record instead.
        if (correlation && *correlation > 0 && *correlation < Track::kNoId &&
            (api || (p.kind == PlaneKind::Device && m_stream))) {
            s.corr = static_cast<uint32_t>(*correlation);
            s.have |= ChunkResult::kCorr;
        } else if (correlation && *correlation > 0 && (api || (p.kind == PlaneKind::Device && m_stream))) {
            ChunkResult::FlowEnd f;
            f.ts = ts;
            f.seq = m_w.nextSeq();
            f.id = static_cast<uint64_t>(*correlation);
            f.track = m_w.track(m_pid, m_line);
            f.cat = m_flowCat;
            f.ph = api ? 's' : 'f';
            f.bindEnclosing = true;
            m_w.chunk().flows.push_back(f);
        }
        if (details.ok && p.kind == PlaneKind::Device) {
            const auto cores = p.stats.find("core_count");
            if (cores != p.stats.end() && std::atoll(cores->second.c_str()) > 0) {
                const double blocks = static_cast<double>(details.grid[0]) * static_cast<double>(details.grid[1]) *
                                      static_cast<double>(details.grid[2]);
                s.bps = static_cast<float>(blocks / static_cast<double>(std::atoll(cores->second.c_str())));
                s.have |= ChunkResult::kBps;
            }
            if (details.occupancy > 0) {
                s.occ = static_cast<float>(details.occupancy);
                s.have |= ChunkResult::kOcc;
            }
        }
        s.track = m_w.track(m_pid, m_line);
        if (!m_rowNamed) {
            // A row's first event: the events pass 1 counted on its line (all its copies in the
            // file) are reserved at once.
            if (m_rows.emplace(std::make_pair(m_pid, m_line), m_lineName).second) {
                const auto count = m_lineEvents.find({m_plane, m_line});
                if (count != m_lineEvents.end())
                    m_w.chunk().sliceReserve.emplace_back(s.track, count->second);
            }
            m_rowNamed = true;
        }
        m_w.noteTime(s.ts, s.ts + s.dur);
        m_w.chunk().slices.push_back(s);
        if (e.stepNum && p.kind == PlaneKind::Host)
            stepMarker(s, *e.stepNum);
        ++m_w.chunk().events;
        if (!m_lineTsSet)
            m_lineTsMissing = true;
        if (m_w.chunk().events >= (1u << 16)) {
            ChunkResult c = m_w.takeChunk();
            m_builder.addChunk(c);
        }
    }

    void finish(const std::vector<std::string>& hostnames) {
        using K = ChunkResult::MetaKind;
        std::set<int64_t> processes;
        for (const auto& [row, name] : m_rows) {
            processes.insert(row.first);
            if (!name.empty())
                m_w.meta(K::ThreadName, row.first, row.second, m_w.string(name));
        }
        for (const PlaneMeta& p : m_planes.planes) {
            if (p.kind == PlaneKind::Device && processes.count(p.device)) {
                m_w.meta(K::ProcessLabels, p.device, 0, m_w.string("GPU " + std::to_string(p.device)));
                m_w.meta(K::ProcessName, p.device, 0, m_w.string(p.name));
                m_w.meta(K::ProcessSortIndex, p.device, 0, 0, 0x10000000 + p.device);
            }
        }
        if (processes.count(kHostPid))
            m_w.meta(K::ProcessName, kHostPid, 0,
                     m_w.string(hostnames.empty() ? std::string("host") : "host " + hostnames.front()));
        if (m_aggregated)
            m_w.report().addNote("aggregated events (num_occurrences, no times) left out", {}, m_aggregated);
        if (m_lineTsMissing)
            m_w.report().add("events before their line's timestamp in the file (times may be off)");
        ChunkResult c = m_w.takeChunk();
        m_builder.addChunk(c);
    }

    // A step marker (an event with a step_num stat, e.g. StepTraceAnnotation("train", step_num=N))
    // is also a ProfilerStep#N on the host's Steps row: the step views find steps by that name.
    void stepMarker(const ChunkResult::Slice& event, int64_t step) {
        ChunkResult::Slice marker = event;
        marker.name = m_w.string("ProfilerStep#" + std::to_string(step));
        marker.cat = m_userAnnotation;
        marker.have = 0;
        marker.track = m_w.track(kHostPid, kStepsLine);
        m_rows.emplace(std::make_pair(kHostPid, kStepsLine), "Steps");
        m_w.chunk().slices.push_back(marker);
    }

    const StatIds& statIds(int plane) {
        const PlaneMeta& p = m_planes.planes[static_cast<size_t>(plane)];
        if (static_cast<size_t>(plane) >= m_statIds.size()) {
            m_statIds.resize(static_cast<size_t>(plane) + 1);
            m_statIdsKnown.resize(static_cast<size_t>(plane) + 1, false);
        }
        StatIds& ids = m_statIds[static_cast<size_t>(plane)];
        if (!m_statIdsKnown[static_cast<size_t>(plane)]) {
            for (const auto& [id, name] : p.statNames) {
                if (name == "correlation_id")
                    ids.correlation = id;
                else if (name == "memcpy_details")
                    ids.memcpy = id;
                else if (name == "kernel_details")
                    ids.kernel = id;
                else if (name == "step_num")
                    ids.stepNum = id;
            }
            m_statIdsKnown[static_cast<size_t>(plane)] = true;
        }
        return ids;
    }

private:
    struct Name {
        uint32_t id; // local string
        bool api;    // a hip/cuda API call of the host
        bool copy;   // a memcpy
    };

    TraceBuilder& m_builder;
    NsysChunkWriter& m_w;
    const Planes& m_planes;
    std::unordered_map<uint64_t, Name> m_names;
    std::vector<StatIds> m_statIds;
    std::vector<bool> m_statIdsKnown;
    uint32_t m_kernel, m_memcpy, m_gpuAnnotation, m_runtime, m_cpuOp, m_flowCat, m_userAnnotation;
    int64_t m_pid = 0, m_line = 0, m_lineTs = 0;
    bool m_lineTsSet = false, m_lineTsMissing = false, m_stream = false, m_rowNamed = false;
    std::string m_lineName;
    std::map<std::pair<int64_t, int64_t>, std::string> m_rows;
    std::map<std::pair<int, int64_t>, uint64_t> m_lineEvents; // pass 1's count per (plane, line id)
    int m_plane = 0;
    uint64_t m_aggregated = 0;
};

std::vector<DeviceInfo> devicesOf(const Planes& planes) {
    std::vector<DeviceInfo> out;
    for (const PlaneMeta& p : planes.planes) {
        if (p.kind != PlaneKind::Device)
            continue;
        DeviceInfo d;
        d.id = p.device;
        auto stat = [&](const char* key) -> std::optional<int64_t> {
            const auto it = p.stats.find(key);
            if (it == p.stats.end() || it->second.empty())
                return std::nullopt;
            return std::atoll(it->second.c_str());
        };
        const auto vendor = p.stats.find("device_vendor");
        const std::string v = vendor != p.stats.end() ? vendor->second : std::string();
        d.name = v.empty() ? p.name : v + " GPU " + std::to_string(p.device);
        if (v.find("AMD") != std::string::npos || v.find("Advanced Micro") != std::string::npos)
            d.vendor = DeviceInfo::Vendor::Amd;
        else if (v.find("Nvidia") != std::string::npos || v.find("NVIDIA") != std::string::npos)
            d.vendor = DeviceInfo::Vendor::Nvidia;
        if (const auto c = stat("core_count"); c && *c > 0 && *c < INT_MAX)
            d.numSms = static_cast<int>(*c);
        if (const auto m = stat("memory_size"); m && *m > 0)
            d.totalGlobalMem = *m;
        if (const auto m = stat("compute_cap_major"); m && *m >= 0 && *m < 1000)
            d.computeMajor = static_cast<int>(*m);
        if (const auto m = stat("compute_cap_minor"); m && *m >= 0 && *m < 1000)
            d.computeMinor = static_cast<int>(*m);
        out.push_back(std::move(d));
    }
    return out;
}

} // namespace

bool looksLikeXplane(std::string_view head) {
    // XSpace: field 1 (a plane), length-delimited: 0x0a, a varint length, then the plane, whose id
    // (field 1, varint) may come first and whose name (field 2) starts with "/".
    size_t i = 0;
    auto varint = [&](uint64_t& v) {
        v = 0;
        for (int shift = 0; i < head.size() && shift < 64; shift += 7) {
            const auto b = static_cast<unsigned char>(head[i++]);
            v |= uint64_t(b & 0x7f) << shift;
            if (!(b & 0x80))
                return true;
        }
        return false;
    };
    uint64_t v = 0;
    if (head.empty() || head[i++] != 0x0a || !varint(v))
        return false;
    if (i < head.size() && head[i] == 0x08) {
        ++i;
        if (!varint(v))
            return false;
    }
    if (i >= head.size() || head[i++] != 0x12 || !varint(v) || v == 0 || v > 4096)
        return false;
    const std::string_view name = head.substr(i, static_cast<size_t>(v));
    return name.rfind("/host:", 0) == 0 || name.rfind("/device:", 0) == 0;
}

ImportResult importXplane(const std::string& path, const ImportControl& control) {
    ImportResult result;
    const auto t0 = std::chrono::steady_clock::now();
    auto planes = std::make_shared<Planes>();
    std::string error;
    // Pass 1: the planes' names and stats, and the number of events of each line (plane, line id;
    // a line may come back later in the file), so that its row's columns are reserved exactly.
    std::vector<std::pair<int, xplane::XStat>> planeStats;
    std::map<std::pair<int, int64_t>, uint64_t> lineEvents;
    {
        SpaceWalker walker;
        if (!walker.open(path, error)) {
            result.error = error;
            return result;
        }
        std::string bytes;
        const bool ok = walker.walk(
            [&](int plane, int field, WireFormatLite::WireType wire, pbio::CodedInputStream& in, uint64_t) {
                if (static_cast<size_t>(plane) >= planes->planes.size())
                    planes->planes.resize(static_cast<size_t>(plane) + 1);
                PlaneMeta& p = planes->planes[static_cast<size_t>(plane)];
                if (wire != WireFormatLite::WIRETYPE_LENGTH_DELIMITED)
                    return false;
                if (field == 2) {
                    if (!readBytes(in, p.name))
                        return false;
                    p.kind = kindOf(p.name, p.device);
                    return true;
                }
                if (field == 4) {
                    xplane::XEventMetadataEntry entry;
                    if (!readBytes(in, bytes) || !entry.ParseFromString(bytes))
                        return false;
                    p.eventNames[entry.key()] = entry.value().display_name().empty() ? entry.value().name()
                                                                                     : entry.value().display_name();
                    return true;
                }
                if (field == 5) {
                    xplane::XStatMetadataEntry entry;
                    if (!readBytes(in, bytes) || !entry.ParseFromString(bytes))
                        return false;
                    p.statNames[entry.key()] = entry.value().name();
                    return true;
                }
                if (field == 3) { // a line: its id and how many events it has, for exact reservation
                    uint32_t length = 0;
                    if (!in.ReadVarint32(&length) || length > static_cast<uint32_t>(INT_MAX))
                        return false;
                    const auto limit = in.PushLimit(static_cast<int>(length));
                    int64_t id = 0;
                    uint64_t events = 0;
                    while (const uint32_t t = in.ReadTag()) {
                        const int f = static_cast<int>(WireFormatLite::GetTagFieldNumber(t));
                        uint64_t v = 0;
                        if (f == 1 && WireFormatLite::GetTagWireType(t) == WireFormatLite::WIRETYPE_VARINT) {
                            if (!in.ReadVarint64(&v))
                                break;
                            id = static_cast<int64_t>(v);
                            continue;
                        }
                        if (f == 4)
                            ++events;
                        if (!WireFormatLite::SkipField(&in, t))
                            break;
                    }
                    in.Skip(in.BytesUntilLimit()); // a damaged line: pass 2 reports it
                    in.PopLimit(limit);
                    lineEvents[{plane, id}] += events;
                    return true;
                }
                if (field == 6) { // named once the pass has read the stat names, which may follow
                    xplane::XStat stat;
                    if (!readBytes(in, bytes) || !stat.ParseFromString(bytes))
                        return false;
                    planeStats.emplace_back(plane, std::move(stat));
                    return true;
                }
                return false;
            },
            error);
        if (!ok && planes->planes.empty()) {
            result.error = "not a readable XSpace (xplane.pb): " + error;
            return result;
        }
        planes->hostnames = walker.hostnames();
    }
    for (const auto& [plane, stat] : planeStats) {
        PlaneMeta& p = planes->planes[static_cast<size_t>(plane)];
        const auto name = p.statNames.find(stat.metadata_id());
        if (name != p.statNames.end())
            p.stats[name->second] = statText(stat, p);
    }
    TraceBuilder builder(path, TraceFormat::Xplane);
    builder.setCorrelationFlows("ac2g");
    NsysChunkWriter w;
    if (!error.empty())
        w.report().setTruncated(error);
    // Pass 2: the events, line by line.
    EventWriter events(builder, w, *planes, std::move(lineEvents));
    uint64_t bad = 0;
    {
        SpaceWalker walker;
        if (!walker.open(path, error)) {
            result.error = error;
            return result;
        }
        std::string name, copy;
        RawEvent event;
        walker.walk(
            [&](int plane, int field, WireFormatLite::WireType wire, pbio::CodedInputStream& in, uint64_t base) {
                if (field != 3 || wire != WireFormatLite::WIRETYPE_LENGTH_DELIMITED ||
                    static_cast<size_t>(plane) >= planes->planes.size() ||
                    planes->planes[static_cast<size_t>(plane)].kind == PlaneKind::Other)
                    return false;
                uint32_t length = 0;
                if (!in.ReadVarint32(&length) || length > static_cast<uint32_t>(INT_MAX))
                    return false;
                const auto limit = in.PushLimit(static_cast<int>(length));
                int64_t id = 0;
                events.line(plane, 0, {});
                bool damaged = false;
                while (const uint32_t t = in.ReadTag()) {
                    const int f = static_cast<int>(WireFormatLite::GetTagFieldNumber(t));
                    const auto wt = WireFormatLite::GetTagWireType(t);
                    uint64_t v = 0;
                    if (f == 1 && wt == WireFormatLite::WIRETYPE_VARINT) {
                        damaged = !in.ReadVarint64(&v);
                        id = static_cast<int64_t>(v);
                        events.line(plane, id, name);
                    } else if (f == 2 && wt == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
                        damaged = !readBytes(in, name);
                        events.line(plane, id, name);
                    } else if (f == 3 && wt == WireFormatLite::WIRETYPE_VARINT) {
                        damaged = !in.ReadVarint64(&v);
                        events.lineTimestamp(static_cast<int64_t>(v));
                    } else if (f == 4 && wt == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
                        uint32_t n = 0;
                        damaged = !in.ReadVarint32(&n) || n > static_cast<uint32_t>(INT_MAX);
                        if (damaged)
                            break;
                        const uint64_t offset = base + static_cast<uint64_t>(in.CurrentPosition());
                        // Decoded in the stream's buffer when it holds the whole event, else
                        // copied out; the event (its kernel details point into those bytes) is
                        // converted before the stream moves past them.
                        const void* direct = nullptr;
                        int available = 0;
                        const bool inBuffer =
                            in.GetDirectBufferPointer(&direct, &available) && available >= static_cast<int>(n);
                        if (!inBuffer && !in.ReadString(&copy, static_cast<int>(n))) {
                            damaged = true;
                            break;
                        }
                        const std::string_view bytes = inBuffer ? std::string_view(static_cast<const char*>(direct), n)
                                                                : std::string_view(copy);
                        if (decodeEvent(bytes, events.statIds(plane), event))
                            events.event(plane, event, offset, n);
                        else
                            ++bad;
                        if (inBuffer)
                            in.Skip(static_cast<int>(n));
                    } else {
                        damaged = !WireFormatLite::SkipField(&in, t);
                    }
                    if (damaged || (control.cancel && control.cancel->load()))
                        break;
                }
                // What is left of a damaged or cancelled line is skipped to its end.
                if (damaged)
                    ++bad;
                in.Skip(in.BytesUntilLimit());
                in.PopLimit(limit);
                name.clear();
                return true;
            },
            error);
    }
    if (control.cancel && control.cancel->load()) {
        result.cancelled = true;
        return result;
    }
    if (bad)
        w.report().add("events that do not parse (skipped)", {}, bad);
    events.finish(planes->hostnames);
    builder.setDevices(devicesOf(*planes));
    builder.setEventTextSource(std::make_shared<XplaneEventText>(path, planes));
    const double parsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    finishImport(builder, result, control, "read planes and events", parsed);
    return result;
}

} // namespace ws
