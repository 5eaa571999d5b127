#include "analysis/gap_classifier.h"

#include "analysis/host_gaps.h"
#include "analysis/step_ranges.h"
#include "model/saturating.h"
#include "model/session.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace ws {

namespace {


// Slice classes in priority order; kIgnore: says nothing about what the thread did.
enum SliceClass : uint8_t { kSync = 0, kCollective = 1, kData = 2, kCpu = 3, kIgnore = 4, kUndecided = 5 };

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Library code: the user line is the innermost frame that is not.
bool libraryFile(std::string_view f) {
    if (f.empty() || f[0] == '<')
        return true;
    for (std::string_view m : {"site-packages/", "dist-packages/", "/lib/python"})
        if (f.find(m) != std::string_view::npos)
            return true;
    for (std::string_view p : {"torch/", "torchvision/", "torchaudio/"})
        if (startsWith(f, p))
            return true;
    return false;
}

uint8_t classOfOperatorName(std::string_view n) {
    // Step markers say nothing of what the thread did; neither do NCCL's ncclComm* ranges (communicator
    // set-up, which a capture may see last the whole run).
    if (startsWith(n, "ProfilerStep#") || !stepNumberOfRangeName(n).empty() || startsWith(n, "ncclComm"))
        return kIgnore;
    if (n == "aten::item" || n == "aten::_local_scalar_dense")
        return kSync;
    if (startsWith(n, "enumerate(DataLoader)#") || startsWith(n, "enumerate(DataPipe)#"))
        return kData;
    if (startsWith(n, "nccl") || startsWith(n, "gloo:") || startsWith(n, "c10d::") || n == "record_param_comms" ||
        startsWith(n, "ProcessGroup"))
        return kCollective;
    return kCpu;
}

uint8_t classOfPythonFile(std::string_view file) {
    if (file.find("torch/utils/data/") != std::string_view::npos)
        return kData;
    if (file.find("torch/distributed/distributed_c10d.py") != std::string_view::npos)
        return kCollective;
    return kCpu;
}

constexpr std::string_view kDataStackMarker = "torch/utils/data/";

struct Frame {
    std::string file;
    int32_t line = 0;
    std::string function;
};

// The user line of frames given innermost first (see idle_gaps.h); index into frames or -1.
template <typename Frames, typename FileOf>
int pickUserFrame(const Frames& frames, FileOf fileOf) {
    int firstWithFile = -1;
    for (size_t i = 0; i < frames.size(); ++i) {
        const std::string_view f = fileOf(frames[i]);
        if (f.empty())
            continue;
        if (firstWithFile < 0)
            firstWithFile = static_cast<int>(i);
        if (!libraryFile(f))
            return static_cast<int>(i);
    }
    return firstWithFile;
}

/* A slice that overlaps a gap: on the launching thread (layer 0) or the process's main thread (1). */
struct Item {
    int64_t start;
    int64_t end;
    uint32_t track;
    uint32_t slice;
    uint8_t cls;
    uint8_t layer;
};


struct LineKey {
    uint8_t category;
    std::string what;
    std::string file;
    int32_t line;
    std::string function;
    bool operator<(const LineKey& o) const {
        return std::tie(category, what, file, line, function) < std::tie(o.category, o.what, o.file, o.line, o.function);
    }
};

using SliceKey = std::pair<uint32_t, uint32_t>; // track, slice

class GapClassifier {
public:
    GapClassifier(const Session& s, const IdleGapOptions& o) : m_s(s), m_o(o), m_capture(isWarpscopeCapture(s)) {
        m_opClass.assign(s.strings().size(), kUndecided);
        m_pyClass.assign(s.strings().size(), kUndecided);
        m_blocking.assign(s.strings().size(), kUndecided);
        m_hasPython.assign(s.tracks().size(), kUndecided);
        m_threadsOf.resize(s.processes().size());
        for (uint32_t ti = 0; ti < s.tracks().size(); ++ti) {
            const Track& t = s.tracks()[ti];
            if (!t.gpu && t.kind == Track::Kind::Thread)
                m_threadsOf[t.process].push_back(ti);
        }
        m_mainOf.assign(s.processes().size(), kUndecidedThread);
    }

