#include "inject/graphrecorder.h"

#include "format/wscapcodec.h"
#include "inject/hostticks.h"
#include "inject/stackrecorder.h"

#include <sys/syscall.h>
#include <unistd.h>

namespace ws {

using namespace wscap;

thread_local uint32_t GraphRecorder::t_callCorrelation = 0;

namespace {

uint32_t threadId() {
    thread_local const uint32_t tid = static_cast<uint32_t>(::syscall(SYS_gettid));
    return tid;
}

uint64_t nodeIdOf(CUgraphNode node) {
    uint64_t id = 0;
    return node && cuptiGetGraphNodeId(node, &id) == CUPTI_SUCCESS ? id : 0;
}

uint32_t graphIdOf(CUgraph graph) {
    uint32_t id = 0;
    return graph && cuptiGetGraphId(graph, &id) == CUPTI_SUCCESS ? id : 0;
}

uint32_t execIdOf(CUgraphExec exec) {
    uint32_t id = 0;
    return exec && cuptiGetGraphExecId(exec, &id) == CUPTI_SUCCESS ? id : 0;
}

} // namespace

void GraphRecorder::onResource(CUpti_CallbackId cbid, const CUpti_ResourceData* data) {
    if (!data || !data->resourceDescriptor)
        return;
    const auto* g = static_cast<const CUpti_GraphData*>(data->resourceDescriptor);
    try {
        switch (cbid) {
        case CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED: {
            Node n{nodeIdOf(g->node), 0, graphIdOf(g->graph), 0, static_cast<uint32_t>(g->nodeType),
                   HostTicks::now(), threadId(), t_callCorrelation, 0, 0};
            if (n.nodeId == 0)
                return;
            if (m_stacks)
                m_stacks->stacksNow(&n.stackId, &n.pyStackId);
            std::lock_guard<std::mutex> lock(m_mutex);
            m_nodes.push_back(n);
            return;
        }
        case CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED: {
            Node n{nodeIdOf(g->node), nodeIdOf(g->originalNode), graphIdOf(g->graph), execIdOf(g->graphExec),
                   static_cast<uint32_t>(g->nodeType), HostTicks::now(), threadId(), 0, 0, 0};
            if (n.nodeId == 0 || n.originalNodeId == 0)
                return;
            std::lock_guard<std::mutex> lock(m_mutex);
            m_nodes.push_back(n);
            return;
        }
        case CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED: {
            Exec e{execIdOf(g->graphExec), graphIdOf(g->graph), HostTicks::now(), threadId(), 0, 0};
            if (e.graphExecId == 0)
                return;
            if (m_stacks)
                m_stacks->stacksNow(&e.stackId, &e.pyStackId);
            std::lock_guard<std::mutex> lock(m_mutex);
            m_execs.push_back(e);
            return;
        }
        default:
            return;
        }
    } catch (...) {
        // Out of memory: this node goes unrecorded; nothing may escape into CUDA.
    }
}

void GraphRecorder::take(uint32_t processId, const TickLine& ticks, std::string& out) {
    std::vector<Node> nodes;
    std::vector<Exec> execs;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        nodes.swap(m_nodes);
        execs.swap(m_execs);
    }
    for (const Node& n : nodes)
        appendRecord(out, GraphNodeRecord{n.nodeId, n.originalNodeId, n.graphId, n.graphExecId, n.nodeType,
                                          ticks.toNs(n.ticks), processId, n.threadId, n.correlationId, n.stackId,
                                          n.pyStackId});
    for (const Exec& e : execs)
        appendRecord(out, GraphExecRecord{e.graphExecId, e.graphId, ticks.toNs(e.ticks), processId, e.threadId,
                                          e.stackId, e.pyStackId});
}

} // namespace ws
