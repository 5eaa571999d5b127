#!/usr/bin/env python3
"""Independent reference for the Distributed view (issue #12): `warpscope-cli dist FILE... --json`.

Reads each rank's Kineto trace with Python's json module and computes, from FORMATS.md 3.11
(torch-tb-profiler's communication.py / overall_parser.py formulas) and without sharing code with
the C++ side (it reuses only this directory's reference_overview.py for loading, exact ns times and
the 3.3 steps):

  per worker and step  computation = |Kernel ∩ step| (CPU Exec when the rank has no kernels),
                       communication = |Communication ∩ step|, overlap = |both ∩ step|,
                       other = step + overlap - computation - communication;
  synchronizing vs transfer: communication ops matched across workers by (name, occurrence), each
                       range j shortened to the shortest duration any worker had ([end - min, end]);
                       transfer = |union(shortened ranges)|, sync = |union(ranges)| - transfer;
  the ops table       per (rank, process group, op name): calls, bytes, latency, transfer, kernel
                       time, nccl-tests algorithm and bus bandwidth;
  stragglers          per step on every worker: the worker with the least synchronizing time, and
                       the mean synchronizing time of the others.

Documented choices shared with the C++ side (core/analysis/comm_ops.h, distributed.h):
  * Communication op = host cpu_op/user_annotation named nccl:* or gloo:* not nested in another.
    Its ranges = its CPU interval, then the GPU activities (kernel, memcpy, memset) launched by the
    runtime/driver calls inside it on its thread (same `correlation`), plus kernels whose External id
    is the op's, ordered by start. An op belongs to the step containing its CPU interval; ops in no
    step are left out.
  * Bytes = sum over the op's "Input Dims"/"Input type" of prod(dims) x element size (a TensorList
    sums its tensors; a scalar [] counts 0); without Input Dims, the enclosing record_param_comms'
    "In msg nelems" x dtype size. Process group and group size from that record_param_comms
    ("Process Group Name", "Group size"), else "" and the world size.
  * An NCCL kernel no such op launched is an op of its own, named by the kernel up to its first '('
    or '<': ranges = [the host call with its correlation (empty at the kernel start without one), the
    kernel]; bytes, process group and group size from the kernel's own args.
  * algbw = size / kernel time (latency when there is no kernel), size = bytes x n for all_gather;
    busbw = algbw x 2(n-1)/n (all_reduce), (n-1)/n (all_gather, reduce_scatter, all_to_all), 1
    (broadcast, reduce, gather, scatter, send, recv).

Usage: python3 reference_distributed.py FILE...   (prints one JSON object)
"""
import json
import os
import re
import sys
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_overview import HOST_OPS, RUNTIME, compute_steps, intersect, length_in, load, merge, ns  # noqa: E402

ELEM = {"long int": 8, "double": 8, "float": 4, "int": 4, "c10::Half": 2, "c10::BFloat16": 2, "short int": 2,
        "unsigned char": 1, "signed char": 1, "bool": 1, "Float": 4, "Double": 8, "Half": 2, "BFloat16": 2,
        "Long": 8, "Int": 4, "Short": 2, "Byte": 1, "Char": 1, "Bool": 1}
GPU_CATS = ("kernel", "gpu_memcpy", "memcpy", "gpu_memset", "memset")


def kind(name):
    n = name.split(":", 1)[1] if ":" in name else name
    n = n.lstrip("_").lower()
    for keys, k in ((("all_reduce", "allreduce"), "all_reduce"), (("all_gather", "allgather"), "all_gather"),
                    (("reduce_scatter", "reducescatter"), "reduce_scatter"), (("all_to_all", "alltoall"), "all_to_all"),
                    (("broadcast",), "broadcast"), (("barrier",), "barrier"), (("send",), "send"),
                    (("recv",), "recv"), (("gather",), "gather"), (("scatter",), "scatter"), (("reduce",), "reduce")):
        if any(x in n for x in keys):
            return k
    return "other"


