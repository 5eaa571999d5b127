#pragma once

#include "model/session.h"
#include "model/string_table.h"

#include <atomic>
#include <climits>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ws {

class Session;

/*
 * OperatorNodeKind: what a node of the operator tree stands for (torch-tb-profiler's node types,
 * FORMATS.md 3.2).
 *  - Operator: a cpu_op counted in operator statistics.
 *  - ExcludedOperator: a cpu_op tb keeps in the tree but out of the statistics
 *    (`DataParallel.forward`, `DistributedDataParallel.forward`, `Optimizer.*`, DataLoader names).
 *  - ProfilerStep: `ProfilerStep#N`, as cpu_op (old torch) or user_annotation.
 *  - Annotation: a user annotation tb makes a tree node (DataLoader `enumerate(DataLoader)#...
 *    .__next__` / `enumerate(DataPipe)#...`, `Optimizer.step...`, `nccl:*` / `gloo:*` collectives).
 * Other user annotations are not nodes: what they enclose hangs off the enclosing node.
 */
enum class OperatorNodeKind : uint8_t { Operator, ExcludedOperator, ProfilerStep, Annotation };

/*
 * OperatorTimes: a node's tb-profiler attribution (FORMATS.md 3.2), all in session ns:
 *   hostNs       = slice duration (its track's dur, OperatorTree::hostNs(); not kept in the node)
 *   selfHostNs   = hostNs - sum(direct child nodes' hostNs) - sum(own outermost runtime calls)
 *   selfDeviceNs = sum of kernel/memcpy/memset durations launched by its own runtime calls
 *   deviceNs     = selfDeviceNs + sum(children's deviceNs)
 *   selfTcNs / tcNs: the same two sums restricted to kernels with kernelUsesTensorCores().
 * After a same-name collapse (see OperatorTree) the parent holds the merged self values and the
 * child is marked merged; totals (deviceNs, tcNs, hostNs) are those of the parent as it was.
 */
struct OperatorTimes {
    int64_t selfHostNs = 0;
    int64_t selfDeviceNs = 0;
    int64_t deviceNs = 0;
    int64_t selfTcNs = 0;
    int64_t tcNs = 0;
};

/*
 * OperatorNode: one host slice of the operator tree. args indexes OperatorTree::args() (0 = none
 * read); pyStack indexes the Python stack trie (0 = no python_function ancestor); its times are
 * OperatorTree::times().
 *
 * 44 bytes: a 10 GB trace has 11 M of them, and on a VM each fresh page of them costs more than
 * filling it. So what the slice or the tree already holds is not copied: the track is the tree's
 * range the node lies in (OperatorTree::trackOf), start and duration are the track's, and the three
 * argument texts are one id. Times are 32-bit: one outside +-2.1 s moves all five of the node into
 * the tree's table of wide times (a few long steps and annotations of a trace).
 */
struct OperatorNode {
    static constexpr uint32_t kNone = 0xffffffffu;

    uint32_t slice = 0;
    uint32_t parent = kNone; // enclosing node, kNone for a root
    StringId name = kEmptyString;
    uint32_t pyStack = 0;
    uint32_t args = 0;
    OperatorNodeKind kind = OperatorNodeKind::Operator;
    bool merged = false;     // collapsed into its same-name parent (then parent is where it went)
    uint8_t children = 0;    // direct child nodes, counted up to 2 (the collapse asks "exactly one?")
    bool wide = false;       // times in OperatorTree's wide table; the narrow ones below are 0

    // Whether the node is one row of operator statistics (a plain operator, not collapsed away).
    bool counted() const { return kind == OperatorNodeKind::Operator && !merged; }

private:
    friend class OperatorTree;
    int32_t m_selfHost = 0, m_selfDevice = 0, m_device = 0, m_selfTc = 0, m_tc = 0;
};
static_assert(sizeof(OperatorNode) == 44, "OperatorNode grew: 11 M of them at 10 GB");

/* The argument texts of an operator (OperatorTree::text ids; 0 = absent). */
struct OperatorArgs {
    uint32_t shapes = 0;
    uint32_t types = 0;
    uint32_t callStack = 0;
    bool operator==(const OperatorArgs&) const = default;
};

