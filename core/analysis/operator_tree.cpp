#include "analysis/operator_tree.h"
#include "analysis/launch_flows.h"
#include "model/prefault.h"
#include "model/saturating.h"

#include "analysis/kernel_table.h"
#include "model/arg_columns.h"
#include "model/session.h"

#include <algorithm>
#include <cstdint>
#include <array>
#include <optional>
#include <unordered_map>

namespace ws {

namespace {

constexpr uint32_t kNone = OperatorNode::kNone;

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool endsWith(std::string_view s, std::string_view p) {
    return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

bool isDataLoaderName(std::string_view n) {
    return (startsWith(n, "enumerate(DataLoader)#") && endsWith(n, ".__next__")) ||
           startsWith(n, "enumerate(DataPipe)#");
}

// tb's NcclOpNameSet / GlooOpNameSet.
bool isCollectiveName(std::string_view n) {
    std::string_view op;
    if (startsWith(n, "nccl:"))
        op = n.substr(5);
    else if (startsWith(n, "gloo:"))
        op = n.substr(5);
    else
        return false;
    return op == "broadcast" || op == "reduce" || op == "all_reduce" || op == "all_gather" ||
           op == "reduce_scatter";
}

// The node kind of a host slice, or nothing when the slice is not a tree node (tb's
// create_operator_node + is_operator_node, FORMATS.md 3.2).
std::optional<OperatorNodeKind> classify(EventKind kind, std::string_view name) {
    if (kind == EventKind::CpuOp) {
        if (startsWith(name, "ProfilerStep#"))
            return OperatorNodeKind::ProfilerStep;
        if (isDataLoaderName(name) || startsWith(name, "Optimizer.") || name == "DataParallel.forward" ||
            name == "DistributedDataParallel.forward")
            return OperatorNodeKind::ExcludedOperator;
        return OperatorNodeKind::Operator;
    }
    if (kind == EventKind::UserAnnotation) {
        if (startsWith(name, "ProfilerStep#"))
            return OperatorNodeKind::ProfilerStep;
        if (isDataLoaderName(name) || startsWith(name, "Optimizer.step") || isCollectiveName(name))
            return OperatorNodeKind::Annotation;
    }
    return std::nullopt;
}

bool isCall(EventKind k) { return k == EventKind::Runtime || k == EventKind::Driver; }

bool isOp(OperatorNodeKind k) { return k == OperatorNodeKind::Operator || k == OperatorNodeKind::ExcludedOperator; }

// Compact JSON from forEachArgValues ("[[1,141],[]]", "[\"float\",\"long int\"]") in the spacing
// tb and torch print: "[[1, 141], []]", "[float, long int]" (quotes dropped: dtype names have none).
std::string prettyList(std::string_view json, bool dropQuotes) {
    std::string out;
    out.reserve(json.size() + json.size() / 4);
    for (char c : json) {
        if (dropQuotes && c == '"')
            continue;
        out += c;
        if (c == ',')
            out += ' ';
    }
    return out;
}

// Bit of a slice's inherited Python stack id: the slice is inside a runtime call.
constexpr uint32_t kUnderCall = 0x80000000u;

// The parent of each slice of a track, slices asked in index order (rows in order, each sorted by
// start): kNone for depth 0 or when the row above in the same lane does not contain it. Merges each
// row with the row above, so a whole track costs one pass over its slices.
class ParentCursor {
public:
    explicit ParentCursor(const Track& t) : m_t(t) {}
    uint32_t next(uint32_t i) {
        while (m_row + 1 < m_t.rowBegin.size() && i >= m_t.rowBegin[m_row + 1]) {
            ++m_row; // i opens a row (maybe after empty ones): start the merge with the row above
            m_j = m_row > 0 ? m_t.rowBegin[m_row - 1] : 0;
        }
        const size_t r = m_row;
        if (r == 0 || m_t.rowDepth[r] == 0 || m_t.rowLane[r - 1] != m_t.rowLane[r])
            return kNone;
        const uint32_t jEnd = m_t.rowBegin[r];
        if (m_j == jEnd)
            return kNone;
        while (m_j + 1 < jEnd && m_t.start[m_j + 1] <= m_t.start[i])
            ++m_j;
        return m_t.start[m_j] <= m_t.start[i] && m_t.end(m_j) >= m_t.end(i) ? m_j : kNone;
    }

private:
    const Track& m_t;
    size_t m_row = 0;
    uint32_t m_j = 0;
};

} // namespace

bool operatorIsTensorCoreEligible(std::string_view name) {
    // tb's TC_OP_Allowlist (ops autocast runs in fp16, plus the backward ops seen launching their
    // kernels), then what current torch calls the same work: *Backward0 autograd nodes,
    // convolution_backward, scaled/fused attention and scaled mm. Exact names: a wrapper such as
    // "autograd::engine::evaluate_function: MmBackward0" is not itself eligible, its child is.
    static const std::array<std::string_view, 64> kNames = {
        "aten::_convolution", "aten::conv1d", "aten::conv2d", "aten::conv3d", "aten::conv_tbc",
        "aten::conv_transpose1d", "aten::conv_transpose2d", "aten::conv_transpose3d", "aten::convolution",
        "aten::cudnn_convolution", "aten::cudnn_convolution_transpose", "aten::prelu", "aten::addmm",
        "aten::addmv", "aten::addr", "aten::matmul", "aten::mm", "aten::mv", "aten::linear", "aten::addbmm",
        "aten::baddbmm", "aten::bmm", "aten::chain_matmul", "aten::linalg_multi_dot",
        "aten::_thnn_fused_lstm_cell", "aten::_thnn_fused_gru_cell", "aten::lstm_cell", "aten::gru_cell",
        "aten::rnn_tanh_cell", "aten::rnn_relu_cell", "CudnnConvolutionBackward", "BmmBackward0",
        "aten::cudnn_convolution_transpose_backward", "CudnnConvolutionTransposeBackward", "MmBackward",
        "aten::cudnn_convolution_backward_weight", "aten::addmm_", "AddmvBackward", "MvBackward",
        "aten::cudnn_convolution_transpose_backward_weight", "aten::cudnn_convolution_transpose_backward_input",
        "AddmmBackward", "aten::cudnn_convolution_backward_input", "AddbmmBackward",
        "aten::cudnn_convolution_backward",
        // modern torch
        "MmBackward0", "AddmmBackward0", "AddbmmBackward0", "BaddbmmBackward0", "MvBackward0", "AddmvBackward0",
        "ConvolutionBackward0", "aten::convolution_backward", "aten::_scaled_mm", "aten::baddbmm_",
        "aten::scaled_dot_product_attention", "aten::_scaled_dot_product_flash_attention",
        "aten::_scaled_dot_product_efficient_attention", "aten::_scaled_dot_product_cudnn_attention",
        "aten::_flash_attention_forward", "aten::_flash_attention_backward",
        "aten::_scaled_dot_product_flash_attention_backward", "aten::_efficient_attention_forward",
        "aten::_efficient_attention_backward"};
    return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

uint32_t OperatorTree::internArgs(const OperatorArgs& args) {
    if (args == OperatorArgs{})
        return 0;
    auto [it, fresh] = m_argIds.try_emplace(args, static_cast<uint32_t>(m_args.size()));
    if (fresh)
        m_args.push_back(args);
    return it->second;
}

OperatorTimes OperatorTree::wideTimes(uint32_t i) const {
    const auto it = m_wideTimes.find(i);
    return it == m_wideTimes.end() ? OperatorTimes{} : it->second;
}

void OperatorTree::setTimes(uint32_t i, const OperatorTimes& t) {
    OperatorNode& n = m_nodes[i];
    auto fits = [](int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; };
    if (!n.wide && fits(t.selfHostNs) && fits(t.selfDeviceNs) && fits(t.deviceNs) && fits(t.selfTcNs) && fits(t.tcNs)) {
        n.m_selfHost = static_cast<int32_t>(t.selfHostNs);
        n.m_selfDevice = static_cast<int32_t>(t.selfDeviceNs);
        n.m_device = static_cast<int32_t>(t.deviceNs);
        n.m_selfTc = static_cast<int32_t>(t.selfTcNs);
        n.m_tc = static_cast<int32_t>(t.tcNs);
        return;
    }
    n.wide = true;
    n.m_selfHost = n.m_selfDevice = n.m_device = n.m_selfTc = n.m_tc = 0;
    m_wideTimes[i] = t;
}

uint32_t OperatorTree::intern(std::string_view text) {
    if (text.empty())
        return 0;
    auto [it, fresh] = m_textIds.try_emplace(std::string(text), static_cast<uint32_t>(m_texts.size()));
    if (fresh)
        m_texts.emplace_back(text);
    return it->second;
}

OperatorTree OperatorTree::build(const Session& session, const OperatorTreeOptions& options) {
    OperatorTree tree;
    const std::vector<Track>& tracks = session.tracks();
    const std::vector<Flow>& flows = session.flows();
    tree.m_trackNodeBegin.assign(tracks.size() + 1, 0);

    // Flows by source track (counting sort), so each host track's flows are handled while its
    // per-slice scratch arrays are alive.
    std::vector<uint32_t> flowBegin(tracks.size() + 1, 0);
    for (const Flow& f : flows)
        if (f.fromTrack < tracks.size())
            ++flowBegin[f.fromTrack + 1];
    for (size_t t = 0; t < tracks.size(); ++t)
        flowBegin[t + 1] += flowBegin[t];
    std::vector<uint32_t> flowsByTrack(flowBegin.back());
    {
        std::vector<uint32_t> fill(flowBegin.begin(), flowBegin.end() - 1);
        for (uint32_t f = 0; f < flows.size(); ++f)
            if (flows[f].fromTrack < tracks.size())
                flowsByTrack[fill[flows[f].fromTrack]++] = f;
    }

    // GPU slices already attributed (a kernel reached by two flows counts once), per GPU track.
    std::vector<std::vector<bool>> attributed(tracks.size());
    // Replayed graph nodes belong to the operator that captured them (model/graph_flows.h): where a GPU
    // slice is attributed through a graph_node flow, that flow counts and the graph launch's does not.
    const uint32_t graphCategory = LaunchFlows::graphNodeCategory(session);
    const LaunchFlows attribution = graphCategory == LaunchFlows::kNone
                                        ? LaunchFlows()
                                        : LaunchFlows::build(session, LaunchFlows::Follow::Attribution);
    tree.m_launches.reserve(flowsByTrack.size()); // at most one launch per flow: no regrowth copies
    prefaultOnThreads(tree.m_launches.data(), tree.m_launches.capacity() * sizeof(Launch));
    std::unordered_map<StringId, bool> tensorCores;
    std::unordered_map<uint64_t, uint32_t> pyStackIds;
    std::unordered_map<uint64_t, int8_t> kindCache; // (name, category) -> node kind or -1

    // Room for every host op and annotation up front: growing a vector of 1 M nodes copies ~100 MB.
    size_t candidates = 0;
    for (const Track& track : tracks)
        if (!track.gpu && track.kind == Track::Kind::Thread)
            for (size_t i = 0; i < track.sliceCount(); ++i) {
                const EventKind k = session.kindOf(track, i);
                candidates += k == EventKind::CpuOp || k == EventKind::UserAnnotation;
            }
    tree.m_nodes.reserve(candidates);
    prefaultOnThreads(tree.m_nodes.data(), candidates * sizeof(OperatorNode));

    // Per-slice scratch of one host track, reused track after track (fresh pages are a large share
    // of this build on a 10 GB trace).
    std::vector<uint32_t> nodeBelow, pyBelow;
    size_t longestThread = 0;
    for (const Track& track : tracks)
        if (!track.gpu && track.kind == Track::Kind::Thread)
            longestThread = std::max(longestThread, track.sliceCount());
    for (std::vector<uint32_t>* v : {&nodeBelow, &pyBelow}) {
        v->reserve(longestThread);
        prefaultOnThreads(v->data(), longestThread * sizeof(uint32_t));
    }
    for (uint32_t t = 0; t < tracks.size(); ++t) {
        const Track& track = tracks[t];
        tree.m_trackNodeBegin[t] = static_cast<uint32_t>(tree.m_nodes.size());
        if (track.gpu) {
            for (size_t i = 0; i < track.sliceCount(); ++i)
                if (isGpuActivity(session.kindOf(track, i))) {
                    ++tree.m_stats.gpuActivities;
                    addSaturating(tree.m_stats.gpuNs, track.dur[i]);
                }
            continue;
        }
        if (track.kind != Track::Kind::Thread || track.sliceCount() == 0)
            continue;
        const size_t n = track.sliceCount();
        // Per slice, what its descendants inherit: the node they belong to, and their Python stack
        // with kUnderCall set inside a runtime call. Slices come in row order, so parents first.
        nodeBelow.assign(n, kNone);
        pyBelow.assign(n, 0);
        ParentCursor parents(track);
        const uint32_t firstSpillRow = [&] {
            for (uint32_t r = 0; r < track.rowCount(); ++r)
                if (track.rowLane[r] > 0)
                    return track.rowBegin[r];
            return static_cast<uint32_t>(n);
        }();
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t p = parents.next(i);
            const uint32_t owner = p == kNone ? kNone : nodeBelow[p];
            const uint32_t inherited = p == kNone ? 0 : pyBelow[p];
            const uint32_t py = inherited & ~kUnderCall;
            const bool underCall = (inherited & kUnderCall) != 0;
            const EventKind kind = session.kindOf(track, i);
            const StringId name = track.names[i];
            nodeBelow[i] = owner;
            pyBelow[i] = inherited;
            if (kind == EventKind::CpuOp || kind == EventKind::UserAnnotation) {
                const uint64_t key = uint64_t(name) << 16 | track.category[i];
                auto [it, fresh] = kindCache.try_emplace(key, int8_t(-1));
                if (fresh) {
                    if (auto k = classify(kind, session.str(name)))
                        it->second = static_cast<int8_t>(*k);
                }
                if (it->second >= 0) {
                    OperatorNode node;
                    node.slice = i;
                    node.parent = owner;
                    node.name = name;
                    node.pyStack = py;
                    node.kind = static_cast<OperatorNodeKind>(it->second);
                    if (owner != kNone) {
                        tree.addSelfHost(owner, -track.dur[i]);
                        OperatorNode& up = tree.m_nodes[owner];
                        up.children = static_cast<uint8_t>(std::min(up.children + 1, 2));
                    }
                    if (i >= firstSpillRow)
                        ++tree.m_stats.spilledNodes;
                    const auto index = static_cast<uint32_t>(tree.m_nodes.size());
                    nodeBelow[i] = index;
                    tree.m_nodes.push_back(node);
                    tree.addSelfHost(index, track.dur[i]);
                }
            } else if (kind == EventKind::PythonFunction) {
                auto [it, fresh] = pyStackIds.try_emplace(uint64_t(py) << 32 | name,
                                                          static_cast<uint32_t>(tree.m_pyStacks.size()));
                if (fresh)
                    tree.m_pyStacks.emplace_back(py, name);
                pyBelow[i] = it->second | (underCall ? kUnderCall : 0);
            } else if (isCall(kind)) {
                ++tree.m_stats.runtimeCalls;
                if (owner != kNone) {
                    ++tree.m_stats.runtimeCallsInNodes;
                    if (!underCall)
                        tree.addSelfHost(owner, -track.dur[i]);
                }
                pyBelow[i] = inherited | kUnderCall;
            }
        }
        // Device work launched from this track's runtime calls.
        for (uint32_t k = flowBegin[t]; k < flowBegin[t + 1]; ++k) {
            const Flow& f = flows[flowsByTrack[k]];
            if (f.fromSlice >= n || f.toTrack >= tracks.size())
                continue;
            const EventKind from = session.kindOf(track, f.fromSlice);
            if (!isCall(from) && from != EventKind::GraphNode)
                continue;
            const Track& gpu = tracks[f.toTrack];
            if (f.toSlice >= gpu.sliceCount())
                continue;
            if (graphCategory != LaunchFlows::kNone) {
                const uint32_t af = attribution.flowOf(f.toTrack, f.toSlice);
                if (af != LaunchFlows::kNone && flows[af].category == graphCategory && af != flowsByTrack[k])
                    continue; // the graph launch's flow to a node attributed where it was captured
            }
            const EventKind gk = session.kindOf(gpu, f.toSlice);
            if (!isGpuActivity(gk))
                continue;
            const uint32_t owner = nodeBelow[f.fromSlice];
            if (owner == kNone)
                continue;
            std::vector<bool>& seen = attributed[f.toTrack];
            if (seen.empty())
                seen.assign(gpu.sliceCount(), false);
            if (seen[f.toSlice])
                continue;
            seen[f.toSlice] = true;
            const int64_t d = gpu.dur[f.toSlice];
            tree.addSelfDevice(owner, d);
            tree.m_launches.push_back({owner, f.toTrack, f.toSlice});
            ++tree.m_stats.gpuActivitiesAttributed;
            tree.m_stats.gpuNsAttributed += d;
            if (gk == EventKind::Kernel) {
                auto [tc, fresh] = tensorCores.try_emplace(gpu.names[f.toSlice], false);
                if (fresh)
                    tc->second = kernelUsesTensorCores(session.str(gpu.names[f.toSlice]));
                if (tc->second)
                    tree.addSelfTc(owner, d);
            }
        }
    }
    tree.m_trackNodeBegin[tracks.size()] = static_cast<uint32_t>(tree.m_nodes.size());

    // Totals bottom-up: children follow their parent, so in reverse order a node's device and tc
    // times hold the sum of its children's totals when it is reached, and its own self values
    // complete them. Then the same-name collapse, which moves self values up but leaves the
    // parent's totals as they are.
    std::vector<OperatorNode>& nodes = tree.m_nodes;
    const auto count = static_cast<uint32_t>(nodes.size());
    for (uint32_t i = count; i-- > 0;) {
        const OperatorTimes t = tree.times(i);
        tree.addDevice(i, t.selfDeviceNs);
        tree.addTc(i, t.selfTcNs);
        if (const uint32_t up = nodes[i].parent; up != kNone) {
            tree.addDevice(up, t.deviceNs + t.selfDeviceNs);
            tree.addTc(up, t.tcNs + t.selfTcNs);
        }
    }
    if (options.collapseSameName) {
        for (uint32_t i = count; i-- > 0;) {
            OperatorNode& child = nodes[i];
            if (child.parent == kNone)
                continue;
            const OperatorNode& parentNode = nodes[child.parent];
            if (parentNode.children != 1 || parentNode.name != child.name || !isOp(parentNode.kind) || !isOp(child.kind))
                continue;
            const OperatorTimes self = tree.times(i);
            tree.addSelfHost(child.parent, self.selfHostNs);
            tree.addSelfDevice(child.parent, self.selfDeviceNs);
            tree.addSelfTc(child.parent, self.selfTcNs);
            child.merged = true;
        }
    }

    if (options.readArgs && !nodes.empty()) {
        // The argRef of an operator node (kNoArgs for other nodes and events without arguments).
        auto refOf = [&](size_t i, const Track& track) {
            return isOp(nodes[i].kind) && nodes[i].slice < track.argRef.size() ? track.argRef[nodes[i].slice]
                                                                               : Track::kNoArgs;
        };
        static const std::vector<std::string> kKeys = {"Input Dims", "Input type", "Call stack"};
        auto onValues = [&](size_t i, const std::vector<std::string_view>& values) {
            if (values.size() < 3)
                return;
            OperatorArgs args;
            if (!values[0].empty()) {
                args.shapes = tree.intern(prettyList(values[0], false));
                tree.m_anyShapes = true;
            }
            if (!values[1].empty())
                args.types = tree.intern(prettyList(values[1], true));
            if (!values[2].empty()) {
                args.callStack = tree.intern(values[2]);
                tree.m_anyStacks = true;
            }
            nodes[i].args = tree.internArgs(args);
        };
        if (options.argColumns && session.argColumns()) {
            // The operators' argument columns (arg_columns.h): each distinct value decoded once,
            // its args id kept by StringId (a direct index: 11 M operators of a 10 GB trace look
            // theirs up).
            std::vector<uint32_t> decodedAt(session.strings().size(), kNone);
            std::vector<std::string_view> values(3);
            std::array<std::string, 3> bufs;
            bool stopped = false;
            for (uint32_t t = 0; t < tracks.size() && !stopped; ++t) {
                const Track& track = tracks[t];
                for (uint32_t i = tree.trackBegin(t); i < tree.trackBegin(t + 1); ++i) {
                    if (options.cancel && (i & 4095) == 0 && options.cancel->load(std::memory_order_relaxed)) {
                        stopped = true; // as the source pass stops: a closing view
                        break;
                    }
                    OperatorNode& node = nodes[i];
                    if (refOf(i, track) == Track::kNoArgs)
                        continue;
                    const StringId args = node.slice < track.opArgs.size() ? track.opArgs[node.slice] : kEmptyString;
                    if (args == kEmptyString)
                        continue;
                    if (args < decodedAt.size() && decodedAt[args] != kNone) {
                        node.args = decodedAt[args];
                        continue;
                    }
                    const auto fields = splitArgColumn<kOpArgKeys.size()>(session.str(args));
                    values[0] = argColumnValue(fields[0], bufs[0]);
                    values[1] = argColumnValue(fields[1], bufs[1]);
                    values[2] = argColumnValue(fields[3], bufs[2]);
                    onValues(i, values);
                    if (args < decodedAt.size())
                        decodedAt[args] = node.args;
                }
            }
        } else {
            std::vector<uint64_t> refs(nodes.size());
            for (uint32_t t = 0; t < tracks.size(); ++t)
                for (uint32_t i = tree.trackBegin(t); i < tree.trackBegin(t + 1); ++i)
                    refs[i] = refOf(i, tracks[t]);
            session.forEachArgValues(refs, kKeys, onValues, options.cancel);
        }
        tree.m_cancelled = options.cancel && options.cancel->load();
        tree.m_argsLoaded = !tree.m_cancelled;
    }
    for (const OperatorNode& node : nodes)
        if (node.pyStack != 0 && isOp(node.kind)) {
            tree.m_anyStacks = true;
            break;
        }
    return tree;
}

uint32_t OperatorTree::nodeOf(uint32_t track, uint32_t slice) const {
    if (track + 1 >= m_trackNodeBegin.size())
        return kNone;
    auto first = m_nodes.begin() + m_trackNodeBegin[track];
    auto last = m_nodes.begin() + m_trackNodeBegin[track + 1];
    auto it = std::lower_bound(first, last, slice, [](const OperatorNode& n, uint32_t s) { return n.slice < s; });
    if (it == last || it->slice != slice)
        return kNone;
    return static_cast<uint32_t>(it - m_nodes.begin());
}

std::string OperatorTree::pyStackText(const Session& session, uint32_t id) const {
    std::string out;
    for (uint32_t e = id; e != 0 && e < m_pyStacks.size(); e = m_pyStacks[e].first) {
        if (!out.empty())
            out += ';';
        out += session.str(m_pyStacks[e].second);
    }
    return out;
}

std::string_view OperatorTree::inputShapesOf(uint32_t track, uint32_t slice) const {
    const uint32_t n = nodeOf(track, slice);
    return n == kNone ? std::string_view() : text(args(m_nodes[n]).shapes);
}

std::string_view OperatorTree::inputTypesOf(uint32_t track, uint32_t slice) const {
    const uint32_t n = nodeOf(track, slice);
    return n == kNone ? std::string_view() : text(args(m_nodes[n]).types);
}

uint32_t OperatorTree::trackOf(uint32_t node) const {
    // The last track whose range begins at or before the node (empty ranges share a begin).
    const auto it = std::upper_bound(m_trackNodeBegin.begin(), m_trackNodeBegin.end() - 1, node);
    return static_cast<uint32_t>(it - m_trackNodeBegin.begin()) - 1;
}

int64_t OperatorTree::start(const Session& session, uint32_t node) const {
    return session.tracks()[trackOf(node)].start[m_nodes[node].slice];
}

int64_t OperatorTree::hostNs(const Session& session, uint32_t node) const {
    return session.tracks()[trackOf(node)].dur[m_nodes[node].slice];
}

} // namespace ws
