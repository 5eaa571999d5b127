#include "model/session.h"

#include "import/input_stream.h"

namespace ws {

const SourceFrame* Session::frameForName(StringId name) const {
    auto it = m_frames.find(name);
    return it == m_frames.end() ? nullptr : &it->second;
}

uint64_t Session::sliceCount() const {
    uint64_t n = 0;
    for (const Track& t : m_tracks)
        n += t.sliceCount();
    return n;
}

size_t Session::memoryBytes() const {
    size_t bytes = sizeof(Session) + m_strings.memoryBytes();
    for (const Track& t : m_tracks)
        bytes += t.memoryBytes();
    for (const CounterSeries& c : m_counters)
        bytes += sizeof(c) + c.ts.capacity() * sizeof(int64_t) + c.value.capacity() * sizeof(double);
    bytes += m_flows.capacity() * sizeof(Flow) + m_memoryEvents.capacity() * sizeof(MemoryEvent);
    bytes += m_processes.capacity() * sizeof(ProcessInfo) + m_categories.capacity() * sizeof(Category);
    bytes += m_frames.size() * (sizeof(SourceFrame) + 32);
    for (const auto& [k, v] : m_metadata)
        bytes += k.size() + v.size() + 64;
    return bytes;
}

std::string Session::eventJson(const Track& track, size_t slice) const {
    if (slice >= track.argRef.size())
        return {};
    return eventJsonAt(track.argRef[slice]);
}

std::string Session::eventJsonAt(uint64_t argRef) const {
    if (argRef == Track::kNoArgs || m_sourcePath.empty())
        return {};
    InputStream in;
    if (!in.open(m_sourcePath) || !in.skip(argRef))
        return {};
    // Copy one balanced object, honouring strings.
    std::string out;
    int depth = 0;
    bool inString = false, escape = false;
    char buf[4096];
    while (true) {
        const size_t got = in.read(buf, sizeof buf);
        if (got == 0)
            return {};
        for (size_t i = 0; i < got; ++i) {
            const char c = buf[i];
            out.push_back(c);
            if (inString) {
                if (escape)
                    escape = false;
                else if (c == '\\')
                    escape = true;
                else if (c == '"')
                    inString = false;
                continue;
            }
            if (c == '"')
                inString = true;
            else if (c == '{')
                ++depth;
            else if (c == '}' && --depth == 0)
                return out;
            if (out.size() == 1 && c != '{')
                return {};
        }
        if (out.size() > (64u << 20))
            return {};
    }
}

std::string Session::processLabel(const ProcessInfo& p) const {
    const std::string id = p.pid.isString ? std::string(str(p.pid.string)) : std::to_string(p.pid.number);
    if (p.deviceId >= 0)
        return "GPU " + std::to_string(p.deviceId);
    if (p.pid.isString)
        return id.empty() ? std::string("(global)") : id;
    if (p.name != kEmptyString)
        return std::string(str(p.name)) + " (pid " + id + ")";
    return "pid " + id;
}

std::string Session::trackLabel(const Track& t) const {
    switch (t.kind) {
    case Track::Kind::GlobalInstants: return "global instants";
    case Track::Kind::ProcessInstants: return processLabel(m_processes[t.process]) + " instants";
    default: break;
    }
    if (t.name != kEmptyString) {
        std::string name(str(t.name)); // Kineto names streams "stream 7 " (trailing space)
        while (!name.empty() && name.back() == ' ')
            name.pop_back();
        return name;
    }
    const std::string id = t.tid.isString ? std::string(str(t.tid.string)) : std::to_string(t.tid.number);
    if (t.gpu)
        return "stream " + id;
    return t.tid.isString ? id : "thread " + id;
}

} // namespace ws
