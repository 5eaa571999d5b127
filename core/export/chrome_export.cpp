#include "export/chrome_export.h"

#include "import/json_record_scanner.h"
#include "model/memory_event.h"
#include "model/session.h"

#include <charconv>
#include <cstdio>
#include <vector>

namespace ws {

namespace {

// JSON string literal of `s` (quotes included); control characters escaped, the rest as it is
// (the model's strings are UTF-8 already).
void writeString(std::ostream& out, std::string_view s) {
    out.put('"');
    size_t from = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        out.write(s.data() + from, static_cast<std::streamsize>(i - from));
        from = i + 1;
        switch (c) {
        case '"': out << "\\\""; break;
        case '\\': out << "\\\\"; break;
        case '\n': out << "\\n"; break;
        case '\t': out << "\\t"; break;
        case '\r': out << "\\r"; break;
        default: {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out << buf;
        }
        }
    }
    out.write(s.data() + from, static_cast<std::streamsize>(s.size() - from));
    out.put('"');
}

// ns as µs with three decimals: exact, and what Kineto writes.
void writeMicros(std::ostream& out, int64_t ns) {
    uint64_t v = ns < 0 ? uint64_t(0) - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%llu.%03llu", ns < 0 ? "-" : "", static_cast<unsigned long long>(v / 1000),
                  static_cast<unsigned long long>(v % 1000));
    out << buf;
}

void writeDouble(std::ostream& out, double v) {
    char buf[32];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v); // shortest text that reads back exactly
    if (ec != std::errc() || v != v || v == 1.0 / 0.0 || v == -1.0 / 0.0)
        out << "null";
    else
        out.write(buf, end - buf);
}

class Writer {
public:
    Writer(const Session& s, std::ostream& out, const ChromeExportOptions& o)
        : m_s(s), m_out(out), m_o(o), m_base(s.baseTimeNs().value_or(0)) {}

    ChromeExportResult run();

private:
    bool cancelled() {
        if ((++m_events & 0xFFF) == 0 && m_o.cancel && m_o.cancel->load())
            m_cancelled = true;
        return m_cancelled;
    }
    // A slice overlapping [from, to); a zero-length one inside it.
    bool inRange(int64_t start, int64_t end) const {
        if (m_o.to && start >= *m_o.to)
            return false;
        return !m_o.from || end > *m_o.from || (end == start && start >= *m_o.from);
    }
    bool pointInRange(int64_t ts) const { return (!m_o.from || ts >= *m_o.from) && (!m_o.to || ts < *m_o.to); }
    void begin() {
        m_out << (m_first ? "\n  " : ",\n  ");
        m_first = false;
    }
    void writeId(const IdValue& id) {
        if (id.isString)
            writeString(m_out, m_s.str(id.string));
        else
            m_out << id.number;
    }
    void writePidTid(const Track& t) {
        m_out << "\"pid\": ";
        writeId(m_s.processes()[t.process].pid);
        m_out << ", \"tid\": ";
        if (t.kind == Track::Kind::Async) // a row named after the async group
            writeString(m_out, m_s.trackLabel(t));
        else
            writeId(t.tid);
    }
    void writeMeta();
    void writeSlices();
    void writeSlice(const Track& t, uint32_t i, std::string_view args);
    void writeInstants();
    void writeInstant(const Track& t, size_t i, std::string_view args);
    // Writes the events at `where` (track, index) with the arguments of their texts, read in one
    // pass over the source in argRef order (Session::forEachEventJson).
    template <class Fn>
    void writeWithArgs(const std::vector<uint64_t>& refs, const std::vector<std::pair<uint32_t, uint32_t>>& where,
                       Fn&& write);
    void writeFlows();
    void writeCounters();
    void writeMemory();
    void writeTopLevel();
    // The raw text of the `args` member of an event object; empty if it has none.
    std::string_view argsOf(std::string_view object);

    const Session& m_s;
    std::ostream& m_out;
    const ChromeExportOptions& m_o;
    const int64_t m_base;
    std::vector<bool> m_kept; // per (track, slice), for flows: whether the slice was written
    std::vector<size_t> m_firstSlice; // per track, index of its first slice in m_kept
    uint64_t m_events = 0;
    uint64_t m_written = 0;
    bool m_first = true;
    bool m_cancelled = false;
};

