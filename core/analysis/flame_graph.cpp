#include "analysis/flame_graph.h"
#include "analysis/launch_flows.h"

#include "analysis/host_gaps.h"
#include "analysis/memory_allocations.h"
#include "model/saturating.h"
#include "model/session.h"

#include <algorithm>
#include <bit>
#include <numeric>
#include <string_view>
#include <unordered_map>

namespace ws {

// The root's child that gathers the weight of events without a call stack.
constexpr const char* kNoStackFrame = "(no stack)";

const char* flameWeightName(FlameWeight weight) {
    switch (weight) {
    case FlameWeight::Cpu:
        return "cpu";
    case FlameWeight::Gpu:
        return "gpu";
    case FlameWeight::Alloc:
        break;
    }
    return "alloc";
}

std::optional<FlameWeight> flameWeightFromName(std::string_view name) {
    for (FlameWeight w : {FlameWeight::Cpu, FlameWeight::Gpu, FlameWeight::Alloc})
        if (name == flameWeightName(w)) return w;
    return std::nullopt;
}

const char* flameWeightUnit(FlameWeight weight) {
    return weight == FlameWeight::Alloc ? "bytes" : "ns";
}

namespace {

constexpr uint32_t kNone = FlameNode::kNone;

std::string frameTextOf(const FlameFrame& f) {
    std::string out = f.function;
    if (!f.file.empty()) {
        out += " (" + f.file;
        if (f.line > 0) out += ":" + std::to_string(f.line);
        out += ")";
    }
    return out;
}

/*
 * ChildIndex: (parent node, frame) -> child node, open addressing with linear probing in two flat
 * arrays (no allocation per entry: a graph of a million nodes builds several times faster than
 * with std::unordered_map). Load factor <= 1/2; keys are never erased.
 */
class ChildIndex {
public:
    ChildIndex() { rehash(1024); }

    // The value stored under `key`, or `value` after storing it; `inserted` says which.
    uint32_t findOrInsert(uint64_t key, uint32_t value, bool& inserted) {
        if (2 * (m_size + 1) > m_keys.size()) rehash(2 * m_keys.size());
        for (size_t i = slot(key);; i = (i + 1) & m_mask) {
            if (m_keys[i] == key) {
                inserted = false;
                return m_values[i];
            }
            if (m_keys[i] == kEmpty) {
                m_keys[i] = key;
                m_values[i] = value;
                ++m_size;
                inserted = true;
                return value;
            }
        }
    }

private:
    static constexpr uint64_t kEmpty = ~uint64_t(0); // no node has index 0xffffffff
    size_t slot(uint64_t key) const { return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> m_shift); }
    void rehash(size_t capacity) {
        std::vector<uint64_t> keys(capacity, kEmpty);
        std::vector<uint32_t> values(capacity);
        m_mask = capacity - 1;
        m_shift = 64 - static_cast<unsigned>(std::countr_zero(capacity));
        for (size_t j = 0; j < m_keys.size(); ++j) {
            if (m_keys[j] == kEmpty) continue;
            size_t i = slot(m_keys[j]);
            while (keys[i] != kEmpty)
                i = (i + 1) & m_mask;
            keys[i] = m_keys[j];
            values[i] = m_values[j];
        }
        m_keys = std::move(keys);
        m_values = std::move(values);
    }

    std::vector<uint64_t> m_keys;
    std::vector<uint32_t> m_values;
    size_t m_size = 0;
    size_t m_mask = 0;
    unsigned m_shift = 0;
};

} // namespace

/*
 * FlameGraphBuilder: the stack trie while samples come in. Nodes are (frame, parent, self); a
 * child is found through one hash map keyed by (parent, frame), so adding a stack of depth d costs
 * O(d) expected. finish() sums totals children-to-parents (children are created after their
 * parents, so one backward pass), drops zero-weight nodes and orders the tree.
 */
class FlameGraphBuilder {
public:
    FlameGraphBuilder() { m_raw.push_back({kNone, kNone, 0}); }
    explicit FlameGraphBuilder(std::vector<FlameFrame> frames) : FlameGraphBuilder() {
        m_frames = std::move(frames);
    }

    uint32_t frame(std::string_view function, std::string_view file, int32_t line) {
        std::string key;
        key.reserve(function.size() + file.size() + 16);
        key.append(function).push_back('\0');
        key.append(file).push_back('\0');
        key += std::to_string(line);
        auto [it, inserted] =
            m_frameIndex.try_emplace(std::move(key), static_cast<uint32_t>(m_frames.size()));
        if (inserted) m_frames.push_back({std::string(function), std::string(file), line});
        return it->second;
    }

    uint32_t child(uint32_t node, uint32_t frame) {
        const uint64_t key = (uint64_t(node) << 32) | frame;
        bool inserted = false;
        const uint32_t index = m_children.findOrInsert(key, static_cast<uint32_t>(m_raw.size()), inserted);
        if (inserted) m_raw.push_back({frame, node, 0});
        return index;
    }

