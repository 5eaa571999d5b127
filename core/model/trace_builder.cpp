#include "model/trace_builder.h"
#include "model/sort_on_threads.h"

#include "model/column_scatter.h"
#include "model/json_numbers.h"
#include "model/nearly_sorted.h"
#include "model/release_memory.h"
#include "model/run_on_threads.h"
#include "model/scratch_buffer.h"
#include "model/vector_slack.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <queue>
#include <span>
#include <thread>

namespace ws {


namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

template <typename T>
void permute(std::vector<T>& v, const std::vector<uint32_t>& order) {
    if (v.empty())
        return;
    std::vector<T> out(v.size());
    for (size_t i = 0; i < order.size(); ++i)
        out[i] = v[order[i]];
    v.swap(out);
}

} // namespace

size_t TraceBuilder::TrackKeyHash::operator()(const TrackKey& k) const noexcept {
    IdValueHash h;
    return h(k.pid) * 1000003u ^ h(k.tid) ^ k.kind;
}

size_t TraceBuilder::CounterKeyHash::operator()(const CounterKey& k) const noexcept {
    return (static_cast<size_t>(k.process) * 1000003u) ^ (static_cast<size_t>(k.name) << 20) ^ k.series;
}

TraceBuilder::TraceBuilder(std::string sourcePath, TraceFormat format) : m_session(new Session) {
    m_session->m_sourcePath = std::move(sourcePath);
    m_session->m_format = format;
    m_session->m_sourceFormat = format;
}

TraceBuilder::~TraceBuilder() = default;

ImportReport& TraceBuilder::report() {
    return m_session->m_report;
}

uint32_t TraceBuilder::processFor(const IdValue& pid) {
    auto it = m_processIndex.find(pid);
    if (it != m_processIndex.end())
        return it->second;
    const auto idx = static_cast<uint32_t>(m_session->m_processes.size());
    ProcessInfo p;
    p.pid = pid;
    m_session->m_processes.push_back(p);
    m_processIndex.emplace(pid, idx);
    return idx;
}

uint32_t TraceBuilder::trackFor(const IdValue& pid, const IdValue& tid, uint8_t kind) {
    TrackKey key{pid, tid, kind};
    auto it = m_trackIndex.find(key);
    if (it != m_trackIndex.end())
        return it->second;
    const auto idx = static_cast<uint32_t>(m_session->m_tracks.size());
    Track t;
    t.process = processFor(pid);
    t.tid = tid;
    switch (kind) {
    case ChunkResult::kAsync: t.kind = Track::Kind::Async; break;
    case ChunkResult::kProcessInstants: t.kind = Track::Kind::ProcessInstants; break;
    case ChunkResult::kGlobalInstants: t.kind = Track::Kind::GlobalInstants; break;
    default: t.kind = Track::Kind::Thread; break;
    }
    m_session->m_tracks.push_back(std::move(t));
    m_trackIndex.emplace(key, idx);
    return idx;
}

uint16_t TraceBuilder::categoryFor(StringId cat) {
    auto it = m_categoryIndex.find(cat);
    if (it != m_categoryIndex.end())
        return it->second;
    auto& cats = m_session->m_categories;
    if (cats.size() >= 0xffff) {
        m_session->m_report.add("too many distinct categories (merged into the last)");
        return 0xfffe;
    }
    const auto idx = static_cast<uint16_t>(cats.size());
    cats.push_back({cat, eventKindForCategory(m_session->m_strings.str(cat))});
    m_categoryIndex.emplace(cat, idx);
    return idx;
}

IdValue TraceBuilder::globalId(const IdValue& local, const std::vector<StringId>& remap) const {
    IdValue v = local;
    if (v.isString)
        v.string = remap[local.string];
    return v;
}

void TraceBuilder::appendSlice(Track& t, int64_t ts, int64_t dur, StringId name, uint16_t cat, uint64_t argRef) {
    t.start.push_back(ts);
    t.dur.push_back(dur);
    t.names.push_back(name);
    t.category.push_back(cat);
    t.argRef.push_back(argRef);
    const size_t n = t.start.size();
    auto pad = [n](auto& col, auto absent) {
        if (!col.empty())
            col.resize(n, absent);
    };
    pad(t.correlation, Track::kNoId);
    pad(t.externalId, Track::kNoId);
    pad(t.bytes, int64_t(-1));
    pad(t.blocksPerSm, kNaN);
    pad(t.occupancy, kNaN);
    pad(t.launchArgs, kEmptyString);
    pad(t.opArgs, kEmptyString);
}

void TraceBuilder::appendArgSlice(Track& t, int64_t ts, int64_t dur, StringId name, uint16_t cat, uint64_t argRef) {
    // B/E and async slices carry no argument columns: with arguments, the analyses must read them.
    if (argRef != Track::kNoArgs)
        m_argColumnsLost = true;
    appendSlice(t, ts, dur, name, cat, argRef);
}

void TraceBuilder::addStrings(uint32_t worker, uint32_t first, const std::vector<std::string>& strings) {
    if (m_workerStrings.size() <= worker)
        m_workerStrings.resize(worker + 1, std::vector<StringId>{kEmptyString});
    std::vector<StringId>& remap = m_workerStrings[worker];
    remap.resize(first, kEmptyString);
    for (const std::string& str : strings)
        remap.push_back(m_session->m_strings.intern(str));
}

void TraceBuilder::prepareForStore(std::optional<int> packedLevel) {
    m_session->m_storePreparation = std::make_unique<StorePreparation>();
    m_session->m_storePreparation->packedComplete = packedLevel.has_value();
    m_session->m_storePreparation->packedLevel = packedLevel.value_or(0);
}

void TraceBuilder::setSourceHash(const StorePreparation::SourceHash& hash) {
    if (m_session->m_storePreparation)
        m_session->m_storePreparation->sourceHash = hash;
}