std::string_view Writer::argsOf(std::string_view object) {
    JsonRecordScanner scanner;
    scanner.want("args");
    std::vector<JsonRecordScanner::Span> spans;
    scanner.scan(object.data(), 0, object.size(), spans);
    return spans.empty() ? std::string_view() : object.substr(spans[0].begin, spans[0].end - spans[0].begin);
}

void Writer::writeMeta() {
    auto meta = [&](const char* name, const IdValue& pid, const IdValue* tid, const char* key, auto&& value) {
        begin();
        m_out << "{\"ph\": \"M\", \"name\": \"" << name << "\", \"pid\": ";
        writeId(pid);
        if (tid) {
            m_out << ", \"tid\": ";
            writeId(*tid);
        }
        m_out << ", \"args\": {\"" << key << "\": ";
        value();
        m_out << "}}";
        ++m_written;
    };
    for (const ProcessInfo& p : m_s.processes()) {
        if (p.name != kEmptyString)
            meta("process_name", p.pid, nullptr, "name", [&] { writeString(m_out, m_s.str(p.name)); });
        if (p.labels != kEmptyString)
            meta("process_labels", p.pid, nullptr, "labels", [&] { writeString(m_out, m_s.str(p.labels)); });
        if (p.hasSortIndex)
            meta("process_sort_index", p.pid, nullptr, "sort_index", [&] { m_out << p.sortIndex; });
    }
    for (const Track& t : m_s.tracks()) {
        if (t.kind != Track::Kind::Thread && t.kind != Track::Kind::GpuStream)
            continue;
        const IdValue& pid = m_s.processes()[t.process].pid;
        if (t.name != kEmptyString)
            meta("thread_name", pid, &t.tid, "name", [&] { writeString(m_out, m_s.str(t.name)); });
        if (t.hasSortIndex)
            meta("thread_sort_index", pid, &t.tid, "sort_index", [&] { m_out << t.sortIndex; });
    }
}

void Writer::writeSlice(const Track& t, uint32_t i, std::string_view args) {
    begin();
    m_out << "{\"ph\": \"X\", \"cat\": ";
    writeString(m_out, m_s.str(m_s.categories()[t.category[i]].name));
    m_out << ", \"name\": ";
    writeString(m_out, m_s.str(t.names[i]));
    m_out << ", ";
    writePidTid(t);
    m_out << ", \"ts\": ";
    writeMicros(m_out, t.start[i] - m_base);
    m_out << ", \"dur\": ";
    writeMicros(m_out, t.dur[i]);
    if (!args.empty())
        m_out << ", \"args\": " << args;
    m_out << '}';
    ++m_written;
}

void Writer::writeSlices() {
    const auto& tracks = m_s.tracks();
    m_firstSlice.resize(tracks.size() + 1, 0);
    for (size_t ti = 0; ti < tracks.size(); ++ti)
        m_firstSlice[ti + 1] = m_firstSlice[ti] + tracks[ti].sliceCount();
    m_kept.assign(m_firstSlice.back(), false);
    // Slices without arguments are written right away, the others as their texts come.
    std::vector<uint64_t> refs;
    std::vector<std::pair<uint32_t, uint32_t>> where;
    for (uint32_t ti = 0; ti < tracks.size() && !m_cancelled; ++ti) {
        const Track& t = tracks[ti];
        for (uint32_t i = 0; i < t.sliceCount(); ++i) {
            if (!inRange(t.start[i], t.start[i] + t.dur[i]))
                continue;
            m_kept[m_firstSlice[ti] + i] = true;
            if (t.argRef[i] == Track::kNoArgs) {
                writeSlice(t, i, {});
                if (cancelled())
                    return;
            } else {
                refs.push_back(t.argRef[i]);
                where.emplace_back(ti, i);
            }
        }
    }
    writeWithArgs(refs, where, [&](uint32_t ti, uint32_t i, std::string_view args) { writeSlice(tracks[ti], i, args); });
}

template <class Fn>
void Writer::writeWithArgs(const std::vector<uint64_t>& refs, const std::vector<std::pair<uint32_t, uint32_t>>& where,
                           Fn&& write) {
    std::vector<bool> done(refs.size(), false);
    std::atomic<bool> stop{false};
    m_s.forEachEventJson(
        refs,
        [&](size_t k, std::string_view text, uint64_t) {
            write(where[k].first, where[k].second, argsOf(text));
            done[k] = true;
            if (cancelled())
                stop = true;
        },
        &stop);
    // Events whose text could not be read back (the source moved) keep what the model has.
    for (size_t k = 0; k < refs.size() && !m_cancelled; ++k)
        if (!done[k])
            write(where[k].first, where[k].second, {});
}

