"""Which ids a CUDA graph replay's records carry, read off a capture (issue #48).

  python3 graph_ids.py WSCAP_DUMP CAPTURE.wscap[.gz] [--json]

From the stream as `wscap-dump -n -1` prints it: the GraphNode records (created, and cloned at
instantiation), the GraphExec records, and the kernel, memcpy and memset records of replays
(graphNodeId != 0). Says whether a replay's graphNodeId is a created node's id or a clone's, whether
its graphId is the clone's graph, the original graph or the executable graph, and how many replayed
activities lead through clones to a created node, to one made inside a recorded call (its
correlation has an Api record) and to one with a Python stack.
"""
import collections, json, re, sys

from zoo_python_lines import dump_records

FIELD = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\[[^\]]*\]|\S+)')


def fields(line):
    return {k: v for k, v in FIELD.findall(line)}


def ids(dump, path):
    created, cloned, execs, api = {}, {}, {}, set()
    activities = collections.Counter()
    replayed = []  # (kind, graphId, graphNodeId)
    for line in dump_records(dump, path).splitlines():
        parts = line.split(" ", 2)
        if len(parts) < 3:
            continue
        kind = parts[1]
        if kind not in ("GraphNode", "GraphExec", "Kernel", "Memcpy", "Memset", "Api"):
            continue
        f = fields(parts[2])
        if kind == "GraphNode":
            node = int(f["nodeId"])
            (cloned if int(f["originalNodeId"]) else created)[node] = f
        elif kind == "GraphExec":
            execs[int(f["graphExecId"])] = f
        elif kind == "Api":
            api.add(int(f["correlationId"]))
        elif int(f.get("graphNodeId", "0")):
            replayed.append((kind, int(f["graphId"]), int(f["graphNodeId"])))
            activities[kind] += 1

    # Instantiation reports each executable-graph node as created and as a clone under one id: the
    # clone leads back to the captured node (the importer's rule, capture_stream_converter.cpp).
    def root(node):
        for _ in range(16):
            if node in cloned:
                node = int(cloned[node]["originalNodeId"])
            elif node in created and int(created[node]["graphId"]) not in execs:
                return created[node]
            else:
                return None
        return None

    is_created = sum(1 for _, _, n in replayed if n in created)
    is_clone = sum(1 for _, _, n in replayed if n in cloned)
    graph_of_clone = sum(1 for _, g, n in replayed if n in cloned and int(cloned[n]["graphId"]) == g)
    graph_is_exec = sum(1 for _, g, n in replayed if g in execs)
    roots = [root(n) for _, _, n in replayed]
    graph_of_root = sum(1 for (_, g, _), r in zip(replayed, roots) if r and int(r["graphId"]) == g)
    resolved = sum(1 for r in roots if r)
    in_call = sum(1 for r in roots if r and int(r["correlationId"]) in api)
    with_stack = sum(1 for r in roots if r and (int(r["pyStackId"]) or int(r["stackId"])))
    node_types = collections.Counter(int(f["nodeType"]) for f in created.values())
    return {
        "graph_nodes_created": len(created), "graph_nodes_cloned": len(cloned), "graph_execs": len(execs),
        "created_node_types": dict(node_types), "replayed": len(replayed), "replayed_by_kind": dict(activities),
        "replay_node_id_is_a_clone": is_clone, "replay_node_id_is_a_created_node": is_created,
        "replay_graph_id_is_the_clones_graph": graph_of_clone, "replay_graph_id_is_an_exec_id": graph_is_exec,
        "replay_graph_id_is_the_created_nodes_graph": graph_of_root,
        "resolved_to_created": resolved, "created_inside_a_recorded_call": in_call, "created_with_a_stack": with_stack,
        "example_created": next(iter(created.values()), None), "example_clone": next(iter(cloned.values()), None),
        "example_exec": next(iter(execs.values()), None),
    }


def main():
    result = ids(sys.argv[1], sys.argv[2])
    if "--json" in sys.argv:
        print(json.dumps(result))
        return
    for k, v in result.items():
        print("%-44s %s" % (k, v))


if __name__ == "__main__":
    main()
