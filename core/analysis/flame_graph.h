#pragma once

#include "analysis/frame_folding.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

class Session;

/* What a flame graph weighs: host Python time, GPU time by launching stack, or bytes allocated. */
enum class FlameWeight : uint8_t { Cpu, Gpu, Alloc };

const char* flameWeightName(FlameWeight weight); // "cpu", "gpu", "alloc"
std::optional<FlameWeight> flameWeightFromName(std::string_view name);
const char* flameWeightUnit(FlameWeight weight); // "ns" or "bytes"

/* One distinct frame: a function with its file and line where the source names them (line 0 and
 * an empty file when not: "nn.Module: Linear_0", an operator name, "(no stack)"). */
struct FlameFrame {
    std::string function;
    std::string file;
    int32_t line = 0;
};

/* One node of the tree: a frame under its parent. total = self + the children's totals. Its
 * children are the nodes [firstChild, firstChild + childCount), heaviest first (ties by frame text). */
struct FlameNode {
    static constexpr uint32_t kNone = 0xffffffffu;
    uint32_t frame = kNone;  // index into FlameGraph::frames(); kNone for the root
    uint32_t parent = kNone; // kNone for the root
    int64_t total = 0;
    int64_t self = 0; // weight of the samples whose path ends here
    uint32_t firstChild = 0;
    uint32_t childCount = 0;
};

struct FlameOptions {
    FlameWeight weight = FlameWeight::Gpu;
    // Only what starts inside [from, to): kernels, python_function slices, allocation records.
    int64_t from = INT64_MIN;
    int64_t to = INT64_MAX;
    bool bottomUp = false;
    // Frames folded out of the paths (frame_folding.h): dispatch and decorator frames. Empty here
    // (every frame); the views and the CLI pass FrameFolding::defaults() unless asked for all.
    FrameFolding fold;
    const std::atomic<bool>* cancel = nullptr; // set: build stops early, returns what it has
};

/* What a search matches (FlameGraph::match): the weight of the stacks that pass through a matching
 * frame (flamegraph.pl's "Matched"; the same top-down and bottom-up), and how many distinct frames
 * with weight match. */
struct FlameMatch {
    int64_t total = 0;
    uint32_t frames = 0;
};

/*
 * FlameGraph: weighted call stacks merged into a tree, root -> outermost caller -> ... -> innermost
 * frame (top-down), or innermost frames as the roots' children (bottom-up, the inverted tree).
 *
 * Samples, by weight:
 *  - Gpu: each kernel's duration, on the stack of the CPU call that launched it (its incoming flow,
 *    as the kernel table's attribution). The stack is the chain of python_function slices enclosing
 *    the launch on its thread (torch.profiler with_stack=True); without one, the launch's `Call stack`
 *    argument (Warpscope captures with --py-stacks, Nsight Systems backtraces), innermost first.
 *    Kernels whose launch has neither go to one "(no stack)" child of the root, so the root total
 *    is exactly the kernels' time.
 *  - Cpu: the self time of every python_function slice (its duration less that of the
 *    python_function slices nested in it), on its stack of enclosing python_function slices. A
 *    Warpscope capture without them (no --py-sample): each CUDA call's time and the host time before
 *    it (host_gaps.h) on the call's `Call stack` (--py-stacks; else "(no stack)"), so a host-bound
 *    loop's Python shows by line. Traces without python_function events give an empty graph and
 *    emptyReason().
 *  - Alloc: the bytes of each allocation record (> 0), on the Python stack at the record (the
 *    python_function chain on its thread; Kineto), else the `Call stack` of the slice enclosing it
 *    (a capture's API call), else — the format records no stack for allocations — the enclosing
 *    operator path (cpu_op / user annotation names, outermost first) as the frames, else "(no stack)".
 * "Encloses" is time containment on the thread: start <= t < end, found by one sweep per thread over
 * its python_function slices sorted by (start, longest first); a slice that starts inside another
 * is its child.
 *
 * Weights are int64 (ns or bytes) and sums saturate. Nodes with zero total are left out.
 *
 * Folding (FlameOptions::fold, issue #51): after the samples are in, the frames the folding matches
 * are taken out of every path: a folded node's self weight and children go to its caller, and paths
 * that then meet are merged. A path's outermost frame never folds, so every weight keeps a frame.
 *
 * Bottom-up graphs are made lazily: build() (and invertedLazily()) makes the root's children, the
 * innermost frames, and a node's callers only when expand() asks for them — a view expands what it
 * draws at a visible width, the CLI what it prints. The fully expanded tree equals inverted()'s
 * (the eager inversion, kept as the reference), but a graph of 1 M distinct stacks inverts to ~15 M
 * nodes of which a 1920-pixel view shows a few thousand. A node's pending callers are its items:
 * (top-down node at this level of the reversed path, weight), merged where two paths meet, so
 * expanding a node costs O(its items) (plus a sort when it has fewer items than there are frames).
 * Expansion appends nodes (invalidating references into nodes()) and is not thread-safe: one
 * thread at a time uses a graph, as with a std::vector.
 *
 * Cost: O(n log n) in the python_function slices, kernels and allocations, plus one bulk pass over
 * the launches' arguments when they carry `Call stack` text; stacks repeat, so each distinct
 * `Call stack` text is parsed once. Memory: O(distinct stack prefixes).
 */
