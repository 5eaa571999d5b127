#pragma once

#include "inject/tickline.h"

#include <cupti.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace ws {

class StackRecorder;

/*
 * GraphRecorder: the "graphs" activity (issue #48). What each CUDA graph node was made from, so that
 * the importer can give a replayed kernel the operator, layer and Python line of the launch that
 * put it into the graph (a replay's records carry only the graph launch's correlation).
 *
 * CUPTI's resource callbacks (LaunchCallbacks::watchGraphs) report, on the thread that builds the
 * graph and inside the call that builds it:
 *   - a node created (CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED): during stream capture that call is the
 *     captured launch, copy or set, whose correlation LaunchCallbacks left by enterCall(); its
 *     thread, time and stacks (StackRecorder::stacksNow) are taken here, so they exist even when the
 *     call itself was not recorded (a capture paused by --capture-range while the program builds its
 *     graphs at start-up, as vLLM and SGLang do);
 *   - a node cloned (..._GRAPHNODE_CLONED): instantiation copies every node into the executable graph
 *     under a new id, the id a replay's kernel records carry;
 *   - an executable graph created (..._GRAPHEXEC_CREATED), with the stacks at cudaGraphInstantiate.
 * The writer thread turns them into GraphNode and GraphExec records at each flush.
 *
 * Cost: nothing per launch or replay (the callbacks fire while graphs are built); per created node
 * one clock read, a mutex and the stacks, once per graph.
 */
class GraphRecorder {
public:
    void configure(StackRecorder* stacks) { m_stacks = stacks; }
    // From LaunchCallbacks' resource callback (any application thread). Never throws.
    void onResource(CUpti_CallbackId cbid, const CUpti_ResourceData* data);
    // Writer thread: the nodes and executable graphs seen since the last take as records appended to
    // out; ticks turns their HostTicks times into CUPTI's clock.
    void take(uint32_t processId, const TickLine& ticks, std::string& out);

    // The recorded call (launch, copy, set) in progress on this thread, set by LaunchCallbacks at its
    // entry and cleared at its exit: a node created inside it came from it. 0: none.
    static void enterCall(uint32_t correlationId) { t_callCorrelation = correlationId; }
    static void leaveCall() { t_callCorrelation = 0; }

private:
    struct Node {
        uint64_t nodeId, originalNodeId;
        uint32_t graphId, graphExecId, nodeType;
        uint64_t ticks;
        uint32_t threadId, correlationId, stackId, pyStackId;
    };
    struct Exec {
        uint32_t graphExecId, graphId;
        uint64_t ticks;
        uint32_t threadId, stackId, pyStackId;
    };

    static thread_local uint32_t t_callCorrelation;
    StackRecorder* m_stacks = nullptr;
    std::mutex m_mutex;
    std::vector<Node> m_nodes;
    std::vector<Exec> m_execs;
};

} // namespace ws
