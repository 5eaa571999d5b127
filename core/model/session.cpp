#include "model/session.h"

#include "io/input_stream.h"
#include "model/end_args_merge.h"
#include "model/event_object_reader.h"
#include "model/run_on_threads.h"
#include "model/scratch_buffer.h"
#include "model/vector_slack.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <numeric>

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
        bytes += sizeof(c) + residentBytes(c.ts) + residentBytes(c.value); // vector_slack.h
    bytes += residentBytes(m_flows) + residentBytes(m_memoryEvents);
    bytes += m_flowsByEnd.capacity() * sizeof(uint32_t);
    bytes += m_endArgRefs.capacity() * sizeof(m_endArgRefs[0]);
    if (m_storePreparation)
        bytes += m_storePreparation->memoryBytes();
    bytes += m_processes.capacity() * sizeof(ProcessInfo) + m_categories.capacity() * sizeof(Category);
    bytes += m_frames.size() * (sizeof(SourceFrame) + 32);
    for (const auto& [k, v] : m_metadata)
        bytes += k.size() + v.size() + 64;
    if (m_memorySnapshot)
        bytes += m_memorySnapshot->memoryBytes();
    return bytes;
}

std::string Session::eventJson(const Track& track, size_t slice) const {
    if (slice >= track.argRef.size())
        return {};
    return eventJsonAt(track.argRef[slice]);
}

bool Session::eventTextReadsInParallel() const { return m_eventText && m_eventText->parallelReads(); }

std::string Session::eventJsonAt(uint64_t argRef) const {
    if (argRef == Track::kNoArgs)
        return {};
    if (m_eventText)
        return m_eventText->eventJson(argRef);
    std::string text = sourceObjectAt(argRef);
    const uint64_t end = endArgRef(argRef);
    if (end != Track::kNoArgs && !text.empty())
        return mergeEndArgs(text, sourceObjectAt(end));
    return text;
}

uint64_t Session::endArgRef(uint64_t argRef) const {
    const auto it = std::lower_bound(m_endArgRefs.begin(), m_endArgRefs.end(), argRef,
                                     [](const std::pair<uint64_t, uint64_t>& p, uint64_t ref) { return p.first < ref; });
    return it != m_endArgRefs.end() && it->first == argRef ? it->second : Track::kNoArgs;
}

std::string Session::sourceObjectAt(uint64_t argRef) const {
    if (m_sourcePath.empty())
        return {};
    InputStream in;
    if (!in.open(m_sourcePath))
        return {};
    if (!in.canCheckpoint()) {
        if (!in.skip(argRef))
            return {};
    } else {
        constexpr uint64_t kEvery = 32u << 20; // text bytes between checkpoints (~40 KB each)
        std::shared_ptr<const InputStream::Checkpoint> start;
        {
            std::lock_guard lock(m_checkpointMutex);
            auto it = m_checkpoints.upper_bound(argRef);
            if (it != m_checkpoints.begin())
                start = std::prev(it)->second;
        }
        if (start && !in.restore(*start))
            return {};
        while (in.textPosition() < argRef) {
            const uint64_t boundary = (in.textPosition() / kEvery + 1) * kEvery;
            const uint64_t to = std::min(argRef, boundary);
            if (!in.skip(to - in.textPosition()))
                return {};
            if (to == boundary) {
                auto cp = in.checkpoint();
                std::lock_guard lock(m_checkpointMutex);
                if (cp)
                    m_checkpoints.emplace(boundary, std::move(cp));
            }
        }
    }
    EventObjectReader reader(in);
    return std::string(reader.objectAt(argRef));
}

