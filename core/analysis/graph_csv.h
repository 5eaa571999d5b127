#pragma once

#include "analysis/graph_replays.h"

#include <ostream>

namespace ws {

class Session;

// One line per graph: graph, name, file, line, replays, nodes, attributed_nodes, mean_replay_ns,
// min_replay_ns, max_replay_ns, span_ns, busy_ns (graph_replays.h).
void writeGraphCsv(std::ostream& out, const GraphReplays& replays);

// One line per node of every graph, graphs in order and each graph's nodes heaviest first: graph,
// node, kind, name, operator, file, line, function, calls, total_ns, mean_ns, min_ns, max_ns,
// pct_of_graph (its share of the graph's busy time).
void writeGraphNodeCsv(std::ostream& out, const Session& session, const GraphReplays& replays);

} // namespace ws