    // What classifyGaps returns of a gap, and what the classifier needs of it on the way.
    struct Gap : ClassifiedGap {
        uint32_t mainThread = IdleGap::kNone;    // the process's main thread when it is not `thread`
        const IntervalList* busy = nullptr;      // the device's GPU busy time
        std::vector<uint32_t> slices;            // on `thread`, overlapping the gap or ending at its start
        std::vector<uint32_t> mainSlices;        // the same on `mainThread`
        std::vector<SliceKey> otherSyncs;        // Sync slices of the process's other threads, the same
        std::optional<SliceKey> wake;            // the synchronization whose wake the gap is in
    };

    // Finds the launching thread of the GPU work in [busyStart, busyEnd) of `tracks` (a device's
    // streams): the first activity with a launch (ties: the earlier launch, then the lower correlation).
    void findLaunch(Gap& g, const std::vector<uint32_t>& tracks, int64_t busyStart, int64_t busyEnd) {
        struct Best {
            int64_t start = INT64_MAX, launchStart = INT64_MAX;
            uint32_t corr = UINT32_MAX, lt = IdleGap::kNone, ls = IdleGap::kNone;
        } best;
        for (uint32_t ti : tracks) {
            const Track& t = m_s.tracks()[ti];
            for (size_t r = 0; r < t.rowCount(); ++r) {
                auto first = t.start.begin() + t.rowBegin[r], last = t.start.begin() + t.rowBegin[r + 1];
                for (auto it = std::lower_bound(first, last, busyStart); it != last && *it < busyEnd && *it <= best.start; ++it) {
                    const auto i = static_cast<uint32_t>(it - t.start.begin());
                    if (!isGpuActivity(m_s.kindOf(t, i)))
                        continue;
                    const auto [lt, ls] = launchOf(ti, i);
                    if (lt == IdleGap::kNone)
                        continue;
                    const uint32_t corr = t.correlation.empty() ? UINT32_MAX : t.correlation[i];
                    const int64_t launchStart = m_s.tracks()[lt].start[ls];
                    if (std::tie(t.start[i], launchStart, corr) < std::tie(best.start, best.launchStart, best.corr))
                        best = {t.start[i], launchStart, corr, lt, ls};
                    break; // later slices of this row start later
                }
            }
        }
        g.launchTrack = best.lt;
        g.launchSlice = best.ls;
        g.thread = best.lt;
    }

    // The slices of the launching and the main thread that overlap the gap or end at its start.
    void collectSlices(Gap& g) {
        if (g.thread == IdleGap::kNone)
            return;
        overlapping(g.thread, g.start, g.end, g.slices, true);
        const uint32_t process = m_s.tracks()[g.thread].process;
        const uint32_t main = mainThread(process);
        if (main != IdleGap::kNone && main != g.thread) {
            g.mainThread = main;
            overlapping(main, g.start, g.end, g.mainSlices, true);
        }
        std::vector<uint32_t> other;
        for (uint32_t ti : m_threadsOf[process]) {
            if (ti == g.thread || ti == g.mainThread)
                continue;
            other.clear();
            overlapping(ti, g.start, g.end, other, true);
            for (uint32_t i : other)
                if (classOf(ti, i) == kSync)
                    g.otherSyncs.push_back({ti, i});
        }
        // In the wake of a synchronization that ended before the gap: the GPU has hardly worked since
        // (less than wakeNs), so the host has not got ahead of it again.
        if (m_o.wakeNs > 0 && g.busy) {
            int64_t wakeEnd = INT64_MIN;
            for (uint32_t ti : m_threadsOf[process]) {
                const std::vector<std::pair<int64_t, uint32_t>>& ends = syncEnds(ti);
                auto it = std::partition_point(ends.begin(), ends.end(), [&](const auto& e) { return e.first < g.start; });
                if (it == ends.begin())
                    continue;
                --it;
                if (it->first > wakeEnd) {
                    wakeEnd = it->first;
                    g.wake = SliceKey{ti, it->second};
                }
            }
            if (g.wake && lengthWithin(*g.busy, wakeEnd, g.start) >= m_o.wakeNs)
                g.wake.reset();
        }
    }