    // A node made by the caller (no child lookup: FlameGraph::inverted builds its levels by sorting).
    uint32_t appendNode(uint32_t parent, uint32_t frame) {
        m_raw.push_back({frame, parent, 0});
        return static_cast<uint32_t>(m_raw.size() - 1);
    }

    // Folds the frames `folding` matches out of every path (flame_graph.h): a folded node's self
    // weight and children go to its caller, and paths that then meet are merged. The outermost
    // frame of a path never folds, so every weight keeps a frame. O(nodes). Returns the number of
    // distinct frames folded.
    uint32_t fold(const FrameFolding& folding) {
        if (folding.empty()) return 0;
        std::vector<uint8_t> folds(m_frames.size());
        for (size_t f = 0; f < m_frames.size(); ++f)
            folds[f] = m_frames[f].function.empty() ? 0 : folding.folds(m_frames[f].function);
        if (std::none_of(folds.begin(), folds.end(), [](uint8_t f) { return f != 0; }))
            return 0; // nothing to fold: the trie stays as built
        std::vector<RawNode> raw;
        raw.reserve(m_raw.size());
        raw.push_back(m_raw[0]);
        std::vector<uint32_t> mapped(m_raw.size(), 0);
        std::vector<uint8_t> seen(m_frames.size());
        uint32_t foldedFrames = 0;
        ChildIndex children;
        for (size_t i = 1; i < m_raw.size(); ++i) {
            const RawNode& n = m_raw[i];
            const uint32_t parent = mapped[n.parent];
            if (folds[n.frame] && parent != 0) {
                mapped[i] = parent;
                foldedFrames += seen[n.frame] ? 0 : 1;
                seen[n.frame] = 1;
            } else {
                const uint64_t key = (uint64_t(parent) << 32) | n.frame;
                bool inserted = false;
                mapped[i] = children.findOrInsert(key, static_cast<uint32_t>(raw.size()), inserted);
                if (inserted) raw.push_back({n.frame, parent, 0});
            }
            addSaturating(raw[mapped[i]].self, n.self);
        }
        m_raw = std::move(raw);
        return foldedFrames;
    }

    // `count` weighted events end at `node`.
    void addSelf(uint32_t node, int64_t weight, uint64_t count = 1) {
        addSaturating(m_raw[node].self, weight);
        m_samples += count;
    }

    FlameGraph finish(FlameWeight weight, bool bottomUp, std::string emptyReason) {
        FlameGraph g;
        g.m_weight = weight;
        g.m_bottomUp = bottomUp;
        g.m_samples = m_samples;
        std::vector<int64_t> total(m_raw.size());
        for (size_t i = 0; i < m_raw.size(); ++i)
            total[i] = m_raw[i].self;
        for (size_t i = m_raw.size(); i-- > 1;)
            addSaturating(total[m_raw[i].parent], total[i]);
        // Children of each raw node with weight, as one array grouped by parent (counting sort).
        std::vector<uint32_t> begin(m_raw.size() + 1, 0);
        for (uint32_t i = 1; i < m_raw.size(); ++i)
            if (total[i] != 0) ++begin[m_raw[i].parent + 1];
        for (size_t i = 1; i < begin.size(); ++i)
            begin[i] += begin[i - 1];
        std::vector<uint32_t> kids(begin.back());
        {
            std::vector<uint32_t> at(begin.begin(), begin.end() - 1);
            for (uint32_t i = 1; i < m_raw.size(); ++i)
                if (total[i] != 0) kids[at[m_raw[i].parent]++] = i;
        }
        std::vector<std::string> texts(m_frames.size());
        for (size_t f = 0; f < m_frames.size(); ++f)
            texts[f] = frameTextOf(m_frames[f]);
        // Breadth first, heaviest child first: siblings get consecutive indices above their parent's.
        g.m_nodes.reserve(kids.size() + 1);
        std::vector<uint32_t> rawOf;
        rawOf.reserve(kids.size() + 1);
        g.m_nodes.push_back({kNone, kNone, total[0], m_raw[0].self, 0, 0});
        rawOf.push_back(0);
        for (uint32_t q = 0; q < g.m_nodes.size(); ++q) {
            const uint32_t raw = rawOf[q];
            auto first = kids.begin() + begin[raw], last = kids.begin() + begin[raw + 1];
            std::sort(first, last, [&](uint32_t a, uint32_t b) {
                if (total[a] != total[b]) return total[a] > total[b];
                return texts[m_raw[a].frame] < texts[m_raw[b].frame];
            });
            g.m_nodes[q].firstChild = static_cast<uint32_t>(g.m_nodes.size());
            g.m_nodes[q].childCount = static_cast<uint32_t>(last - first);
            for (auto k = first; k != last; ++k) {
                g.m_nodes.push_back({m_raw[*k].frame, q, total[*k], m_raw[*k].self, 0, 0});
                rawOf.push_back(*k);
            }
        }
        g.m_frames = std::move(m_frames);
        if (g.root().total == 0 && g.m_samples == 0) g.m_emptyReason = std::move(emptyReason);
        return g;
    }

private:
    struct RawNode {
        uint32_t frame;
        uint32_t parent;
        int64_t self;
    };
    std::vector<RawNode> m_raw;
    std::vector<FlameFrame> m_frames;
    std::unordered_map<std::string, uint32_t> m_frameIndex;
    ChildIndex m_children;
    uint64_t m_samples = 0;
};

