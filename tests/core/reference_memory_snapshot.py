#!/usr/bin/env python3
"""Independent reference for PyTorch memory snapshots (issue #28), written from memory_viz's rules
with Python's own pickle (allowed in the tests only; Warpscope never runs it):

  - a block is live from its `alloc` entry to its `free_completed` (or older `free`) entry;
  - a free of an address the trace never allocated was live from the start;
  - an `active_allocated` block of the final segments that the trace allocated but never freed is
    already counted; one the trace never allocated was live from the start (its requested_size).

It replays each device's trace in order with a dict of live addresses (no intervals, no sorting):
the peak of live bytes, what is live at each `oom` entry, reserved bytes (segments at the end with
the trace's segment entries undone backwards), and per stack (frames as 'file:line:function;...')
the allocations in the trace and what is live at the end. Prints JSON.

    reference_memory_snapshot.py SNAPSHOT(.pickle or .gz)
"""
import gzip
import json
import pickle
import sys


def load(path):
    with open(path, "rb") as f:
        head = f.read(2)
    opener = gzip.open if head == b"\x1f\x8b" else open
    with opener(path, "rb") as f:
        return pickle.load(f)


def stack_key(frames):
    return ";".join(f"{fr.get('filename', '')}:{fr.get('line', 0)}:{fr.get('name', '')}" for fr in frames or [])


def device_reference(snap, device, trace):
    segments = [s for s in snap["segments"] if s["device"] == device]
    # Which addresses does the trace allocate and leave allocated at the end; which does it free
    # without allocating them first?
    open_at_end = {}
    freed_unallocated = {}
    for e in trace:
        a = e["action"]
        if a == "alloc":
            open_at_end[e["addr"]] = e
        elif a in ("free_completed", "free"):
            if e["addr"] in open_at_end:
                del open_at_end[e["addr"]]
            else:
                freed_unallocated.setdefault(e["addr"], e)
    # The live set before the first entry.
    live = {}
    initial = []
    # Frees of unallocated addresses, in trace order, are live from the start; a second such free of
    # the same address (reused after) is its own block, also from the start.
    seen_alloc = set()
    for e in trace:
        a = e["action"]
        if a == "alloc":
            seen_alloc.add(e["addr"])
        elif a in ("free_completed", "free") and e["addr"] not in seen_alloc:
            initial.append((e["addr"], e["size"], stack_key(e.get("frames"))))
            seen_alloc.add(e["addr"])  # the next free of it needs an alloc first
    for s in segments:
        for b in s["blocks"]:
            if b["state"] == "active_allocated" and b["address"] not in open_at_end:
                initial.append((b["address"], b["requested_size"], stack_key(b.get("frames"))))
    live_bytes = 0
    live_start = []
    for addr, size, key in initial:
        live_start.append((addr, size, key))
        live_bytes += size
    # live: addr -> list of (size, key) (an address freed-before-allocated and one still active at the
    # end are different blocks at different times; keep a list per address).
    for addr, size, key in live_start:
        live.setdefault(addr, []).append((size, key))
    reserved = sum(s["total_size"] for s in segments)
    for e in trace:
        if e["action"] in ("segment_alloc", "segment_map"):
            reserved -= e["size"]
        elif e["action"] in ("segment_free", "segment_unmap"):
            reserved += e["size"]
    peak = live_bytes
    ooms = []
    stacks = {}
    for e in trace:
        a = e["action"]
        if a == "alloc":
            live.setdefault(e["addr"], []).append((e["size"], stack_key(e.get("frames"))))
            live_bytes += e["size"]
            key = stack_key(e.get("frames"))
            st = stacks.setdefault(key, [0, 0, 0, 0])
            st[0] += 1
            st[1] += e["size"]
            peak = max(peak, live_bytes)
        elif a in ("free_completed", "free"):
            entries = live.get(e["addr"])
            if entries:
                size, _ = entries.pop(0)
                live_bytes -= size
                if not entries:
                    del live[e["addr"]]
        elif a in ("segment_alloc", "segment_map"):
            reserved += e["size"]
        elif a in ("segment_free", "segment_unmap"):
            reserved -= e["size"]
        elif a == "oom":
            by_stack = {}
            count = 0
            for entries in live.values():
                for size, key in entries:
                    by_stack[key] = by_stack.get(key, 0) + size
                    count += 1
            ooms.append({"time_us": e["time_us"], "size": e["size"], "live_bytes": live_bytes, "live_count": count,
                         "reserved_bytes": reserved, "by_stack": by_stack})
    for entries in live.values():
        for size, key in entries:
            st = stacks.setdefault(key, [0, 0, 0, 0])
            st[2] += 1
            st[3] += size
    # The segments at the end as PyTorch counts them (torch.cuda.memory_allocated(), memory_stats()):
    # allocated = the sizes of the active_allocated blocks (rounding included), pending = those of
    # active_pending_free blocks, requested = what the callers asked for of both, inactive = the
    # sizes of the inactive blocks.
    segs = []
    totals = {"allocated": 0, "requested": 0, "pending": 0, "inactive": 0}
    for s in segments:
        seg = {"address": s["address"], "total": s["total_size"], "allocated": 0, "requested": 0, "pending": 0}
        for b in s["blocks"]:
            if b["state"] == "active_allocated":
                seg["allocated"] += b["size"]
            elif b["state"] == "active_pending_free":
                seg["pending"] += b["size"]
            else:
                totals["inactive"] += b["size"]
            if b["state"] != "inactive":
                seg["requested"] += b.get("requested_size", b["size"])
        for k in ("allocated", "requested", "pending"):
            totals[k] += seg[k]
        segs.append(seg)
    return {"peak_bytes": peak, "live_bytes_end": live_bytes, "ooms": ooms, "stacks": stacks, "segments": segs,
            "end": totals}


def main():
    snap = load(sys.argv[1])
    out = {}
    for device, trace in enumerate(snap["device_traces"]):
        if trace or any(s["device"] == device for s in snap["segments"]):
            out[str(device)] = device_reference(snap, device, trace)
    json.dump(out, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