    // One bulk pass over the `Call stack` arguments of the gaps' slices on threads without Python
    // frames.
    void readStacks(const std::vector<Gap>& gaps) {
        std::vector<SliceKey> wanted;
        auto want = [&](uint32_t track, uint32_t i) {
            if (threadHasPython(track))
                return;
            const Track& t = m_s.tracks()[track];
            const EventKind k = m_s.kindOf(t, i);
            if ((k == EventKind::Runtime || k == EventKind::Driver || k == EventKind::CpuOp || k == EventKind::UserAnnotation) &&
                i < t.argRef.size() && t.argRef[i] != Track::kNoArgs)
                wanted.push_back({track, i});
        };
        for (const Gap& g : gaps) {
            for (uint32_t i : g.slices)
                want(g.thread, i);
            for (uint32_t i : g.mainSlices)
                want(g.mainThread, i);
            std::vector<SliceKey> syncs = g.otherSyncs;
            if (g.wake)
                syncs.push_back(*g.wake);
            for (const auto& [track, i] : syncs) {
                want(track, i);
                for (uint32_t a : enclosing(track, i))
                    want(track, a);
            }
        }
        // Slices shared by several gaps (a long operator) are read once.
        std::sort(wanted.begin(), wanted.end());
        wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
        if (wanted.empty())
            return;
        std::vector<uint64_t> refs(wanted.size());
        for (size_t i = 0; i < wanted.size(); ++i)
            refs[i] = m_s.tracks()[wanted[i].first].argRef[wanted[i].second];
        m_stacksRead = true;
        std::unordered_map<std::string, uint32_t> ids;
        m_s.forEachArgValues(
            refs, {"Call stack"},
            [&](size_t i, const std::vector<std::string_view>& v) {
                if (v[0].empty())
                    return;
                auto [it, fresh] = ids.try_emplace(std::string(v[0]), static_cast<uint32_t>(m_stacks.size()));
                if (fresh) {
                    Stack st;
                    st.data = v[0].find(kDataStackMarker) != std::string_view::npos;
                    for (const StackFrameText& f : parseCallStackText(v[0]))
                        st.frames.push_back({f.file, f.line, f.function});
                    m_stacks.push_back(std::move(st));
                }
                m_stackOf.emplace(key(wanted[i].first, wanted[i].second), it->second);
            },
            m_o.cancel);
    }

