#include "import/torch_memory_timeline_importer.h"

#include "import/import_finish.h"
#include "import/json_record_reader.h"
#include "import/nsys_chunk_writer.h"
#include "io/input_stream.h"
#include "model/trace_builder.h"

#include <array>
#include <charconv>
#include <chrono>
#include <thread>

namespace ws {

namespace {

constexpr int kCategories = kMemoryTimelineCategories;
constexpr int64_t kMaxTime = int64_t(1) << 61;

bool isSpace(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// One number at the start of `text` (an integer, or a double truncated: Python's json may write
// "1e3"); returns the characters read, 0 if there is no number.
size_t parseNumber(std::string_view text, int64_t& v) {
    const char* first = text.data();
    const char* last = text.data() + text.size();
    auto [p, ec] = std::from_chars(first, last, v);
    if (ec == std::errc() && !(p < last && (*p == '.' || *p == 'e' || *p == 'E')))
        return static_cast<size_t>(p - first);
    double d = 0;
    auto [q, ec2] = std::from_chars(first, last, d);
    if (ec2 != std::errc() || !(d > -9.2e18 && d < 9.2e18))
        return 0;
    v = static_cast<int64_t>(d);
    return static_cast<size_t>(q - first);
}

// The numbers of a flat JSON array text ("[1, -2, 3]"), up to `max`; false if an element is not a
// number.
bool parseNumbers(std::string_view text, int64_t* out, size_t max, size_t& count) {
    count = 0;
    size_t i = 0;
    while (i < text.size() && (isSpace(text[i]) || text[i] == '['))
        ++i;
    while (i < text.size() && text[i] != ']') {
        if (count == max)
            return true; // more than asked: the caller sees count == max
        const size_t used = parseNumber(text.substr(i), out[count]);
        if (used == 0)
            return false;
        ++count;
        i += used;
        while (i < text.size() && (isSpace(text[i]) || text[i] == ','))
            ++i;
    }
    return true;
}

enum class Layout { Raw, Coalesced };

// Raw rows are [ts, action 1..4, bytes, category 0..7]; the coalesced file starts with its time
// array, longer or with times in the action's place.
Layout detectLayout(std::string_view head) {
    const size_t open = head.find('[', head.find('[') + 1);
    if (open == std::string_view::npos)
        return Layout::Coalesced;
    int64_t v[5];
    size_t n = 0;
    const size_t close = head.find(']', open);
    if (close == std::string_view::npos || !parseNumbers(head.substr(open, close - open + 1), v, 5, n))
        return Layout::Coalesced;
    return n == 4 && v[1] >= 1 && v[1] <= 4 && v[3] >= 0 && v[3] < kCategories ? Layout::Raw : Layout::Coalesced;
}

/*
 * TimelineWriter: the live bytes per category as counter samples, only where a category changes
 * (16 bytes each in the session), in chunks handed to the TraceBuilder. The total is their sum:
 * no allocator records are made (48 bytes each, more than a raw row's text).
 */
class TimelineWriter {
public:
    TimelineWriter(TraceBuilder& builder, NsysChunkWriter& w) : m_builder(builder), m_w(w) {
        m_name = m_w.string(kMemoryTimelineCounter);
        m_cat = m_w.string("memory");
        for (int c = 0; c < kCategories; ++c)
            m_series[c] = m_w.string(memoryTimelineCategoryName(c));
    }

    // The state at `ts` (ns) is `live`.
    void sample(int64_t ts, const std::array<int64_t, kCategories>& live) {
        if (ts < -kMaxTime || ts > kMaxTime) {
            m_w.report().add("time out of range (skipped)", std::to_string(ts));
            return;
        }
        for (int c = 0; c < kCategories; ++c) {
            if (m_first || live[c] != m_live[c])
                counter(ts, m_series[c], live[c]);
        }
        m_live = live;
        m_first = false;
        m_w.noteTime(ts, ts);
        ++m_samples;
        if (m_w.chunk().events >= (1u << 16)) {
            ChunkResult c = m_w.takeChunk();
            m_builder.addChunk(c);
        }
    }

    void finish() {
        using K = ChunkResult::MetaKind;
        m_w.meta(K::ProcessName, kPid, 0, m_w.string("PyTorch memory timeline (cuda:0)"));
        ChunkResult c = m_w.takeChunk();
        m_builder.addChunk(c);
    }
    uint64_t samples() const { return m_samples; }

private:
    static constexpr int64_t kPid = 0;

    void counter(int64_t ts, uint32_t series, int64_t value) {
        ChunkResult::Counter c;
        c.pid.number = kPid;
        c.ts = ts;
        c.value = static_cast<double>(value);
        c.seq = m_w.nextSeq();
        c.name = m_name;
        c.series = series;
        c.cat = m_cat;
        m_w.chunk().counters.push_back(c);
        ++m_w.chunk().events;
    }

    TraceBuilder& m_builder;
    NsysChunkWriter& m_w;
    uint32_t m_name = 0, m_cat = 0;
    std::array<uint32_t, kCategories> m_series{};
    std::array<int64_t, kCategories> m_live{};
    bool m_first = true;
    uint64_t m_samples = 0;
};

std::string readHead(const std::string& path, const ImportControl& control) {
    InputStream in;
    if (!in.open(path, control.growing))
        return {};
    std::string head(4096, '\0');
    head.resize(in.read(head.data(), head.size()));
    return head;
}

} // namespace

bool looksLikeTorchMemoryTimeline(std::string_view head) {
    size_t i = 0;
    while (i < head.size() && isSpace(head[i]))
        ++i;
    if (i >= head.size() || head[i] != '[')
        return false;
    ++i;
    while (i < head.size() && isSpace(head[i]))
        ++i;
    return i < head.size() && head[i] == '[';
}

ImportResult importTorchMemoryTimeline(const std::string& path, const ImportControl& control) {
    ImportResult result;
    const auto t0 = std::chrono::steady_clock::now();
    const Layout layout = detectLayout(readHead(path, control));
    TraceBuilder builder(path, TraceFormat::TorchMemoryTimeline);
    NsysChunkWriter w;
    TimelineWriter out(builder, w);
    ImportReport& report = w.report();
    std::array<int64_t, kCategories> live{};
    uint64_t bad = 0;
    JsonRecordReadResult read;
    if (layout == Layout::Raw) {
        int64_t groupTs = INT64_MIN; // the time of the rows being summed; pre-existing rows join the first
        read = readJsonRecords(path, {"[]"}, control, report, [&](const JsonRecord& r) {
            int64_t v[4];
            size_t n = 0;
            if (!parseNumbers(r.text, v, 4, n) || n != 4 || v[3] < 0 || v[3] >= kCategories) {
                ++bad;
                return true;
            }
            if (v[0] >= 0 && v[0] != groupTs) {
                if (groupTs != INT64_MIN)
                    out.sample(groupTs, live);
                groupTs = v[0];
            }
            live[static_cast<size_t>(v[3])] += v[2];
            return true;
        });
        if (groupTs != INT64_MIN)
            out.sample(groupTs, live);
    } else {
        std::vector<int64_t> times; // µs, one per sizes row
        size_t row = 0;
        read = readJsonRecords(path, {"[][]"}, control, report, [&](const JsonRecord& r) {
            if (r.outerIndex == 0) {
                int64_t t = 0;
                if (parseNumber(r.text, t) == r.text.size())
                    times.push_back(t);
                else
                    ++bad;
                return true;
            }
            int64_t v[kCategories + 1];
            size_t n = 0;
            if (r.outerIndex != 1 || !parseNumbers(r.text, v, kCategories + 1, n) || n != kCategories + 1) {
                ++bad;
                return true;
            }
            if (row >= times.size()) {
                report.add("sizes row without a time (skipped)");
                return true;
            }
            const int64_t us = times[row++];
            for (int c = 0; c < kCategories; ++c)
                live[static_cast<size_t>(c)] = v[c + 1];
            if (us < -kMaxTime / 1000 || us > kMaxTime / 1000) {
                ++bad;
                return true;
            }
            out.sample(us * 1000, live);
            return true;
        });
    }
    result.textBytes = read.textBytes;
    if (read.cancelled) {
        result.cancelled = true;
        return result;
    }
    if (!read.opened || !read.error.empty()) {
        result.error = read.error.empty() ? "cannot read the file" : read.error;
        return result;
    }
    if (out.samples() == 0) {
        result.error = "a JSON array of arrays, but not a PyTorch memory timeline: no row is [time, action, bytes, "
                       "category] and there is no [times, sizes] pair";
        return result;
    }
    if (bad)
        report.add("rows that are not memory timeline rows (skipped)", {}, bad);
    report.addNote("the memory timeline does not name its device: shown as cuda:0, export_memory_timeline's default");
    out.finish();
    const double parsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    finishImport(builder, result, control, "read and convert", parsed);
    return result;
}

} // namespace ws