void TraceBuilder::addChunk(ChunkResult& c) {
    Session& s = *m_session;
    s.m_report.merge(c.report);
    s.m_sourceEventCount += c.events;
    m_argColumnsLost = m_argColumnsLost || c.argColumnsLost;
    if (s.m_storePreparation)
        s.m_storePreparation->add(c.argsSpans, std::move(c.packedArgs));
    m_minTs = std::min(m_minTs, c.minTs);
    m_maxTs = std::max(m_maxTs, c.maxTs);
    addStrings(c.worker, c.firstNewString, c.newStrings);
    const std::vector<StringId>& remap = m_workerStrings[c.worker];

    std::vector<uint32_t> trackMap(c.tracks.size());
    for (size_t i = 0; i < c.tracks.size(); ++i) {
        const auto& k = c.tracks[i];
        trackMap[i] = trackFor(globalId(k.pid, remap), globalId(k.tid, remap), k.kind);
    }
    for (const auto& [local, more] : c.sliceReserve) {
        Track& t = s.m_tracks[trackMap[local]];
        const size_t want = t.start.size() + static_cast<size_t>(more);
        t.start.reserve(want);
        t.dur.reserve(want);
        t.names.reserve(want);
        t.category.reserve(want);
        t.argRef.reserve(want);
    }
    for (const ChunkResult::Slice& sl : c.slices) {
        Track& t = s.m_tracks[trackMap[sl.track]];
        const size_t n = t.start.size();
        appendSlice(t, sl.ts, sl.dur, remap[sl.name], categoryFor(remap[sl.cat]), sl.argRef);
        auto set = [n, &t](auto& col, auto absent, auto value) {
            if (col.empty()) {
                col.reserve(t.start.capacity()); // as the slice columns: exact where they were reserved
                col.resize(n + 1, absent);
            }
            col[n] = value;
        };
        if (sl.have & ChunkResult::kCorr)
            set(t.correlation, Track::kNoId, sl.corr);
        if (sl.have & ChunkResult::kExt)
            set(t.externalId, Track::kNoId, sl.ext);
        if (sl.have & ChunkResult::kBytes)
            set(t.bytes, int64_t(-1), sl.bytes);
        if (sl.have & ChunkResult::kBps)
            set(t.blocksPerSm, kNaN, sl.bps);
        if (sl.have & ChunkResult::kOcc)
            set(t.occupancy, kNaN, sl.occ);
        if (sl.launchArgs != 0)
            set(t.launchArgs, kEmptyString, remap[sl.launchArgs]);
        if (sl.opArgs != 0)
            set(t.opArgs, kEmptyString, remap[sl.opArgs]);
    }
    for (const auto& be : c.beginEnds)
        m_beginEnds.push_back({be.ts, be.argRef, be.seq, trackMap[be.track], remap[be.name],
                               categoryFor(remap[be.cat]), be.ph});
    for (const auto& in : c.instants) {
        Track& t = s.m_tracks[trackMap[in.track]];
        t.instantTs.push_back(in.ts);
        t.instantNames.push_back(remap[in.name]);
        t.instantCategory.push_back(categoryFor(remap[in.cat]));
        t.instantArgRef.push_back(in.argRef);
    }
    for (const auto& m : c.memory) {
        MemoryEvent e;
        e.ts = m.ts;
        e.addr = m.addr;
        e.bytes = m.bytes;
        e.totalAllocated = m.totalAllocated;
        e.totalReserved = m.totalReserved;
        e.track = trackMap[m.track];
        e.deviceType = m.deviceType;
        e.deviceId = m.deviceId;
        s.m_memoryEvents.push_back(e);
    }
    for (const auto& cs : c.counters) {
        const uint32_t process = processFor(globalId(cs.pid, remap));
        StringId name = remap[cs.name];
        if (cs.hasId)
            name = s.m_strings.intern(std::string(s.m_strings.str(name)) + "[" +
                                      std::string(s.m_strings.str(remap[cs.idString])) + "]");
        const CounterKey key{process, name, remap[cs.series]};
        auto it = m_counterIndex.find(key);
        if (it == m_counterIndex.end()) {
            CounterSeries series;
            series.process = process;
            series.name = name;
            series.series = key.series;
            series.category = remap[cs.cat];
            it = m_counterIndex.emplace(key, static_cast<uint32_t>(s.m_counters.size())).first;
            s.m_counters.push_back(std::move(series));
        }
        s.m_counters[it->second].ts.push_back(cs.ts);
        s.m_counters[it->second].value.push_back(cs.value);
    }
    // A large trace's pending flow ends grow in steps of at least 2 Mi (64 MB, above glibc's largest
    // mmap threshold): each buffer is then a mapping of its own, given back whole when it is
    // outgrown, where steps below the threshold left their freed buffers resident in the heap.
    constexpr size_t kLargeFlows = size_t(1) << 16, kFlowStep = size_t(1) << 21;
    if (const size_t want = m_flows.size() + c.flows.size(); want > m_flows.capacity() && want > kLargeFlows)
        m_flows.reserve(std::max({want, 2 * m_flows.capacity(), kFlowStep}));
    // Zeroed first (a memset), then filled: GCC stores the bit-fields by reading their word first,
    // and where a flow's word begins a fresh page, that read maps the zero page and the write right
    // after faults again, with a TLB shootdown to the parse threads: 0.6 s of the merging thread's
    // time on the 10 GB trace, one such double fault per page of m_flows.
    const size_t firstFlow = m_flows.size();
    m_flows.resize(firstFlow + c.flows.size());
    PendingFlow* out = m_flows.data() + firstFlow;
    for (const auto& f : c.flows)
        *out++ = {.ts = f.ts,
                  .id = f.idIsString ? remap[f.id] : f.id,
                  .seq = f.seq,
                  .ph = static_cast<uint8_t>(f.ph),
                  .bindEnclosing = f.bindEnclosing,
                  .idIsString = f.idIsString,
                  .track = trackMap[f.track],
                  .category = remap[f.cat]};
    for (const auto& a : c.asyncs)
        m_asyncs.push_back({a.ts, a.seq, a.idIsString ? remap[a.id] : a.id, a.argRef, processFor(globalId(a.pid, remap)),
                            remap[a.cat], remap[a.name], a.ph, a.idIsString});
    for (auto m : c.metas) {
        m.pid = globalId(m.pid, remap);
        m.tid = globalId(m.tid, remap);
        if (m.kind == ChunkResult::MetaKind::ProcessName || m.kind == ChunkResult::MetaKind::ProcessLabels ||
            m.kind == ChunkResult::MetaKind::ThreadName)
            m.str = remap[m.str];
        m_metas.push_back(m);
    }
}

void TraceBuilder::setTopLevelMembers(const std::vector<std::pair<std::string, std::string>>& members) {
    m_members = members;
}

