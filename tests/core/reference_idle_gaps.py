#!/usr/bin/env python3
"""Independent reference for "Why the GPU waits" (issue #27): `warpscope-cli gaps --csv` and
`--lines-csv`, computed straight from a Chrome/Kineto JSON with Python's json module, following the
rules written in core/analysis/idle_gaps.h without sharing code with the C++ side.

Steps are tests/core/reference_overview.py's (FORMATS.md 3.3, checked against the Overview on its
own). Per device (the GPU pid), the idle intervals between the merged kernels, copies and memsets that
last at least the threshold; the launching thread is the runtime/driver event with the `correlation`
of the first GPU activity after the gap that has one (ties: earlier launch, lower correlation).
Classes from the thread's events (cat and name, python_function file, `Call stack` text on threads
without python_function events); time containment instead of the model's rows; the main thread's
events where the launching thread has none; busy DataLoader workers from `host_cpu_children` counters.

A gap is split by time (issue #51): a moment is host synchronization only while some thread of the
process is blocked in a synchronizing call; a synchronization that returned only drained the GPU's
queue, and the time after it is what the launching thread (else the main thread) did next, or
nothing recorded. (--wake-us and --drain-us name the synchronization in the C++ cause text only, and
are accepted here for the same command lines.)

Usage: reference_idle_gaps.py TRACE [--threshold-us N] [--wake-us N] [--drain-us N] [--lines]
Prints the gap CSV (without the thread column) or, with --lines, the lines CSV.
"""
import bisect
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_overview import compute_steps, load, merge, ns  # noqa: E402

SYNC, COLL, DATA, CPU, NONE = 0, 1, 2, 3, 4  # NONE: ignored events / nothing recorded
CAT_IDS = ["sync", "collective", "data", "cpu", "none"]
CAT_NAMES = ["host synchronization", "collective wait", "data loading", "Python / CPU work", "nothing recorded"]
RUNTIME = {"runtime", "cuda_runtime", "mtia_runtime", "glow_runtime", "xpu_runtime", "privateuse1_runtime"}
DRIVER = {"cuda_driver", "xpu_driver", "privateuse1_driver"}
GPU_CATS = {"kernel", "gpu_memcpy", "memcpy", "gpu_memset", "memset"}
BLOCKING = {"cudaMemcpy", "cudaMemcpy2D", "cudaMemcpy3D", "cudaMemcpyToSymbol", "cudaMemcpyFromSymbol",
            "cudaMemcpyPeer", "cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize",
            "cudaThreadSynchronize", "hipMemcpy", "hipMemcpy2D", "hipMemcpyDtoH", "hipMemcpyHtoD",
            "hipStreamSynchronize", "hipDeviceSynchronize", "hipEventSynchronize", "cuMemcpy", "cuMemcpyDtoH",
            "cuMemcpyHtoD", "cuMemcpyDtoH_v2", "cuMemcpyHtoD_v2", "cuStreamSynchronize", "cuCtxSynchronize",
            "cuEventSynchronize"}
STEP_NAME = re.compile(r"(?i)(training_step|train_step|iteration|step|iter|batch)[ #_:-]?[0-9]+")
BUSY_WORKERS_PCT = 90.0
HOST_GAP_NS = 1_000_000


def kind(e):
    c = str(e.get("cat", "")).lower()
    if c in ("cpu_op", "operator"):
        return "op"
    if c == "user_annotation":
        return "annotation"
    if c in ("python_function", "python"):
        return "python"
    if c in RUNTIME:
        return "runtime"
    if c in DRIVER:
        return "driver"
    return None


def blocking(name):
    m = re.fullmatch(r"(.*)_v([0-9]+)", name)
    return name in BLOCKING or (m is not None and m.group(1) in BLOCKING)


def split_frame(text):
    """(file, line, function) of `file(line): func`, else ('', 0, text)."""
    close = text.find("): ")
    if close > 0:
        open_ = text.rfind("(", 0, close)
        digits = text[open_ + 1:close] if open_ > 0 else ""
        if digits.isdigit():
            return text[:open_], int(digits), text[close + 3:]
    return "", 0, text


