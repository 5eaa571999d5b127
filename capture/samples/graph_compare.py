"""Checks a CUDA graph capture's replayed kernels against torch.profiler's trace of the same program
run eagerly (issue #48): the operator each replayed kernel carries and the Python line under which
the flame graph puts its GPU time.

  python3 graph_compare.py WARPSCOPE_CLI GRAPHED_CAPTURE EAGER_TRACE [--code FILE.py] [--json]

Kernels pair by name and occurrence from the end of the run (zoo_compare.py): the two programs run
the same steps, one replaying each token's forward from a graph, the other launching it, so the
k-th last nvjet kernel of one is the k-th last of the other. Among the pairs whose capture kernel
was replayed from a graph (`warpscope-cli kernels --csv`'s graph column), the share whose operator is
the trace's. Then, from `warpscope-cli flame --weight gpu --folded`, the share of the GPU time of
replayed kernels that sits under a frame of the program's own file (--code, default the capture's
most frequent non-torch file) rather than under CUDAGraph.replay.
"""
import collections, json, subprocess, sys

from zoo_compare import kernels, pair_from_end, short


def flame_shares(cli, capture, code_file):
    """(time under CUDAGraph.replay, time under a frame of code_file, all kernel time) of the flame graph."""
    out = subprocess.run([cli, "flame", capture, "--weight", "gpu", "--folded"], check=True, capture_output=True,
                         text=True).stdout
    replay = code = total = 0
    for line in out.splitlines():
        stack, _, weight = line.rpartition(" ")
        w = int(weight)
        total += w
        frames = stack.split(";")
        if any("CUDAGraph.replay" in f for f in frames[-3:]):
            replay += w
        elif any(code_file in f for f in frames):
            code += w
    return replay, code, total


def compare(cli, capture, trace, code_file):
    cap, ref = kernels(cli, capture), kernels(cli, trace)
    pairs, missing = pair_from_end(ref, cap)
    replayed = [(r, c) for r, c in pairs if c.get("graph")]
    matched = [(r, c) for r, c in replayed if r["operator"] == c["operator"]]
    wrong = collections.Counter((r["operator"] or "(none)", c["operator"] or "(none)", short(r["kernel"]))
                                for r, c in replayed if r["operator"] != c["operator"])
    replayed_ns = sum(int(c["duration_ns"] or 0) for c in cap if c.get("graph"))
    replay, code, total = flame_shares(cli, capture, code_file)
    return {
        "capture_kernels": len(cap), "capture_replayed_kernels": sum(1 for c in cap if c.get("graph")),
        "trace_kernels": len(ref), "paired": len(pairs), "paired_replayed": len(replayed),
        "missing_in_capture": sum(missing.values()), "missing_kernels": dict(missing.most_common(5)),
        "replayed_operator_matched": len(matched),
        "replayed_operator_match_pct": round(100.0 * len(matched) / max(1, len(replayed)), 2),
        "top_mismatches": [{"trace_op": k[0], "capture_op": k[1], "kernel": k[2], "count": n} for k, n in wrong.most_common(6)],
        "flame_gpu_ns": total, "flame_under_replay_ns": replay, "flame_under_code_ns": code,
        "replayed_gpu_ns": replayed_ns,
        # Every non-replayed kernel of these programs is launched from their own code too (the prompt):
        # the replayed kernels' share under the code is what is left after those.
        "replayed_under_code_pct": round(100.0 * (code - (total - replayed_ns - replay)) / max(1, replayed_ns), 2),
    }


def main():
    cli, capture, trace = sys.argv[1:4]
    code_file = sys.argv[sys.argv.index("--code") + 1] if "--code" in sys.argv else "graph_decode.py"
    result = compare(cli, capture, trace, code_file)
    if "--json" in sys.argv:
        print(json.dumps(result))
        return
    for k, v in result.items():
        print("%-28s %s" % (k, v))


if __name__ == "__main__":
    main()
