#!/usr/bin/env python3
"""Independent reference numbers for the memory view (FORMATS.md 3.10), printed as JSON.

Used to write and check the expectations in tests/core/memory_analysis_test.cpp. It reads the
inputs with Python's own json/gzip/sqlite3/struct modules only, without any Warpscope code:

  reference_memory.py TRACE.json[.gz]     Kineto `[memory]` events
  reference_memory.py REPORT.sqlite       Nsight Systems CUDA_GPU_MEMORY_USAGE_EVENTS
  reference_memory.py CAPTURE.wscap[.gz]  Warpscope capture Memory records (type 10)

Per device ("CPU", "GPU<id>"): records, peak allocated (device-wide: the sum over processes of
each process's latest Total Allocated, or running sums of Bytes where a source has no totals),
the peak's time in ns after the device's first record, peak reserved, and the allocation table
counts: allocations, frees, leaks (never freed), unmatched frees, matching each allocation with
the next free of the same (process, address). For Kineto also the per-operator self allocation
sizes/counts and inclusive sizes: innermost cpu_op/user_annotation X event on the record's
(pid, tid) containing its ts (start <= ts < end), nesting by interval containment.
"""
import collections
import decimal
import gzip
import json
import sqlite3
import struct
import sys


def ns(us):
    """Trace µs (int or exact Decimal) to integer ns, rounding half away from zero."""
    return int((decimal.Decimal(us) * 1000).to_integral_value(rounding=decimal.ROUND_HALF_UP))