std::vector<std::pair<std::string, std::string>> Session::args(const Track& track, size_t slice) const {
    std::vector<std::pair<std::string, std::string>> out;
    const std::string text = eventJson(track, slice);
    if (text.empty())
        return out;
    // ordered_json keeps the writer's key order.
    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return out;
    auto it = j.find("args");
    if (it == j.end() || !it->is_object())
        return out;
    for (const auto& [key, value] : it->items())
        out.emplace_back(key, value.is_string() ? value.get<std::string>()
                                                : value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    return out;
}

std::vector<uint32_t> Session::flowsOf(uint32_t track, uint32_t slice) const {
    // m_flowsByEnd holds 2 * flows entries: k < flows means "from" end of flow k, else "to" end.
    const uint64_t key = (uint64_t(track) << 32) | slice;
    const size_t n = m_flows.size();
    auto endKey = [&](uint32_t e) {
        const Flow& f = m_flows[e < n ? e : e - n];
        return e < n ? (uint64_t(f.fromTrack) << 32 | f.fromSlice) : (uint64_t(f.toTrack) << 32 | f.toSlice);
    };
    auto it = std::lower_bound(m_flowsByEnd.begin(), m_flowsByEnd.end(), key,
                               [&](uint32_t e, uint64_t k) { return endKey(e) < k; });
    std::vector<uint32_t> out;
    for (; it != m_flowsByEnd.end() && endKey(*it) == key; ++it)
        out.push_back(*it < n ? *it : static_cast<uint32_t>(*it - n));
    return out;
}

std::vector<uint32_t> Session::ancestors(const Track& t, uint32_t slice) const {
    std::vector<uint32_t> out;
    ancestors(t, slice, out);
    return out;
}

void Session::ancestors(const Track& t, uint32_t slice, std::vector<uint32_t>& out) const {
    out.clear();
    if (slice >= t.sliceCount())
        return;
    const uint32_t row = t.rowOf(slice);
    const int64_t ts = t.start[slice];
    const int64_t end = t.end(slice);
    // Rows of one lane are consecutive: walk up from depth-1 to 0.
    for (uint32_t r = row; r-- > 0 && t.rowLane[r] == t.rowLane[row];) {
        auto first = t.start.begin() + t.rowBegin[r];
        auto last = t.start.begin() + t.rowBegin[r + 1];
        auto it = std::upper_bound(first, last, ts);
        if (it == first)
            break;
        const auto p = static_cast<uint32_t>(it - t.start.begin() - 1);
        if (t.end(p) < end)
            break;
        out.push_back(p);
    }
    std::reverse(out.begin(), out.end());
}

std::vector<StackFrameText> Session::callStack(const Track& t, uint32_t slice) const {
    std::vector<StackFrameText> frames;
    const std::string text = eventJson(t, slice);
    if (text.empty())
        return frames;
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.contains("args") || !j["args"].is_object())
        return frames;
    const auto& args = j["args"];
    auto it = args.find("Call stack");
    if (it == args.end() || !it->is_string())
        return frames;
    return parseCallStackText(it->get<std::string>());
}

