#!/usr/bin/env python3
"""Independent reference for the Overview (issue #6): `warpscope-cli overview --json`.

Reads a Chrome/Kineto trace with Python's json module and computes, straight from FORMATS.md
section 3 (torch-tb-profiler formulas) and without sharing code with the C++ side:
  3.3 steps (ProfilerStep#N widened by device work, tail trimming; else one step over the ops),
  3.4 the step time breakdown (roles in priority order, exclusive attribution over the union of
      steps, per-step costs, averages),
  3.5 GPU utilization, 3.6 Est. SM Efficiency, 3.7 Est. Achieved Occupancy per device,
  kernel count / time in the window and the Tensor Core kernel share (same name markers as
  kernelUsesTensorCores), peak allocated memory in the window.
Without ProfilerStep#N, ranges marked as steps (`step 3`, `iteration_12`, ...) are the steps
(core/analysis/step_ranges.h). Documented choices shared with the C++ side (core/analysis/step_breakdown.h): communication kernels
are those named nccl* or launched by a nccl:/gloo:/record_param_comms op (External id); every
nccl:*/gloo:* host op is communication; cuda_driver is not Runtime; python_function and GPU-side
annotations are not CPU Exec.

Times are exact integer ns on the session clock (Decimal on the number text, plus baseTimeNanoseconds).
Usage: python3 reference_overview.py FILE [--from NS --to NS]   (prints one JSON object)
"""
import gzip
import json
import re
import sys
from decimal import Decimal

RUNTIME = {"runtime", "cuda_runtime", "mtia_runtime", "glow_runtime", "xpu_runtime", "privateuse1_runtime"}
HOST_OPS = {"cpu_op", "operator", "user_annotation"}
ROLES = ["Kernel", "Memcpy", "Memset", "Communication", "Runtime", "DataLoader", "CPU Exec", "Other"]
TC_MARKERS = ["hmma", "imma", "wgmma", "tensorop", "xmma", "884", "1688", "16816", "16832",
              "mfma", "wmma", "xdlops", "_xdl_"]  # AMD matrix cores: MFMA/WMMA, Composable Kernel XDL
AMD_MFMA_TILE = re.compile(r"_mi\d+x")  # Tensile / hipBLASLt: Cijk_..._MI16x16x1_...


def uses_tensor_cores(name):
    lower = str(name).lower()
    return any(m in lower for m in TC_MARKERS) or AMD_MFMA_TILE.search(lower) is not None


def ns(v):
    return int((Decimal(str(v)) * 1000).to_integral_value(rounding="ROUND_HALF_UP"))