void TraceBuilder::applyMetadata() {
    Session& s = *m_session;
    std::stable_sort(m_metas.begin(), m_metas.end(),
                     [](const ChunkResult::Meta& a, const ChunkResult::Meta& b) { return a.seq < b.seq; });
    for (const auto& m : m_metas) {
        using K = ChunkResult::MetaKind;
        if (m.kind == K::ThreadName || m.kind == K::ThreadSortIndex) {
            // Names a thread track; creating it keeps named-but-empty threads visible.
            Track& t = s.m_tracks[trackFor(m.pid, m.tid, ChunkResult::kThread)];
            if (m.kind == K::ThreadName) {
                t.name = m.str;
            } else {
                t.sortIndex = m.number;
                t.hasSortIndex = true;
            }
            continue;
        }
        ProcessInfo& p = s.m_processes[processFor(m.pid)];
        if (m.kind == K::ProcessName)
            p.name = m.str;
        else if (m.kind == K::ProcessLabels)
            p.labels = m.str;
        else {
            p.sortIndex = m.number;
            p.hasSortIndex = true;
        }
    }
    m_metas.clear();
}

void TraceBuilder::pairBeginEnd() {
    Session& s = *m_session;
    std::stable_sort(m_beginEnds.begin(), m_beginEnds.end(), [](const PendingBE& a, const PendingBE& b) {
        if (a.track != b.track)
            return a.track < b.track;
        if (a.ts != b.ts)
            return a.ts < b.ts;
        return a.seq < b.seq;
    });
    std::vector<const PendingBE*> stack;
    uint32_t currentTrack = UINT32_MAX;
    auto closeAll = [&](int64_t at) {
        for (const PendingBE* b : stack) {
            appendArgSlice(s.m_tracks[b->track], b->ts, std::max<int64_t>(0, at - b->ts), b->name, b->category, b->argRef);
            s.m_report.add("B without E (closed at the track's last time)");
        }
        stack.clear();
    };
    int64_t lastTs = 0;
    for (const PendingBE& e : m_beginEnds) {
        if (e.track != currentTrack) {
            closeAll(lastTs);
            currentTrack = e.track;
        }
        lastTs = std::max(lastTs, e.ts);
        if (e.ph == 'B') {
            stack.push_back(&e);
            continue;
        }
        if (stack.empty()) {
            s.m_report.add("E without B (dropped)", "at ts " + std::to_string(e.ts) + " ns");
            continue;
        }
        const PendingBE* b = stack.back();
        stack.pop_back();
        if (e.name != kEmptyString && e.name != b->name)
            s.m_report.add("E name differs from its B");
        // E's args merge into the slice (the format document; Perfetto): the slice keeps B's argRef
        // and the session merges E's text in when it reads it back (Session::endArgRef).
        uint64_t argRef = b->argRef;
        if (e.argRef != Track::kNoArgs) {
            if (argRef == Track::kNoArgs)
                argRef = e.argRef;
            else
                s.m_endArgRefs.emplace_back(argRef, e.argRef);
        }
        appendArgSlice(s.m_tracks[b->track], b->ts, e.ts - b->ts, b->name, b->category, argRef);
    }
    closeAll(lastTs);
    std::sort(s.m_endArgRefs.begin(), s.m_endArgRefs.end());
    m_beginEnds.clear();
    m_beginEnds.shrink_to_fit();
}

void TraceBuilder::pairAsync() {
    Session& s = *m_session;
    if (m_asyncs.empty())
        return;
    std::stable_sort(m_asyncs.begin(), m_asyncs.end(), [](const PendingAsync& a, const PendingAsync& b) {
        if (a.process != b.process)
            return a.process < b.process;
        if (a.category != b.category)
            return a.category < b.category;
        if (a.idIsString != b.idIsString)
            return a.idIsString < b.idIsString;
        if (a.id != b.id)
            return a.id < b.id;
        if (a.ts != b.ts)
            return a.ts < b.ts;
        return a.seq < b.seq;
    });
    size_t i = 0;
    while (i < m_asyncs.size()) {
        size_t j = i;
        const PendingAsync& first = m_asyncs[i];
        while (j < m_asyncs.size() && m_asyncs[j].process == first.process && m_asyncs[j].category == first.category &&
               m_asyncs[j].id == first.id && m_asyncs[j].idIsString == first.idIsString)
            ++j;
        // One async track per (process, category); lanes absorb overlap between ids.
        IdValue tid;
        tid.isString = true;
        tid.string = first.category;
        const uint32_t trackIdx = trackFor(s.m_processes[first.process].pid, tid, ChunkResult::kAsync);
        Track& t = s.m_tracks[trackIdx];
        if (t.name == kEmptyString)
            t.name = s.m_strings.intern("async " + std::string(s.m_strings.str(first.category)));
        const uint16_t cat = categoryFor(first.category);
        std::vector<const PendingAsync*> open;
        const int64_t keyEnd = m_asyncs[j - 1].ts;
        for (size_t k = i; k < j; ++k) {
            const PendingAsync& a = m_asyncs[k];
            if (a.ph == 'b') {
                open.push_back(&a);
            } else if (a.ph == 'n') {
                appendArgSlice(t, a.ts, 0, a.name, cat, a.argRef);
            } else {
                auto it = std::find_if(open.rbegin(), open.rend(), [&](const PendingAsync* o) { return o->name == a.name; });
                if (it == open.rend()) {
                    s.m_report.add("async end without begin (starts at the first event of its id)");
                    appendArgSlice(t, first.ts, a.ts - first.ts, a.name, cat, a.argRef);
                    continue;
                }
                const PendingAsync* b = *it;
                open.erase(std::next(it).base());
                appendArgSlice(t, b->ts, a.ts - b->ts, b->name, cat, b->argRef);
            }
        }
        for (const PendingAsync* b : open) {
            s.m_report.add("async begin without end (ends at the last event of its id)");
            appendArgSlice(t, b->ts, keyEnd - b->ts, b->name, cat, b->argRef);
        }
        i = j;
    }
    m_asyncs.clear();
    m_asyncs.shrink_to_fit();
}

/*
 * Per track: sort slices by (start asc, end desc, file order), then assign lanes and depths with
 * one stack per lane: a slice nests in a lane if it fits inside the lane's innermost open slice;
 * a partial overlap tries the next lane (new lanes on demand). Then reorder the columns by
 * (row, start) so each row is a contiguous sorted range. O(n log n + n * lanes touched).
 */
// A finishing thread's temporaries, kept over its tracks (scratch_buffer.h): the destination of
// each slice, the sorting order, and one column's reordered copy.
struct TrackScratch {
    ScratchBuffer dest, order, column;
};

