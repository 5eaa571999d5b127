#pragma once

#include <cstdint>
#include <vector>

namespace ws {

class Session;

/*
 * LaunchFlows: for every GPU slice the one flow an analysis follows to its host side, found in one
 * pass over the flows (O(flows) time; one uint32 per slice of a GPU track that some flow ends at).
 *
 * Two questions have two answers for a replayed CUDA graph (model/graph_flows.h):
 *  - Launch: which call put the work on the GPU, when and on which thread (a replay's cuGraphLaunch;
 *    why the GPU waits, steps from the launch pattern). Flows of the graph_node category are left out.
 *  - Attribution: which code the work belongs to (operator, layer, shapes, Python line: the kernel
 *    table, the flame graph, the Stack tab, line totals, operator device time). A replayed node's
 *    graph_node flow, from the slice where the node was made inside its captured call, else the launch.
 * Among several flows of the same kind ending at one slice: a flow from the slice to itself, then
 * the lowest index (the order Session::flowsOf lists them in).
 */
class LaunchFlows {
public:
    enum class Follow : uint8_t { Launch, Attribution };
    static constexpr uint32_t kNone = 0xffffffffu;

    static LaunchFlows build(const Session& session, Follow follow);
    // Index into Session::flows() of the flow followed to GPU slice (track, slice), kNone if none.
    uint32_t flowOf(uint32_t track, uint32_t slice) const {
        if (track >= m_flow.size() || slice >= m_flow[track].size())
            return kNone;
        return m_flow[track][slice];
    }
    // The same answer for one slice without building the whole table: O(log flows) (Session::flowsOf).
    static uint32_t flowOfSlice(const Session& session, uint32_t track, uint32_t slice, Follow follow);
    // Whether flow f is a graph_node attribution flow (StringTable lookup once per session: pass the
    // id from graphNodeCategory()).
    static uint32_t graphNodeCategory(const Session& session); // kNone when the session has none

private:
    std::vector<std::vector<uint32_t>> m_flow; // per track, per slice; empty for tracks no flow ends at
};

} // namespace ws
