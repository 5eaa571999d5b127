#!/usr/bin/env python3
"""Independent reference for the operator table (issue #6): `warpscope-cli ops FILE --csv`.

Reads a Chrome/Kineto trace with Python's json module and computes torch-tb-profiler's operator
statistics straight from FORMATS.md 3.2 / 3.9, sharing no code or data structure with the C++
side: where the C++ tree walks the importer's lanes and ac2g flows, this script follows tb itself:

* host tree per (pid, tid): cpu_op events plus the user annotations tb keeps (ProfilerStep#,
  DataLoader, Optimizer.step*, nccl:/gloo: collectives), sorted by (start, -end), nested with a
  stack; partially overlapping events are dropped (tb logs them as errors);
* runtime (and, as Warpscope documents, cuda_driver) calls attach to the tree node whose
  `External id` equals theirs, else (id 0 or a non-node annotation) to the innermost node of their
  thread containing them; only outermost calls are subtracted from self host time;
* kernels / memcpy / memset attach to the call with the same `correlation`;
* same-name single-child operator pairs collapse (self values add up, runtimes are kept);
* statistics count plain operators: cpu_op not named ProfilerStep#*, Optimizer.*, DataLoader
  names, DataParallel.forward, DistributedDataParallel.forward.

Times are exact integer ns (Decimal on the number text, half-up like the importer).
Usage: python3 reference_ops.py FILE...          per-name table
       python3 reference_ops.py --cpp FILE...    C++ initializers for operator_table_test.cpp
"""
import gzip
import json
import re
import sys
from collections import defaultdict
from decimal import Decimal

RUNTIME = {"runtime", "cuda_runtime", "mtia_runtime", "glow_runtime", "xpu_runtime", "privateuse1_runtime",
           "cuda_driver", "xpu_driver", "privateuse1_driver"}
DEVICE = {"kernel", "gpu_memcpy", "memcpy", "gpu_memset", "memset"}
OPS = {"cpu_op", "operator"}
TC_KERNEL_MARKERS = ["hmma", "imma", "wgmma", "tensorop", "xmma", "884", "1688", "16816", "16832",
                     "mfma", "wmma", "xdlops", "_xdl_"]  # AMD matrix cores (MFMA/WMMA, CK XDL)
AMD_MFMA_TILE = re.compile(r"_mi\d+x")  # Tensile / hipBLASLt: Cijk_..._MI16x16x1_...
COLLECTIVES = {p + op for p in ("nccl:", "gloo:") for op in ("broadcast", "reduce", "all_reduce", "all_gather",
                                                              "reduce_scatter")}


def ns(v):
    return int((Decimal(str(v)) * 1000).to_integral_value(rounding="ROUND_HALF_UP"))