static void finalizeTrack(Track& t, int64_t base, uint64_t& spilled, TrackScratch& scratch) {
    const size_t n = t.start.size();
    if (base != 0) {
        for (auto& v : t.start)
            v += base;
        for (auto& v : t.instantTs)
            v += base;
    }
    const auto before = [&](uint32_t a, uint32_t b) {
        if (t.start[a] != t.start[b])
            return t.start[a] < t.start[b];
        return t.dur[a] > t.dur[b];
    };
    // Most tracks arrive in order (a stream's kernels, an XSpace line, a thread's events from one
    // parse block): one pass to see it instead of a sort (the sort was 0.2 s of 3.3 s on 11 M events),
    // and no order array then (the import's peak memory is in this function for a large track).
    bool sorted = true;
    for (size_t i = 1; i < n && sorted; ++i)
        sorted = !before(static_cast<uint32_t>(i), static_cast<uint32_t>(i - 1));
    const std::span<uint32_t> order = scratch.order.as<uint32_t>(sorted ? 0 : n);
    if (!sorted) {
        std::iota(order.begin(), order.end(), 0u);
        sortNearlySorted(order, before); // a thread's ops come as they end: each moves back a little
    }
    const auto inOrder = [&](auto&& fn) {
        for (size_t k = 0; k < n; ++k)
            fn(sorted ? static_cast<uint32_t>(k) : order[k]);
    };
    // The first kNestedLanes lanes nest (a stack of open end times each); if all of them are
    // blocked, the slice goes to a flat overflow lane (depth 0 only) chosen by interval
    // partitioning with a min-heap of lane end times, so even pathological overlap stays
    // O(n log n) instead of O(n * lanes).
    constexpr size_t kNestedLanes = 32;
    std::vector<std::vector<int64_t>> laneStacks;
    std::vector<uint32_t> laneMaxDepth;
    std::priority_queue<std::pair<int64_t, uint32_t>, std::vector<std::pair<int64_t, uint32_t>>, std::greater<>> flat;
    // lane stays empty (every slice in lane 0) until a slice spills: most tracks nest properly.
    std::vector<uint32_t> lane;
    const std::span<uint32_t> depth = scratch.dest.as<uint32_t>(n); // every slice's is written
    const auto setLane = [&](uint32_t idx, size_t l) {
        if (l > 0 && lane.empty())
            lane.assign(n, 0);
        if (!lane.empty())
            lane[idx] = static_cast<uint32_t>(l);
    };
    inOrder([&](uint32_t idx) {
        const int64_t s = t.start[idx];
        const int64_t e = s + t.dur[idx];
        size_t l = 0;
        bool placed = false;
        for (; l < kNestedLanes; ++l) {
            if (l == laneStacks.size()) {
                laneStacks.emplace_back();
                laneMaxDepth.push_back(0);
            }
            auto& st = laneStacks[l];
            while (!st.empty() && st.back() <= s)
                st.pop_back();
            if (st.empty() || e <= st.back()) {
                placed = true;
                break;
            }
        }
        if (l > 0)
            ++spilled;
        if (placed) {
            auto& st = laneStacks[l];
            setLane(idx, l);
            depth[idx] = static_cast<uint32_t>(st.size());
            laneMaxDepth[l] = std::max(laneMaxDepth[l], depth[idx]);
            st.push_back(e);
            return;
        }
        if (!flat.empty() && flat.top().first <= s) {
            l = flat.top().second;
            flat.pop();
        } else {
            l = laneStacks.size();
            laneStacks.emplace_back();
            laneMaxDepth.push_back(0);
        }
        flat.emplace(std::max(e, s + 1), static_cast<uint32_t>(l)); // zero-length slices still take their spot
        setLane(idx, l);
        depth[idx] = 0;
    });
    const size_t lanes = laneStacks.size();
    releaseMemory(laneStacks);
    std::vector<uint32_t> laneBase(lanes + 1, 0);
    for (size_t l = 0; l < lanes; ++l)
        laneBase[l + 1] = laneBase[l] + laneMaxDepth[l] + 1u;
    const uint32_t rows = laneBase[lanes];
    t.laneCount = static_cast<uint32_t>(lanes);
    t.rowDepth.assign(rows, 0);
    t.rowLane.assign(rows, 0);
    for (size_t l = 0; l < lanes; ++l)
        for (uint32_t d = 0; d <= laneMaxDepth[l]; ++d) {
            t.rowDepth[laneBase[l] + d] = d;
            t.rowLane[laneBase[l] + d] = static_cast<uint32_t>(l);
        }
    // Counting sort by row keeps the (start, end desc) order within each row. The slices' rows are
    // overwritten in place by their destinations. On a track large enough to give its columns' pages
    // back while they move (below), every other array is freed first (releaseMemory: `v = {}` keeps
    // the buffer), so that beside the columns the reordering needs this one array of 4 bytes a slice
    // (it was the order, lane, depth and permutation arrays and a column's copy: up to 32 bytes a
    // slice, on a 10 M-slice XSpace line the import's peak).
    const std::span<uint32_t> dest = depth;
    if (!lane.empty())
        for (uint32_t idx = 0; idx < n; ++idx)
            dest[idx] += laneBase[lane[idx]];
    releaseMemory(lane);
    t.rowBegin.assign(rows + 1, 0);
    for (uint32_t idx = 0; idx < n; ++idx)
        ++t.rowBegin[dest[idx] + 1];
    for (uint32_t r = 0; r < rows; ++r)
        t.rowBegin[r + 1] += t.rowBegin[r];
    std::vector<uint32_t> fill(t.rowBegin.begin(), t.rowBegin.end() - (rows ? 1 : 0));
    bool identity = true;
    inOrder([&](uint32_t idx) { // each slice's row is read once, here, and becomes its destination
        const uint32_t at = fill[dest[idx]]++;
        dest[idx] = at;
        identity = identity && at == idx;
    });
    releaseMemory(fill);
    // A track of 8 M slices and more (64 MB in an 8-byte column) gives the pages of its columns back
    // while they are reordered (column_scatter.h): its copy would be a large share of the import's
    // peak (a 525 MB XSpace's 10 M-slice line). Smaller ones skip that and its page faults (the
    // 10 GB Kineto trace's track phase took 1.6x as long when every column over 16 MB gave back).
    const bool giveBack = n >= (size_t(8) << 20);
    if (giveBack) {
        scratch.order.release();
        scratch.column.release();
    }
    if (!identity) { // a stream's kernels in order on one row need no reordering
        const auto scatter = [&](auto& column) { scatterColumn(column, dest, giveBack, scratch.column); };
        scatter(t.start);
        scatter(t.dur);
        scatter(t.names);
        scatter(t.category);
        scatter(t.argRef);
        scatter(t.correlation);
        scatter(t.externalId);
        scatter(t.bytes);
        scatter(t.blocksPerSm);
        scatter(t.occupancy);
        scatter(t.launchArgs);
        scatter(t.opArgs);
    }
    if (rows == 0)
        t.rowBegin.assign(1, 0);

    // Instants by time, stable.
    const size_t m = t.instantTs.size();
    if (m > 1) {
        std::vector<uint32_t> io(m);
        std::iota(io.begin(), io.end(), 0u);
        std::stable_sort(io.begin(), io.end(), [&](uint32_t a, uint32_t b) { return t.instantTs[a] < t.instantTs[b]; });
        permute(t.instantTs, io);
        permute(t.instantNames, io);
        permute(t.instantCategory, io);
        permute(t.instantArgRef, io);
    }
    releaseSlack(t.start);
    releaseSlack(t.dur);
    releaseSlack(t.names);
    releaseSlack(t.category);
    releaseSlack(t.argRef);
    releaseSlack(t.correlation);
    releaseSlack(t.externalId);
    releaseSlack(t.bytes);
    releaseSlack(t.blocksPerSm);
    releaseSlack(t.occupancy);
    releaseSlack(t.launchArgs);
    releaseSlack(t.opArgs);
    releaseSlack(t.instantTs);
    releaseSlack(t.instantNames);
    releaseSlack(t.instantCategory);
    releaseSlack(t.instantArgRef);
}