def factor(k, n):
    if n < 1:
        return None
    return {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n, "reduce_scatter": (n - 1) / n,
            "all_to_all": (n - 1) / n, "broadcast": 1.0, "reduce": 1.0, "gather": 1.0, "scatter": 1.0,
            "send": 1.0, "recv": 1.0}.get(k)


def prod(dims):
    if not dims:
        return 0
    p = 1
    for d in dims:
        p *= int(d)
    return p


def input_bytes(args):
    dims, types = args.get("Input Dims"), args.get("Input type") or []
    if not isinstance(dims, list):
        return None
    total = 0
    for i, d in enumerate(dims):
        size = ELEM.get(types[i], 0) if i < len(types) and isinstance(types[i], str) else 0
        if d and isinstance(d[0], list):
            total += sum(prod(x) for x in d) * size
        else:
            total += prod(d) * size
    return total


def union_len(iv):
    return sum(b - a for a, b in merge([list(x) for x in iv]))


def rank_of(path, doc, index):
    info = doc.get("distributedInfo") if isinstance(doc, dict) else None
    if isinstance(info, dict) and isinstance(info.get("rank"), int):
        return info["rank"], info.get("world_size")
    m = re.search(r"(?:rank|worker)[-_]?(\d+)", os.path.basename(path), re.I)
    return (int(m.group(1)) if m else index), (info or {}).get("world_size") if isinstance(info, dict) else None