    // Splits [g.start, g.end) into segments by class and line.
    void classify(Gap& g) {
        if (g.thread == IdleGap::kNone) {
            g.segments.push_back({g.start, g.end, uint8_t(GapCategory::Nothing),
                                  lineIndex({uint8_t(GapCategory::Nothing), "no launch recorded for the GPU work after the gap", "", 0, ""})});
            return;
        }
        std::vector<Item> items, syncs;
        items.reserve(g.slices.size() + g.mainSlices.size());
        auto add = [&](uint32_t track, const std::vector<uint32_t>& slices, uint8_t layer) {
            const Track& t = m_s.tracks()[track];
            for (uint32_t i : slices) {
                const uint8_t c = classOf(track, i);
                const Item it{t.start[i], t.end(i), track, i, c, layer};
                if (c == kSync)
                    syncs.push_back(it);
                if (c != kIgnore && t.end(i) > g.start)
                    items.push_back(it);
            }
        };
        add(g.thread, g.slices, 0);
        if (g.mainThread != IdleGap::kNone)
            add(g.mainThread, g.mainSlices, 1);
        for (const auto& [track, i] : g.otherSyncs) {
            const Track& t = m_s.tracks()[track];
            syncs.push_back({t.start[i], t.end(i), track, i, kSync, 2});
        }
        std::sort(items.begin(), items.end(), [&](const Item& a, const Item& b) { return outer(a, b); });
        // Synchronizations of the two threads running at the gap's start or inside it: from the
        // start of one on, the host waited (or had waited) for the GPU, which then waited for the host.
        std::sort(syncs.begin(), syncs.end(), [&](const Item& a, const Item& b) { return outer(a, b); });
        const Item* drain = nullptr; // of those started so far, the one that ends last (ties: outermost)
        size_t nextSync = 0;
        std::optional<Item> wake;
        if (g.wake) {
            const Track& t = m_s.tracks()[g.wake->first];
            wake = Item{t.start[g.wake->second], t.end(g.wake->second), g.wake->first, g.wake->second, kSync, 2};
            drain = &*wake;
        }
        std::vector<int64_t> bounds{g.start, g.end};
        auto bound = [&](int64_t v) {
            if (v > g.start && v < g.end)
                bounds.push_back(v);
        };
        for (const Item& it : items) {
            bound(it.start);
            bound(it.end);
        }
        // A synchronization blocks the host from its start to its end.
        for (const Item& it : syncs) {
            bound(it.start);
            bound(it.end);
        }
        std::sort(bounds.begin(), bounds.end());
        bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
        std::vector<const Item*> active; // in `outer` order
        size_t next = 0;
        for (size_t k = 0; k + 1 < bounds.size(); ++k) {
            const int64_t x = bounds[k], y = bounds[k + 1];
            std::erase_if(active, [x](const Item* it) { return it->end <= x; });
            for (; next < items.size() && items[next].start <= x; ++next)
                if (items[next].end > x)
                    active.push_back(&items[next]);
            for (; nextSync < syncs.size() && syncs[nextSync].start <= x; ++nextSync)
                if (!drain || syncs[nextSync].end > drain->end)
                    drain = &syncs[nextSync];
            uint8_t best[2] = {kIgnore, kIgnore};
            for (const Item* it : active)
                best[it->layer] = std::min(best[it->layer], it->cls);
            // The launching thread's own Sync, Collective or DataLoading, else the main thread's, else
            // a synchronization of another thread of the process that is blocking now, else the CPU
            // work of the one thread, then the other. A synchronization that returned only drained
            // the GPU's queue: the time after it is what the host did next (issue #51), and the
            // synchronization is named as what drained the queue (ClassifiedGap::drainedBy).
            const Item* blocking = nullptr;
            for (const Item& it : syncs)
                if (it.start <= x && x < it.end && (!blocking || outer(it, *blocking)))
                    blocking = &it;
            uint8_t category = kIgnore, layer = 0;
            bool drained = false;
            if (best[0] < kCpu) {
                category = best[0];
            } else if (best[1] < kCpu) {
                category = best[1];
                layer = 1;
            } else if (blocking) {
                category = kSync;
                drained = true;
            } else if (best[0] == kCpu) {
                category = kCpu;
            } else if (best[1] == kCpu) {
                category = kCpu;
                layer = 1;
            }
            uint32_t line = 0;
            if (drained) {
                line = lineOfSlice(blocking->track, blocking->slice, kSync, {});
            } else if (category == kIgnore) {
                category = uint8_t(GapCategory::Nothing);
                line = lineIndex({category, "no event on the launching thread", "", 0, ""});
            } else if (category == kCpu) {
                const Item* inner = nullptr;
                const Item* op = nullptr;
                for (const Item* it : active) {
                    if (it->layer != layer || it->cls != kCpu)
                        continue;
                    inner = it;
                    if (!op && m_s.kindOf(m_s.tracks()[it->track], it->slice) != EventKind::PythonFunction)
                        op = it;
                }
                line = lineOfSlice(inner->track, inner->slice, kCpu, op ? std::optional<uint32_t>(op->slice) : std::nullopt);
            } else {
                const Item* outerMost = nullptr;
                for (const Item* it : active)
                    if (it->layer == layer && it->cls == category) {
                        outerMost = it;
                        break;
                    }
                line = lineOfSlice(outerMost->track, outerMost->slice, category, {});
            }
            if (!g.segments.empty() && g.segments.back().category == category && g.segments.back().line == line &&
                g.segments.back().end == x)
                g.segments.back().end = y;
            else
                g.segments.push_back({x, y, category, line});
        }
        // The synchronization that emptied the GPU's queue: the one whose wake the gap is in, else
        // the last to end of those that started by the gap's end, when it ended less than drainNs
        // after the gap's start (a synchronization inside a long stretch of CPU work drained nothing
        // that this gap waits on).
        if (drain && (wake || drain->end <= g.start + m_o.drainNs))
            g.drainedBy = lineOfSlice(drain->track, drain->slice, kSync, {});
        // Nothing on the launching thread of a capture, under kHostGapNs before the launch that ends
        // the gap: the code that led to that launch ran then (host_gaps.h), on the launch's line.
        if (m_capture && g.launchTrack == g.thread && g.launchSlice != IdleGap::kNone) {
            const int64_t launchAt = m_s.tracks()[g.launchTrack].start[g.launchSlice];
            uint32_t line = IdleGap::kNone;
            for (GapSegment& seg : g.segments)
                if (seg.category == uint8_t(GapCategory::Nothing) && launchAt - seg.start <= kHostGapNs) {
                    if (line == IdleGap::kNone)
                        line = lineOfSlice(g.launchTrack, g.launchSlice, kCpu, {});
                    seg.category = kCpu;
                    seg.line = line;
                }
        }
        // Nothing on the threads, but the process's children (DataLoader workers) kept the CPU busy
        // meanwhile (a capture's `host` counters): the GPU waited for the input.
        if (std::any_of(g.segments.begin(), g.segments.end(),
                        [](const GapSegment& seg) { return seg.category == uint8_t(GapCategory::Nothing); }) &&
            workersBusy(m_s.tracks()[g.thread].process, g.start, g.end)) {
            const uint32_t line = lineIndex({kData, "DataLoader worker processes busy (host_cpu_children)", "", 0, ""});
            for (GapSegment& seg : g.segments)
                if (seg.category == uint8_t(GapCategory::Nothing)) {
                    seg.category = kData;
                    seg.line = line;
                }
        }
    }