namespace {

/*
 * The Python call tree of one thread by time containment: its python_function slices sorted by
 * (start, longer first) are pushed on a stack after popping those that ended at or before the new
 * start, so the stack is the chain of enclosing frames; queries (times, sorted) are answered in the
 * same sweep with the innermost enclosing slice's trie node. O((slices + queries) log) for the sort.
 */
class PythonSweep {
public:
    PythonSweep(const Session& s, FlameGraphBuilder& b) : m_s(s), m_b(b) {}

    struct Query {
        int64_t ts;
        uint32_t index;
    };

    // Calls onQuery(query index, node or kNone) for every query and, with Eager, onSlice(k, slice,
    // node, enclosing k or kNone) for the k-th python_function slice in sweep order. Without Eager,
    // nodes are made only for the frames enclosing a query (a GPU graph needs few of them).
    template <bool Eager, typename OnSlice, typename OnQuery>
    void run(const Track& t, std::vector<Query>& queries, OnSlice&& onSlice, OnQuery&& onQuery) {
        std::vector<uint32_t> py;
        for (uint32_t i = 0; i < t.sliceCount(); ++i)
            if (m_s.kindOf(t, i) == EventKind::PythonFunction) py.push_back(i);
        std::sort(py.begin(), py.end(), [&t](uint32_t a, uint32_t b) {
            if (t.start[a] != t.start[b]) return t.start[a] < t.start[b];
            if (t.dur[a] != t.dur[b]) return t.dur[a] > t.dur[b];
            return a < b;
        });
        std::sort(queries.begin(), queries.end(), [](const Query& a, const Query& b) {
            return a.ts != b.ts ? a.ts < b.ts : a.index < b.index;
        });
        struct Open {
            uint32_t k;
            uint32_t slice;
            int64_t end;
            uint32_t node;
        };
        std::vector<Open> open;
        size_t resolved = 0; // open[0, resolved) have their node
        auto popEnded = [&](int64_t ts) {
            while (!open.empty() && open.back().end <= ts)
                open.pop_back();
            resolved = std::min(resolved, open.size());
        };
        auto top = [&]() {
            for (; resolved < open.size(); ++resolved)
                open[resolved].node =
                    m_b.child(resolved ? open[resolved - 1].node : 0, frameOf(t.names[open[resolved].slice]));
            return open.empty() ? kNone : open.back().node;
        };
        size_t q = 0;
        auto answerBefore = [&](int64_t limit, bool all) {
            for (; q < queries.size() && (all || queries[q].ts < limit); ++q) {
                popEnded(queries[q].ts);
                onQuery(queries[q].index, top());
            }
        };
        for (uint32_t k = 0; k < py.size(); ++k) {
            const uint32_t p = py[k];
            answerBefore(t.start[p], false);
            popEnded(t.start[p]);
            const uint32_t enclosing = open.empty() ? kNone : open.back().k;
            open.push_back({k, p, t.end(p), kNone});
            if constexpr (Eager) onSlice(k, p, top(), enclosing);
        }
        answerBefore(0, true);
    }

private:
    uint32_t frameOf(StringId name) {
        auto [it, inserted] = m_frameOfName.try_emplace(name, 0);
        if (inserted) {
            if (const SourceFrame* f = m_s.frameForName(name))
                it->second = m_b.frame(m_s.str(f->function), m_s.str(f->file), f->line);
            else
                it->second = m_b.frame(m_s.str(name), {}, 0);
        }
        return it->second;
    }

    const Session& m_s;
    FlameGraphBuilder& m_b;
    std::unordered_map<StringId, uint32_t> m_frameOfName;
};

/* Trie leaves of `Call stack` texts (innermost first), each distinct text parsed once. */
class CallStackPaths {
public:
    explicit CallStackPaths(FlameGraphBuilder& b) : m_b(b) {}

