#include "analysis/graph_replays.h"

#include "analysis/launch_flows.h"
#include "analysis/program_frames.h"
#include "model/saturating.h"
#include "model/session.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <numeric>
#include <unordered_map>

namespace ws {

namespace {

constexpr uint32_t kNone = GraphNodeRow::kNone;

bool isGraphLaunchName(std::string_view name) { return name.find("GraphLaunch") != std::string_view::npos; }

// The Python frames around a host slice, innermost first: its python_function ancestors (a trace
// recorded with stacks), else its own `Call stack` argument (a capture, Nsight Systems).
std::vector<StackFrameText> framesOf(const Session& s, uint32_t track, uint32_t slice) {
    std::vector<StackFrameText> out;
    const Track& t = s.tracks()[track];
    const std::vector<uint32_t> up = s.ancestors(t, slice);
    for (auto it = up.rbegin(); it != up.rend(); ++it)
        if (s.kindOf(t, *it) == EventKind::PythonFunction)
            if (const SourceFrame* f = s.frameForName(t.names[*it]))
                out.push_back({std::string(s.str(f->file)), f->line, std::string(s.str(f->function))});
    if (out.empty())
        out = s.callStack(t, slice);
    std::erase_if(out, [](const StackFrameText& f) { return f.line <= 0 || f.file.empty(); });
    return out;
}

// programFrame() of frames with a file and line (framesOf), nullptr for none.
const StackFrameText* programFrameOf(const std::vector<StackFrameText>& frames) {
    const auto it = programFrame(frames.begin(), frames.end(), [](const StackFrameText& f) { return std::string_view(f.file); });
    return it == frames.end() ? nullptr : &*it;
}

bool sameFrame(const StackFrameText& a, const StackFrameText& b) {
    return a.line == b.line && a.file == b.file && a.function == b.function;
}

// The innermost operator around a host slice (its enclosing cpu_op slices), kEmptyString if none.
StringId operatorAround(const Session& s, uint32_t track, uint32_t slice) {
    const Track& t = s.tracks()[track];
    const std::vector<uint32_t> up = s.ancestors(t, slice);
    for (auto it = up.rbegin(); it != up.rend(); ++it)
        if (s.kindOf(t, *it) == EventKind::CpuOp)
            return t.names[*it];
    return kEmptyString;
}

struct Activity {
    uint64_t launch; // launch call (track << 32 | slice)
    int64_t start;
    uint32_t track, slice;
    uint32_t originTrack, originSlice;
};

void describe(const Session& s, GraphRow& g, const std::atomic<bool>* cancel) {
    // Outer frames every node's capture stack shares, outermost first, cut as nodes disagree.
    std::vector<StackFrameText> common;
    bool first = true;
    for (GraphNodeRow& n : g.nodes) {
        if (cancel && cancel->load())
            return;
        if (n.originTrack == kNone)
            continue;
        n.op = operatorAround(s, n.originTrack, n.originSlice);
        const std::vector<StackFrameText> frames = framesOf(s, n.originTrack, n.originSlice);
        if (const StackFrameText* f = programFrameOf(frames)) {
            n.file = f->file;
            n.line = f->line;
            n.function = f->function;
        }
        if (frames.empty())
            continue;
        std::vector<StackFrameText> outer(frames.rbegin(), frames.rend());
        if (first) {
            common = std::move(outer);
            first = false;
            continue;
        }
        size_t k = 0;
        while (k < common.size() && k < outer.size() && sameFrame(common[k], outer[k]))
            ++k;
        common.resize(k);
    }
    // A graph of one node shares all its stack: its name is the node's own line.
    std::vector<StackFrameText> shared(common.rbegin(), common.rend()); // innermost first
    if (shared.empty() && g.launchTrack != kNone)
        shared = framesOf(s, g.launchTrack, g.launchSlice); // no capture known: the line that replays it
    if (const StackFrameText* f = programFrameOf(shared)) {
        g.file = f->file;
        g.line = f->line;
        g.function = f->function;
    }
}

} // namespace

std::string GraphRow::label() const {
    if (line <= 0)
        return "graph " + std::to_string(number);
    return (function.empty() ? std::string() : function + " ") + "(" + shortLocation(file, line) + ")";
}

GraphReplays GraphReplays::build(const Session& s, const GraphReplaysOptions& o) {
    GraphReplays out;
    const std::vector<Track>& tracks = s.tracks();
    const uint32_t graphCategory = LaunchFlows::graphNodeCategory(s);
    if (graphCategory == LaunchFlows::kNone) {
        // Most sessions replay no graph: no pass over their flows. The graph launch calls as the
        // formats name them (Kineto, Nsight Systems, nvprof, rocprofiler; captures rename theirs only
        // when they have graph_node flows), looked up whole: O(1), not a scan of every string.
        static const char* const kLaunchNames[] = {
            "cudaGraphLaunch", "cudaGraphLaunch_ptsz", "cudaGraphLaunch_v10000", "cudaGraphLaunch_ptsz_v10000",
            "cuGraphLaunch",   "cuGraphLaunch_ptsz",   "hipGraphLaunch",         "hipGraphLaunch_spt"};
        if (std::none_of(std::begin(kLaunchNames), std::end(kLaunchNames),
                         [&](const char* n) { return s.strings().find(n) != StringTable::kNotFound; }))
            return out;
    }
    const LaunchFlows launches = LaunchFlows::build(s, LaunchFlows::Follow::Launch);
    const LaunchFlows origins = graphCategory == LaunchFlows::kNone ? LaunchFlows()
                                                                     : LaunchFlows::build(s, LaunchFlows::Follow::Attribution);
    std::vector<Activity> acts;
    for (uint32_t ti = 0; ti < tracks.size(); ++ti) {
        const Track& t = tracks[ti];
        if (!t.gpu)
            continue;
        for (uint32_t i = 0; i < t.sliceCount(); ++i) {
            // A replay recorded as one span (--graph-trace=graph) is a graph of one node.
            if (const EventKind k = s.kindOf(t, i); !isGpuActivity(k) && k != EventKind::GpuGraph)
                continue;
            const uint32_t lf = launches.flowOf(ti, i);
            if (lf == LaunchFlows::kNone)
                continue;
            const Flow& l = s.flows()[lf];
            const Track& lt = tracks[l.fromTrack];
            if (lt.start[l.fromSlice] < o.from || lt.start[l.fromSlice] >= o.to)
                continue;
            Activity a{uint64_t(l.fromTrack) << 32 | l.fromSlice, t.start[i], ti, i, kNone, kNone};
            if (const uint32_t af = origins.flowOf(ti, i); af != LaunchFlows::kNone && s.flows()[af].category == graphCategory) {
                a.originTrack = s.flows()[af].fromTrack;
                a.originSlice = s.flows()[af].fromSlice;
            }
            if (a.originTrack != kNone || isGraphLaunchName(s.str(lt.names[l.fromSlice])))
                acts.push_back(a);
        }
    }
    std::sort(acts.begin(), acts.end(), [](const Activity& a, const Activity& b) {
        return a.launch != b.launch ? a.launch < b.launch
               : a.start != b.start ? a.start < b.start
                                    : (uint64_t(a.track) << 32 | a.slice) < (uint64_t(b.track) << 32 | b.slice);
    });
    // Replays in the order of their first activity, so graphs are numbered by first replay.
    std::vector<std::pair<size_t, size_t>> replays; // [begin, end) into acts
    for (size_t i = 0; i < acts.size();) {
        size_t j = i;
        while (j < acts.size() && acts[j].launch == acts[i].launch)
            ++j;
        replays.emplace_back(i, j);
        i = j;
    }
    std::sort(replays.begin(), replays.end(), [&](const auto& a, const auto& b) {
        return acts[a.first].start != acts[b.first].start ? acts[a.first].start < acts[b.first].start : a.first < b.first;
    });
    auto nodeKey = [&](const Activity& a, size_t position) {
        return a.originTrack != kNone ? (uint64_t(1) << 63) | (uint64_t(a.originTrack) << 32) | a.originSlice
                                      : (uint64_t(position) << 32) | tracks[a.track].names[a.slice];
    };
    std::map<std::vector<uint64_t>, uint32_t> graphBySignature;
    std::vector<std::unordered_map<uint64_t, uint32_t>> nodeIndex; // per graph: node key -> index
    std::vector<uint64_t> keys, signature;
    out.m_graphOf.resize(tracks.size());
    out.m_nodeOf.resize(tracks.size());
    for (const auto& [begin, end] : replays) {
        if (o.cancel && o.cancel->load())
            break;
        keys.clear();
        for (size_t k = begin; k < end; ++k)
            keys.push_back(nodeKey(acts[k], k - begin));
        signature = keys;
        std::sort(signature.begin(), signature.end());
        auto [it, fresh] = graphBySignature.try_emplace(signature, static_cast<uint32_t>(out.m_graphs.size()));
        const uint32_t gi = it->second;
        if (fresh) {
            GraphRow g;
            g.number = gi + 1;
            g.firstStart = acts[begin].start;
            g.launchTrack = static_cast<uint32_t>(acts[begin].launch >> 32);
            g.launchSlice = static_cast<uint32_t>(acts[begin].launch);
            std::unordered_map<uint64_t, uint32_t> index;
            for (size_t k = begin; k < end; ++k) {
                const Activity& a = acts[k];
                GraphNodeRow n;
                n.index = static_cast<uint32_t>(g.nodes.size());
                n.name = tracks[a.track].names[a.slice];
                n.kind = s.kindOf(tracks[a.track], a.slice);
                n.firstTrack = a.track;
                n.firstSlice = a.slice;
                n.originTrack = a.originTrack;
                n.originSlice = a.originSlice;
                g.attributedNodes += a.originTrack != kNone;
                index.emplace(keys[k - begin], n.index);
                g.nodes.push_back(std::move(n));
            }
            out.m_graphs.push_back(std::move(g));
            nodeIndex.push_back(std::move(index));
        }
        GraphRow& g = out.m_graphs[gi];
        int64_t first = INT64_MAX, last = INT64_MIN;
        for (size_t k = begin; k < end; ++k) {
            const Activity& a = acts[k];
            const Track& t = tracks[a.track];
            const int64_t dur = t.dur[a.slice];
            first = std::min(first, t.start[a.slice]);
            last = std::max(last, t.end(a.slice));
            const uint32_t ni = nodeIndex[gi].at(keys[k - begin]);
            GraphNodeRow& n = g.nodes[ni];
            ++n.calls;
            addSaturating(n.totalNs, dur);
            n.minNs = std::min(n.minNs, dur);
            n.maxNs = std::max(n.maxNs, dur);
            addSaturating(g.busyNs, dur);
            addSaturating(out.m_replayedNs, dur);
            ++out.m_activities;
            out.m_attributed += a.originTrack != kNone;
            std::vector<uint32_t>& graphOf = out.m_graphOf[a.track];
            if (graphOf.empty()) {
                graphOf.assign(t.sliceCount(), 0);
                out.m_nodeOf[a.track].assign(t.sliceCount(), 0);
            }
            graphOf[a.slice] = gi + 1;
            out.m_nodeOf[a.track][a.slice] = ni;
        }
        ++g.replays;
        const int64_t span = last - first;
        addSaturating(g.spanNs, span);
        g.minReplayNs = std::min(g.minReplayNs, span);
        g.maxReplayNs = std::max(g.maxReplayNs, span);
    }
    if (o.describe)
        for (GraphRow& g : out.m_graphs)
            describe(s, g, o.cancel);
    return out;
}

std::optional<std::pair<uint32_t, uint32_t>> GraphReplays::nodeOf(uint32_t track, uint32_t slice) const {
    if (track >= m_graphOf.size() || slice >= m_graphOf[track].size() || m_graphOf[track][slice] == 0)
        return std::nullopt;
    return std::make_pair(m_graphOf[track][slice] - 1, m_nodeOf[track][slice]);
}

std::vector<uint32_t> GraphReplays::slowestNodes(size_t g) const {
    if (g >= m_graphs.size())
        return {};
    const std::vector<GraphNodeRow>& nodes = m_graphs[g].nodes;
    std::vector<uint32_t> order(nodes.size(), 0);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return nodes[a].totalNs > nodes[b].totalNs; });
    return order;
}

} // namespace ws
