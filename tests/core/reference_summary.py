#!/usr/bin/env python3
"""Independent reference for `warpscope-cli summary --json` (issue #3).

Reads a Chrome/Kineto trace with Python's json module (whole file, DOM: fine for test files) and
computes the summary numbers straight from FORMATS.md (sections 2 and 3, torch-tb-profiler
formulas), without sharing any code with the C++ importer. Times are exact integer ns
(Decimal on the number text). Used to produce and re-check the expected values pinned in
tests/core/summary_numbers_test.cpp:  python3 reference_summary.py FILE...
"""
import gzip
import json
import sys
from decimal import Decimal

RUNTIME = {"runtime", "cuda_runtime", "mtia_runtime", "glow_runtime", "xpu_runtime", "privateuse1_runtime"}


def ns(v):
    return int((Decimal(str(v)) * 1000).to_integral_value(rounding="ROUND_HALF_UP"))


def load(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return json.loads(raw, parse_float=Decimal)


def union_within(iv, lo, hi):
    iv = sorted(iv)
    total, cur = 0, None
    for a, b in iv:
        if cur and a <= cur[1]:
            cur[1] = max(cur[1], b)
            continue
        if cur:
            total += max(0, min(cur[1], hi) - max(cur[0], lo))
        cur = [a, b]
    if cur:
        total += max(0, min(cur[1], hi) - max(cur[0], lo))
    return total


def summarize(path):
    doc = load(path)
    events = doc if isinstance(doc, list) else doc.get("traceEvents", [])
    meta = {} if isinstance(doc, list) else doc
    gpu_pids = set()
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "process_labels":
            if str(e.get("args", {}).get("labels", "")).startswith(("GPU ", "MTIA")):
                gpu_pids.add(e.get("pid"))
    xs = [e for e in events if e.get("ph") == "X"]
    for e in xs:
        if str(e.get("cat", "")).lower() in ("kernel", "gpu_memcpy", "memcpy", "gpu_memset", "memset", "gpu_user_annotation"):
            gpu_pids.add(e.get("pid"))
    out = {"events": len(events)}
    k = [e for e in xs if str(e.get("cat", "")).lower() == "kernel"]
    mc = [e for e in xs if str(e.get("cat", "")).lower() in ("gpu_memcpy", "memcpy")]
    ms = [e for e in xs if str(e.get("cat", "")).lower() in ("gpu_memset", "memset")]
    d = lambda e: max(0, ns(e.get("dur", 0)))
    out["kernels"] = {"count": len(k), "total_ns": sum(d(e) for e in k)}
    mb = [e["args"]["bytes"] for e in mc if isinstance(e.get("args"), dict) and "bytes" in e["args"]]
    out["memcpy"] = {"count": len(mc), "total_ns": sum(d(e) for e in mc), "bytes": int(sum(mb)) if mb else None}
    out["memset"] = {"count": len(ms), "total_ns": sum(d(e) for e in ms)}
    out["runtime_calls"] = sum(1 for e in xs if str(e.get("cat", "")).lower() in RUNTIME)
    host_steps = [e for e in xs if str(e.get("name", "")).startswith("ProfilerStep#")
                  and str(e.get("cat", "")).lower() in ("user_annotation", "cpu_op", "operator")
                  and e.get("pid") not in gpu_pids]
    out["steps"] = len(host_steps)

    # Steps range, FORMATS.md 3.3.
    iv = lambda e: (ns(e["ts"]), ns(e["ts"]) + d(e))
    steps = sorted(iv(e) for e in host_steps)
    if not steps:
        ops = [iv(e) for e in xs if str(e.get("cat", "")).lower() in ("cpu_op", "operator", "python_function", "python")]
        if not ops:
            ops = [iv(e) for e in xs]
        if ops:
            steps = [(min(a for a, _ in ops), max(b for _, b in ops))]
    dev = {}
    unc = []
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
    ranges = None
    if steps:
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
            if not idx:
                continue
            i = idx[-1]
            if b > steps[i][1]:
                continue
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
            res = res[:keep]
        if res and res[-1][1] > res[0][0]:
            ranges = (res[0][0], res[-1][1])

    props = {p["id"]: p for p in meta.get("deviceProperties", []) or []}
    # Kineto on ROCm: GPU pids are ROCm agent numbers (CPU agents first), deviceProperties ids GPU
    # indexes. The offset lies in [max pid - max id, min pid]; 2 (a two-socket host) when it fits.
    amd = props and all(any(m in str(p.get("name", "")).lower() for m in ("amd ", "radeon", "instinct", "gfx9", "gfx1"))
                        for p in props.values())
    gpu_pids = {e["pid"] for e in events if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation")
                and isinstance(e.get("pid"), int) and e["pid"] >= 0}
    if amd and gpu_pids and min(props) >= 0:
        lo, hi = max(0, max(gpu_pids) - max(props)), min(gpu_pids)
        if lo <= hi and hi > 0:
            offset = 2 if lo <= 2 <= hi else lo
            props = {i + offset: p for i, p in props.items()}
    devs = {}
    for i, p in props.items():
        devs[i] = {"id": i, "name": p.get("name") or None, "gpu_utilization": None, "est_sm_efficiency": None,
                   "est_achieved_occupancy": None, "peak_allocated_bytes": None, "peak_reserved_bytes": None}
    byd = {}
    for e in k:
        if isinstance(e.get("pid"), int) and e["pid"] >= 0:
            byd.setdefault(e["pid"], []).append(e)
    for i, ks in byd.items():
        ds = devs.setdefault(i, {"id": i, "name": None, "gpu_utilization": None, "est_sm_efficiency": None,
                                 "est_achieved_occupancy": None, "peak_allocated_bytes": None, "peak_reserved_bytes": None})
        if not ranges:
            continue
        lo, hi = ranges
        ds["gpu_utilization"] = union_within([iv(e) for e in ks], lo, hi) / (hi - lo)
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
            ds["est_sm_efficiency"] = w / (hi - lo)
        num = den = 0.0
        for e in ks:
            o = e.get("args", {}).get("est. achieved occupancy %")
            if o is None or float(o) < 0:
                continue
            a, b = iv(e)
            c = max(0, min(b, hi) - max(a, lo))
            num += float(o) * c
            den += c
        if den > 0:
            ds["est_achieved_occupancy"] = num / den
    for e in events:
        if e.get("ph") in ("i", "I") and e.get("name") == "[memory]":
            a = e.get("args", {})
            if a.get("Device Type") == 1 and a.get("Device Id") in devs:
                ds = devs[a["Device Id"]]
                for key, field in (("Total Allocated", "peak_allocated_bytes"), ("Total Reserved", "peak_reserved_bytes")):
                    if key in a:
                        ds[field] = int(a[key]) if ds[field] is None else max(ds[field], int(a[key]))
    out["devices"] = [devs[i] for i in sorted(devs)]
    return out


if __name__ == "__main__":
    for p in sys.argv[1:]:
        print(json.dumps({"file": p, **summarize(p)}, default=float))