    // kNone for an empty stack.
    uint32_t leaf(std::string_view text) {
        if (text.empty()) return kNone;
        auto it = m_leaf.find(std::string(text));
        if (it != m_leaf.end()) return it->second;
        const std::vector<StackFrameText> frames = parseCallStackText(text);
        uint32_t node = frames.empty() ? kNone : 0;
        for (auto f = frames.rbegin(); f != frames.rend(); ++f)
            node = m_b.child(node, m_b.frame(f->function, f->file, f->line));
        m_leaf.emplace(std::string(text), node);
        return node;
    }

private:
    FlameGraphBuilder& m_b;
    std::unordered_map<std::string, uint32_t> m_leaf;
};

bool inside(const FlameOptions& o, int64_t ts) {
    return ts >= o.from && ts < o.to;
}

uint64_t argRefOf(const Track& t, uint32_t slice) {
    return slice < t.argRef.size() ? t.argRef[slice] : Track::kNoArgs;
}

struct Sample {
    uint32_t track; // the CPU track whose stack it has (launch or allocation thread)
    int64_t ts;     // where on that track the stack is read
    uint32_t slice; // the slice there whose `Call stack` is the fallback, or Track::kNoId
    int64_t weight;
    uint32_t node = kNone;
};

// Stacks of samples on CPU tracks: the Python chain at their time, else their `Call stack` text.
void resolveStacks(const Session& s, FlameGraphBuilder& b, std::vector<Sample>& samples,
                   const FlameOptions& o) {
    std::vector<std::vector<PythonSweep::Query>> byTrack(s.tracks().size());
    for (uint32_t i = 0; i < samples.size(); ++i)
        byTrack[samples[i].track].push_back({samples[i].ts, i});
    PythonSweep sweep(s, b);
    for (uint32_t t = 0; t < byTrack.size(); ++t) {
        if (o.cancel && o.cancel->load()) return;
        if (!byTrack[t].empty())
            sweep.run<false>(
                s.tracks()[t], byTrack[t], [](uint32_t, uint32_t, uint32_t, uint32_t) {},
                [&](uint32_t i, uint32_t node) { samples[i].node = node; });
    }
    // Without Python frames: the `Call stack` of the slice itself, else of the innermost enclosing
    // operator that has one (legacy with_stack traces put it on the cpu_op), as callStackFor reads it.
    std::vector<uint64_t> refs;
    std::vector<std::pair<uint32_t, uint32_t>> which; // sample, rank (0: the slice itself)
    for (uint32_t i = 0; i < samples.size(); ++i) {
        const Sample& x = samples[i];
        if (x.node != kNone || x.slice == Track::kNoId) continue;
        const Track& t = s.tracks()[x.track];
        refs.push_back(argRefOf(t, x.slice));
        which.push_back({i, 0});
        const std::vector<uint32_t> chain = s.ancestors(t, x.slice);
        uint32_t rank = 1;
        for (auto it = chain.rbegin(); it != chain.rend(); ++it)
            if (s.kindOf(t, *it) == EventKind::CpuOp) {
                refs.push_back(argRefOf(t, *it));
                which.push_back({i, rank++});
            }
    }
    if (refs.empty()) return;
    CallStackPaths paths(b);
    std::vector<uint32_t> bestRank(samples.size(), UINT32_MAX);
    s.forEachArgValues(
        refs, {"Call stack"},
        [&](size_t k, const std::vector<std::string_view>& v) {
            const auto [i, rank] = which[k];
            if (v[0].empty() || rank >= bestRank[i]) return;
            bestRank[i] = rank;
            samples[i].node = paths.leaf(v[0]);
        },
        o.cancel);
}

void buildGpu(const Session& s, FlameGraphBuilder& b, const FlameOptions& o) {
    // The flow each kernel is attributed by, as in the kernel table (a replayed graph node: where it
    // was captured).
    const LaunchFlows launchOf = LaunchFlows::build(s, LaunchFlows::Follow::Attribution);
    std::vector<Sample> samples;
    int64_t noStack = 0;
    uint64_t noStackCount = 0;
    for (uint32_t ti = 0; ti < s.tracks().size(); ++ti) {
        const Track& t = s.tracks()[ti];
        if (!t.gpu) continue;
        for (uint32_t i = 0; i < t.sliceCount(); ++i) {
            if (s.kindOf(t, i) != EventKind::Kernel || !inside(o, t.start[i])) continue;
            const uint32_t fi = launchOf.flowOf(ti, i);
            if (fi == LaunchFlows::kNone) {
                addSaturating(noStack, t.dur[i]);
                ++noStackCount;
                continue;
            }
            const Flow& f = s.flows()[fi];
            const Track& lt = s.tracks()[f.fromTrack];
            samples.push_back({f.fromTrack, lt.start[f.fromSlice], f.fromSlice, t.dur[i]});
        }
    }
    resolveStacks(s, b, samples, o);
    const uint32_t noStackFrame = b.frame(kNoStackFrame, {}, 0);
    for (const Sample& x : samples) {
        if (x.node != kNone) {
            b.addSelf(x.node, x.weight);
        } else {
            addSaturating(noStack, x.weight);
            ++noStackCount;
        }
    }
    if (noStackCount) {
        b.addSelf(b.child(0, noStackFrame), noStack, noStackCount);
    }
}

void buildCpu(const Session& s, FlameGraphBuilder& b, const FlameOptions& o) {
    PythonSweep sweep(s, b);
    std::vector<PythonSweep::Query> none;
    struct Frame {
        uint32_t slice;
        uint32_t node;
        int64_t self;
    };
    std::vector<Frame> frames; // the track's python_function slices in sweep order
    for (const Track& t : s.tracks()) {
        if (o.cancel && o.cancel->load()) return;
        if (t.gpu) continue;
        frames.clear();
        sweep.run<true>(
            t, none,
            [&](uint32_t, uint32_t slice, uint32_t node, uint32_t enclosing) {
                frames.push_back({slice, node, t.dur[slice]});
                if (enclosing != kNone) {
                    // The part of the child inside its parent (a partial overlap counts once).
                    const uint32_t parent = frames[enclosing].slice;
                    const int64_t overlap = std::min(t.end(slice), t.end(parent)) - t.start[slice];
                    int64_t& parentSelf = frames[enclosing].self;
                    parentSelf = std::max<int64_t>(0, parentSelf - std::max<int64_t>(0, overlap));
                }
            },
            [](uint32_t, uint32_t) {});
        for (const Frame& f : frames)
            if (inside(o, t.start[f.slice])) b.addSelf(f.node, f.self);
    }
}

// A capture without Python samples: each CUDA call's own time and the host time before it (the gap
// from the thread's previous call, host_gaps.h) on the call's `Call stack` (--py-stacks).
void buildCpuBetweenCalls(const Session& s, FlameGraphBuilder& b, const FlameOptions& o) {
    std::vector<Sample> samples;
    for (uint32_t ti = 0; ti < s.tracks().size(); ++ti) {
        const Track& t = s.tracks()[ti];
        if (t.gpu) continue;
        for (const HostCall& c : hostCalls(s, t))
            if (inside(o, t.start[c.slice]))
                samples.push_back({ti, t.start[c.slice], c.slice, c.gapNs + t.dur[c.slice]});
    }
    resolveStacks(s, b, samples, o);
    const uint32_t noStackFrame = b.frame(kNoStackFrame, {}, 0);
    int64_t noStack = 0;
    uint64_t noStackCount = 0;
    for (const Sample& x : samples) {
        if (x.node != kNone) {
            b.addSelf(x.node, x.weight);
        } else {
            addSaturating(noStack, x.weight);
            ++noStackCount;
        }
    }
    if (noStackCount) b.addSelf(b.child(0, noStackFrame), noStack, noStackCount);
}

void buildAlloc(const Session& s, FlameGraphBuilder& b, const FlameOptions& o) {
    std::vector<Sample> samples;
    const auto& events = s.memoryEvents();
    for (uint32_t i = 0; i < events.size(); ++i) {
        const MemoryEvent& m = events[i];
        if (m.bytes == MemoryEvent::kUnknown || m.bytes <= 0 || m.track >= s.tracks().size() ||
            !inside(o, m.ts))
            continue;
        const Track& t = s.tracks()[m.track];
        const uint32_t enclosing = t.enclosingSlice(m.ts);
        samples.push_back({m.track, m.ts, enclosing, m.bytes});
    }
    resolveStacks(s, b, samples, o);
    // No Python stack and no `Call stack` (Kineto without with_stack, captures without --py-stacks):
    // the operators enclosing the record stand in for the frames.
    const uint32_t noStackFrame = b.frame(kNoStackFrame, {}, 0);
    for (size_t k = 0; k < samples.size(); ++k) {
        Sample& x = samples[k];
        if (x.node == kNone) {
            const Track& t = s.tracks()[x.track];
            uint32_t node = 0;
            for (uint32_t op : operatorStackAt(s, t, x.ts))
                node = b.child(node, b.frame(s.str(t.names[op]), {}, 0));
            x.node = node != 0 ? node : b.child(0, noStackFrame);
        }
        b.addSelf(x.node, x.weight);
    }
}

bool hasKind(const Session& s, EventKind kind) {
    for (const Track& t : s.tracks())
        for (size_t i = 0; i < t.sliceCount(); ++i)
            if (s.kindOf(t, i) == kind) return true;
    return false;
}

} // namespace