void TraceBuilder::finalizeTracks(unsigned threads) {
    Session& s = *m_session;
    const int64_t base = s.m_baseTimeNs.value_or(0);
    std::vector<uint64_t> spilled(s.m_tracks.size(), 0);
    // Largest tracks first over a small pool of threads.
    std::vector<size_t> todo(s.m_tracks.size());
    std::iota(todo.begin(), todo.end(), size_t(0));
    std::sort(todo.begin(), todo.end(),
              [&](size_t a, size_t b) { return s.m_tracks[a].start.size() > s.m_tracks[b].start.size(); });
    forEachIndexOnThreadsWith<TrackScratch>(todo.size(), threads, [&](TrackScratch& scratch, size_t k) {
        finalizeTrack(s.m_tracks[todo[k]], base, spilled[todo[k]], scratch);
    });
    for (size_t i = 0; i < spilled.size(); ++i)
        if (spilled[i])
            s.m_report.addNote("overlapping slices moved to extra lanes",
                           s.trackLabel(s.m_tracks[i]), spilled[i]);
    for (auto& c : s.m_counters) {
        std::vector<uint32_t> io(c.ts.size());
        std::iota(io.begin(), io.end(), 0u);
        std::stable_sort(io.begin(), io.end(), [&](uint32_t a, uint32_t b) { return c.ts[a] < c.ts[b]; });
        permute(c.ts, io);
        permute(c.value, io);
        for (auto& v : c.ts)
            v += base;
    }
    for (auto& m : s.m_memoryEvents)
        m.ts += base;
    // Importers that write their records in time order (a memory snapshot) skip the sort and its
    // buffer of half the records.
    const auto byTime = [](const MemoryEvent& a, const MemoryEvent& b) { return a.ts < b.ts; };
    if (!std::is_sorted(s.m_memoryEvents.begin(), s.m_memoryEvents.end(), byTime))
        std::stable_sort(s.m_memoryEvents.begin(), s.m_memoryEvents.end(), byTime);
}

void TraceBuilder::bindFlows(unsigned threads) {
    Session& s = *m_session;
    if (m_flows.empty())
        return;
    const int64_t base = s.m_baseTimeNs.value_or(0);
    // seq breaks every tie, so the order is deterministic; 8 M ends of a 10 GB trace: on all cores.
    sortOnThreads(m_flows.begin(), m_flows.end(), [](const PendingFlow& a, const PendingFlow& b) {
        if (a.category != b.category)
            return a.category < b.category;
        if (a.idIsString != b.idIsString)
            return a.idIsString < b.idIsString;
        if (a.id != b.id)
            return a.id < b.id;
        if (a.ts != b.ts)
            return a.ts < b.ts;
        // At equal times the start comes first.
        if ((a.ph == 's') != (b.ph == 's'))
            return a.ph == 's';
        return a.seq < b.seq;
    }, threads);
    // Binding each end to its slice is independent per end: spread it over the threads. The bound
    // slice takes the place of the end's time, which nothing needs after (no array of them beside).
    {
        std::atomic<size_t> next{0};
        constexpr size_t kBatch = 4096;
        auto work = [&] {
            std::vector<EnclosingSliceFinder> finders(s.m_tracks.size()); // ends of a batch ascend per track
            for (size_t b = next.fetch_add(kBatch); b < m_flows.size(); b = next.fetch_add(kBatch))
                for (size_t k = b; k < std::min(b + kBatch, m_flows.size()); ++k) {
                    PendingFlow& f = m_flows[k];
                    const Track& t = s.m_tracks[f.track];
                    const int64_t ts = f.ts + base;
                    if (f.bindEnclosing && t.laneCount > 1 && t.kind == Track::Kind::GpuStream) {
                        // Kernels whose recorded times overlap (ROCm traces) split a stream into lanes,
                        // and the one enclosing a kernel's start can be the earlier kernel it overlaps:
                        // a flow that ends at a kernel's start binds to that kernel.
                        const uint32_t at = t.nextSliceStartingAt(ts);
                        if (at != Track::kNoId && t.start[at] == ts) {
                            f.ts = at;
                            continue;
                        }
                    }
                    f.ts = f.bindEnclosing ? finders[f.track].find(t, ts) : t.nextSliceStartingAt(ts);
                }
        };
        runOnThreads(threads, work);
    }
    uint64_t unbound = 0, noStart = 0;
    std::string unboundExample;
    // At most one flow per end that is not a start: reserved, so that the flows do not briefly need
    // twice their memory while the pending ends are still held (a large share of the peak).
    s.m_flows.reserve(static_cast<size_t>(
        std::count_if(m_flows.begin(), m_flows.end(), [](const PendingFlow& f) { return f.ph != 's'; })));
    size_t i = 0;
    while (i < m_flows.size()) {
        size_t j = i;
        while (j < m_flows.size() && m_flows[j].category == m_flows[i].category && m_flows[j].id == m_flows[i].id &&
               m_flows[j].idIsString == m_flows[i].idIsString)
            ++j;
        uint32_t fromTrack = Track::kNoId, fromSlice = Track::kNoId;
        for (size_t k = i; k < j; ++k) {
            const PendingFlow& f = m_flows[k];
            const auto slice = static_cast<uint32_t>(f.ts); // bound above
            if (slice == Track::kNoId) {
                ++unbound;
                if (unboundExample.empty())
                    unboundExample = std::string(s.m_strings.str(f.category)) + " id " + std::to_string(f.id);
                if (f.ph == 's')
                    fromTrack = fromSlice = Track::kNoId;
                continue;
            }
            if (f.ph == 's') {
                fromTrack = f.track;
                fromSlice = slice;
                continue;
            }
            if (fromTrack == Track::kNoId) {
                ++noStart;
                continue;
            }
            s.m_flows.push_back({fromTrack, fromSlice, f.track, slice, f.category, f.id});
            if (f.ph == 't') {
                fromTrack = f.track;
                fromSlice = slice;
            }
        }
        i = j;
    }
    if (unbound)
        s.m_report.add("flow ends without a slice to bind to (dropped)", unboundExample, unbound);
    if (noStart)
        s.m_report.addNote("flow ends without a matching start (dropped)", {}, noStart);
    releaseMemory(m_flows);
}