class FlameGraph {
public:
    static FlameGraph build(const Session& session, const FlameOptions& options);

    FlameGraph();
    FlameGraph(FlameGraph&&) noexcept;
    FlameGraph& operator=(FlameGraph&&) noexcept;
    ~FlameGraph();

    FlameWeight weight() const { return m_weight; }
    bool bottomUp() const { return m_bottomUp; }
    // Node 0 is the root; a child's index is larger than its parent's and siblings are consecutive
    // (breadth-first order for an eager graph; a lazy one appends a node's children when expanded).
    // The nodes made so far: a lazy graph's unexpanded nodes have childCount 0 until expand().
    const std::vector<FlameNode>& nodes() const { return m_nodes; }
    // Whether the graph makes callers on demand (a bottom-up graph from build()/invertedLazily()).
    bool isLazy() const { return m_lazy != nullptr; }
    // Whether `node`'s children are made (always for an eager graph).
    bool isExpanded(uint32_t node) const;
    // Makes `node`'s children if they are not yet; no-op for an eager graph. Invalidates references.
    void expand(uint32_t node) const;
    // Expands every node whose total is at least `minTotal` (and the root), e.g. root total / width
    // for what a view of that many pixels can show.
    void expandAtLeast(int64_t minTotal) const;
    // Every node (the CLI's --folded, tests).
    void expandAll() const { expandAtLeast(INT64_MIN); }
    // The search result for a per-frame predicate (indexed like frames()); cost O(distinct stacks),
    // no expansion needed.
    FlameMatch match(const std::vector<bool>& frameMatches) const;
    const FlameNode& root() const { return m_nodes[0]; }
    const std::vector<FlameFrame>& frames() const { return m_frames; }
    // Weighted events behind the graph (kernels, python_function slices, allocation records).
    uint64_t sampleCount() const { return m_samples; }
    // Why the graph is empty when the session has nothing of this weight; empty otherwise.
    const std::string& emptyReason() const { return m_emptyReason; }
    // The weight of the events that had no call stack (the root's "(no stack)" child): when it is
    // all of root().total, the session was recorded without stacks and the view says how to get them.
    int64_t withoutStackTotal() const;
    // Some weight, and all of it without a call stack.
    bool withoutAnyStack() const;
    // How many distinct frames FlameOptions::fold took out of the paths (the view offers to show them).
    uint32_t foldedFrameCount() const { return m_foldedFrames; }

    // "function (file:line)", or the function alone where the source gives no location.
    std::string frameText(uint32_t frame) const;
    // Frames from the root's child down to `node`, in tree order.
    std::vector<uint32_t> path(uint32_t node) const;
    // The inverted tree (bottom-up of a top-down graph, and back), every node made (eager). Of a
    // lazy bottom-up graph: the top-down graph it was made from.
    FlameGraph inverted() const;
    // The inverted tree with only the root's children made, callers on expand() (see above); of a
    // lazy graph, inverted().
    FlameGraph invertedLazily() const;
    // One line per node with self weight: "frame1;frame2;...;frameN weight", in tree order
    // (outermost first for a top-down graph): what flamegraph.pl, speedscope and Hotspot read.
    // ';' and line breaks in frame text become ',' and ' '. Expands a lazy graph fully.
    std::string folded() const;

private:
    friend class FlameGraphBuilder;
    struct LazyCallers;
    static FlameGraph lazilyInverted(FlameGraph topDown);
    // This graph's weight, frames, samples and empty reason with other nodes (eager).
    FlameGraph withNodes(std::vector<FlameNode> nodes, bool bottomUp) const;

    FlameWeight m_weight = FlameWeight::Gpu;
    bool m_bottomUp = false;
    mutable std::vector<FlameNode> m_nodes; // a lazy graph appends on expand()
    std::unique_ptr<LazyCallers> m_lazy;    // set for a lazy (bottom-up) graph
    std::vector<FlameFrame> m_frames;
    uint64_t m_samples = 0;
    uint32_t m_foldedFrames = 0;
    std::string m_emptyReason;
};

} // namespace ws