std::vector<StackFrameText> parseCallStackText(std::string_view stack) {
    std::vector<StackFrameText> frames;
    size_t pos = 0;
    while (pos <= stack.size()) {
        size_t next = stack.find(';', pos);
        if (next == std::string_view::npos)
            next = stack.size();
        const std::string entry(stack.substr(pos, next - pos));
        pos = next + 1;
        if (entry.empty())
            continue;
        StackFrameText f;
        f.function = entry;
        // "<file>(<line>): <func>"
        const size_t close = entry.find("): ");
        const size_t open = close == std::string::npos ? close : entry.rfind('(', close);
        if (open != std::string::npos && open > 0 && close > open + 1 &&
            entry.find_first_not_of("0123456789", open + 1) == close) {
            f.file = entry.substr(0, open);
            f.line = std::stoi(entry.substr(open + 1, close - open - 1));
            f.function = entry.substr(close + 3);
        }
        frames.push_back(std::move(f));
    }
    return frames;
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

void Session::rebuildFlowIndex(unsigned threads) {
    const auto n = static_cast<uint32_t>(m_flows.size());
    m_flowsByEnd.resize(size_t(n) * 2);
    // Entry e < n is the "from" end of flow e, else the "to" end of flow e - n; the order is by
    // (track, slice) of the end, then by e. A counting sort by track, then per track a stable LSD
    // radix sort of (slice << 32 | e) by the slice bytes that differ (entries enter in e order):
    // O(ends) with sequential passes, where a comparison sort through the flows (each compare
    // reading two flows) was most of a 10 GB session's reopen.
    auto trackOf = [&](uint32_t e) { return e < n ? m_flows[e].fromTrack : m_flows[e - n].toTrack; };
    auto sliceOf = [&](uint32_t e) { return e < n ? m_flows[e].fromSlice : m_flows[e - n].toSlice; };
    uint32_t maxTrack = 0;
    for (const Flow& f : m_flows)
        maxTrack = std::max({maxTrack, f.fromTrack, f.toTrack});
    if (maxTrack >= (1u << 24)) { // not a real track index: the plain sort
        std::iota(m_flowsByEnd.begin(), m_flowsByEnd.end(), 0u);
        auto endKey = [&](uint32_t e) { return uint64_t(trackOf(e)) << 32 | sliceOf(e); };
        std::sort(m_flowsByEnd.begin(), m_flowsByEnd.end(),
                  [&](uint32_t a, uint32_t b) { return endKey(a) != endKey(b) ? endKey(a) < endKey(b) : a < b; });
        return;
    }
    std::vector<size_t> begin(size_t(maxTrack) + 2, 0);
    for (uint32_t e = 0; e < 2 * n; ++e)
        ++begin[trackOf(e) + 1];
    for (size_t t = 1; t < begin.size(); ++t)
        begin[t] += begin[t - 1];
    // Written before it is read, so not zeroed first (ScratchBuffer): 64 MB of the 10 GB trace.
    ScratchBuffer packedBuffer;
    const std::span<uint64_t> packed = packedBuffer.as<uint64_t>(size_t(n) * 2);
    {
        std::vector<size_t> fill(begin.begin(), begin.end() - 1);
        for (uint32_t e = 0; e < 2 * n; ++e)
            packed[fill[trackOf(e)]++] = uint64_t(sliceOf(e)) << 32 | e;
    }
    // Each track's ends are sorted on their own: on all cores, the largest first.
    std::vector<uint32_t> tracks;
    for (uint32_t t = 0; t + 1 < begin.size(); ++t)
        if (begin[t + 1] - begin[t] >= 2)
            tracks.push_back(t);
    std::sort(tracks.begin(), tracks.end(),
              [&](uint32_t a, uint32_t b) { return begin[a + 1] - begin[a] > begin[b + 1] - begin[b]; });
    forEachIndexOnThreadsWith<ScratchBuffer>(tracks.size(), threads, [&](ScratchBuffer& scratch, size_t k) {
        const uint32_t t = tracks[k];
        uint64_t* const v = packed.data() + begin[t];
        const size_t count = begin[t + 1] - begin[t];
        // Ends bound in the order of their ids are often in slice order already (a stream's kernels
        // by correlation): then (slice, e) holds as they entered, in e order.
        uint64_t differ = 0;
        bool sorted = true;
        for (size_t i = 1; i < count; ++i) {
            differ |= v[i] ^ v[0];
            sorted = sorted && (v[i] >> 32) >= (v[i - 1] >> 32);
        }
        if (sorted)
            return;
        uint64_t* from = v;
        uint64_t* to = scratch.as<uint64_t>(count).data();
        for (int shift = 32; shift < 64; shift += 8) {
            if (((differ >> shift) & 0xff) == 0)
                continue;
            size_t bucket[256] = {};
            for (size_t i = 0; i < count; ++i)
                ++bucket[(from[i] >> shift) & 0xff];
            size_t sum = 0;
            for (size_t& b : bucket) {
                const size_t c = b;
                b = sum;
                sum += c;
            }
            for (size_t i = 0; i < count; ++i)
                to[bucket[(from[i] >> shift) & 0xff]++] = from[i];
            std::swap(from, to);
        }
        if (from != v)
            std::copy(from, from + count, v);
    });
    for (size_t i = 0; i < packed.size(); ++i)
        m_flowsByEnd[i] = static_cast<uint32_t>(packed[i]);
}

} // namespace ws