void TraceBuilder::bindCorrelationFlows(unsigned threads) {
    Session& s = *m_session;
    if (m_correlationFlowCategory.empty())
        return;
    const StringId category = s.m_strings.intern(m_correlationFlowCategory);
    // An end: its time (then its bound slice), id, and track with the top bit set for a start. 16
    // bytes (a PendingFlow is 32).
    struct End {
        int64_t ts;
        uint32_t id;
        uint32_t track;
    };
    constexpr uint32_t kStart = 0x80000000u;
    size_t count = 0, starts = 0;
    for (const Track& t : s.m_tracks)
        count += static_cast<size_t>(
            std::count_if(t.correlation.begin(), t.correlation.end(), [](uint32_t c) { return c != Track::kNoId; }));
    if (count == 0 || s.m_tracks.size() >= kStart)
        return;
    std::vector<End> ends;
    ends.reserve(count);
    for (uint32_t ti = 0; ti < s.m_tracks.size(); ++ti) {
        const Track& t = s.m_tracks[ti];
        for (size_t i = 0; i < t.correlation.size(); ++i) {
            if (t.correlation[i] == Track::kNoId)
                continue;
            const bool start = s.m_categories[t.category[i]].kind == EventKind::Runtime;
            starts += start;
            ends.push_back({t.start[i], t.correlation[i], ti | (start ? kStart : 0u)});
        }
    }
    // As bindFlows orders its ends: by id, time, the start first; then by track (ends alike in all
    // of these bind to the same slice, so their order changes nothing).
    std::sort(ends.begin(), ends.end(), [](const End& a, const End& b) {
        if (a.id != b.id)
            return a.id < b.id;
        if (a.ts != b.ts)
            return a.ts < b.ts;
        if ((a.track & kStart) != (b.track & kStart))
            return (a.track & kStart) != 0;
        return a.track < b.track;
    });
    {
        std::atomic<size_t> next{0};
        constexpr size_t kBatch = 4096;
        auto work = [&] {
            std::vector<EnclosingSliceFinder> finders(s.m_tracks.size()); // ends of a batch ascend per track
            for (size_t b = next.fetch_add(kBatch); b < ends.size(); b = next.fetch_add(kBatch))
                for (size_t k = b; k < std::min(b + kBatch, ends.size()); ++k) {
                    const uint32_t track = ends[k].track & ~kStart;
                    ends[k].ts = finders[track].find(s.m_tracks[track], ends[k].ts);
                }
        };
        runOnThreads(threads, work);
    }
    uint64_t unbound = 0, noStart = 0;
    std::string unboundExample;
    // The flows are written as the ends are read, and the ends' pages already read are given back:
    // the two buffers together stay near the size of one.
    s.m_flows.reserve(s.m_flows.size() + (count - starts));
    uintptr_t released = reinterpret_cast<uintptr_t>(ends.data());
    constexpr size_t kReleaseEnds = (size_t(1) << 20) / sizeof(End);
    size_t i = 0;
    while (i < ends.size()) {
        size_t j = i;
        while (j < ends.size() && ends[j].id == ends[i].id)
            ++j;
        uint32_t fromTrack = Track::kNoId, fromSlice = Track::kNoId;
        for (size_t k = i; k < j; ++k) {
            const End& e = ends[k];
            const auto slice = static_cast<uint32_t>(e.ts); // bound above
            const bool start = (e.track & kStart) != 0;
            const uint32_t track = e.track & ~kStart;
            if (slice == Track::kNoId) {
                ++unbound;
                if (unboundExample.empty())
                    unboundExample = m_correlationFlowCategory + " id " + std::to_string(e.id);
                if (start)
                    fromTrack = fromSlice = Track::kNoId;
                continue;
            }
            if (start) {
                fromTrack = track;
                fromSlice = slice;
                continue;
            }
            if (fromTrack == Track::kNoId) {
                ++noStart;
                continue;
            }
            s.m_flows.push_back({fromTrack, fromSlice, track, slice, category, e.id});
        }
        if (j / kReleaseEnds != i / kReleaseEnds)
            released = releasePages(released, ends.data() + i); // the ends before this id are read
        i = j;
    }
    if (unbound)
        s.m_report.add("flow ends without a slice to bind to (dropped)", unboundExample, unbound);
    if (noStart)
        s.m_report.addNote("flow ends without a matching start (dropped)", {}, noStart);
}

