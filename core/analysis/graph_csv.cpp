#include "analysis/graph_csv.h"

#include "analysis/kernel_csv.h"
#include "model/session.h"

#include <cstdio>

namespace ws {

void writeGraphCsv(std::ostream& out, const GraphReplays& replays) {
    out << "graph,name,file,line,replays,nodes,attributed_nodes,mean_replay_ns,min_replay_ns,max_replay_ns,span_ns,"
           "busy_ns\n";
    for (const GraphRow& g : replays.graphs()) {
        out << g.number << ',' << csvField(g.label()) << ',' << csvField(g.file) << ',';
        if (g.line > 0)
            out << g.line;
        out << ',' << g.replays << ',' << g.nodes.size() << ',' << g.attributedNodes << ',' << g.meanReplayNs() << ','
            << (g.replays ? g.minReplayNs : 0) << ',' << g.maxReplayNs << ',' << g.spanNs << ',' << g.busyNs << '\n';
    }
}

void writeGraphNodeCsv(std::ostream& out, const Session& session, const GraphReplays& replays) {
    out << "graph,node,kind,name,operator,file,line,function,calls,total_ns,mean_ns,min_ns,max_ns,pct_of_graph\n";
    for (size_t gi = 0; gi < replays.graphs().size(); ++gi) {
        const GraphRow& g = replays.graphs()[gi];
        for (uint32_t ni : replays.slowestNodes(gi)) {
            const GraphNodeRow& n = g.nodes[ni];
            out << g.number << ',' << n.index + 1 << ',' << eventKindName(n.kind) << ','
                << csvField(session.str(n.name)) << ',' << csvField(session.str(n.op)) << ',' << csvField(n.file) << ',';
            if (n.line > 0)
                out << n.line;
            out << ',' << csvField(n.function) << ',' << n.calls << ',' << n.totalNs << ','
                << (n.calls ? n.totalNs / static_cast<int64_t>(n.calls) : 0) << ',' << (n.calls ? n.minNs : 0) << ','
                << n.maxNs << ',';
            char pct[32];
            std::snprintf(pct, sizeof pct, "%.3f",
                          g.busyNs > 0 ? 100.0 * static_cast<double>(n.totalNs) / static_cast<double>(g.busyNs) : 0.0);
            out << pct << '\n';
        }
    }
}

} // namespace ws