def load(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return json.loads(raw, parse_float=Decimal)


def merge(iv):
    out = []
    for a, b in sorted(x for x in iv if x[1] > x[0]):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def intersect(x, y):
    out, i, j = [], 0, 0
    while i < len(x) and j < len(y):
        a, b = max(x[i][0], y[j][0]), min(x[i][1], y[j][1])
        if a < b:
            out.append([a, b])
        if x[i][1] < y[j][1]:
            i += 1
        else:
            j += 1
    return out


def subtract(x, y):
    # x − y = x ∩ complement(y)
    comp, cur = [], -(1 << 62)
    for a, b in y:
        comp.append([cur, a])
        cur = b
    comp.append([cur, 1 << 62])
    return intersect(x, [c for c in comp if c[1] > c[0]])


def length_in(iv, lo, hi):
    return sum(max(0, min(b, hi) - max(a, lo)) for a, b in iv)


def compute_steps(xs, gpu_pids, k, mc, ms):
    d = lambda e: max(0, ns(e.get("dur", 0)))
    iv = lambda e: (ns(e["ts"]), ns(e["ts"]) + d(e))
    host = sorted((iv(e), str(e["name"])[13:]) for e in xs if str(e.get("name", "")).startswith("ProfilerStep#")
                  and str(e.get("cat", "")).lower() in ("user_annotation", "cpu_op", "operator")
                  and e.get("pid") not in gpu_pids)
    if not host:
        # No ProfilerStep#N: ranges marked as steps ("step 3", "Step#3", "iteration_12", ...), at least
        # two, from the thread with the most (lowest pid/tid pair first on ties), nested ones dropped.
        by_thread = {}
        for e in xs:
            if str(e.get("cat", "")).lower() not in ("user_annotation", "cpu_op", "operator") or e.get("pid") in gpu_pids:
                continue
            m = re.fullmatch(r"(?i)(training_step|train_step|iteration|step|iter|batch)[ #_:-]?(\d+)", str(e.get("name", "")))
            if m:
                by_thread.setdefault((e.get("pid"), e.get("tid")), []).append((iv(e), m.group(2)))
        if by_thread:
            marks = max(by_thread.values(), key=len)
            if len(marks) >= 2:
                for r, l in sorted(marks, key=lambda x: x[0][0]):
                    if not host or r[0] >= host[-1][0][1]:
                        host.append((r, l))
    labels = [l for _, l in host]
    steps = [s for s, _ in host]
    if not steps:
        ops = [iv(e) for e in xs if str(e.get("cat", "")).lower() in ("cpu_op", "operator", "python_function")]
        if not ops:
            ops = [iv(e) for e in xs]
        if not ops:
            return [], []
        steps = [(min(a for a, _ in ops), max(b for _, b in ops))]
        labels = [""]
    dev, unc = {}, []
    for e in k + mc + ms:
        c = e.get("args", {}).get("correlation")
        if c is None:
            unc.append(iv(e))
            continue
        s = dev.setdefault(c, [None, None, 0, False])
        a, b = iv(e)
        s[0] = a if s[0] is None else min(s[0], a)
        s[1] = b if s[1] is None else max(s[1], b)
        s[2] += 1
    n = len(steps)
    dmin, dmax, matched = [None] * n, [None] * n, [0] * n
    for e in xs:
        if str(e.get("cat", "")).lower() not in RUNTIME or e.get("pid") in gpu_pids:
            continue
        c = e.get("args", {}).get("correlation")
        if c not in dev:
            continue
        a, b = iv(e)
        idx = [i for i, (sa, sb) in enumerate(steps) if sa <= a]
        if not idx or b > steps[idx[-1]][1]:
            continue
        i = idx[-1]
        s = dev[c]
        s[3] = True
        dmin[i] = s[0] if dmin[i] is None else min(dmin[i], s[0])
        dmax[i] = s[1] if dmax[i] is None else max(dmax[i], s[1])
        matched[i] += s[2]
    prev = steps[0][0]
    if matched[0]:
        for s in dev.values():
            if not s[3] and s[1] < dmin[0]:
                prev = max(prev, s[1])
        for a, b in unc:
            if b < dmin[0]:
                prev = max(prev, b)
    res = []
    for i, (ha, hb) in enumerate(steps):
        st = max(prev, ha)
        en = max(hb, dmax[i]) if matched[i] else max(hb, st)
        res.append((st, en))
        prev = en
    last = max((i for i in range(n) if matched[i]), default=None)
    if last is not None:
        keep = last + 1
        if last > 0 and matched[last] < 0.8 * matched[last - 1]:
            keep = last
        res, labels = res[:keep], labels[:keep]
    return res, labels


def overview(path, sel=None):
    doc = load(path)
    events = doc if isinstance(doc, list) else doc.get("traceEvents", [])
    meta = {} if isinstance(doc, list) else doc
    # FORMATS.md 2.3: modern Kineto times are relative to baseTimeNanoseconds; the session clock is epoch ns.
    base = meta.get("baseTimeNanoseconds")
    if base is not None:
        for e in events:
            if "ts" in e:
                e["ts"] = Decimal(str(e["ts"])) + Decimal(int(base)) / 1000
    xs = [e for e in events if e.get("ph") == "X"]
    cat = lambda e: str(e.get("cat", "")).lower()
    gpu_pids = set()
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "process_labels":
            if str(e.get("args", {}).get("labels", "")).startswith(("GPU ", "MTIA")):
                gpu_pids.add(e.get("pid"))
    for e in xs:
        if cat(e) in ("kernel", "gpu_memcpy", "memcpy", "gpu_memset", "memset", "gpu_user_annotation"):
            gpu_pids.add(e.get("pid"))
    d = lambda e: max(0, ns(e.get("dur", 0)))
    iv = lambda e: [ns(e["ts"]), ns(e["ts"]) + d(e)]
    k = [e for e in xs if cat(e) == "kernel"]
    mc = [e for e in xs if cat(e) in ("gpu_memcpy", "memcpy")]
    ms = [e for e in xs if cat(e) in ("gpu_memset", "memset")]
    steps, labels = compute_steps(xs, gpu_pids, k, mc, ms)
    if sel:
        clipped = [((max(a, sel[0]), min(b, sel[1])), l) for (a, b), l in zip(steps, labels) if b > sel[0] and a < sel[1]]
        steps, labels = [s for s, _ in clipped], [l for _, l in clipped]
        if not steps:
            steps, labels = [tuple(sel)], [""]

    # 3.4 role ranges
    ext = lambda e: e.get("args", {}).get("External id", e.get("args", {}).get("external id"))
    host_ops = [e for e in xs if cat(e) in HOST_OPS and e.get("pid") not in gpu_pids]
    comm_ext = set()
    roles = {r: [] for r in ROLES[:-1]}
    for e in host_ops:
        n = str(e.get("name", ""))
        if n.startswith("ProfilerStep#"):
            continue
        if (n.startswith("enumerate(DataLoader)#") and n.endswith(".__next__")) or n.startswith("enumerate(DataPipe)#"):
            roles["DataLoader"].append(iv(e))
        elif n.startswith("nccl:") or n.startswith("gloo:"):
            roles["Communication"].append(iv(e))
            if ext(e) is not None:
                comm_ext.add(ext(e))
        else:
            roles["CPU Exec"].append(iv(e))
            if n == "record_param_comms" and ext(e) is not None:
                comm_ext.add(ext(e))
    for e in k:
        n = str(e.get("name", ""))
        n = n[5:] if n.startswith("void ") else n
        comm = n.lower().startswith("nccl") or (ext(e) is not None and ext(e) in comm_ext)
        roles["Communication" if comm else "Kernel"].append(iv(e))
    roles["Memcpy"] = [iv(e) for e in mc]
    roles["Memset"] = [iv(e) for e in ms]
    roles["Runtime"] = [iv(e) for e in xs if cat(e) in RUNTIME and e.get("pid") not in gpu_pids]
    free = merge([list(s) for s in steps])
    costs = {}
    for r in ROLES[:-1]:
        c = intersect(merge(roles[r]), free)
        free = subtract(free, c)
        costs[r] = c
    costs["Other"] = free
    out_steps = []
    for (a, b), l in zip(steps, labels):
        row = {"step": l or None, "start_ns": a, "end_ns": b}
        for r in ROLES:
            row[r] = length_in(costs[r], a, b)
        row["Total"] = b - a
        out_steps.append(row)
    n = len(out_steps)
    avg = {r: (sum(s[r] for s in out_steps) / n if n else 0.0) for r in ROLES + ["Total"]}

    # 3.5-3.7 per device over the window
    lo, hi = (steps[0][0], steps[-1][1]) if steps else (0, 0)
    props = {p["id"]: p for p in meta.get("deviceProperties", []) or []}
    byd = {}
    for e in k + mc + ms:
        byd.setdefault(e["pid"], [])
    for e in k:
        byd[e["pid"]].append(e)
    devices = []
    ids = sorted(i for i in byd if isinstance(i, int) and i >= 0) or sorted(props)
    for i in ids:
        ks = byd.get(i, [])
        dv = {"id": i, "name": props.get(i, {}).get("name"), "kernel_count": 0, "kernel_ns": 0,
              "gpu_utilization": None, "est_sm_efficiency": None, "est_achieved_occupancy": None,
              "tensor_core_kernel_share": None, "peak_allocated_bytes": None}
        if ks and hi > lo:
            inwin = [e for e in ks if iv(e)[1] > lo and iv(e)[0] < hi or (iv(e)[0] >= lo and iv(e)[0] < hi)]
            dv["kernel_count"] = len(inwin)
            dv["kernel_ns"] = sum(length_in([iv(e)], lo, hi) for e in inwin)
            busy = merge([iv(e) for e in ks])
            dv["gpu_utilization"] = length_in(busy, lo, hi) / (hi - lo)
            pts = []
            for e in ks:
                v = e.get("args", {}).get("blocks per SM")
                if v is not None and float(v) > 0:
                    a, b = iv(e)
                    pts += [(a, 0, float(v)), (b, 1, -float(v))]
            if pts:
                pts.sort(key=lambda p: (p[0], p[1]))
                s, w = 0.0, 0.0
                for j in range(len(pts) - 1):
                    s += pts[j][2]
                    if s > 1e-9:
                        w += min(s, 1.0) * max(0, min(pts[j + 1][0], hi) - max(pts[j][0], lo))
                dv["est_sm_efficiency"] = w / (hi - lo)
            num = den = 0.0
            for e in ks:
                o = e.get("args", {}).get("est. achieved occupancy %")
                if o is None or float(o) < 0:
                    continue
                c = length_in([iv(e)], lo, hi)
                num += float(o) * c
                den += c
            if den > 0:
                dv["est_achieved_occupancy"] = num / den
            if dv["kernel_ns"] > 0:
                tc = sum(length_in([iv(e)], lo, hi) for e in inwin
                         if uses_tensor_cores(e.get("name", "")))
                dv["tensor_core_kernel_share"] = tc / dv["kernel_ns"]
        before, peak = None, None
        for e in events:
            if e.get("ph") in ("i", "I") and e.get("name") == "[memory]":
                a = e.get("args", {})
                if a.get("Device Type") != 1 or a.get("Device Id") != i or "Total Allocated" not in a:
                    continue
                t, v = ns(e["ts"]), int(a["Total Allocated"])
                if t < lo:
                    before = v  # events are in time order in these files
                elif t <= hi:
                    peak = v if peak is None else max(peak, v)
        if before is not None:
            peak = before if peak is None else max(peak, before)
        dv["peak_allocated_bytes"] = peak
        devices.append(dv)
    return {"window": {"start_ns": lo, "end_ns": hi}, "devices": devices,
            "breakdown": {"steps": out_steps, "average_ns": avg}}


if __name__ == "__main__":
    args = sys.argv[1:]
    sel = None
    if "--from" in args:
        i, j = args.index("--from"), args.index("--to")
        sel = (int(args[i + 1]), int(args[j + 1]))
        args = [a for x, a in enumerate(args) if x not in (i, i + 1, j, j + 1)]
    for p in args:
        print(json.dumps({"file": p, **overview(p, sel)}, default=float, indent=1))
