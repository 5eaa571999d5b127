#include "analysis/comm_ops.h"

#include "model/session.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <unordered_map>

namespace ws {

namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

bool isCommOpName(std::string_view n) { return startsWith(n, "nccl:") || startsWith(n, "gloo:"); }

bool isHostOp(EventKind k) { return k == EventKind::CpuOp || k == EventKind::UserAnnotation; }

// "void ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)" ->
// "ncclDevKernel_AllReduce_Sum_f32_RING_LL": the same on every rank for the same collective.
std::string kernelShortName(std::string_view n) {
    if (n.substr(0, 5) == "void ")
        n.remove_prefix(5);
    n = n.substr(0, n.find_first_of("(<"));
    return std::string(n);
}

std::optional<int64_t> parseInt(std::string_view text) {
    int64_t v = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || p != text.data() + text.size())
        return std::nullopt;
    return v;
}

// Product of a JSON array of integers; 0 for an empty array (a scalar argument moves no tensor
// data), nullopt when it is not an array of integers.
std::optional<int64_t> dimsProduct(const nlohmann::json& dims) {
    if (!dims.is_array())
        return std::nullopt;
    if (dims.empty())
        return 0;
    int64_t p = 1;
    for (const auto& d : dims) {
        if (!d.is_number_integer())
            return std::nullopt;
        p *= d.get<int64_t>();
    }
    return p;
}

} // namespace

const char* collectiveKindName(CollectiveKind kind) {
    static const char* const names[] = {"all_reduce", "all_gather", "reduce_scatter", "all_to_all",
                                        "broadcast",  "reduce",     "gather",         "scatter",
                                        "send",       "recv",       "barrier",        "other"};
    return names[static_cast<size_t>(kind)];
}

CollectiveKind collectiveKindOf(std::string_view name) {
    if (const size_t colon = name.find(':'); colon != std::string_view::npos)
        name.remove_prefix(colon + 1);
    while (!name.empty() && name.front() == '_')
        name.remove_prefix(1);
    // Lower case, so NCCL kernel names (ncclDevKernel_AllReduce_...) classify as op names do.
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const std::string_view n = lower;
    if (contains(n, "all_reduce") || contains(n, "allreduce"))
        return CollectiveKind::AllReduce;
    if (contains(n, "all_gather") || contains(n, "allgather"))
        return CollectiveKind::AllGather;
    if (contains(n, "reduce_scatter") || contains(n, "reducescatter"))
        return CollectiveKind::ReduceScatter;
    if (contains(n, "all_to_all") || contains(n, "alltoall"))
        return CollectiveKind::AllToAll;
    if (contains(n, "broadcast"))
        return CollectiveKind::Broadcast;
    if (contains(n, "barrier"))
        return CollectiveKind::Barrier;
    if (contains(n, "send"))
        return CollectiveKind::Send;
    if (contains(n, "recv"))
        return CollectiveKind::Recv;
    if (contains(n, "gather"))
        return CollectiveKind::Gather;
    if (contains(n, "scatter"))
        return CollectiveKind::Scatter;
    if (contains(n, "reduce"))
        return CollectiveKind::Reduce;
    return CollectiveKind::Other;
}

std::optional<double> busBandwidthFactor(CollectiveKind kind, int n) {
    if (n < 1)
        return std::nullopt;
    const double d = static_cast<double>(n);
    switch (kind) {
    case CollectiveKind::AllReduce:
        return 2.0 * (d - 1) / d;
    case CollectiveKind::AllGather:
    case CollectiveKind::ReduceScatter:
    case CollectiveKind::AllToAll:
        return (d - 1) / d;
    case CollectiveKind::Broadcast:
    case CollectiveKind::Reduce:
    case CollectiveKind::Gather:
    case CollectiveKind::Scatter:
    case CollectiveKind::Send:
    case CollectiveKind::Recv:
        return 1.0;
    case CollectiveKind::Barrier:
    case CollectiveKind::Other:
        break;
    }
    return std::nullopt;
}

int64_t collectiveSizeBytes(CollectiveKind kind, int64_t inputBytes, int groupSize) {
    return kind == CollectiveKind::AllGather ? inputBytes * std::max(groupSize, 1) : inputBytes;
}

