#!/usr/bin/env python3
"""A memory snapshot and the torch.profiler trace of the same run share one clock in Warpscope
(issue #28): the snapshot session's clock is time_us in ns, the Kineto session's is
baseTimeNanoseconds + ts, both CLOCK_REALTIME epoch. The allocations both recorded (the same address
and size, nearest in time) must be at the same time within 50 µs; prints the median offset.

    check_snapshot_clock.py CLI SNAPSHOT TRACE
"""
import bisect
import csv
import io
import statistics
import subprocess
import sys


def rows(cli, path):
    out = subprocess.run([cli, "memory", path, "--csv", "allocations"], check=True, capture_output=True, text=True).stdout
    return list(csv.DictReader(io.StringIO(out)))


def main():
    cli, snapshot, trace = sys.argv[1:4]
    by_key = {}
    for r in rows(cli, snapshot):
        if r["alloc_us"]:
            by_key.setdefault((int(r["addr"]), int(r["size_bytes"])), []).append(int(r["alloc_us"]) * 1000)
    for times in by_key.values():
        times.sort()
    offsets = []
    for r in rows(cli, trace):
        if not r["allocated_ns"] or not r["device"].startswith("GPU"):
            continue
        times = by_key.get((int(r["addr"]), int(r["size_bytes"])))
        if not times:
            continue
        t = int(r["allocated_ns"])
        i = bisect.bisect_left(times, t)
        nearest = min((times[j] for j in (i - 1, i) if 0 <= j < len(times)), key=lambda x: abs(x - t))
        offsets.append(nearest - t)
    if len(offsets) < 20:
        sys.exit(f"only {len(offsets)} allocations found in both")
    median = statistics.median(offsets)
    print(f"{len(offsets)} allocations in both; snapshot minus trace: median {median / 1000:.1f} us")
    if abs(median) > 50_000:
        sys.exit("the clocks do not match")


if __name__ == "__main__":
    main()