/* OperatorTreeOptions: plain switches for OperatorTree::build. */
struct OperatorTreeOptions {
    // Read "Input Dims", "Input type" and "Call stack" of every operator: from the session's
    // argument columns where it has them (Session::argColumns), else one streaming pass over the
    // source with Session::forEachArgValues. Off: shapes, types and call-stack args are absent.
    bool readArgs = true;
    // false reads the source even where the session has argument columns (tests compare the two).
    bool argColumns = true;
    // Collapse a parent/child pair of same-name operators where the child is the only child (tb's
    // remove_dup_nodes, autograd-profiler compatibility): one call instead of two.
    bool collapseSameName = true;
    // Set: the argument pass stops early (a closing view); the tree is then incomplete and is
    // thrown away (cancelled() says so).
    const std::atomic<bool>* cancel = nullptr;
};

/* What the build saw, for footnotes ("x % of device time not attributed to any operator"). */
struct OperatorTreeStats {
    uint64_t runtimeCalls = 0;        // runtime/driver slices on host threads
    uint64_t runtimeCallsInNodes = 0; // ... of which inside some node
    uint64_t gpuActivities = 0;       // kernel/memcpy/memset slices
    uint64_t gpuActivitiesAttributed = 0;
    int64_t gpuNs = 0;
    int64_t gpuNsAttributed = 0; // reached from a runtime call inside a node
    uint64_t spilledNodes = 0;   // nodes in overflow lanes (partially overlapping host slices)
};

/*
 * OperatorTree: per host thread, the tree of operator slices (cpu_op and the user annotations tb
 * keeps, see OperatorNodeKind) with host, self host, device and self device time attributed as
 * torch-tb-profiler does (FORMATS.md 3.2), built from the session's lanes instead of re-sorting:
 * the parent of a slice is the last slice of the row above in its lane starting at or before it,
 * so one pass over each track's rows (parents before children) finds every slice's enclosing node,
 * Python stack (python_function ancestors) and whether it sits under a runtime call.
 *
 * Runtime and driver calls belong to their innermost enclosing node (tb matches `External id`,
 * which Kineto sets to the innermost op active at launch: the same slice, except that tb loses
 * runtimes whose innermost op is a non-node user annotation; here they go to the enclosing node).
 * Unlike tb, cuda_driver calls (cuLaunchKernel of Triton / torch.compile) count too, otherwise their
 * kernels would have no operator. Only outermost calls are subtracted from self host time (a driver
 * call inside a runtime call is not subtracted twice). Device work is found through the session's
 * flows from a runtime/driver slice to a kernel, memcpy or memset slice (each GPU slice counted once).
 *
 * Nodes are stored per track in slice order, so a parent always precedes its children and the
 * nodes of track t are a contiguous range sorted by slice (nodeOf is a binary search).
 * Build: O(host slices + flows + GPU slices) plus one forEachArgValues pass over the operators.
 */
class OperatorTree {
public:
    static OperatorTree build(const Session& session, const OperatorTreeOptions& options = {});

    size_t size() const { return m_nodes.size(); }
    const OperatorNode& node(size_t i) const { return m_nodes[i]; }
    const std::vector<OperatorNode>& nodes() const { return m_nodes; }
    // The nodes of track t are [trackBegin(t), trackBegin(t + 1)).
    uint32_t trackBegin(size_t t) const { return t < m_trackNodeBegin.size() ? m_trackNodeBegin[t] : uint32_t(m_nodes.size()); }
    uint32_t trackOf(uint32_t node) const;
    // The node's slice start and duration (its track's).
    int64_t start(const Session& session, uint32_t node) const;
    int64_t hostNs(const Session& session, uint32_t node) const;
    const OperatorArgs& args(const OperatorNode& n) const { return m_args[n.args]; }
    OperatorTimes times(uint32_t node) const {
        const OperatorNode& n = m_nodes[node];
        if (n.wide)
            return wideTimes(node);
        return {n.m_selfHost, n.m_selfDevice, n.m_device, n.m_selfTc, n.m_tc};
    }
    // Node index of a host slice, OperatorNode::kNone if the slice is not a node.
    uint32_t nodeOf(uint32_t track, uint32_t slice) const;

    // Interned texts: 0 is the empty string. Shapes look like "[[64, 256], [256]]", types like
    // "[float, c10::BFloat16]", call stacks as in the trace (frames joined by ';').
    std::string_view text(uint32_t id) const { return m_texts[id]; }
    // "frame;frame;..." innermost first, for a Python stack trie id; empty for 0.
    std::string pyStackText(const Session& session, uint32_t id) const;
    // Input shapes and dtypes of the operator slice (track, slice), empty when unknown (not a node,
    // args not read, or the trace was recorded without record_shapes). For the kernel table.
    std::string_view inputShapesOf(uint32_t track, uint32_t slice) const;
    std::string_view inputTypesOf(uint32_t track, uint32_t slice) const;