int dtypeSize(std::string_view t) {
    struct Entry {
        std::string_view name;
        int size;
    };
    // Kineto "Input type" spellings (C++ type names) and record_param_comms "dtype" spellings.
    static constexpr Entry kSizes[] = {
        {"long int", 8},      {"double", 8},      {"float", 4},          {"int", 4},
        {"c10::Half", 2},     {"c10::BFloat16", 2}, {"short int", 2},    {"unsigned char", 1},
        {"signed char", 1},   {"bool", 1},        {"Float", 4},          {"Double", 8},
        {"Half", 2},          {"BFloat16", 2},    {"Long", 8},           {"Int", 4},
        {"Short", 2},         {"Byte", 1},        {"Char", 1},           {"Bool", 1},
        {"UInt32", 4},        {"UInt64", 8},      {"Float8_e4m3fn", 1},  {"Float8_e5m2", 1},
    };
    for (const Entry& e : kSizes)
        if (e.name == t)
            return e.size;
    return 0;
}

std::optional<int64_t> inputBytesOf(std::string_view dimsText, std::string_view typesText) {
    if (dimsText.empty())
        return std::nullopt;
    const nlohmann::json dims = nlohmann::json::parse(dimsText, nullptr, false);
    const nlohmann::json types = nlohmann::json::parse(typesText, nullptr, false);
    if (!dims.is_array())
        return std::nullopt;
    int64_t total = 0;
    for (size_t i = 0; i < dims.size(); ++i) {
        const int size = types.is_array() && i < types.size() && types[i].is_string()
                             ? dtypeSize(types[i].get<std::string>())
                             : 0;
        const nlohmann::json& d = dims[i];
        if (d.is_array() && !d.empty() && d.front().is_array()) { // TensorList: one shape per tensor
            for (const auto& inner : d)
                if (const auto p = dimsProduct(inner))
                    total += *p * size;
        } else if (const auto p = dimsProduct(d)) {
            total += *p * size;
        }
    }
    return total;
}

