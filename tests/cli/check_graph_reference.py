"""`warpscope-cli graphs --csv` and `--nodes-csv` of captures and Kineto traces against
tests/core/reference_graphs.py, the independent count from a stream's raw records (or a trace's
events): per graph its replays, nodes, summed replay span and busy time, and per node its calls and
time (the nodes compared as sorted lists). A file that is not there (the shared test data is absent)
is skipped with a note.

  python3 check_graph_reference.py WARPSCOPE_CLI WSCAP_DUMP FILE...
"""
import csv, io, os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
reference = os.path.join(here, "..", "core", "reference_graphs.py")
cli, dump = sys.argv[1:3]
failed = False
for capture in sys.argv[3:]:
    if not os.path.exists(capture):
        print("%s: absent, skipped" % capture)
        continue
    source = ["--kineto", capture] if ".json" in capture else [dump, capture]
    ref, graph = [], None
    for line in subprocess.run([sys.executable, reference, *source], check=True, capture_output=True,
                               text=True).stdout.splitlines():
        w = line.split()
        if w[0] == "graph":
            graph = {"figures": tuple(int(x) for x in w[1:]), "nodes": []}
            ref.append(graph)
        else:
            graph["nodes"].append((int(w[1]), int(w[2])))
    run = lambda *a: list(csv.DictReader(io.StringIO(subprocess.run([cli, "graphs", capture, *a], check=True,
                                                                    capture_output=True, text=True).stdout)))
    graphs, nodes = run("--csv"), run("--nodes-csv")
    got = []
    for g in graphs:
        got.append({"figures": (int(g["replays"]), int(g["nodes"]), int(g["span_ns"]), int(g["busy_ns"])),
                    "nodes": [(int(n["calls"]), int(n["total_ns"])) for n in nodes if n["graph"] == g["graph"]]})
    for r in ref + got:
        r["nodes"].sort()
    ok = ref == got and ref
    print("%s: %d graph(s), %s" % (os.path.basename(capture), len(ref), "equal" if ok else "DIFFERENT"))
    if not ok:
        print("  reference:", [r["figures"] for r in ref], "\n  warpscope:", [g["figures"] for g in got])
        failed = True
sys.exit(1 if failed else 0)
