#!/usr/bin/env python3
"""Independent reference for comparing two runs (issue #15): `warpscope-cli diff A B`.

Operators: per-name statistics of each run from reference_ops.py (torch-tb-profiler's operator
view recomputed from the JSON), matched by name; the delta is B's device self time minus A's.
Kernels by operator: reference_ops.py's attachment of each kernel to the operator whose own runtime
call launched it (by `correlation`), summed per (operator name, normalized kernel name); kernels no
operator launched go to operator "".
Kernels: every `kernel` event's duration summed per normalized name, matched across the runs; the
normalization is written here again from its specification (session_diff.h), not translated from
the C++: `void ` and the parameter list dropped, configuration tokens of the base name (NxM..., and
tilesize/warpgroupsize/clustersize/stages/stage/splitk/sliced/tile/warps followed by digits) as
`*`, numbers inside template arguments as `*`.

Usage: python3 reference_diff.py A B          CSV of both tables
       python3 reference_diff.py --cpp A B    C++ initializers for session_diff_test.cpp
"""
import csv
import json
import re
import sys
from collections import defaultdict

import reference_ops as ops

CONFIG_WORDS = ("tilesize", "warpgroupsize", "clustersize", "stages", "stage", "splitk", "sliced", "tile", "warps")


def is_config(token):
    rest = token
    for w in CONFIG_WORDS:
        if token.startswith(w) and len(token) > len(w) and token[len(w)].isdigit():
            rest = token[len(w):]
            return re.fullmatch(r"[0-9x]+", rest) is not None
    return re.fullmatch(r"[0-9][0-9x]*", token) is not None and "x" in token


def strip_params(name):
    out, angle, paren = [], 0, 0
    for c in name:
        if paren:
            paren += {"(": 1, ")": -1}.get(c, 0)
            continue
        if c == "<":
            angle += 1
        elif c == ">" and angle:
            angle -= 1
        elif c == "(" and angle == 0:
            paren = 1
            continue
        out.append(c)
    return "".join(out).rstrip(" ")


def normalize(name):
    if name.startswith("void "):
        name = name[5:]
    text = strip_params(name)
    cut = text.find("<")
    base, args = (text, "") if cut < 0 else (text[:cut], text[cut:])
    base = "_".join("*" if is_config(t) else t for t in base.split("_"))
    args = re.sub(r"(?<![A-Za-z0-9_])[0-9]+[uUlL]*", "*", args)
    return base + args


def kernel_stats(path):
    stats = defaultdict(lambda: [0, 0])
    data = ops.load(path)
    for e in data if isinstance(data, list) else data.get("traceEvents", []):
        if isinstance(e, dict) and e.get("ph") == "X" and str(e.get("cat", "")).lower() == "kernel":
            s = stats[normalize(e.get("name", ""))]
            s[0] += 1
            s[1] += ops.ns(e.get("dur", 0))
    return stats


def operator_kernel_stats(path, raw_kernels):
    launched = {}
    ops.operator_stats(path, launched)
    stats = defaultdict(lambda: [0, 0])
    attributed = defaultdict(lambda: [0, 0])
    for (op, kname), (calls, dur) in launched.items():
        s = stats[(op, normalize(kname))]
        s[0] += calls
        s[1] += dur
        attributed[kname][0] += calls
        attributed[kname][1] += dur
    for kname, (calls, dur) in raw_kernels.items():
        rest = calls - attributed[kname][0]
        if rest:
            s = stats[("", normalize(kname))]
            s[0] += rest
            s[1] += dur - attributed[kname][1]
    return stats


def raw_kernel_stats(path):
    stats = defaultdict(lambda: [0, 0])
    data = ops.load(path)
    for e in data if isinstance(data, list) else data.get("traceEvents", []):
        if isinstance(e, dict) and e.get("ph") == "X" and str(e.get("cat", "")).lower() == "kernel":
            s = stats[e.get("name", "")]
            s[0] += 1
            s[1] += ops.ns(e.get("dur", 0))
    return stats


def main(argv):
    cpp = "--cpp" in argv
    a, b = [x for x in argv if x != "--cpp"]
    oa, ob = ops.operator_stats(a), ops.operator_stats(b)
    ka, kb = kernel_stats(a), kernel_stats(b)
    pa, pb = operator_kernel_stats(a, raw_kernel_stats(a)), operator_kernel_stats(b, raw_kernel_stats(b))
    zero_op, zero_k = [0] * 7, [0, 0]
    op_rows = sorted(((n, oa.get(n, zero_op), ob.get(n, zero_op)) for n in set(oa) | set(ob)),
                     key=lambda r: (-abs(r[2][4] - r[1][4]), r[0]))
    k_rows = sorted(((n, ka.get(n, zero_k), kb.get(n, zero_k)) for n in set(ka) | set(kb)),
                    key=lambda r: (-abs(r[2][1] - r[1][1]), r[0]))
    if cpp:
        print(f"// operators: {len(op_rows)} (name, calls A, calls B, device self A, device self B)")
        for n, x, y in op_rows:
            print(f"    {{{json.dumps(n)}, {x[0]}, {y[0]}, {x[4]}, {y[4]}}},")
        print(f"// kernels: {len(k_rows)} (normalized name, calls A, calls B, total A, total B)")
        for n, x, y in k_rows:
            print(f"    {{{json.dumps(n)}, {x[0]}, {y[0]}, {x[1]}, {y[1]}}},")
        return
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["table", "name", "calls_a", "calls_b", "ns_a", "ns_b", "delta_ns"])
    for n, x, y in op_rows:
        out.writerow(["op", n, x[0], y[0], x[4], y[4], y[4] - x[4]])
    for n, x, y in k_rows:
        out.writerow(["kernel", n, x[0], y[0], x[1], y[1], y[1] - x[1]])
    for key in sorted(set(pa) | set(pb)):
        x, y = pa.get(key, zero_k), pb.get(key, zero_k)
        out.writerow(["op-kernel", key[0] + "\x1f" + key[1], x[0], y[0], x[1], y[1], y[1] - x[1]])


if __name__ == "__main__":
    main(sys.argv[1:])
