#!/usr/bin/env python3
"""Independent reference for the CUDA graph replays of a capture (core/analysis/graph_replays.h), from
the stream's raw records as `wscap-dump -n -1` prints them.

A replay: the Kernel, Memcpy and Memset records with a graphNodeId, grouped by their correlation (the
graph launch's). A graph: the replays of one executable graph (the records' graphId); its nodes: the
distinct graphNodeIds. Per graph, one CSV line: replays, nodes, and the summed span (first start to
last end of each replay) and busy time (durations) in ns; per node: calls and total ns. Prints

  graph replays nodes span_ns busy_ns
  node calls total_ns ...           (one line per node, heaviest first, ties by calls)

for each graph in the order of its first replay, the same figures `warpscope-cli graphs --csv` and
`--nodes-csv` give (graph_replays.h). Usage: reference_graphs.py WSCAP_DUMP CAPTURE.wscap[.gz]

A Kineto JSON trace (reference_graphs.py --kineto TRACE.json[.gz]) has no node ids: a replay is the
kernels, copies and sets whose correlation is a *GraphLaunch* runtime call's (per process), its nodes
are its activities in start order, and replays running the same names in the same order are one
graph.
"""
import collections, gzip, json, os, re, sys
from decimal import Decimal, ROUND_HALF_UP

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "capture", "samples"))
from zoo_python_lines import dump_records  # noqa: E402  (wscap-dump's text of a stream, .gz unpacked)


def ns(us):
    return int((Decimal(str(us)) * 1000).to_integral_value(rounding=ROUND_HALF_UP))


def capture_replays(dump, path):
    """{correlation: [(start, end, graph key, node key)]} from a capture's records."""
    replays = collections.defaultdict(list)
    for line in dump_records(dump, path).splitlines():
        parts = line.split(" ", 2)
        if len(parts) < 3 or parts[1] not in ("Kernel", "Memcpy", "Memset"):
            continue
        f = dict(re.findall(r"(\w+)=(\d+)", parts[2]))
        node = int(f.get("graphNodeId", 0))
        if node:
            replays[int(f["correlationId"])].append((int(f["start"]), int(f["end"]), int(f["graphId"]), node))
    return replays


def kineto_replays(path):
    """The same for a Kineto trace: graph key the names in start order, node key the position."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        events = json.load(f)["traceEvents"]
    launches = {(e.get("pid"), e["args"]["correlation"]) for e in events
                if e.get("ph") == "X" and "GraphLaunch" in e.get("name", "") and "correlation" in e.get("args", {})}
    by_corr = collections.defaultdict(list)
    for e in events:
        if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"):
            corr = e.get("args", {}).get("correlation")
            # GPU events carry their device as pid: the launch is matched on correlation within the trace.
            if corr is not None and any((p, corr) in launches for p in {l[0] for l in launches}):
                start = ns(e["ts"])
                by_corr[corr].append((start, start + ns(e.get("dur", 0)), e["name"]))
    replays = {}
    for corr, acts in by_corr.items():
        acts.sort()
        key = tuple(a[2] for a in acts)
        replays[corr] = [(s, e, key, i) for i, (s, e, _) in enumerate(acts)]
    return replays


def main():
    if sys.argv[1] == "--kineto":
        replays = kineto_replays(sys.argv[2])
    else:
        replays = capture_replays(sys.argv[1], sys.argv[2])
    graphs = collections.OrderedDict()
    for corr, acts in sorted(replays.items(), key=lambda kv: min(a[0] for a in kv[1])):
        g = graphs.setdefault(acts[0][2], {"replays": 0, "span": 0, "busy": 0, "nodes": collections.Counter(),
                                           "time": collections.Counter()})
        g["replays"] += 1
        g["span"] += max(a[1] for a in acts) - min(a[0] for a in acts)
        for start, end, _, node in acts:
            g["busy"] += end - start
            g["nodes"][node] += 1
            g["time"][node] += end - start
    for g in graphs.values():
        print("graph", g["replays"], len(g["nodes"]), g["span"], g["busy"])
        for node in sorted(g["nodes"], key=lambda n: (-g["time"][n], -g["nodes"][n])):
            print("node", g["nodes"][node], g["time"][node])


if __name__ == "__main__":
    main()