    std::vector<GapLine> takeLines() {
        std::vector<GapLine> out(m_lineKeys.size());
        for (const auto& [k, i] : m_lineKeys) {
            GapLine& l = out[i];
            l.category = static_cast<GapCategory>(k.category);
            l.what = k.what;
            l.file = k.file;
            l.line = k.line;
            l.function = k.function;
        }
        return out;
    }
    bool stacksRead() const { return m_stacksRead; }

private:
    static constexpr uint32_t kUndecidedThread = 0xfffffffeu;

    struct Stack {
        bool data = false;
        std::vector<Frame> frames; // innermost first
    };

    static uint64_t key(uint32_t track, uint32_t slice) { return (uint64_t(track) << 32) | slice; }

    // Outermost first: (start, longer first, name).
    bool outer(const Item& a, const Item& b) const {
        if (a.start != b.start)
            return a.start < b.start;
        if (a.end != b.end)
            return a.end > b.end;
        return m_s.str(m_s.tracks()[a.track].names[a.slice]) < m_s.str(m_s.tracks()[b.track].names[b.slice]);
    }

    // Slices of `track` with dur > 0 overlapping [lo, hi); with `touching`, also those ending at lo.
    void overlapping(uint32_t track, int64_t lo, int64_t hi, std::vector<uint32_t>& out, bool touching = false) const {
        const Track& t = m_s.tracks()[track];
        for (size_t r = 0; r < t.rowCount(); ++r) {
            const uint32_t b = t.rowBegin[r], e = t.rowBegin[r + 1];
            uint32_t i = b;
            if (t.rowLane[r] < 32) { // a lane's rows do not overlap: ends grow with starts
                uint32_t n = e - b;
                while (n > 0) { // first slice ending at or after lo
                    const uint32_t half = n / 2, m = i + half;
                    if (t.end(m) < lo) {
                        i = m + 1;
                        n -= half + 1;
                    } else {
                        n = half;
                    }
                }
            }
            for (; i < e && t.start[i] < hi; ++i)
                if (t.dur[i] > 0 && (t.end(i) > lo || (touching && t.end(i) == lo)))
                    out.push_back(i);
        }
    }

    // The process's child processes used at least kBusyWorkersCpuPercent of a core over [lo, hi):
    // the time-weighted mean of its host_cpu_children samples, sample i covering (ts[i-1], ts[i]].
    bool workersBusy(uint32_t process, int64_t lo, int64_t hi) {
        if (!m_childrenCpuFound) {
            m_childrenCpuFound = true;
            for (size_t ci = 0; ci < m_s.counters().size(); ++ci) {
                const CounterSeries& c = m_s.counters()[ci];
                if (m_s.str(c.category) == "host" && m_s.str(c.name) == "host_cpu_children")
                    m_childrenCpu.try_emplace(c.process, ci);
            }
        }
        auto it = m_childrenCpu.find(process);
        if (it == m_childrenCpu.end())
            return false;
        const CounterSeries& c = m_s.counters()[it->second];
        double weighted = 0, covered = 0;
        for (size_t i = 1; i < c.ts.size(); ++i) {
            const int64_t a = std::max(c.ts[i - 1], lo), b = std::min(c.ts[i], hi);
            if (b > a) {
                weighted += c.value[i] * static_cast<double>(b - a);
                covered += static_cast<double>(b - a);
            }
        }
        return covered > 0 && weighted / covered >= kBusyWorkersCpuPercent;
    }