std::vector<CommNode> collectCommNodes(const Session& s, const std::vector<StepRange>& steps) {
    std::vector<CommNode> nodes;
    // Name classes, decided once per distinct name: bit 0 a communication op, bit 1 an NCCL kernel.
    std::unordered_map<StringId, uint8_t> nameClass;
    auto isComm = [&](StringId id, bool kernel = false) {
        auto [it, fresh] = nameClass.try_emplace(id, uint8_t(0));
        if (fresh) {
            const std::string_view n = s.str(id);
            it->second = static_cast<uint8_t>((isCommOpName(n) ? 1 : 0) | (isCommunicationKernelName(n) ? 2 : 0));
        }
        return (it->second & (kernel ? 2 : 1)) != 0;
    };
    std::vector<uint64_t> nodeExtIds; // External id per node (Track::kNoId when absent)
    std::vector<uint64_t> parentArgRefs; // record_param_comms argRef per node (kNoArgs when none)
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> launched; // GPU (track, slice) per node
    // Launches are followed through the session's flows (paired per process by the importers, so
    // correlation ids that repeat across the processes of one session cannot mix); a trace written
    // without flow events falls back to matching GPU work by the call's correlation id.
    const bool useFlows = !s.flows().empty();
    std::unordered_map<uint32_t, size_t> nodeByCorrelation; // correlation of a call inside a node -> node

    for (uint32_t ti = 0; ti < s.tracks().size(); ++ti) {
        const Track& t = s.tracks()[ti];
        if (t.gpu)
            continue;
        const size_t firstNode = nodes.size();
        for (uint32_t i = 0; i < t.sliceCount(); ++i) {
            if (!isHostOp(s.kindOf(t, i)) || !isComm(t.names[i]))
                continue;
            const std::vector<uint32_t> up = s.ancestors(t, i);
            if (std::any_of(up.begin(), up.end(), [&](uint32_t a) { return isHostOp(s.kindOf(t, a)) && isComm(t.names[a]); }))
                continue; // part of an enclosing communication op
            uint64_t parentRef = Track::kNoArgs;
            for (auto a = up.rbegin(); a != up.rend(); ++a)
                if (s.str(t.names[*a]) == "record_param_comms") {
                    parentRef = t.argRef[*a];
                    break;
                }
            CommNode n;
            n.name = std::string(s.str(t.names[i]));
            n.kind = collectiveKindOf(n.name);
            n.track = ti;
            n.slice = i;
            n.ranges.push_back({t.start[i], t.end(i)});
            nodes.push_back(std::move(n));
            nodeExtIds.push_back(t.externalId.empty() ? Track::kNoId : t.externalId[i]);
            parentArgRefs.push_back(parentRef);
            launched.emplace_back();
        }
        if (nodes.size() == firstNode)
            continue;
        // Runtime/driver calls inside a node of this track: the node's launches.
        std::vector<size_t> order(nodes.size() - firstNode);
        for (size_t k = 0; k < order.size(); ++k)
            order[k] = firstNode + k;
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return nodes[a].ranges[0].start < nodes[b].ranges[0].start; });
        for (uint32_t i = 0; i < t.sliceCount(); ++i) {
            const EventKind k = s.kindOf(t, i);
            if (k != EventKind::Runtime && k != EventKind::Driver)
                continue;
            const int64_t a = t.start[i], b = t.end(i);
            auto it = std::upper_bound(order.begin(), order.end(), a,
                                       [&](int64_t v, size_t n) { return v < nodes[n].ranges[0].start; });
            if (it == order.begin())
                continue;
            const size_t n = *(it - 1);
            if (b > nodes[n].ranges[0].end)
                continue;
            if (useFlows) {
                for (uint32_t f : s.flowsOf(ti, i)) {
                    const Flow& fl = s.flows()[f];
                    if (fl.fromTrack == ti && fl.fromSlice == i && isGpuActivity(s.kindOf(s.tracks()[fl.toTrack], fl.toSlice)))
                        launched[n].emplace_back(fl.toTrack, fl.toSlice);
                }
            } else if (!t.correlation.empty() && t.correlation[i] != Track::kNoId) {
                nodeByCorrelation.emplace(t.correlation[i], n);
            }
        }
    }
    // GPU work of the calls inside each node (same correlation), and tb's rule: kernels whose
    // External id is the node's.
    std::unordered_map<uint32_t, size_t> nodeByExt;
    for (size_t n = 0; n < nodes.size(); ++n)
        if (nodeExtIds[n] != Track::kNoId)
            nodeByExt.emplace(static_cast<uint32_t>(nodeExtIds[n]), n);
    for (uint32_t ti = 0; ti < s.tracks().size(); ++ti) {
        const Track& g = s.tracks()[ti];
        if (!g.gpu)
            continue;
        for (uint32_t i = 0; i < g.sliceCount(); ++i) {
            const EventKind k = s.kindOf(g, i);
            if (!isGpuActivity(k))
                continue;
            if (!g.correlation.empty() && g.correlation[i] != Track::kNoId)
                if (auto it = nodeByCorrelation.find(g.correlation[i]); it != nodeByCorrelation.end())
                    launched[it->second].emplace_back(ti, i);
            if (k == EventKind::Kernel && !g.externalId.empty() && g.externalId[i] != Track::kNoId)
                if (auto it = nodeByExt.find(g.externalId[i]); it != nodeByExt.end())
                    launched[it->second].emplace_back(ti, i);
        }
    }
    for (size_t n = 0; n < nodes.size(); ++n) {
        auto& l = launched[n];
        std::sort(l.begin(), l.end());
        l.erase(std::unique(l.begin(), l.end()), l.end());
        std::vector<Interval> gpu;
        gpu.reserve(l.size());
        for (const auto& [tr, sl] : l)
            gpu.push_back({s.tracks()[tr].start[sl], s.tracks()[tr].end(sl)});
        std::stable_sort(gpu.begin(), gpu.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
        nodes[n].ranges.insert(nodes[n].ranges.end(), gpu.begin(), gpu.end());
    }

    // The first NCCL kernel each node launched: where Kineto copies the collective fields, and
    // where a capture writes them (its record_param_comms ranges carry no arguments).
    std::vector<uint64_t> kernelArgRefs(nodes.size(), Track::kNoArgs);
    for (size_t n = 0; n < launched.size(); ++n)
        for (const auto& [tr, sl] : launched[n]) {
            const Track& g = s.tracks()[tr];
            if (s.kindOf(g, sl) == EventKind::Kernel && isComm(g.names[sl], true)) {
                kernelArgRefs[n] = g.argRef[sl];
                break;
            }
        }

    // NCCL kernels no communication op launched (torch.compile's functional collectives, libraries
    // that call NCCL without record_function, Warpscope captures) are ops of their own: named by
    // the kernel, their CPU interval the launching call (empty at the kernel's start when there is
    // none), their collective fields the kernel's own arguments (Kineto copies them there).
    std::vector<std::pair<uint32_t, uint32_t>> claimed;
    for (const auto& l : launched)
        claimed.insert(claimed.end(), l.begin(), l.end());
    std::sort(claimed.begin(), claimed.end());
    for (uint32_t ti = 0; ti < s.tracks().size(); ++ti) {
        const Track& g = s.tracks()[ti];
        if (!g.gpu)
            continue;
        for (uint32_t i = 0; i < g.sliceCount(); ++i) {
            if (s.kindOf(g, i) != EventKind::Kernel || !isComm(g.names[i], true) ||
                std::binary_search(claimed.begin(), claimed.end(), std::make_pair(ti, i)))
                continue;
            CommNode n;
            n.name = kernelShortName(s.str(g.names[i]));
            n.kind = collectiveKindOf(n.name);
            n.track = ti;
            n.slice = i;
            Interval cpu{g.start[i], g.start[i]};
            for (uint32_t f : s.flowsOf(ti, i)) {
                const Flow& fl = s.flows()[f];
                if (fl.toTrack == ti && fl.toSlice == i) {
                    const Track& h = s.tracks()[fl.fromTrack];
                    cpu = {h.start[fl.fromSlice], h.end(fl.fromSlice)};
                    break;
                }
            }
            n.ranges = {cpu, {g.start[i], g.end(i)}};
            nodes.push_back(std::move(n));
            parentArgRefs.push_back(g.argRef[i]);
        }
    }

    // Arguments: the node's input shapes, then the collective fields of its record_param_comms
    // parent, else of the first NCCL kernel it launched.
    const std::vector<std::string> keys = {"Input Dims", "Input type", "Process Group Name", "Group size", "In msg nelems", "dtype"};
    kernelArgRefs.resize(nodes.size(), Track::kNoArgs); // kernel-only nodes: their kernel is their parent
    std::vector<uint64_t> refs;
    refs.reserve(nodes.size() * 3);
    for (size_t n = 0; n < nodes.size(); ++n)
        refs.push_back(s.tracks()[nodes[n].track].gpu ? Track::kNoArgs : s.tracks()[nodes[n].track].argRef[nodes[n].slice]);
    refs.insert(refs.end(), parentArgRefs.begin(), parentArgRefs.end());
    refs.insert(refs.end(), kernelArgRefs.begin(), kernelArgRefs.end());
    struct Fields {
        std::string processGroup;
        int groupSize = 0;
        std::optional<int64_t> bytes;
    };
    std::vector<Fields> fromParent(nodes.size()), fromKernel(nodes.size()); // calls come in argRef order
    s.forEachArgValues(refs, keys, [&](size_t i, const std::vector<std::string_view>& v) {
        if (i < nodes.size()) {
            nodes[i].bytes = inputBytesOf(v[0], v[1]);
            return;
        }
        const size_t n = (i - nodes.size()) % nodes.size();
        Fields& f = i < 2 * nodes.size() ? fromParent[n] : fromKernel[n];
        f.processGroup = std::string(v[2]);
        if (const auto g = parseInt(v[3]))
            f.groupSize = static_cast<int>(*g);
        if (const auto e = parseInt(v[4]); e && dtypeSize(v[5]) > 0)
            f.bytes = *e * dtypeSize(v[5]);
    });
    for (size_t n = 0; n < nodes.size(); ++n) {
        const Fields& p = fromParent[n];
        const Fields& k = fromKernel[n];
        nodes[n].processGroup = !p.processGroup.empty() ? p.processGroup : k.processGroup;
        nodes[n].groupSize = p.groupSize > 0 ? p.groupSize : k.groupSize;
        if (!nodes[n].bytes)
            nodes[n].bytes = p.bytes ? p.bytes : k.bytes;
    }

    std::stable_sort(nodes.begin(), nodes.end(), [](const CommNode& a, const CommNode& b) { return a.ranges[0].start < b.ranges[0].start; });
    for (CommNode& n : nodes) {
        const Interval cpu = n.ranges[0];
        auto it = std::upper_bound(steps.begin(), steps.end(), cpu.start,
                                   [](int64_t v, const StepRange& r) { return v < r.start; });
        if (it != steps.begin() && cpu.end <= (it - 1)->end)
            n.step = static_cast<int>(it - steps.begin() - 1);
    }
    return nodes;
}

} // namespace ws