    bool argsLoaded() const { return m_argsLoaded; }
    bool cancelled() const { return m_cancelled; }
    bool anyShapes() const { return m_anyShapes; }    // some operator had "Input Dims"
    bool anyCallStack() const { return m_anyStacks; } // some operator had a call stack
    bool hasGpuActivity() const { return m_stats.gpuActivities > 0; }
    const OperatorTreeStats& stats() const { return m_stats; }

    // Every GPU slice attributed to a node (kernel, memcpy, memset), in build order: the node whose
    // own runtime call launched it. For "by operator + kernel" views (session_diff.h). 12 bytes each.
    struct Launch {
        uint32_t node = 0;
        uint32_t gpuTrack = 0;
        uint32_t gpuSlice = 0;
    };
    const std::vector<Launch>& launches() const { return m_launches; }

private:
    uint32_t intern(std::string_view text);
    uint32_t internArgs(const OperatorArgs& args);
    OperatorTimes wideTimes(uint32_t node) const;
    void setTimes(uint32_t node, const OperatorTimes& times);
    // Adds delta to one of a node's times: in its 32-bit field while the sum fits (the build's
    // hot path, so inline), else through the wide table.
    template <int64_t OperatorTimes::*Field, int32_t OperatorNode::*Narrow> void addTime(uint32_t node, int64_t delta) {
        OperatorNode& n = m_nodes[node];
        if (!n.wide) {
            const int64_t v = int64_t(n.*Narrow) + delta;
            if (v >= INT32_MIN && v <= INT32_MAX) {
                n.*Narrow = static_cast<int32_t>(v);
                return;
            }
        }
        OperatorTimes t = times(node);
        t.*Field += delta;
        setTimes(node, t);
    }
    void addSelfHost(uint32_t node, int64_t d) { addTime<&OperatorTimes::selfHostNs, &OperatorNode::m_selfHost>(node, d); }
    void addSelfDevice(uint32_t node, int64_t d) { addTime<&OperatorTimes::selfDeviceNs, &OperatorNode::m_selfDevice>(node, d); }
    void addDevice(uint32_t node, int64_t d) { addTime<&OperatorTimes::deviceNs, &OperatorNode::m_device>(node, d); }
    void addSelfTc(uint32_t node, int64_t d) { addTime<&OperatorTimes::selfTcNs, &OperatorNode::m_selfTc>(node, d); }
    void addTc(uint32_t node, int64_t d) { addTime<&OperatorTimes::tcNs, &OperatorNode::m_tc>(node, d); }

    std::vector<OperatorNode> m_nodes;
    std::vector<uint32_t> m_trackNodeBegin; // tracks + 1 entries
    std::vector<std::string> m_texts{std::string()};
    std::unordered_map<std::string, uint32_t> m_textIds;
    std::vector<OperatorArgs> m_args{OperatorArgs{}};
    std::unordered_map<uint32_t, OperatorTimes> m_wideTimes; // nodes with wide set
    struct ArgsHash {
        size_t operator()(const OperatorArgs& a) const {
            return (uint64_t(a.shapes) * 0x9e3779b97f4a7c15ull) ^ (uint64_t(a.types) << 21) ^ a.callStack;
        }
    };
    std::unordered_map<OperatorArgs, uint32_t, ArgsHash> m_argIds;
    // Python stack trie: entry i = (parent entry, frame name); entry 0 is the empty stack.
    std::vector<std::pair<uint32_t, StringId>> m_pyStacks{{0u, kEmptyString}};
    OperatorTreeStats m_stats;
    std::vector<Launch> m_launches;
    bool m_argsLoaded = false;
    bool m_cancelled = false;
    bool m_anyShapes = false;
    bool m_anyStacks = false;
};

// torch-tb-profiler's Tensor-Core-eligible operator names (tensor_core.py TC_OP_Allowlist, from
// autocast's fp16 list) plus their modern torch spellings; exact match. See operator_tree.cpp.
bool operatorIsTensorCoreEligible(std::string_view name);

} // namespace ws