def analyse(path, index, nfiles):
    doc = load(path)
    events = doc if isinstance(doc, list) else doc.get("traceEvents", [])
    base = doc.get("baseTimeNanoseconds") if isinstance(doc, dict) else None
    if base is not None:
        for e in events:
            if "ts" in e:
                e["ts"] = Decimal(str(e["ts"])) + Decimal(int(base)) / 1000
    rank, world = rank_of(path, doc, index)
    xs = [e for e in events if e.get("ph") == "X"]
    cat = lambda e: str(e.get("cat", "")).lower()
    gpu_pids = set()
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "process_labels" and \
                str(e.get("args", {}).get("labels", "")).startswith(("GPU ", "MTIA")):
            gpu_pids.add(e.get("pid"))
    for e in xs:
        if cat(e) in GPU_CATS + ("gpu_user_annotation",):
            gpu_pids.add(e.get("pid"))
    d = lambda e: max(0, ns(e.get("dur", 0)))
    iv = lambda e: (ns(e["ts"]), ns(e["ts"]) + d(e))
    k = [e for e in xs if cat(e) == "kernel"]
    mc = [e for e in xs if cat(e) in ("gpu_memcpy", "memcpy")]
    ms = [e for e in xs if cat(e) in ("gpu_memset", "memset")]
    steps, labels = compute_steps(xs, gpu_pids, k, mc, ms)
    ext = lambda e: e.get("args", {}).get("External id")

    # Role ranges (FORMATS.md 3.4): Kernel, Communication, CPU Exec.
    host = [e for e in xs if cat(e) in HOST_OPS and e.get("pid") not in gpu_pids]
    comm_ext, kernel_r, comm_r, cpu_r = set(), [], [], []
    for e in host:
        n = str(e.get("name", ""))
        if n.startswith("ProfilerStep#") or (n.startswith("enumerate(DataLoader)#") and n.endswith(".__next__")) \
                or n.startswith("enumerate(DataPipe)#"):
            continue
        if n.startswith(("nccl:", "gloo:")):
            comm_r.append(iv(e))
            if ext(e) is not None:
                comm_ext.add(ext(e))
        else:
            cpu_r.append(iv(e))
            if n == "record_param_comms" and ext(e) is not None:
                comm_ext.add(ext(e))
    for e in k:
        n = str(e.get("name", ""))
        n = n[5:] if n.startswith("void ") else n
        (comm_r if n.lower().startswith("nccl") or (ext(e) is not None and ext(e) in comm_ext) else kernel_r).append(iv(e))
    compute = merge([list(x) for x in (kernel_r if kernel_r else cpu_r)])
    comm = merge([list(x) for x in comm_r])
    both = intersect(compute, comm)
    rows = []
    for (a, b), l in zip(steps, labels):
        c, m, o = length_in(compute, a, b), length_in(comm, a, b), length_in(both, a, b)
        rows.append({"label": l, "start_ns": a, "end_ns": b, "computation_ns": c, "communication_ns": m,
                     "overlap_ns": o, "other_ns": (b - a) + o - c - m})

    # Communication ops.
    by_corr = {}
    for e in xs:
        if cat(e) in GPU_CATS and e.get("args", {}).get("correlation") is not None:
            by_corr.setdefault(e["args"]["correlation"], []).append(e)
    by_thread = {}
    for e in xs:
        if e.get("pid") not in gpu_pids:
            by_thread.setdefault((e.get("pid"), e.get("tid")), []).append(e)
    ops = []
    for (pid, tid), evs in by_thread.items():
        cands = [e for e in evs if cat(e) in HOST_OPS and str(e.get("name", "")).startswith(("nccl:", "gloo:"))]
        outer = [e for e in cands if not any(o is not e and iv(o)[0] <= iv(e)[0] and iv(e)[1] <= iv(o)[1]
                                             and (iv(o) != iv(e) or cands.index(o) < cands.index(e)) for o in cands)]
        rpcs = [e for e in evs if e.get("name") == "record_param_comms"]
        runtimes = [e for e in evs if cat(e) in RUNTIME or cat(e) == "cuda_driver"]
        for op in outer:
            a, b = iv(op)
            gpu = {}
            for r in runtimes:
                ra, rb = iv(r)
                if a <= ra and rb <= b:
                    for g in by_corr.get(r.get("args", {}).get("correlation"), []):
                        gpu[id(g)] = g
            if ext(op) is not None:
                for g in k:
                    if ext(g) == ext(op):
                        gpu[id(g)] = g
            ranges = [(a, b)] + sorted(iv(g) for g in gpu.values())
            parents = [p for p in rpcs if iv(p)[0] <= a and b <= iv(p)[1]]
            parent = min(parents, key=lambda p: iv(p)[1] - iv(p)[0]).get("args", {}) if parents else {}
            nbytes = input_bytes(op.get("args", {}))
            if nbytes is None and "In msg nelems" in parent:
                nbytes = int(parent["In msg nelems"]) * ELEM.get(str(parent.get("dtype", "")), 0)
            step = next((i for i, (sa, sb) in enumerate(steps) if sa <= a and b <= sb), None)
            ops.append({"name": op["name"], "start": a, "ranges": ranges, "bytes": nbytes, "step": step,
                        "pg": str(parent.get("Process Group Name", "")),
                        "group": int(parent["Group size"]) if "Group size" in parent else (world or nfiles),
                        "gpu_ids": set(gpu)})
    # NCCL kernels no op launched are ops of their own, named by the kernel; CPU interval = the
    # host call with the same correlation (empty at the kernel start without one); collective
    # fields from the kernel's args.
    claimed = set()
    for o in ops:
        claimed.update(o["gpu_ids"])
    host_calls = {}
    for e in xs:
        if e.get("pid") not in gpu_pids and (cat(e) in RUNTIME or cat(e) == "cuda_driver"):
            host_calls.setdefault(e.get("args", {}).get("correlation"), e)
    for g in k:
        n = str(g.get("name", ""))
        n = n[5:] if n.startswith("void ") else n
        if not n.lower().startswith("nccl") or id(g) in claimed:
            continue
        short = re.split(r"[(<]", n, 1)[0]
        call = host_calls.get(g.get("args", {}).get("correlation"))
        ga, gb = iv(g)
        cpu = iv(call) if call is not None else (ga, ga)
        a = g.get("args", {})
        nbytes = int(a["In msg nelems"]) * ELEM.get(str(a.get("dtype", "")), 0) if "In msg nelems" in a else None
        step = next((i for i, (sa, sb) in enumerate(steps) if sa <= cpu[0] and cpu[1] <= sb), None)
        ops.append({"name": short, "start": cpu[0], "ranges": [cpu, (ga, gb)], "bytes": nbytes, "step": step,
                    "pg": str(a.get("Process Group Name", "")),
                    "group": int(a["Group size"]) if "Group size" in a else (world or nfiles), "gpu_ids": set()})
    ops.sort(key=lambda o: o["start"])
    return {"rank": rank, "steps": rows, "ops": [o for o in ops if o["step"] is not None]}