void TraceBuilder::parseTopLevel() {
    Session& s = *m_session;
    for (const auto& [key, raw] : m_members) {
        if (key == "traceEvents") {
            s.m_report.add("traceEvents is not an array (ignored)");
            continue;
        }
        s.m_metadata[key] = raw;
        if (key != "deviceProperties" && key != "distributedInfo" && key != "baseTimeNanoseconds" &&
            key != "displayTimeUnit")
            continue;
        nlohmann::json j = nlohmann::json::parse(raw, nullptr, false);
        if (j.is_discarded()) {
            s.m_report.add("malformed top-level member (ignored)", key);
            continue;
        }
        try {
            if (key == "baseTimeNanoseconds" && j.is_number_integer()) {
                s.m_baseTimeNs = j.get<int64_t>();
            } else if (key == "baseTimeNanoseconds" && j.is_string()) {
                s.m_baseTimeNs = std::stoll(j.get<std::string>());
            } else if (key == "displayTimeUnit" && j.is_string()) {
                s.m_displayTimeUnit = j.get<std::string>();
            } else if (key == "deviceProperties" && j.is_array()) {
                for (const auto& d : j) {
                    if (!d.is_object())
                        continue;
                    DeviceInfo info;
                    info.id = static_cast<int>(jsonInteger(d, "id", INT32_MIN, INT32_MAX).value_or(0));
                    if (d.contains("name") && d["name"].is_string())
                        info.name = d["name"].get<std::string>();
                    if (const auto v = jsonInteger(d, "totalGlobalMem", 0, INT64_MAX))
                        info.totalGlobalMem = *v;
                    if (const auto v = jsonInteger(d, "numSms", 0, INT32_MAX))
                        info.numSms = static_cast<int>(*v);
                    if (const auto v = jsonInteger(d, "computeMajor", 0, INT32_MAX))
                        info.computeMajor = static_cast<int>(*v);
                    if (const auto v = jsonInteger(d, "computeMinor", 0, INT32_MAX))
                        info.computeMinor = static_cast<int>(*v);
                    if (const auto v = jsonInteger(d, "maxThreadsPerMultiprocessor", 0, INT32_MAX))
                        info.maxThreadsPerMultiprocessor = static_cast<int>(*v);
                    s.m_devices.push_back(std::move(info));
                }
            } else if (key == "distributedInfo" && j.is_object()) {
                DistributedInfo di;
                if (j.contains("backend") && j["backend"].is_string())
                    di.backend = j["backend"].get<std::string>();
                if (const auto v = jsonInteger(j, "rank", INT32_MIN, INT32_MAX))
                    di.rank = static_cast<int>(*v);
                if (const auto v = jsonInteger(j, "world_size", INT32_MIN, INT32_MAX))
                    di.worldSize = static_cast<int>(*v);
                s.m_distributed = di;
            }
        } catch (const std::exception&) {
            s.m_report.add("malformed top-level member (ignored)", key);
        }
    }
    if (!s.m_displayTimeUnit.empty() && s.m_displayTimeUnit != "ms" && s.m_displayTimeUnit != "ns")
        s.m_report.add("unknown displayTimeUnit (ignored)", s.m_displayTimeUnit);
}

void TraceBuilder::buildFrames() {
    Session& s = *m_session;
    std::vector<bool> isPython(s.m_categories.size());
    for (size_t i = 0; i < s.m_categories.size(); ++i)
        isPython[i] = s.m_categories[i].kind == EventKind::PythonFunction;
    for (const Track& t : s.m_tracks)
        for (size_t i = 0; i < t.start.size(); ++i) {
            if (!isPython[t.category[i]] || s.m_frames.count(t.names[i]))
                continue;
            // "<file>(<line>): <func>"
            const std::string_view name = s.m_strings.str(t.names[i]);
            const size_t close = name.find("): ");
            const size_t open = close == std::string_view::npos ? close : name.rfind('(', close);
            if (open == std::string_view::npos || open == 0)
                continue;
            int line = 0;
            bool ok = close > open + 1;
            for (size_t k = open + 1; k < close && ok; ++k) {
                ok = name[k] >= '0' && name[k] <= '9';
                line = line * 10 + (name[k] - '0');
            }
            if (!ok)
                continue;
            SourceFrame f;
            f.file = s.m_strings.intern(name.substr(0, open));
            f.line = line;
            f.function = s.m_strings.intern(name.substr(close + 3));
            s.m_frames.emplace(t.names[i], f);
        }
}

void TraceBuilder::alignAmdDeviceNumbers() {
    // Kineto on ROCm numbers a GPU by its ROCm agent (CPU agents first: GPU 0 is agent 1 or 2,
    // one per CPU socket) in pids and "device" args, but lists deviceProperties by GPU index.
    // The agent of GPU 0 is not written anywhere, so it is bounded: GPU pids lie in
    // [offset, offset + #devices); with a two-socket host (the usual MI-series server) when that
    // fits, else the least offset the pids allow. deviceProperties ids are moved to agent numbers,
    // so "GPU 2" finds its name and CU count.
    Session& s = *m_session;
    // Warpscope's own exports already number devices as their GPU pids, and say so.
    if (s.m_format != TraceFormat::ChromeJson || s.m_devices.empty() || s.m_metadata.count("deviceIdsMatchPids"))
        return;
    for (const DeviceInfo& d : s.m_devices)
        if (deviceVendor(d) != DeviceInfo::Vendor::Amd || d.id < 0)
            return;
    int lowPid = INT_MAX, highPid = -1, highId = -1;
    for (const Track& t : s.m_tracks) // GPUs with work (Kineto also labels pid 0 "GPU 0" for host rows)
        if (t.gpu && s.m_processes[t.process].deviceId >= 0) {
            lowPid = std::min(lowPid, s.m_processes[t.process].deviceId);
            highPid = std::max(highPid, s.m_processes[t.process].deviceId);
        }
    for (const DeviceInfo& d : s.m_devices)
        highId = std::max(highId, d.id);
    if (highPid < 0)
        return;
    const int lower = std::max(0, highPid - highId), upper = lowPid;
    if (lower > upper || upper == 0)
        return;
    const int offset = lower <= 2 && 2 <= upper ? 2 : lower;
    if (offset == 0)
        return;
    for (DeviceInfo& d : s.m_devices)
        d.id += offset;
    s.m_report.addNote("AMD GPUs: Kineto numbers them by ROCm agent; device properties matched with GPU 0 as agent " +
                       std::to_string(offset));
}

void TraceBuilder::setDevices(std::vector<DeviceInfo> devices) { m_session->m_devices = std::move(devices); }

void TraceBuilder::setEventTextSource(std::shared_ptr<const EventTextSource> source) {
    m_session->m_eventText = std::move(source);
}

void TraceBuilder::reserveMemoryEvents(size_t more) {
    m_session->m_memoryEvents.reserve(m_session->m_memoryEvents.size() + more);
}

