#!/usr/bin/env python3
"""Independent reference for a memory snapshot beside the torch.profiler trace of the same run
(issue #28), from the raw files (Python's own pickle and json; allowed in the tests only):

  - the offset: every snapshot alloc/segment_alloc entry and every [memory] record of the trace with
    the same address and size (Addr, Bytes > 0) give trace ns - snapshot ns; the offset is the median
    of the largest group of them within 200 µs of its smallest member;
  - the operator of each snapshot allocation: the [memory] record of its block nearest in time
    (within 200 µs, after the offset) gives the thread; the cpu_op / user_annotation events of that
    thread enclosing the record, innermost (shortest) last; aten::empty* give way to the one around
    them. Without such a record: the deepest such operator of any thread at the allocation's time
    (ties: the shortest).

Prints `pairs OFFSET_NS COUNT` and then `ALLOC_US,ADDR,SIZE,OPERATOR` per allocation entry.

    reference_snapshot_operators.py SNAPSHOT TRACE
"""
import gzip
import json
import pickle
import sys

WINDOW_NS = 200_000


def load_pickle(path):
    with open(path, "rb") as f:
        head = f.read(2)
    with (gzip.open if head == b"\x1f\x8b" else open)(path, "rb") as f:
        return pickle.load(f)


def main():
    snap = load_pickle(sys.argv[1])
    with (gzip.open if sys.argv[2].endswith(".gz") else open)(sys.argv[2], "rt") as f:
        trace = json.load(f)
    base = int(trace.get("baseTimeNanoseconds", 0))
    ns = lambda us: base + round(us * 1000)  # noqa: E731

    records = {}  # (addr, bytes) -> [(ns, tid)]
    ops = {}  # tid -> [(start, end, name)]
    for e in trace["traceEvents"]:
        if e.get("name") == "[memory]":
            a = e.get("args", {})
            if a.get("Bytes", 0) > 0 and "Addr" in a:
                records.setdefault((a["Addr"], a["Bytes"]), []).append((ns(e["ts"]), e["tid"]))
        elif e.get("ph") == "X" and e.get("cat") in ("cpu_op", "user_annotation"):
            ops.setdefault(e["tid"], []).append((ns(e["ts"]), ns(e["ts"] + e.get("dur", 0)), e["name"]))

    entries = []  # (us, addr, size, is_allocation)
    for trace_entries in snap.get("device_traces", []):
        for t in trace_entries:
            if t["action"] in ("alloc", "segment_alloc", "segment_map"):
                entries.append((t["time_us"], t["addr"], t["size"], t["action"] == "alloc"))
    candidates = []
    for us, addr, size, _ in entries:
        for t, _tid in sorted(records.get((addr, size), []))[:64]:
            candidates.append(t - us * 1000)
    candidates.sort()
    best = []
    for i, c in enumerate(candidates):
        group = [d for d in candidates[i:] if d - c <= WINDOW_NS]
        if len(group) > len(best):
            best = group
    offset = best[len(best) // 2] if best else 0
    print(f"pairs {offset} {len(best)}")

    def enclosing(tid, t):
        return sorted((o for o in ops.get(tid, []) if o[0] <= t < o[1]), key=lambda o: (o[0], -o[1]))

    def innermost(stack):
        for o in reversed(stack):
            if not o[2].startswith("aten::empty"):
                return o
        return stack[0] if stack else None

    offset_us = round(offset / 1000)
    for us, addr, size, is_allocation in entries:
        if not is_allocation:
            continue
        t = (us + offset_us) * 1000
        near = [r for r in records.get((addr, size), []) if abs(r[0] - t) <= WINDOW_NS]
        op = None
        if near:
            rt, tid = min(near, key=lambda r: abs(r[0] - t))
            op = innermost(enclosing(tid, rt))
        if op is None:
            best_key = None
            for tid in ops:
                stack = enclosing(tid, t)
                if stack:
                    o = innermost(stack)
                    key = (len(stack), -(o[1] - o[0]))
                    if best_key is None or key > best_key:
                        best_key, op = key, o
        print(f"{us + offset_us},{addr},{size},{op[2] if op else ''}")


if __name__ == "__main__":
    main()
