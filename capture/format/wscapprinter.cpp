#include "format/wscapprinter.h"

#include <cstdio>
#include <string_view>

namespace ws::wscap {

namespace {

class FieldPrinter {
public:
    FieldPrinter(std::string& out, const std::unordered_map<uint32_t, std::string>& strings)
        : m_out(out), m_strings(strings) {}

    template <class T> void operator()(const char* name, const T& value) {
        m_out += ' ';
        m_out += name;
        m_out += '=';
        put(value);
        if constexpr (std::is_same_v<T, uint32_t>) {
            const std::string_view n(name);
            if (value != 0 && (n.ends_with("nameId") || n.ends_with("NameId") || n == "domainId")) {
                const auto it = m_strings.find(value);
                if (it != m_strings.end())
                    m_out += "(\"" + it->second + "\")";
            }
        }
    }

private:
    void put(uint8_t v) { m_out += std::to_string(v); }
    void put(uint16_t v) { m_out += std::to_string(v); }
    void put(uint32_t v) { m_out += std::to_string(v); }
    void put(uint64_t v) { m_out += std::to_string(v); }
    void put(int32_t v) { m_out += std::to_string(v); }
    void put(int64_t v) { m_out += std::to_string(v); }
    void put(double v) {
        char buf[32];
        std::snprintf(buf, sizeof(buf), "%.6g", v);
        m_out += buf;
    }
    void put(const std::string& s) { m_out += '"' + s + '"'; }
    void put(const std::vector<std::string>& list) {
        m_out += '[';
        for (size_t i = 0; i < list.size(); ++i)
            m_out += (i ? ", \"" : "\"") + list[i] + '"';
        m_out += ']';
    }
    void put(const std::vector<uint64_t>& list) {
        m_out += '[';
        char buf[24];
        for (size_t i = 0; i < list.size(); ++i) {
            std::snprintf(buf, sizeof(buf), "%s0x%llx", i ? ", " : "", static_cast<unsigned long long>(list[i]));
            m_out += buf;
        }
        m_out += ']';
    }
    void put(const Uuid& u) {
        static const char hex[] = "0123456789abcdef";
        for (uint8_t b : u) {
            m_out += hex[b >> 4];
            m_out += hex[b & 15];
        }
    }

    std::string& m_out;
    const std::unordered_map<uint32_t, std::string>& m_strings;
};

template <class R> std::string formatAs(const RawRecord& raw, const std::unordered_map<uint32_t, std::string>& strings,
                                        R* decoded) {
    std::string out = recordTypeName(raw.type);
    if (!raw.decode(decoded))
        return out + " (malformed, " + std::to_string(raw.payload.size()) + " bytes)";
    FieldPrinter p(out, strings);
    R::fields(*static_cast<const R*>(decoded), p);
    return out;
}

} // namespace

std::string RecordPrinter::format(const RawRecord& r) {
    switch (static_cast<RecordType>(r.type)) {
    case RecordType::StreamHeader: { StreamHeaderRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::Device: { DeviceRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::Context: { ContextRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::String: {
        StringRecord x;
        std::string line = formatAs(r, m_strings, &x);
        m_strings[x.id] = x.text;
        return line;
    }
    case RecordType::Kernel: { KernelRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::Memcpy: { MemcpyRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::Memset: { MemsetRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::Api: { ApiRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::Synchronization: { SynchronizationRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::Memory: { MemoryRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::NvtxRange: { NvtxRangeRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::NvtxMark: { NvtxMarkRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::Overhead: { OverheadRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::Dropped: { DroppedRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::MetricDescriptor: { MetricDescriptorRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::MetricSample: { MetricSampleRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::Error: { ErrorRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::Flush: { FlushRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::Footer: { FooterRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::ExternalCorrelation: { ExternalCorrelationRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::MetricDevice: { MetricDeviceRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::Module: { ModuleRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::StackDef: { StackDefRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::CallStack: { CallStackRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::Symbol: { SymbolRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::PyFrame: { PyFrameRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::PyStack: { PyStackRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::Collective: { CollectiveRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::PySample: { PySampleRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::OpsWindow: { OpsWindowRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::Recording: { RecordingRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::GraphNode: { GraphNodeRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::GraphExec: { GraphExecRecord x; return formatAs(r, m_strings, &x); }
    case RecordType::GraphTrace: { GraphTraceRecord x; return formatAs(r, m_strings, &x); }
    }
    return "Unknown type=" + std::to_string(r.type) + " size=" + std::to_string(r.payload.size());
}

} // namespace ws::wscap