FlameGraph FlameGraph::build(const Session& s, const FlameOptions& o) {
    FlameGraphBuilder b;
    std::string reason;
    switch (o.weight) {
    case FlameWeight::Gpu:
        buildGpu(s, b, o);
        if (!hasKind(s, EventKind::Kernel)) reason = "no kernels in this session";
        break;
    case FlameWeight::Cpu:
        if (!hasKind(s, EventKind::PythonFunction) && isWarpscopeCapture(s)) {
            buildCpuBetweenCalls(s, b, o);
            if (!hasKind(s, EventKind::Runtime)) reason = "no CUDA calls in this capture";
            break;
        }
        buildCpu(s, b, o);
        if (!hasKind(s, EventKind::PythonFunction))
            reason = "no python_function events: record with torch.profiler(with_stack=True), or capture with "
                     "warpscope-capture --py-stacks (host time between CUDA calls) or --py-sample";
        break;
    case FlameWeight::Alloc:
        buildAlloc(s, b, o);
        if (s.memoryEvents().empty())
            reason = "no allocation records: record with torch.profiler(profile_memory=True)";
        break;
    }
    if (reason.empty()) reason = "nothing of this weight starts in the range";
    const uint32_t foldedFrames = b.fold(o.fold);
    FlameGraph g = b.finish(o.weight, false, reason);
    g.m_foldedFrames = foldedFrames;
    if (o.bottomUp) return lazilyInverted(std::move(g));
    return g;
}