void Writer::writeInstant(const Track& t, size_t i, std::string_view args) {
    const char* scope = t.kind == Track::Kind::GlobalInstants ? "g" : t.kind == Track::Kind::ProcessInstants ? "p" : "t";
    begin();
    m_out << "{\"ph\": \"i\", \"s\": \"" << scope << "\", \"cat\": ";
    writeString(m_out, m_s.str(m_s.categories()[t.instantCategory[i]].name));
    m_out << ", \"name\": ";
    writeString(m_out, m_s.str(t.instantNames[i]));
    m_out << ", ";
    if (t.kind == Track::Kind::GlobalInstants) {
        m_out << "\"pid\": \"\", \"tid\": \"\"";
    } else {
        m_out << "\"pid\": ";
        writeId(m_s.processes()[t.process].pid);
        if (t.kind != Track::Kind::ProcessInstants) {
            m_out << ", \"tid\": ";
            writeId(t.tid);
        }
    }
    m_out << ", \"ts\": ";
    writeMicros(m_out, t.instantTs[i] - m_base);
    if (!args.empty())
        m_out << ", \"args\": " << args;
    m_out << '}';
    ++m_written;
}

void Writer::writeInstants() {
    const auto& tracks = m_s.tracks();
    std::vector<uint64_t> refs;
    std::vector<std::pair<uint32_t, uint32_t>> where;
    for (uint32_t ti = 0; ti < tracks.size() && !m_cancelled; ++ti) {
        const Track& t = tracks[ti];
        for (uint32_t i = 0; i < t.instantTs.size(); ++i) {
            if (!pointInRange(t.instantTs[i]))
                continue;
            if (t.instantArgRef[i] == Track::kNoArgs) {
                writeInstant(t, i, {});
                if (cancelled())
                    return;
            } else {
                refs.push_back(t.instantArgRef[i]);
                where.emplace_back(ti, i);
            }
        }
    }
    writeWithArgs(refs, where, [&](uint32_t ti, uint32_t i, std::string_view args) { writeInstant(tracks[ti], i, args); });
}

void Writer::writeFlows() {
    const auto& tracks = m_s.tracks();
    for (const Flow& f : m_s.flows()) {
        if (m_cancelled)
            return;
        if (f.fromTrack >= tracks.size() || f.toTrack >= tracks.size() || !m_kept[m_firstSlice[f.fromTrack] + f.fromSlice] ||
            !m_kept[m_firstSlice[f.toTrack] + f.toSlice])
            continue;
        const std::string_view cat = m_s.str(f.category);
        const Track& from = tracks[f.fromTrack];
        const Track& to = tracks[f.toTrack];
        begin();
        m_out << "{\"ph\": \"s\", \"id\": " << f.id << ", \"cat\": ";
        writeString(m_out, cat);
        m_out << ", \"name\": ";
        writeString(m_out, cat);
        m_out << ", ";
        writePidTid(from);
        m_out << ", \"ts\": ";
        writeMicros(m_out, from.start[f.fromSlice] - m_base);
        m_out << "}";
        begin();
        m_out << "{\"ph\": \"f\", \"bp\": \"e\", \"id\": " << f.id << ", \"cat\": ";
        writeString(m_out, cat);
        m_out << ", \"name\": ";
        writeString(m_out, cat);
        m_out << ", ";
        writePidTid(to);
        m_out << ", \"ts\": ";
        writeMicros(m_out, to.start[f.toSlice] - m_base);
        m_out << "}";
        m_written += 2;
        cancelled();
    }
}

void Writer::writeCounters() {
    for (const CounterSeries& c : m_s.counters()) {
        for (size_t i = 0; i < c.ts.size() && !m_cancelled; ++i) {
            if (!pointInRange(c.ts[i]))
                continue;
            begin();
            m_out << "{\"ph\": \"C\", \"name\": ";
            writeString(m_out, m_s.str(c.name));
            if (c.category != kEmptyString) {
                m_out << ", \"cat\": ";
                writeString(m_out, m_s.str(c.category));
            }
            m_out << ", \"pid\": ";
            writeId(m_s.processes()[c.process].pid);
            m_out << ", \"ts\": ";
            writeMicros(m_out, c.ts[i] - m_base);
            m_out << ", \"args\": {";
            writeString(m_out, m_s.str(c.series));
            m_out << ": ";
            writeDouble(m_out, c.value[i]);
            m_out << "}}";
            ++m_written;
            cancelled();
        }
    }
}