def main(paths):
    workers = sorted((analyse(p, i, len(paths)) for i, p in enumerate(paths)), key=lambda w: w["rank"])
    # Match ops by (name, occurrence); shortest duration per range index over the workers.
    mins = {}
    for w in workers:
        seen = {}
        for o in w["ops"]:
            o["key"] = (o["name"], seen.get(o["name"], 0))
            seen[o["name"]] = o["key"][1] + 1
            m = mins.setdefault(o["key"], [])
            for j, (a, b) in enumerate(o["ranges"]):
                if j == len(m):
                    m.append(b - a)
                m[j] = min(m[j], b - a)
    out_workers, out_ops, sync_of = [], [], []
    for w in workers:
        total = [[] for _ in w["steps"]]
        real = [[] for _ in w["steps"]]
        table = {}
        for o in w["ops"]:
            rr = [(b - mins[o["key"]][j], b) for j, (a, b) in enumerate(o["ranges"])]
            total[o["step"]] += o["ranges"]
            real[o["step"]] += rr
            t = table.setdefault((o["pg"], o["name"]), {"calls": 0, "bytes": 0, "known": False, "lat": 0, "xfer": 0,
                                                        "kern": 0, "group": o["group"]})
            t["calls"] += 1
            if o["bytes"] is not None:
                t["bytes"] += o["bytes"]
                t["known"] = True
            t["lat"] += union_len(o["ranges"])
            t["xfer"] += union_len(rr)
            t["kern"] += union_len(o["ranges"][1:])
        syncs = {}
        for i, s in enumerate(w["steps"]):
            tr = union_len(real[i])
            s["transfer_ns"] = tr
            s["sync_ns"] = union_len(total[i]) - tr
            syncs[s["label"]] = s["sync_ns"]
        sync_of.append(syncs)
        n = len(w["steps"])
        mean = {f: (sum(s[f] for s in w["steps"]) / n if n else 0.0)
                for f in ("computation_ns", "communication_ns", "overlap_ns", "other_ns", "sync_ns", "transfer_ns")}
        out_workers.append({"rank": w["rank"], "steps": w["steps"], "mean": mean,
                            "mean_step_ns": sum(s["end_ns"] - s["start_ns"] for s in w["steps"]) / n if n else 0.0})
        for (pg, name), t in sorted(table.items()):
            kd = kind(name)
            time = t["kern"] or t["lat"]
            alg = None
            if t["known"] and time > 0:
                size = t["bytes"] * t["group"] if kd == "all_gather" else t["bytes"]
                alg = size / time
            f = factor(kd, t["group"])
            out_ops.append({"rank": w["rank"], "process_group": pg, "name": name, "collective": kd,
                            "calls": t["calls"], "total_bytes": t["bytes"] if t["known"] else None,
                            "avg_bytes": t["bytes"] / t["calls"] if t["known"] else None,
                            "total_latency_ns": t["lat"], "avg_latency_ns": t["lat"] / t["calls"],
                            "transfer_ns": t["xfer"], "kernel_ns": t["kern"], "algbw_gbps": alg,
                            "busbw_gbps": alg * f if alg is not None and f is not None else None})
    stragglers = []
    if len(workers) > 1:
        for s in workers[0]["steps"]:
            if all(s["label"] in so for so in sync_of):
                v = [so[s["label"]] for so in sync_of]
                i = v.index(min(v))
                stragglers.append({"step": s["label"], "rank": workers[i]["rank"],
                                   "wait_ns": (sum(v) - v[i]) / (len(v) - 1)})
    return {"workers": out_workers, "ops": out_ops, "stragglers": stragglers}


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print(json.dumps(main(sys.argv[1:]), default=float, indent=1, sort_keys=True))