/*
 * LazyCallers: the pending callers of a lazy inverted graph. A node of the inverted tree stands for
 * the reversed paths (innermost frame first) that share its frames so far; each of its items is one
 * top-down node at this level of such paths ("cursor") with the self weight of the paths through it.
 * Two paths that reach the same top-down node go on identically, so they are one item. Expanding a
 * node steps each item to its cursor's parent and groups them by that parent's frame: one child per
 * frame. The children's items are kept contiguous in one pool per expansion, freed once each of
 * those children has been expanded in turn.
 */
struct FlameGraph::LazyCallers {
    struct Item {
        uint32_t cursor;
        int64_t weight;
    };
    struct Caller {
        uint32_t frame;
        uint32_t cursor;
        int64_t weight;
    };
    struct Pending {
        uint32_t pool = kNone; // kNone: expanded, or no callers left
        uint32_t begin = 0;
        uint32_t end = 0;
    };

    std::vector<FlameNode> topDown; // the tree being inverted (its parents are the callers)
    std::vector<uint32_t> textRank; // frame -> place in frame-text order (children's tie-break)
    std::vector<Pending> pending;   // per node of the inverted graph
    std::vector<std::vector<Item>> pools;
    std::vector<uint32_t> poolLeft; // children of a pool not expanded yet
    std::vector<uint32_t> counts;   // scratch of the counting sort

    // Appends the children of `parent` made from `callers` (each: the frame of the child it goes to,
    // its cursor there, its weight), heaviest first as the eager tree orders them.
    void makeChildren(std::vector<FlameNode>& nodes, uint32_t parent, std::vector<Caller>& callers) {
        // By frame, cursors ascending within a frame. The counting sort is stable, and cursors come
        // in ascending order (a breadth-first tree's parents ascend with their children), so equal
        // cursors are adjacent; were they not, they would stay separate items, still correct.
        const size_t frameCount = textRank.size();
        std::vector<Caller> sorted;
        if (callers.size() * 4 >= frameCount) {
            counts.assign(frameCount + 1, 0);
            for (const Caller& c : callers)
                ++counts[c.frame + 1];
            for (size_t f = 1; f <= frameCount; ++f)
                counts[f] += counts[f - 1];
            sorted.assign(callers.size(), Caller{0, 0, 0});
            for (const Caller& c : callers)
                sorted[counts[c.frame]++] = c;
        } else {
            sorted = std::move(callers);
            std::sort(sorted.begin(), sorted.end(), [](const Caller& a, const Caller& b) {
                return a.frame != b.frame ? a.frame < b.frame : a.cursor < b.cursor;
            });
        }
        struct Child {
            uint32_t frame;
            int64_t total;
            int64_t self;
            uint32_t begin, end; // its items with callers in `pool`
        };
        std::vector<Child> kids;
        std::vector<Item> pool;
        for (size_t r = 0; r < sorted.size();) {
            Child c{sorted[r].frame, 0, 0, static_cast<uint32_t>(pool.size()), 0};
            while (r < sorted.size() && sorted[r].frame == c.frame) {
                const uint32_t cursor = sorted[r].cursor;
                int64_t w = 0;
                for (; r < sorted.size() && sorted[r].frame == c.frame && sorted[r].cursor == cursor; ++r)
                    addSaturating(w, sorted[r].weight);
                addSaturating(c.total, w);
                const uint32_t up = topDown[cursor].parent;
                if (up == 0 || up == kNone)
                    addSaturating(c.self, w); // the path ends here: its outermost frame
                else
                    pool.push_back({cursor, w});
            }
            c.end = static_cast<uint32_t>(pool.size());
            if (c.total != 0) kids.push_back(c);
        }
        std::sort(kids.begin(), kids.end(), [this](const Child& a, const Child& b) {
            if (a.total != b.total) return a.total > b.total;
            if (textRank[a.frame] != textRank[b.frame]) return textRank[a.frame] < textRank[b.frame];
            return a.frame < b.frame;
        });
        nodes[parent].firstChild = static_cast<uint32_t>(nodes.size());
        nodes[parent].childCount = static_cast<uint32_t>(kids.size());
        const uint32_t poolIndex = static_cast<uint32_t>(pools.size());
        uint32_t withCallers = 0;
        for (const Child& c : kids) {
            nodes.push_back({c.frame, parent, c.total, c.self, 0, 0});
            if (c.end > c.begin) {
                pending.push_back({poolIndex, c.begin, c.end});
                ++withCallers;
            } else {
                pending.push_back({});
            }
        }
        if (withCallers) {
            pools.push_back(std::move(pool));
            poolLeft.push_back(withCallers);
        }
    }
};