void Writer::writeMemory() {
    const auto& tracks = m_s.tracks();
    for (const MemoryEvent& m : m_s.memoryEvents()) {
        if (m_cancelled)
            return;
        if (!pointInRange(m.ts) || m.track >= tracks.size())
            continue;
        begin();
        m_out << "{\"ph\": \"i\", \"s\": \"t\", \"cat\": \"cpu_instant_event\", \"name\": \"[memory]\", ";
        writePidTid(tracks[m.track]);
        m_out << ", \"ts\": ";
        writeMicros(m_out, m.ts - m_base);
        m_out << ", \"args\": {\"Device Type\": " << m.deviceType << ", \"Device Id\": " << m.deviceId;
        if (m.addr != MemoryEvent::kUnknown)
            m_out << ", \"Addr\": " << m.addr;
        if (m.bytes != MemoryEvent::kUnknown)
            m_out << ", \"Bytes\": " << m.bytes;
        if (m.totalAllocated != MemoryEvent::kUnknown)
            m_out << ", \"Total Allocated\": " << m.totalAllocated;
        if (m.totalReserved != MemoryEvent::kUnknown)
            m_out << ", \"Total Reserved\": " << m.totalReserved;
        m_out << "}}";
        ++m_written;
        cancelled();
    }
}

void Writer::writeTopLevel() {
    m_out << "\n],\n\"displayTimeUnit\": \"ms\"";
    if (m_s.baseTimeNs())
        m_out << ",\n\"baseTimeNanoseconds\": " << m_base;
    if (!m_s.devices().empty()) {
        m_out << ",\n\"deviceProperties\": [";
        bool first = true;
        for (const DeviceInfo& d : m_s.devices()) {
            m_out << (first ? "\n  " : ",\n  ") << "{\"id\": " << d.id << ", \"name\": ";
            first = false;
            writeString(m_out, d.name);
            if (d.totalGlobalMem)
                m_out << ", \"totalGlobalMem\": " << *d.totalGlobalMem;
            if (d.numSms)
                m_out << ", \"numSms\": " << *d.numSms;
            if (d.computeMajor)
                m_out << ", \"computeMajor\": " << *d.computeMajor;
            if (d.computeMinor)
                m_out << ", \"computeMinor\": " << *d.computeMinor;
            if (d.maxThreadsPerMultiprocessor)
                m_out << ", \"maxThreadsPerMultiprocessor\": " << *d.maxThreadsPerMultiprocessor;
            m_out << '}';
        }
        m_out << "\n]";
        // Devices are numbered as their GPU pids here, which Kineto on ROCm does not do (its
        // pids are ROCm agents): this tells the importer not to align them again.
        m_out << ",\n\"deviceIdsMatchPids\": true";
    }
    if (const auto& di = m_s.distributedInfo()) {
        m_out << ",\n\"distributedInfo\": {\"backend\": ";
        writeString(m_out, di->backend);
        if (di->rank)
            m_out << ", \"rank\": " << *di->rank;
        if (di->worldSize)
            m_out << ", \"world_size\": " << *di->worldSize;
        m_out << '}';
    }
    // What else the trace had at the top (schemaVersion, trace_id, ...), as it was.
    for (const auto& [key, raw] : m_s.metadata()) {
        if (key == "traceEvents" || key == "deviceProperties" || key == "distributedInfo" ||
            key == "baseTimeNanoseconds" || key == "displayTimeUnit" || key == "deviceIdsMatchPids" || raw.empty())
            continue;
        m_out << ",\n";
        writeString(m_out, key);
        m_out << ": " << raw;
    }
    m_out << "\n}\n";
}

ChromeExportResult Writer::run() {
    ChromeExportResult r;
    m_out << "{\n\"traceEvents\": [";
    writeMeta();
    writeSlices();
    writeInstants();
    writeFlows();
    writeCounters();
    writeMemory();
    if (m_cancelled) {
        r.cancelled = true;
        return r;
    }
    writeTopLevel();
    m_out.flush();
    r.events = m_written;
    r.ok = static_cast<bool>(m_out);
    if (!r.ok)
        r.error = "could not write the trace (disk full?)";
    return r;
}

} // namespace

ChromeExportResult exportChromeTrace(const Session& session, std::ostream& out, const ChromeExportOptions& options) {
    Writer w(session, out, options);
    return w.run();
}

} // namespace ws