def kineto_records(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        doc = json.load(f, parse_float=decimal.Decimal)  # exact µs: epoch µs * 1000 exceeds 2**53
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    recs = []
    ops = collections.defaultdict(list)
    for e in events:
        if e.get("ph") == "i" and e.get("name") == "[memory]":
            a = e.get("args", {})
            dt = a.get("Device Type")
            if dt == 0:
                dev = "CPU"
            elif dt == 1:
                dev = "GPU%d" % a.get("Device Id")
            else:
                continue
            recs.append(dict(ts=ns(e["ts"]), dev=dev, proc=e.get("pid"), tid=e.get("tid"),
                             addr=a.get("Addr"), bytes=a.get("Bytes"), alloc=a.get("Total Allocated"),
                             reserved=a.get("Total Reserved")))
        elif e.get("ph") == "X" and str(e.get("cat", "")).lower() in ("cpu_op", "user_annotation", "operator"):
            start = ns(e["ts"])
            ops[(e.get("pid"), e.get("tid"))].append((start, start + ns(e.get("dur", 0)), e["name"]))
    recs.sort(key=lambda r: r["ts"])  # stable: equal times keep file order
    return recs, ops


def nsys_records(path):
    db = sqlite3.connect(path)
    recs = []
    for start, pid, dev, addr, nbytes, oper in db.execute(
            "SELECT start, globalPid, deviceId, address, bytes, memoryOperationType "
            "FROM CUDA_GPU_MEMORY_USAGE_EVENTS ORDER BY start"):
        recs.append(dict(ts=start, dev="GPU%d" % dev, proc=pid, tid=pid, addr=addr,
                         bytes=-nbytes if oper == 1 else nbytes, alloc=None, reserved=None))
    return recs


def capture_records(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    assert data[:5] == b"WSCAP"
    pos, recs = 16, []
    while pos + 8 <= len(data):
        rtype, _flags, size = struct.unpack_from("<HHI", data, pos)
        payload = data[pos + 8:pos + 8 + size]
        pos += 8 + size
        if len(payload) < size:
            break
        if rtype != 10:
            continue
        op, _kind, addr, nbytes, ts, dev = struct.unpack_from("<BBQQQI", payload, 0)
        if op not in (1, 2):
            continue
        recs.append(dict(ts=ts, dev="GPU%d" % dev, proc=0, tid=0, addr=addr & (2**63 - 1),
                         bytes=nbytes if op == 1 else -nbytes, alloc=None, reserved=None))
    recs.sort(key=lambda r: r["ts"])
    return recs


def device_numbers(recs):
    out = {}
    by_dev = collections.defaultdict(list)
    for r in recs:
        by_dev[r["dev"]].append(r)
    for dev, rs in by_dev.items():
        with_totals = {r["proc"] for r in rs if r["alloc"] is not None}
        latest = collections.defaultdict(int)
        latest_res = collections.defaultdict(int)
        peak = peak_ts = peak_res = None
        any_res = False
        for r in rs:
            if r["proc"] in with_totals:
                if r["alloc"] is None:
                    continue
                latest[r["proc"]] = r["alloc"]
            else:
                if r["bytes"] is None:
                    continue
                latest[r["proc"]] += r["bytes"]
            if r["reserved"] is not None:
                latest_res[r["proc"]] = r["reserved"]
                any_res = True
            v = sum(latest.values())
            if peak is None or v > peak:
                peak, peak_ts = v, r["ts"]
            rv = sum(latest_res.values())
            if peak_res is None or rv > peak_res:
                peak_res = rv
        # allocation table
        open_, allocs, frees, unmatched = {}, 0, 0, 0
        leaks = 0
        for r in rs:
            if r["addr"] is None or not r["bytes"]:
                continue
            key = (r["proc"], r["addr"])
            if r["bytes"] > 0:
                if key in open_:
                    leaks += 1  # the earlier block's free was never seen
                open_[key] = r
                allocs += 1
            else:
                frees += 1
                if key in open_:
                    del open_[key]
                else:
                    unmatched += 1
        leaks += len(open_)
        out[dev] = dict(records=len(rs), peak_allocated=peak, peak_ns_after_first=peak_ts - rs[0]["ts"],
                        peak_reserved=peak_res if any_res else None, allocations=allocs, frees=frees,
                        leaks=leaks, unmatched_frees=unmatched)
    return out


def op_stats(recs, ops):
    """Self/inclusive allocation numbers per (device, op name): a sweep per thread over its ops
    sorted by (start, -end) and its records in time order, keeping the stack of open ops."""
    stats = collections.defaultdict(lambda: collections.Counter())
    by_thread = collections.defaultdict(list)
    for r in recs:
        by_thread[(r["proc"], r["tid"])].append(r)
    for key, rs in by_thread.items():
        lst = sorted(ops.get(key, []), key=lambda o: (o[0], -o[1]))
        j, stack = 0, []
        for r in rs:
            while j < len(lst) and lst[j][0] <= r["ts"]:
                while stack and stack[-1][1] <= lst[j][0]:
                    stack.pop()
                stack.append(lst[j])
                j += 1
            while stack and stack[-1][1] <= r["ts"]:
                stack.pop()
            if not stack or r["bytes"] is None:
                continue
            inner = stack[-1]
            s = stats[(r["dev"], inner[2])]
            s["self_size_increase"] += r["bytes"]
            if r["bytes"] > 0:
                s["self_allocation_count"] += 1
                s["self_allocation_size"] += r["bytes"]
            for o in stack:
                t = stats[(r["dev"], o[2])]
                t["size_increase"] += r["bytes"]
                if r["bytes"] > 0:
                    t["allocation_count"] += 1
                    t["allocation_size"] += r["bytes"]
    return {"%s|%s" % k: dict(v) for k, v in stats.items()}


def main():
    path = sys.argv[1]
    if path.endswith(".sqlite"):
        print(json.dumps(device_numbers(nsys_records(path)), indent=1, sort_keys=True))
    elif ".wscap" in path:
        print(json.dumps(device_numbers(capture_records(path)), indent=1, sort_keys=True))
    else:
        recs, ops = kineto_records(path)
        result = dict(devices=device_numbers(recs))
        if "--ops" in sys.argv:
            result["ops"] = op_stats(recs, ops)
        print(json.dumps(result, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