void TraceBuilder::reserveForShare(double share) {
    if (share <= m_reservedAtShare || share >= 1)
        return;
    const double since = share - m_reservedAtShare;
    const auto project = [&](size_t count, size_t before) { // the larger of the rate overall and lately
        const double recent = static_cast<double>(count - std::min(before, count)) / since;
        const double overall = static_cast<double>(count) / share;
        return count + static_cast<size_t>(std::max(recent, overall) * (1 - share));
    };
    const auto reserve = [](auto& v, size_t projected) {
        if (projected > v.capacity())
            v.reserve(2 * projected);
    };
    reserve(m_flows, project(m_flows.size(), m_flowsAtReserve));
    reserve(m_session->m_memoryEvents, project(m_session->m_memoryEvents.size(), m_memoryEventsAtReserve));
    m_flowsAtReserve = m_flows.size();
    m_memoryEventsAtReserve = m_session->m_memoryEvents.size();
    m_reservedAtShare = share;
    m_slicesAtReserve.resize(m_session->m_tracks.size(), 0); // a track new since the last call had none
    for (size_t i = 0; i < m_session->m_tracks.size(); ++i) {
        Track& t = m_session->m_tracks[i];
        const size_t projected = project(t.start.size(), m_slicesAtReserve[i]);
        m_slicesAtReserve[i] = t.start.size();
        auto room = [projected, &reserve](auto& col, bool always) {
            if (always || !col.empty())
                reserve(col, projected);
        };
        room(t.start, true);
        room(t.dur, true);
        room(t.names, true);
        room(t.category, true);
        room(t.argRef, true);
        room(t.correlation, false);
        room(t.externalId, false);
        room(t.bytes, false);
        room(t.blocksPerSm, false);
        room(t.occupancy, false);
        room(t.launchArgs, false);
        room(t.opArgs, false);
    }
}

void TraceBuilder::setMemorySnapshot(std::shared_ptr<const MemorySnapshot> snapshot) {
    m_session->m_memorySnapshot = std::move(snapshot);
}

std::shared_ptr<Session> TraceBuilder::finish(unsigned threads) {
    Session& s = *m_session;
    auto t0 = std::chrono::steady_clock::now();
    auto lap = [&](const char* what) {
        const auto now = std::chrono::steady_clock::now();
        m_timings.emplace_back(std::string("finish: ") + what, std::chrono::duration<double>(now - t0).count());
        t0 = now;
    };
    parseTopLevel();
    applyMetadata();
    pairBeginEnd();
    pairAsync();
    lap("pairing");
    // A process is a GPU device when Kineto labels it "GPU n" or it holds GPU activity.
    std::vector<bool> gpuProcess(s.m_processes.size(), false);
    for (size_t p = 0; p < s.m_processes.size(); ++p) {
        const std::string_view labels = s.m_strings.str(s.m_processes[p].labels);
        if (labels.substr(0, 4) == "GPU " || labels.substr(0, 4) == "MTIA")
            gpuProcess[p] = true;
    }
    for (Track& t : s.m_tracks) {
        for (size_t i = 0; i < t.start.size(); ++i)
            if (isGpuActivity(s.m_categories[t.category[i]].kind) ||
                s.m_categories[t.category[i]].kind == EventKind::GpuUserAnnotation) {
                gpuProcess[t.process] = true;
                break;
            }
    }
    for (Track& t : s.m_tracks) {
        // A thread of a GPU process that only holds host work (Kineto sometimes files a Python
        // thread under pid 0) stays a CPU thread.
        bool device = false, host = false;
        for (size_t i = 0; i < t.start.size(); ++i) {
            const EventKind k = s.m_categories[t.category[i]].kind;
            if (isGpuActivity(k) || k == EventKind::GpuUserAnnotation || k == EventKind::CudaSync ||
                k == EventKind::CudaEvent)
                device = true;
            else if (k == EventKind::CpuOp || k == EventKind::PythonFunction || k == EventKind::Runtime ||
                     k == EventKind::Driver || k == EventKind::UserAnnotation)
                host = true;
        }
        if (gpuProcess[t.process] && t.kind == Track::Kind::Thread && (device || !host)) {
            t.gpu = true;
            t.kind = Track::Kind::GpuStream;
        }
    }
    for (size_t p = 0; p < s.m_processes.size(); ++p) {
        ProcessInfo& info = s.m_processes[p];
        if (gpuProcess[p] && !info.pid.isString && info.pid.number >= 0 && info.pid.number < 4096)
            info.deviceId = static_cast<int>(info.pid.number);
    }
    alignAmdDeviceNumbers();

    lap("gpu marks");
    finalizeTracks(threads);
    lap("tracks");
    const bool flows = !m_flows.empty() || !m_correlationFlowCategory.empty();
    bindFlows(threads);
    bindCorrelationFlows(threads);
    if (flows) {
        releaseSlack(s.m_flows);
        s.rebuildFlowIndex(threads);
    }
    lap("flows");
    buildFrames();
    lap("frames");

    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (const Track& t : s.m_tracks) {
        for (size_t r = 0; r + 1 < t.rowBegin.size(); ++r)
            if (t.rowBegin[r] < t.rowBegin[r + 1]) {
                lo = std::min(lo, t.start[t.rowBegin[r]]);
            }
        for (size_t i = 0; i < t.start.size(); ++i)
            hi = std::max(hi, t.start[i] + t.dur[i]);
        if (!t.instantTs.empty()) {
            lo = std::min(lo, t.instantTs.front());
            hi = std::max(hi, t.instantTs.back());
        }
    }
    for (const auto& c : s.m_counters)
        if (!c.ts.empty()) {
            lo = std::min(lo, c.ts.front());
            hi = std::max(hi, c.ts.back());
        }
    if (!s.m_memoryEvents.empty()) {
        lo = std::min(lo, s.m_memoryEvents.front().ts);
        hi = std::max(hi, s.m_memoryEvents.back().ts);
    }
    if (lo <= hi) {
        s.m_startNs = lo;
        s.m_endNs = hi;
    }
    // Growth slack of the session-wide tables is pure waste once the session is immutable (the
    // flows' went above, before their index).
    releaseSlack(s.m_memoryEvents);
    s.m_processes.shrink_to_fit();
    s.m_categories.shrink_to_fit();
    for (CounterSeries& c : s.m_counters) {
        releaseSlack(c.ts);
        releaseSlack(c.value);
    }
    lap("extent");
    s.m_argColumns = m_argColumns && !m_argColumnsLost && s.m_endArgRefs.empty();
    return std::shared_ptr<Session>(m_session.release());
}

} // namespace ws