def library(f):
    return (not f or f.startswith("<") or any(m in f for m in ("site-packages/", "dist-packages/", "/lib/python"))
            or f.startswith(("torch/", "torchvision/", "torchaudio/")))


def pick_user(frames):
    with_file = [f for f in frames if f[0]]
    for f in with_file:
        if not library(f[0]):
            return f
    return with_file[0] if with_file else None


def op_class(n):
    if n.startswith(("ProfilerStep#", "ncclComm")) or STEP_NAME.fullmatch(n):
        return NONE
    if n in ("aten::item", "aten::_local_scalar_dense"):
        return SYNC
    if n.startswith("enumerate(DataLoader)#") or n.startswith("enumerate(DataPipe)#"):
        return DATA
    if n.startswith(("nccl", "gloo:", "c10d::", "ProcessGroup")) or n == "record_param_comms":
        return COLL
    return CPU


class Ev:
    __slots__ = ("start", "end", "name", "kind", "stack", "cls", "thread", "idx")


def main():
    args = sys.argv[1:]
    threshold, wake_ns, drain_ns, lines_out = 50_000, 300_000, 10_000_000, False
    if "--threshold-us" in args:
        i = args.index("--threshold-us")
        threshold = int(float(args[i + 1]) * 1000 + 0.5)
        del args[i:i + 2]
    if "--wake-us" in args:
        i = args.index("--wake-us")
        wake_ns = int(float(args[i + 1]) * 1000 + 0.5)
        del args[i:i + 2]
    if "--drain-us" in args:
        i = args.index("--drain-us")
        drain_ns = int(float(args[i + 1]) * 1000 + 0.5)
        del args[i:i + 2]
    if "--lines" in args:
        args.remove("--lines")
        lines_out = True
    doc = load(args[0])
    events = doc if isinstance(doc, list) else doc.get("traceEvents", [])
    base = None if isinstance(doc, list) else doc.get("baseTimeNanoseconds")
    if base is not None:
        from decimal import Decimal
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
        if cat(e) in GPU_CATS | {"gpu_user_annotation"}:
            gpu_pids.add(e.get("pid"))
    k = [e for e in xs if cat(e) == "kernel"]
    mc = [e for e in xs if cat(e) in ("gpu_memcpy", "memcpy")]
    ms = [e for e in xs if cat(e) in ("gpu_memset", "memset")]
    steps, labels = compute_steps(xs, gpu_pids, k, mc, ms)
    steps = [tuple(s) for s in steps]
    iv = lambda e: (ns(e["ts"]), ns(e["ts"]) + max(0, ns(e.get("dur", 0))))

    # Host threads and their events.
    # A Warpscope capture (its export keeps the `warpscopeCapture` member): the host time up to 1 ms
    # before the launch that ends a gap, where nothing covers the launching thread, is the code that
    # led to that launch (core/analysis/host_gaps.h), on the launch's line.
    capture = isinstance(doc, dict) and "warpscopeCapture" in doc
    ev_of = {}
    threads = {}
    launch_by_corr = {}
    for e in xs:
        if e.get("pid") in gpu_pids:
            continue
        kd = kind(e)
        key = (e.get("pid"), e.get("tid"))
        lst = threads.setdefault(key, [])
        if kd in ("runtime", "driver"):
            c = (e.get("args") or {}).get("correlation")
            if c is not None and c not in launch_by_corr:
                launch_by_corr[c] = e
        a, b = iv(e)
        if b <= a:
            continue
        v = Ev()
        ev_of[id(e)] = v
        v.start, v.end, v.name, v.kind, v.thread = a, b, str(e.get("name", "")), kd, key
        v.stack = (e.get("args") or {}).get("Call stack") or ""
        lst.append(v)
    has_python = {t: any(v.kind == "python" for v in evs) for t, evs in threads.items()}
    for t, evs in threads.items():
        for v in evs:
            c = NONE
            if v.kind in ("runtime", "driver"):
                c = SYNC if blocking(v.name) else CPU
            elif v.kind in ("op", "annotation"):
                c = op_class(v.name)
            elif v.kind == "python":
                f = split_frame(v.name)[0]
                c = DATA if "torch/utils/data/" in f else COLL if "torch/distributed/distributed_c10d.py" in f else CPU
            if c == CPU and not has_python[t] and v.kind in ("runtime", "driver", "op", "annotation") \
                    and "torch/utils/data/" in v.stack:
                c = DATA
            v.cls = c
        evs.sort(key=lambda v: (v.start, -v.end, v.name))
        for i, v in enumerate(evs):
            v.idx = i
    by_process = {}
    for t in threads:
        by_process.setdefault(t[0], []).append(t)
    main_of = {}
    for p, ts in by_process.items():
        best, bp, bm = None, 0, 0
        for t in ts:
            py = sum(1 for v in threads[t] if v.kind == "python")
            mk = sum(1 for v in threads[t] if v.kind in ("op", "annotation") and (
                v.name.startswith(("Optimizer.", "enumerate(DataLoader)#", "ProfilerStep#")) or STEP_NAME.fullmatch(v.name)))
            if py > bp or (py == bp and mk > bm):
                best, bp, bm = t, py, mk
        main_of[p] = best
    children = {}
    for e in events:
        if e.get("ph") == "C" and cat(e) == "host" and e.get("name") == "host_cpu_children" and e.get("args"):
            children.setdefault(e.get("pid"), []).append((ns(e["ts"]), float(next(iter(e["args"].values())))))

    for samples in children.values():
        samples.sort()

    def workers_busy(pid, lo, hi):
        s = children.get(pid, [])
        w = cov = 0.0
        for i in range(1, len(s)):
            a, b = max(s[i - 1][0], lo), min(s[i][0], hi)
            if b > a:
                w += s[i][1] * (b - a)
                cov += b - a
        return cov > 0 and w / cov >= BUSY_WORKERS_PCT

    # Events by start per thread, the long ones apart: those overlapping [lo, hi) or enclosing an
    # event are the long ones that do, and the short ones starting within LONG_NS before.
    LONG_NS = 5_000_000
    short_of, starts_of, long_of = {}, {}, {}
    for t, evs in threads.items():
        short_of[t] = [v for v in evs if v.end - v.start <= LONG_NS]
        starts_of[t] = [v.start for v in short_of[t]]
        long_of[t] = [v for v in evs if v.end - v.start > LONG_NS]

    def near(t, lo, hi):
        i = bisect.bisect_left(starts_of.get(t, []), lo - LONG_NS)
        j = bisect.bisect_left(starts_of.get(t, []), hi)
        return sorted(long_of.get(t, []) + short_of[t][i:j], key=lambda v: v.idx) if t in threads else []

    def overlapping(t, lo, hi):
        return [v for v in near(t, lo, hi) if v.start < hi and v.end >= lo]

    user_line_cache = {}

    def user_line(v):
        key = (v.thread, v.idx)
        if key in user_line_cache:
            return user_line_cache[key]
        enclosing = [u for u in near(v.thread, v.start, v.start + 1)
                     if u is not v and u.start <= v.start and u.end >= v.end]
        enclosing.sort(key=lambda u: (-u.start, u.end))  # innermost first
        found = None
        if has_python[v.thread]:
            frames = [split_frame(u.name) for u in ([v] if v.kind == "python" else []) + enclosing if u.kind == "python"]
            found = pick_user(frames)
        else:
            stack = v.stack if v.kind in ("runtime", "driver", "op", "annotation") else ""
            if not stack:
                for u in enclosing:
                    if u.kind == "op" and u.stack:
                        stack = u.stack
                        break
            if stack:
                found = pick_user([split_frame(x) for x in stack.split(";") if x])
        user_line_cache[key] = found
        return found

    line_ids = {}

    def line_of(v, cls, op=None):
        f = user_line(v)
        what = v.name
        if cls == CPU:
            # A module-level built-in (time.sleep) is named with its caller's line (issue #51).
            builtin = v.kind == "python" and v.name.startswith("<built-in function ")
            what = v.name if builtin else "" if f else (op.name if op else v.name)
        key = (cls, what) + (f if f else ("", 0, ""))
        return line_ids.setdefault(key, len(line_ids))

    def fixed_line(cls, text):
        return line_ids.setdefault((cls, text, "", 0, ""), len(line_ids))

    # Gaps per device.
    acts = {}
    for e in k + mc + ms:
        acts.setdefault(e.get("pid"), []).append(e)
    lo, hi = (steps[0][0], steps[-1][1]) if steps else (0, 0)
    gaps = []
    for dev in sorted(acts, key=lambda d: (str(type(d)), d)):
        busy = merge([list(iv(e)) for e in acts[dev]])
        starts = sorted((iv(e)[0], e) for e in acts[dev] if True) if False else None
        dev_acts = sorted(acts[dev], key=lambda e: iv(e)[0])
        act_starts = [iv(e)[0] for e in dev_acts]
        busy_starts = [b[0] for b in busy]
        for j in range(len(busy) - 1):
            a, b = busy[j][1], busy[j + 1][0]
            if b - a < threshold or not steps or a >= hi or b <= lo:
                continue
            best = None
            p = bisect.bisect_left(act_starts, b)
            while p < len(dev_acts) and act_starts[p] < busy[j + 1][1]:
                e = dev_acts[p]
                if best is not None and act_starts[p] > best[0]:
                    break
                c = (e.get("args") or {}).get("correlation")
                launch = launch_by_corr.get(c) if c is not None else None
                if launch is not None:
                    cand = (act_starts[p], iv(launch)[0], c if c is not None else 1 << 32, launch)
                    if best is None or cand[:3] < best[:3]:
                        best = cand
                p += 1
            gaps.append((dev, a, b, best[3] if best else None, busy, busy_starts))

    out_gaps = []
    line_ns, line_gaps = {}, {}
    for dev, A, B, launch, busy, busy_starts in gaps:
        segs = []
        if launch is None:
            segs.append((A, B, NONE, fixed_line(NONE, "no launch recorded for the GPU work after the gap")))
        else:
            T = (launch.get("pid"), launch.get("tid"))
            M = main_of.get(T[0])
            M = M if M is not None and M != T else None
            items, syncs = [], []
            for layer, t in ((0, T), (1, M)):
                if t is None:
                    continue
                for v in overlapping(t, A, B):
                    if v.cls == SYNC:
                        syncs.append(v)
                    if v.cls != NONE and v.end > A:
                        items.append((layer, v))
            for t in by_process[T[0]]:
                if t != T and t != M:
                    syncs += [v for v in overlapping(t, A, B) if v.cls == SYNC]
            order = lambda v: (v.start, -v.end, v.name)
            items.sort(key=lambda x: order(x[1]))
            syncs.sort(key=order)
            marks = {x for _, v in items for x in (v.start, v.end)}
            marks |= {x for v in syncs for x in (v.start, v.end)}
            bounds = sorted({A, B} | {x for x in marks if A < x < B})
            for x, y in zip(bounds, bounds[1:]):
                active = [(l, v) for l, v in items if v.start <= x and v.end > x]
                blocked_by = [v for v in syncs if v.start <= x < v.end]
                best = [NONE, NONE]
                for l, v in active:
                    best[l] = min(best[l], v.cls)
                layer, cls, blocked = 0, NONE, None
                if best[0] < CPU:
                    cls = best[0]
                elif best[1] < CPU:
                    cls, layer = best[1], 1
                elif blocked_by:
                    cls, blocked = SYNC, min(blocked_by, key=order)  # the outermost blocking call
                elif best[0] == CPU:
                    cls = CPU
                elif best[1] == CPU:
                    cls, layer = CPU, 1
                if blocked is not None:
                    line = line_of(blocked, SYNC)
                elif cls == NONE:
                    line = fixed_line(NONE, "no event on the launching thread")
                elif cls == CPU:
                    mine = [v for l, v in active if l == layer and v.cls == CPU]
                    inner = mine[-1]
                    op = next((v for v in mine if v.kind != "python"), None)
                    line = line_of(inner, CPU, op)
                else:
                    outer = next(v for l, v in active if l == layer and v.cls == cls)
                    line = line_of(outer, cls)
                if segs and segs[-1][2] == cls and segs[-1][3] == line and segs[-1][1] == x:
                    segs[-1] = (segs[-1][0], y, cls, line)
                else:
                    segs.append((x, y, cls, line))
            launch_ev = ev_of.get(id(launch))
            if capture and launch_ev is not None:
                segs = [(a, b, CPU, line_of(launch_ev, CPU)) if c == NONE and launch_ev.start - a <= HOST_GAP_NS
                        else (a, b, c, l) for a, b, c, l in segs]
            if any(s[2] == NONE for s in segs) and workers_busy(T[0], A, B):
                wl = fixed_line(DATA, "DataLoader worker processes busy (host_cpu_children)")
                segs = [(a, b, DATA, wl) if c == NONE else (a, b, c, l) for a, b, c, l in segs]
        for si, (sa, sb) in enumerate(steps):
            pa, pb = max(A, sa), min(B, sb)
            if pb <= pa:
                continue
            per = [0] * 5
            by_line = {}
            for a, b, c, l in segs:
                n = min(b, pb) - max(a, pa)
                if n > 0:
                    per[c] += n
                    by_line[l] = by_line.get(l, 0) + n
            main_c = max(range(5), key=lambda c: (per[c], -c))
            out_gaps.append((si, dev, pa, pb, main_c, per, by_line))
            for l, n in by_line.items():
                line_ns[l] = line_ns.get(l, 0) + n
                line_gaps[l] = line_gaps.get(l, 0) + 1

    keys = {i: key for key, i in line_ids.items()}

    def text(i):
        cls, what, f, ln, fn = keys[i]
        where = ""
        if f:
            where = f + (":%d" % ln if ln > 0 else "") + (" " + fn if fn else "")
        if not what:
            return where or "(unknown)"
        return what + " (" + where + ")" if where else what

    w = csv.writer(sys.stdout, lineterminator="\n")
    if lines_out:
        w.writerow(["category", "what", "file", "line", "function", "ns", "gaps"])
        for c in range(5):
            ls = sorted((i for i in line_ns if keys[i][0] == c and line_ns[i] > 0), key=lambda i: (-line_ns[i], text(i)))
            for i in ls:
                _, what, f, ln, fn = keys[i]
                w.writerow([CAT_IDS[c], what, f, ln, fn, line_ns[i], line_gaps[i]])
        return
    w.writerow(["step", "device", "start_ns", "end_ns", "duration_ns", "category", "sync_ns", "collective_ns", "data_ns",
                "cpu_ns", "none_ns", "cause"])
    out_gaps.sort(key=lambda g: (str(type(g[1])), g[1], g[2]))
    for si, dev, pa, pb, c, per, by_line in out_gaps:
        cause = None
        for l, n in by_line.items():
            if keys[l][0] != c:
                continue
            if cause is None or n > cause[1] or (n == cause[1] and text(l) < text(cause[0])):
                cause = (l, n)
        label = labels[si] if si < len(labels) and labels[si] else str(si + 1)
        w.writerow([label, dev, pa, pb, pb - pa, CAT_IDS[c]] + per +
                   [CAT_NAMES[c] + (": " + text(cause[0]) if cause else "")])


if __name__ == "__main__":
    main()