FlameGraph::FlameGraph() = default;
FlameGraph::FlameGraph(FlameGraph&&) noexcept = default;
FlameGraph& FlameGraph::operator=(FlameGraph&&) noexcept = default;
FlameGraph::~FlameGraph() = default;

FlameGraph FlameGraph::lazilyInverted(FlameGraph topDown) {
    FlameGraph g;
    g.m_weight = topDown.m_weight;
    g.m_bottomUp = !topDown.m_bottomUp;
    g.m_samples = topDown.m_samples;
    g.m_emptyReason = std::move(topDown.m_emptyReason);
    g.m_foldedFrames = topDown.m_foldedFrames;
    g.m_frames = std::move(topDown.m_frames);
    g.m_lazy = std::make_unique<LazyCallers>();
    LazyCallers& lazy = *g.m_lazy;
    lazy.topDown = std::move(topDown.m_nodes);
    {
        std::vector<std::string> texts(g.m_frames.size());
        for (size_t f = 0; f < texts.size(); ++f)
            texts[f] = frameTextOf(g.m_frames[f]);
        std::vector<uint32_t> order(texts.size());
        std::iota(order.begin(), order.end(), 0u);
        std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
            return texts[a] != texts[b] ? texts[a] < texts[b] : a < b;
        });
        lazy.textRank.resize(order.size());
        for (uint32_t i = 0; i < order.size(); ++i)
            lazy.textRank[order[i]] = i;
    }
    // The root's children: every top-down node with self weight is a path, its own frame innermost.
    std::vector<LazyCallers::Caller> leaves;
    for (uint32_t n = 1; n < lazy.topDown.size(); ++n)
        if (lazy.topDown[n].self != 0) leaves.push_back({lazy.topDown[n].frame, n, lazy.topDown[n].self});
    g.m_nodes.push_back({kNone, kNone, 0, 0, 0, 0});
    lazy.pending.push_back({});
    lazy.makeChildren(g.m_nodes, 0, leaves);
    for (uint32_t c = 0; c < g.m_nodes[0].childCount; ++c)
        addSaturating(g.m_nodes[0].total, g.m_nodes[1 + c].total);
    return g;
}

FlameGraph FlameGraph::withNodes(std::vector<FlameNode> nodes, bool bottomUp) const {
    FlameGraph g;
    g.m_weight = m_weight;
    g.m_bottomUp = bottomUp;
    g.m_nodes = std::move(nodes);
    g.m_frames = m_frames;
    g.m_samples = m_samples;
    g.m_emptyReason = m_emptyReason;
    g.m_foldedFrames = m_foldedFrames;
    return g;
}

FlameGraph FlameGraph::invertedLazily() const {
    if (m_lazy) return inverted();
    return lazilyInverted(withNodes(m_nodes, m_bottomUp));
}

bool FlameGraph::isExpanded(uint32_t node) const {
    return !m_lazy || node >= m_lazy->pending.size() || m_lazy->pending[node].pool == kNone;
}

void FlameGraph::expand(uint32_t node) const {
    if (isExpanded(node)) return;
    LazyCallers& lazy = *m_lazy;
    const LazyCallers::Pending p = lazy.pending[node];
    lazy.pending[node] = {};
    std::vector<LazyCallers::Caller> callers;
    callers.reserve(p.end - p.begin);
    const std::vector<LazyCallers::Item>& items = lazy.pools[p.pool];
    for (uint32_t i = p.begin; i < p.end; ++i) {
        const uint32_t up = lazy.topDown[items[i].cursor].parent; // not the root: items have callers
        callers.push_back({lazy.topDown[up].frame, up, items[i].weight});
    }
    if (--lazy.poolLeft[p.pool] == 0) std::vector<LazyCallers::Item>().swap(lazy.pools[p.pool]);
    lazy.makeChildren(m_nodes, node, callers);
}

void FlameGraph::expandAtLeast(int64_t minTotal) const {
    if (!m_lazy) return;
    // Children come after their parent, so one pass reaches the nodes made on the way.
    for (uint32_t n = 0; n < m_nodes.size(); ++n)
        if (n == 0 || m_nodes[n].total >= minTotal) expand(n);
}

FlameMatch FlameGraph::match(const std::vector<bool>& frameMatches) const {
    // A stack is matched when a frame on it matches, whichever way the tree is drawn; so the
    // top-down tree of a lazy graph answers for it. Parents come before their children.
    const std::vector<FlameNode>& nodes = m_lazy ? m_lazy->topDown : m_nodes;
    FlameMatch m;
    std::vector<uint8_t> covered(nodes.size(), 0), seen(m_frames.size(), 0); // bytes: faster than bits
    for (uint32_t n = 1; n < nodes.size(); ++n) {
        const FlameNode& x = nodes[n];
        const bool hit = x.frame < frameMatches.size() && frameMatches[x.frame];
        covered[n] = hit || (x.parent != kNone && covered[x.parent]);
        if (covered[n]) addSaturating(m.total, x.self);
        if (hit && x.total != 0 && !seen[x.frame]) {
            seen[x.frame] = 1;
            ++m.frames;
        }
    }
    return m;
}

