#pragma once

#include "analysis/program_frames.h"
#include "model/event_kind.h"
#include "model/string_table.h"

#include <atomic>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ws {

class Session;

/* One node of a graph: the same GPU activity (kernel, copy or set) in each of its replays. */
struct GraphNodeRow {
    static constexpr uint32_t kNone = 0xffffffffu;
    uint32_t index = 0; // position in the graph: start order within its first replay
    StringId name = kEmptyString;
    EventKind kind = EventKind::Kernel;
    uint32_t firstTrack = kNone, firstSlice = kNone;   // its activity in the graph's first replay
    uint32_t originTrack = kNone, originSlice = kNone; // where it was captured (a graph_node slice); kNone: unknown
    uint64_t calls = 0;
    int64_t totalNs = 0;
    int64_t minNs = INT64_MAX;
    int64_t maxNs = 0;
    // With GraphReplaysOptions::describe, for a node whose capture is known:
    StringId op = kEmptyString; // the innermost operator around its capture
    std::string file;           // the innermost frame of its capture stack outside torch's own code
    int32_t line = 0;
    std::string function;
};

/* One graph: the replays that run the same nodes. Times in ns. */
struct GraphRow {
    uint32_t number = 0; // 1, 2, ... in the order of first replays ("graph 1")
    uint64_t replays = 0;
    int64_t spanNs = 0;  // summed over replays: first node's start to last node's end
    int64_t busyNs = 0;  // summed durations of its nodes' activities
    int64_t minReplayNs = INT64_MAX;
    int64_t maxReplayNs = 0;
    int64_t firstStart = 0;     // the first replay's first node
    uint32_t launchTrack = GraphNodeRow::kNone, launchSlice = GraphNodeRow::kNone; // the first replay's launch call
    uint64_t attributedNodes = 0; // nodes whose capture is known
    std::vector<GraphNodeRow> nodes;
    // With describe: the Python line that captured it (the innermost frame all its nodes' capture
    // stacks share, outside torch's own code; without captures, the line that launched the replay).
    std::string file;
    int32_t line = 0;
    std::string function;

    int64_t meanReplayNs() const { return replays ? spanNs / static_cast<int64_t>(replays) : 0; }
    // "name (file:line)", or "graph N" when nothing names it.
    std::string label() const;
};

struct GraphReplaysOptions {
    // Only replays whose launch call starts inside [from, to).
    int64_t from = INT64_MIN;
    int64_t to = INT64_MAX;
    // Operators, lines and graph names (reads the capture stacks of each node once); the kernel
    // table's columns need none of it.
    bool describe = true;
    const std::atomic<bool>* cancel = nullptr;
};

/*
 * GraphReplays: a session's CUDA graph replays grouped by graph (issue #48, the Graphs view and
 * `warpscope-cli graphs`).
 *
 * A replay is a launch call (ac2g flows, LaunchFlows::Follow::Launch) named *GraphLaunch* (cuda- or
 * cuGraphLaunch, in every format), or whose GPU work was captured from graph nodes (graph_node flows,
 * model/graph_flows.h). Its GPU activities in start order are its nodes. A node is keyed by where
 * it was captured (its graph_node slice) when that is known, else by its position and name; replays
 * whose sets of node keys are equal are one graph (replays of one executable graph; a torch.compile
 * CUDA graph tree's graphs, one per shape, stay apart). Per graph: replays, time per replay, and per
 * node its calls and time, so the slowest nodes of the replays that cost most are one sort away.
 *
 * Cost: O(flows + A log A) for A replayed activities, plus with describe one stack read per node;
 * memory O(A) while building, 8 bytes per slice of the GPU tracks with replays after.
 */
class GraphReplays {
public:
    static GraphReplays build(const Session& session, const GraphReplaysOptions& options = {});

    const std::vector<GraphRow>& graphs() const { return m_graphs; }
    // (index into graphs(), node index) of a replayed GPU slice; nullopt for any other slice.
    std::optional<std::pair<uint32_t, uint32_t>> nodeOf(uint32_t track, uint32_t slice) const;
    // The node indices of graph g, heaviest total first (ties by index).
    std::vector<uint32_t> slowestNodes(size_t g) const;
    uint64_t replayedActivities() const { return m_activities; }
    uint64_t attributedActivities() const { return m_attributed; }
    int64_t replayedNs() const { return m_replayedNs; }

private:
    std::vector<GraphRow> m_graphs;
    // Per track (GPU tracks with replays only), per slice: graph index + 1 (0: none) and node index.
    std::vector<std::vector<uint32_t>> m_graphOf, m_nodeOf;
    uint64_t m_activities = 0;
    uint64_t m_attributed = 0;
    int64_t m_replayedNs = 0;
};

} // namespace ws