    // The track's Sync slices as (end, slice).
    const std::vector<std::pair<int64_t, uint32_t>>& syncEnds(uint32_t track) {
        auto [it, fresh] = m_syncEnds.try_emplace(track);
        if (fresh) {
            const Track& t = m_s.tracks()[track];
            for (uint32_t i = 0; i < t.sliceCount(); ++i)
                if (t.dur[i] > 0 && classOf(track, i) == kSync)
                    it->second.push_back({t.end(i), i});
            // By end; of those ending together the outermost (earliest start) last.
            std::sort(it->second.begin(), it->second.end(), [&t](const auto& a, const auto& b) {
                if (a.first != b.first)
                    return a.first < b.first;
                return t.start[a.second] > t.start[b.second];
            });
        }
        return it->second;
    }

    bool threadHasPython(uint32_t track) {
        uint8_t& h = m_hasPython[track];
        if (h == kUndecided) {
            h = 0;
            const Track& t = m_s.tracks()[track];
            for (size_t i = 0; i < t.sliceCount() && !h; ++i)
                h = m_s.kindOf(t, i) == EventKind::PythonFunction ? 1 : 0;
        }
        return h == 1;
    }

    // The process's main Python thread: the host thread with the most python_function slices, else
    // the one with the most step, optimizer and DataLoader ranges; kNone when none has any.
    uint32_t mainThread(uint32_t process) {
        uint32_t& m = m_mainOf[process];
        if (m != kUndecidedThread)
            return m;
        m = IdleGap::kNone;
        uint64_t bestPy = 0, bestMarks = 0;
        for (uint32_t ti : m_threadsOf[process]) {
            const Track& t = m_s.tracks()[ti];
            uint64_t py = 0, marks = 0;
            for (uint32_t i = 0; i < t.sliceCount(); ++i) {
                const EventKind k = m_s.kindOf(t, i);
                if (k == EventKind::PythonFunction) {
                    ++py;
                } else if (k == EventKind::CpuOp || k == EventKind::UserAnnotation) {
                    const std::string_view n = m_s.str(t.names[i]);
                    if (startsWith(n, "Optimizer.") || startsWith(n, "enumerate(DataLoader)#") ||
                        startsWith(n, "ProfilerStep#") || !stepNumberOfRangeName(n).empty())
                        ++marks;
                }
            }
            if (py > bestPy || (py == bestPy && marks > bestMarks)) {
                bestPy = py;
                bestMarks = marks;
                m = ti;
            }
        }
        return m;
    }

    uint8_t classOf(uint32_t track, uint32_t slice) {
        const Track& t = m_s.tracks()[track];
        const StringId name = t.names[slice];
        uint8_t c = kIgnore;
        switch (m_s.kindOf(t, slice)) {
        case EventKind::Runtime:
        case EventKind::Driver: {
            uint8_t& b = m_blocking[name];
            if (b == kUndecided)
                b = isBlockingCall(m_s.str(name)) ? kSync : kCpu;
            c = b;
            break;
        }
        case EventKind::CpuOp:
        case EventKind::UserAnnotation: {
            uint8_t& o = m_opClass[name];
            if (o == kUndecided)
                o = classOfOperatorName(m_s.str(name));
            c = o;
            break;
        }
        case EventKind::PythonFunction: {
            uint8_t& p = m_pyClass[name];
            if (p == kUndecided) {
                const SourceFrame* f = m_s.frameForName(name);
                p = f ? classOfPythonFile(m_s.str(f->file)) : uint8_t(kCpu);
            }
            c = p;
            break;
        }
        default: break;
        }
        if (c == kCpu) {
            const Stack* st = stackOf(track, slice);
            if (st && st->data)
                c = kData;
        }
        return c;
    }

    const Stack* stackOf(uint32_t track, uint32_t slice) const {
        if (m_stackOf.empty())
            return nullptr;
        auto it = m_stackOf.find(key(track, slice));
        return it == m_stackOf.end() ? nullptr : &m_stacks[it->second];
    }

