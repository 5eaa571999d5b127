#pragma once

#include <string_view>

namespace ws {

/*
 * CUDA graph attribution flows (issue #48). A replayed graph's kernels are launched by the graph
 * launch (cuGraphLaunch): their ac2g flows start there, and the analyses that ask when and by which
 * thread GPU work was launched (why the GPU waits, steps from the launch pattern) follow those. Where
 * a trace knows where each node was made (a capture's GraphNode records: the kernel launch, copy or
 * set captured on a stream, with its operator and stacks), every replayed activity also gets a flow
 * of this category from that node's graph_node slice (EventKind::GraphNode, a child of the captured
 * call). The analyses that ask which code a GPU activity belongs to (operator, layer, shapes, Python
 * line: the kernel table, operator device time, flame graph, Stack tab, line totals) prefer it over
 * the launch (analysis/launch_flows.h).
 */
inline constexpr std::string_view kGraphNodeFlowCategory = "graph_node";

} // namespace ws