def load(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return json.loads(raw, parse_float=Decimal)


def is_dataloader(n):
    return (n.startswith("enumerate(DataLoader)#") and n.endswith(".__next__")) or n.startswith("enumerate(DataPipe)#")


def node_kind(cat, name):
    """'op' counted operator, 'xop' excluded operator, 'step', 'ann' other tree node, None: not a node."""
    if cat in OPS:
        if name.startswith("ProfilerStep#"):
            return "step"
        if is_dataloader(name) or name.startswith("Optimizer.") or name in ("DataParallel.forward",
                                                                           "DistributedDataParallel.forward"):
            return "xop"
        return "op"
    if cat == "user_annotation":
        if name.startswith("ProfilerStep#"):
            return "step"
        if is_dataloader(name) or name.startswith("Optimizer.step") or name in COLLECTIVES:
            return "ann"
    return None


def ext_id(args):
    v = args.get("External id", args.get("external id", 0))
    try:
        return int(v)
    except (TypeError, ValueError):
        return 0


def uses_tc(kernel_name):
    low = kernel_name.lower()
    return any(m in low for m in TC_KERNEL_MARKERS) or AMD_MFMA_TILE.search(low) is not None


class Node:
    __slots__ = ("name", "kind", "start", "end", "children", "runtimes", "parent", "self_host", "self_dev",
                 "dev", "self_tc", "tc", "merged", "dropped")

    def __init__(self, name, kind, start, end):
        self.name, self.kind, self.start, self.end = name, kind, start, end
        self.children, self.runtimes, self.parent = [], [], None
        self.self_host = self.self_dev = self.dev = self.self_tc = self.tc = 0
        self.merged = self.dropped = False


def operator_stats(path, kernels_by_op=None):
    """Per-name statistics; kernels_by_op, when given a dict, receives (operator name, kernel name) ->
    [calls, ns] for each kernel attached to an operator's (or kept annotation's) own runtime call."""
    doc = load(path)
    events = doc if isinstance(doc, list) else doc.get("traceEvents", [])
    xs = [e for e in events if e.get("ph") == "X" and "dur" in e]
    per_thread = defaultdict(list)
    calls_per_thread = defaultdict(list)
    by_ext = {}
    by_corr = defaultdict(list)  # correlation -> device events (start, dur, name, is_kernel)
    for e in xs:
        cat = str(e.get("cat", "")).lower()
        args = e.get("args") or {}
        start, dur = ns(e["ts"]), ns(e["dur"])
        if cat in DEVICE:
            c = args.get("correlation")
            if c is not None:
                by_corr[int(c)].append((dur, e.get("name", ""), cat == "kernel"))
            continue
        key = (str(e.get("pid")), str(e.get("tid")))
        if cat in RUNTIME:
            calls_per_thread[key].append((start, start + dur, ext_id(args), args.get("correlation")))
            continue
        kind = node_kind(cat, e.get("name", ""))
        if kind is None:
            continue
        n = Node(e.get("name", ""), kind, start, start + dur)
        per_thread[key].append(n)
        x = ext_id(args)
        if x:
            by_ext[x] = n

    roots = []
    for key, nodes in per_thread.items():
        nodes.sort(key=lambda n: (n.start, -n.end))
        stack = []
        for n in nodes:
            while stack and not n.start < stack[-1].end:
                stack.pop()
            if stack and n.end > stack[-1].end:
                n.dropped = True  # partial overlap: tb drops it
                continue
            n.parent = stack[-1] if stack else None
            (n.parent.children if n.parent else roots).append(n)
            stack.append(n)
        # Runtime calls: by External id, else the innermost containing node of the thread.
        calls = sorted(calls_per_thread.get(key, []), key=lambda c: (c[0], -c[1]))
        outer = []
        for c in calls:
            while outer and not c[0] < outer[-1][1]:
                outer.pop()
            nested = bool(outer) and c[1] <= outer[-1][1]
            owner = by_ext.get(c[2])
            if owner is None or not (owner.start <= c[0] and c[1] <= owner.end):
                owner = None
                for n in nodes:  # innermost = last containing one in (start, -end) order
                    if n.start > c[0]:
                        break
                    if not n.dropped and n.start <= c[0] and c[1] <= n.end and (
                            c[0] < n.end or c[0] == n.start):
                        owner = n
            if owner is not None:
                owner.runtimes.append((c[1] - c[0], nested, c[3]))
            if not nested:
                outer.append(c)

    used = set()
    def fill(n):
        n.self_host = (n.end - n.start) - sum(c.end - c.start for c in n.children) - sum(
            d for d, nested, _ in n.runtimes if not nested)
        for _, _, corr in n.runtimes:
            if corr is None or int(corr) in used:
                continue
            used.add(int(corr))
            for d, kname, kernel in by_corr.get(int(corr), []):
                n.self_dev += d
                if kernel and kernels_by_op is not None:
                    k = kernels_by_op.setdefault((n.name, kname), [0, 0])
                    k[0] += 1
                    k[1] += d
                if kernel and uses_tc(kname):
                    n.self_tc += d
        n.dev, n.tc = n.self_dev, n.self_tc
        for c in n.children:
            fill(c)
            n.dev += c.dev
            n.tc += c.tc

    def collapse(n):
        for c in n.children:
            collapse(c)
        if len(n.children) == 1:
            c = n.children[0]
            if c.name == n.name and n.kind in ("op", "xop") and c.kind in ("op", "xop"):
                n.self_host += c.self_host
                n.self_dev += c.self_dev
                n.self_tc += c.self_tc
                c.merged = True

    stats = defaultdict(lambda: [0, 0, 0, 0, 0, 0, 0])
    def collect(n):
        if n.kind == "op" and not n.merged:
            s = stats[n.name]
            s[0] += 1
            s[1] += n.end - n.start
            s[2] += n.self_host
            s[3] += n.dev
            s[4] += n.self_dev
            s[5] += n.tc
            s[6] += n.self_tc
        for c in n.children:
            collect(c)

    for r in roots:
        fill(r)
        collapse(r)
        collect(r)
    return dict(stats)


def main(argv):
    cpp = "--cpp" in argv
    for path in [a for a in argv if a != "--cpp"]:
        stats = operator_stats(path)
        rows = sorted(stats.items(), key=lambda kv: (-kv[1][4], -kv[1][2], kv[0]))
        if cpp:
            name = path.rsplit("/", 1)[-1]
            print(f'    // {name}: {len(rows)} operator names')
            for op, s in rows:
                print(f'    {{"{name}", {json.dumps(op)}, {s[0]}, {s[1]}, {s[2]}, {s[3]}, {s[4]}, {s[5]}, {s[6]}}},')
        else:
            print(f"# {path}")
            print("name,calls,host_total_ns,host_self_ns,device_total_ns,device_self_ns,tc_total_ns,tc_self_ns")
            for op, s in rows:
                print(",".join([json.dumps(op)] + [str(v) for v in s]))


if __name__ == "__main__":
    main(sys.argv[1:])