    std::pair<uint32_t, uint32_t> launchOf(uint32_t track, uint32_t slice) {
        const auto& tracks = m_s.tracks();
        for (uint32_t fi : m_s.flowsOf(track, slice)) {
            const Flow& f = m_s.flows()[fi];
            // The call that launched it (a replay's graph launch), not where a graph node was captured.
            if (f.toTrack == track && f.toSlice == slice && f.fromTrack < tracks.size() && !tracks[f.fromTrack].gpu &&
                f.fromSlice < tracks[f.fromTrack].sliceCount() &&
                m_s.kindOf(tracks[f.fromTrack], f.fromSlice) != EventKind::GraphNode)
                return {f.fromTrack, f.fromSlice};
        }
        // No flow: the runtime or driver call with the same correlation id.
        const Track& t = tracks[track];
        if (t.correlation.empty() || t.correlation[slice] == Track::kNoId)
            return {IdleGap::kNone, IdleGap::kNone};
        if (!m_correlationBuilt) {
            m_correlationBuilt = true;
            for (uint32_t ti = 0; ti < tracks.size(); ++ti) {
                const Track& h = tracks[ti];
                if (h.gpu || h.correlation.empty())
                    continue;
                for (uint32_t i = 0; i < h.sliceCount(); ++i) {
                    const EventKind k = m_s.kindOf(h, i);
                    if ((k == EventKind::Runtime || k == EventKind::Driver) && h.correlation[i] != Track::kNoId)
                        m_launchByCorrelation.try_emplace(h.correlation[i], key(ti, i));
                }
            }
        }
        auto it = m_launchByCorrelation.find(t.correlation[slice]);
        if (it == m_launchByCorrelation.end())
            return {IdleGap::kNone, IdleGap::kNone};
        return {static_cast<uint32_t>(it->second >> 32), static_cast<uint32_t>(it->second & 0xffffffffu)};
    }

    uint32_t lineIndex(LineKey k) {
        auto [it, fresh] = m_lineKeys.try_emplace(std::move(k), static_cast<uint32_t>(m_lineKeys.size()));
        return it->second;
    }

    // The slices of the track that contain `slice` in time (any row or lane), innermost first: (later
    // start, earlier end, name). O(rows log n).
    std::vector<uint32_t> enclosing(uint32_t track, uint32_t slice) const {
        const Track& t = m_s.tracks()[track];
        std::vector<uint32_t> out;
        const int64_t a = t.start[slice], b = t.end(slice);
        for (size_t r = 0; r < t.rowCount(); ++r) {
            auto first = t.start.begin() + t.rowBegin[r], last = t.start.begin() + t.rowBegin[r + 1];
            for (auto it = std::upper_bound(first, last, a); it != first;) {
                --it;
                const auto i = static_cast<uint32_t>(it - t.start.begin());
                if (i != slice && t.end(i) >= b)
                    out.push_back(i);
                if (t.rowLane[r] < 32) // one candidate per row of a lane
                    break;
            }
        }
        std::sort(out.begin(), out.end(), [&](uint32_t x, uint32_t y) {
            if (t.start[x] != t.start[y])
                return t.start[x] > t.start[y];
            if (t.end(x) != t.end(y))
                return t.end(x) < t.end(y);
            return m_s.str(t.names[x]) < m_s.str(t.names[y]);
        });
        return out;
    }

    // The user line of a slice (idle_gaps.h), cached per slice.
    const Frame* userLine(uint32_t track, uint32_t slice) {
        auto [it, fresh] = m_userLine.try_emplace(key(track, slice), -1);
        if (!fresh)
            return it->second < 0 ? nullptr : &m_frames[static_cast<size_t>(it->second)];
        const Track& t = m_s.tracks()[track];
        const std::vector<uint32_t> chain = enclosing(track, slice); // innermost first
        std::optional<Frame> found;
        if (threadHasPython(track)) {
            std::vector<const SourceFrame*> py; // innermost first
            auto add = [&](uint32_t i) {
                if (m_s.kindOf(t, i) == EventKind::PythonFunction)
                    if (const SourceFrame* f = m_s.frameForName(t.names[i]))
                        py.push_back(f);
            };
            add(slice);
            for (uint32_t a : chain)
                add(a);
            const int k = pickUserFrame(py, [&](const SourceFrame* f) { return m_s.str(f->file); });
            if (k >= 0)
                found = Frame{std::string(m_s.str(py[size_t(k)]->file)), py[size_t(k)]->line,
                              std::string(m_s.str(py[size_t(k)]->function))};
        } else {
            const Stack* st = stackOf(track, slice);
            for (auto a = chain.begin(); !st && a != chain.end(); ++a)
                if (m_s.kindOf(t, *a) == EventKind::CpuOp)
                    st = stackOf(track, *a);
            if (st) {
                const int k = pickUserFrame(st->frames, [](const Frame& f) { return std::string_view(f.file); });
                if (k >= 0)
                    found = st->frames[size_t(k)];
            }
        }
        if (!found)
            return nullptr;
        it->second = static_cast<int32_t>(m_frames.size());
        m_frames.push_back(std::move(*found));
        return &m_frames.back();
    }