bool FlameGraph::withoutAnyStack() const { return root().total > 0 && withoutStackTotal() == root().total; }

int64_t FlameGraph::withoutStackTotal() const {
    int64_t total = 0;
    const FlameNode& r = root();
    for (uint32_t c = r.firstChild; c < r.firstChild + r.childCount && c < m_nodes.size(); ++c)
        if (m_nodes[c].frame < m_frames.size() && m_frames[m_nodes[c].frame].function == kNoStackFrame)
            total += m_nodes[c].total;
    return total;
}

std::string FlameGraph::frameText(uint32_t frame) const {
    return frame < m_frames.size() ? frameTextOf(m_frames[frame]) : std::string();
}

std::vector<uint32_t> FlameGraph::path(uint32_t node) const {
    std::vector<uint32_t> out;
    for (uint32_t n = node; n != 0 && n < m_nodes.size(); n = m_nodes[n].parent)
        out.push_back(n);
    std::reverse(out.begin(), out.end());
    return out;
}

/*
 * The inverted tree level by level: each top-down node with self weight is one item whose cursor
 * walks up its path (innermost frame first). At each level the items are grouped by the inverted node
 * they hang under, and within a group sorted by their cursor's frame: each run of equal frames is one
 * new inverted node, made in breadth-first order, so no (parent, frame) hash lookup is needed and
 * memory is read sequentially. A graph whose million distinct nodes give a 15 million node inverted
 * tree spent most of its time in those hash lookups (cache misses) before.
 * Cost: O(sum of the self nodes' depths x log of a group's size).
 */
FlameGraph FlameGraph::inverted() const {
    if (m_lazy) // the tree this lazy one was made from is its inversion
        return withNodes(m_lazy->topDown, !m_bottomUp);
    FlameGraphBuilder b(m_frames);
    struct Item {
        uint32_t frame;  // the cursor's frame: the frame of the node this item makes at this level
        uint32_t cursor; // the top-down node at this level of the item's reversed path
        uint32_t under;  // the inverted node it hangs under
        uint32_t origin; // the top-down node whose self weight it carries
    };
    std::vector<Item> items, next;
    for (uint32_t n = 1; n < m_nodes.size(); ++n)
        if (m_nodes[n].self != 0) items.push_back({m_nodes[n].frame, n, 0, n});
    while (!items.empty()) {
        next.clear();
        // Items are in order of `under` (the nodes of the level above were made in that order).
        for (size_t g = 0; g < items.size();) {
            size_t e = g + 1;
            while (e < items.size() && items[e].under == items[g].under)
                ++e;
            std::sort(items.begin() + static_cast<std::ptrdiff_t>(g), items.begin() + static_cast<std::ptrdiff_t>(e),
                      [](const Item& x, const Item& y) { return x.frame != y.frame ? x.frame < y.frame : x.origin < y.origin; });
            for (size_t r = g; r < e;) {
                const uint32_t frame = items[r].frame;
                const uint32_t node = b.appendNode(items[r].under, frame);
                for (; r < e && items[r].frame == frame; ++r) {
                    const uint32_t up = m_nodes[items[r].cursor].parent;
                    if (up == 0 || up == FlameNode::kNone)
                        b.addSelf(node, m_nodes[items[r].origin].self, 0);
                    else
                        next.push_back({m_nodes[up].frame, up, node, items[r].origin});
                }
            }
            g = e;
        }
        items.swap(next);
    }
    FlameGraph g = b.finish(m_weight, !m_bottomUp, m_emptyReason);
    g.m_samples = m_samples;
    g.m_foldedFrames = m_foldedFrames;
    return g;
}

std::string FlameGraph::folded() const {
    expandAll();
    std::vector<std::string> texts(m_frames.size());
    for (size_t f = 0; f < m_frames.size(); ++f) {
        texts[f] = frameTextOf(m_frames[f]);
        for (char& c : texts[f])
            if (c == ';')
                c = ',';
            else if (c == '\n' || c == '\r')
                c = ' ';
    }
    // Depth first, heaviest child first; `prefix` holds the frames' text down to the current node.
    std::string out;
    std::string prefix;
    std::vector<std::pair<uint32_t, size_t>> todo; // node, prefix length before its frame
    const FlameNode& root = m_nodes[0];
    for (uint32_t k = root.childCount; k-- > 0;)
        todo.push_back({root.firstChild + k, 0});
    while (!todo.empty()) {
        const auto [n, length] = todo.back();
        todo.pop_back();
        const FlameNode& node = m_nodes[n];
        prefix.resize(length);
        if (!prefix.empty()) prefix += ';';
        prefix += texts[node.frame];
        if (node.self != 0) out.append(prefix).append(" ").append(std::to_string(node.self)).push_back('\n');
        for (uint32_t k = node.childCount; k-- > 0;)
            todo.push_back({node.firstChild + k, prefix.size()});
    }
    return out;
}

} // namespace ws
