#!/usr/bin/env python3
"""`warpscope-cli memory TRACE --snapshot SNAPSHOT` (issue #28) against
tests/core/reference_snapshot_operators.py: the same number of paired allocations and offset (within
1 µs), and every allocation of the snapshot, at the same (aligned) time, made by the same operator.
At least half of them must have one (the run's steps were traced; its set-up was not).

    check_snapshot_operators.py CLI REFERENCE SNAPSHOT TRACE
"""
import csv
import io
import re
import subprocess
import sys


def main():
    cli, reference, snapshot, trace = sys.argv[1:5]
    ref = subprocess.run([sys.executable, reference, snapshot, trace], check=True, capture_output=True, text=True).stdout
    lines = ref.splitlines()
    _, offset, pairs = lines[0].split()
    expected = {}
    for line in lines[1:]:
        us, addr, size, op = line.split(",", 3)
        expected.setdefault((int(us), int(addr), int(size)), []).append(op)
    run = subprocess.run([cli, "memory", trace, "--snapshot", snapshot, "--csv", "allocations"], check=True,
                         capture_output=True, text=True)
    m = re.search(r"(\d+) allocations paired, offset ([+-][0-9.]+) ms", run.stderr)
    if not m:
        sys.exit("no alignment line in: " + run.stderr)
    if int(m.group(1)) != int(pairs) or abs(float(m.group(2)) * 1e6 - int(offset)) > 1000:
        sys.exit(f"alignment {m.group(1)} pairs, {m.group(2)} ms; reference {pairs} pairs, {int(offset) / 1e6:.3f} ms")
    rows = [r for r in csv.DictReader(io.StringIO(run.stdout)) if r["alloc_us"]]
    with_op = 0
    for r in rows:
        key = (int(r["alloc_us"]), int(r["addr"]), int(r["size_bytes"]))
        if key not in expected:
            sys.exit(f"allocation {key} is not the reference's")
        if r["operator"] not in expected[key]:
            sys.exit(f"allocation {key}: operator {r['operator']!r}, reference {expected[key]}")
        with_op += bool(r["operator"])
    if len(rows) != len(lines) - 1 or with_op * 2 < len(rows):
        sys.exit(f"{len(rows)} allocations ({len(lines) - 1} in the reference), {with_op} with an operator")
    print(f"{len(rows)} allocations, {with_op} with the reference's operator; {pairs} pairs, offset {offset} ns")


if __name__ == "__main__":
    main()
