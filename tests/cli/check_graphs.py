"""The CUDA graph captures (tests/data/captures/graphs, issue #48) against torch.profiler's trace of the
same decoder run eagerly: at least 99 % of the replayed kernels carry the operator the eager trace
gives the same kernel of the same step, and at least 85 % of the replayed GPU time lies under the
program's own frames in the flame graph (none under CUDAGraph.replay). `warpscope-cli graphs` finds
one graph with the line that captured it.

  python3 check_graphs.py WARPSCOPE_CLI GRAPHS_DIR

Uses capture/samples/graph_compare.py, the script the GPU-machine runs use. Exits 1 naming every miss.
"""
import os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "capture", "samples"))
from graph_compare import compare  # noqa: E402

cli, folder = sys.argv[1:3]
failures = []
eager = os.path.join(folder, "eager.pt.trace.json.gz")
for name in ("graph", "graph_range"):
    r = compare(cli, os.path.join(folder, name + ".wscap.gz"), eager, "graph_decode.py")
    print("%-12s operators %6.2f %% of %d replayed kernels paired with the eager trace's, GPU time under the code "
          "%6.2f %%, under CUDAGraph.replay %d ns" % (name, r["replayed_operator_match_pct"], r["paired_replayed"],
                                                      r["replayed_under_code_pct"], r["flame_under_replay_ns"]))
    # The range capture recorded no operators (paused while the graph was captured): lines only.
    if name == "graph" and (r["replayed_operator_match_pct"] < 99 or r["paired_replayed"] < 0.9 * r["capture_replayed_kernels"] * 4 / 6):
        failures.append("%s: operators %.2f %% of %d (%s)" % (name, r["replayed_operator_match_pct"], r["paired_replayed"],
                                                              r["top_mismatches"][:3]))
    if r["replayed_under_code_pct"] < 85 or r["flame_under_replay_ns"] > 0:
        failures.append("%s: %.2f %% of the replayed GPU time under the code" % (name, r["replayed_under_code_pct"]))
out = subprocess.run([cli, "graphs", os.path.join(folder, "graph.wscap.gz")], check=True, capture_output=True, text=True).stdout
if "decode_step (graph_decode.py:107)" not in out or "1 graph(s), 192 replay(s)" not in out:
    failures.append("graphs: %s" % out[:400])
if failures:
    print("FAILED:\n  " + "\n  ".join(failures))
    sys.exit(1)