    // The line a moment of class `cls` is charged to, from its representative slice. CpuWork keys by
    // the user line alone when known, else by the outermost covering operator `op` (else the slice).
    uint32_t lineOfSlice(uint32_t track, uint32_t slice, uint8_t cls, std::optional<uint32_t> op) {
        const Track& t = m_s.tracks()[track];
        const Frame* f = userLine(track, slice);
        LineKey k{cls, std::string(m_s.str(t.names[slice])), "", 0, ""};
        if (cls == kCpu) {
            // A module-level built-in (time.sleep, no object address in its name) is named with
            // its caller's line: the host was sleeping there (issue #51).
            const bool builtin = m_s.kindOf(t, slice) == EventKind::PythonFunction &&
                                 m_s.str(t.names[slice]).starts_with("<built-in function ");
            k.what = builtin || !f ? std::string(m_s.str(t.names[builtin || !op ? slice : *op])) : std::string();
        }
        if (f) {
            k.file = f->file;
            k.line = f->line;
            k.function = f->function;
        }
        return lineIndex(std::move(k));
    }

    const Session& m_s;
    const IdleGapOptions& m_o;
    const bool m_capture; // a Warpscope capture: host gaps before a launch are its code (host_gaps.h)
    std::vector<uint8_t> m_opClass, m_pyClass, m_blocking, m_hasPython;
    std::vector<std::vector<uint32_t>> m_threadsOf; // host thread tracks per process
    std::vector<uint32_t> m_mainOf;                // per process
    std::vector<Stack> m_stacks;
    std::unordered_map<uint64_t, uint32_t> m_stackOf;
    bool m_stacksRead = false;
    bool m_correlationBuilt = false;
    std::unordered_map<uint32_t, uint64_t> m_launchByCorrelation;
    std::unordered_map<uint64_t, int32_t> m_userLine;
    std::vector<Frame> m_frames;
    std::map<LineKey, uint32_t> m_lineKeys;
    std::unordered_map<uint32_t, std::vector<std::pair<int64_t, uint32_t>>> m_syncEnds;
    bool m_childrenCpuFound = false;
    std::unordered_map<uint32_t, size_t> m_childrenCpu; // process -> counter series
};


} // namespace

std::optional<ClassifiedGaps> classifyGaps(const Session& s, const IdleGapOptions& o, const std::vector<GapSpan>& spans,
                                           const std::map<int, std::vector<uint32_t>>& streamsByDevice) {
    GapClassifier c(s, o);
    static const std::vector<uint32_t> kNoStreams;
    std::vector<GapClassifier::Gap> gaps;
    gaps.reserve(spans.size());
    for (const GapSpan& span : spans) {
        if (o.cancel && o.cancel->load())
            return std::nullopt;
        GapClassifier::Gap g;
        g.device = span.device;
        g.start = span.start;
        g.end = span.end;
        g.busy = span.busy;
        const auto streams = streamsByDevice.find(span.device);
        c.findLaunch(g, streams == streamsByDevice.end() ? kNoStreams : streams->second, span.nextStart, span.nextEnd);
        c.collectSlices(g);
        gaps.push_back(std::move(g));
    }
    if (o.readCallStacks)
        c.readStacks(gaps);
    ClassifiedGaps out;
    out.gaps.reserve(gaps.size());
    for (GapClassifier::Gap& g : gaps) {
        if (o.cancel && o.cancel->load())
            return std::nullopt;
        c.classify(g);
        out.gaps.push_back(std::move(static_cast<ClassifiedGap&>(g)));
    }
    out.lines = c.takeLines();
    out.callStacksRead = c.stacksRead();
    return out;
}

} // namespace ws
