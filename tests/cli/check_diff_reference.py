#!/usr/bin/env python3
"""`warpscope-cli diff A B --csv` against tests/core/reference_diff.py, row by row: every operator
(calls and device self time of both runs), every kernel group (normalized name, calls and total
time of both runs) and every operator + kernel group, nothing extra on either side.

Usage: check_diff_reference.py CLI A B [A B ...]
"""
import csv
import io
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "core"))
import reference_diff  # noqa: E402


def cli_rows(cli, a, b, by):
    out = subprocess.run([cli, "diff", a, b, "--csv", "--by", by], check=True, capture_output=True, text=True).stdout
    return list(csv.DictReader(io.StringIO(out)))


def main(argv):
    cli, files = argv[0], argv[1:]
    failures = 0
    for a, b in zip(files[0::2], files[1::2]):
        buf = io.StringIO()
        real, sys.stdout = sys.stdout, buf
        reference_diff.main([a, b])
        sys.stdout = real
        ref = {(r["table"], r["name"]): tuple(int(r[k]) for k in ("calls_a", "calls_b", "ns_a", "ns_b"))
               for r in csv.DictReader(io.StringIO(buf.getvalue()))}
        got = {}
        for r in cli_rows(cli, a, b, "op"):
            got[("op", r["name"])] = tuple(int(r[k]) for k in ("calls_a", "calls_b", "device_self_ns_a", "device_self_ns_b"))
        for r in cli_rows(cli, a, b, "kernel"):
            got[("kernel", r["normalized_name"])] = tuple(int(r[k]) for k in ("calls_a", "calls_b", "total_ns_a", "total_ns_b"))
        for r in cli_rows(cli, a, b, "op-kernel"):
            got[("op-kernel", r["operator"] + "\x1f" + r["normalized_name"])] = tuple(
                int(r[k]) for k in ("calls_a", "calls_b", "total_ns_a", "total_ns_b"))
        bad = [k for k in set(ref) | set(got) if ref.get(k) != got.get(k)]
        for k in sorted(bad)[:10]:
            print(f"{os.path.basename(a)} vs {os.path.basename(b)}: {k[0]} {k[1][:100]!r}: cli {got.get(k)} reference {ref.get(k)}")
        print(f"{os.path.basename(a)} vs {os.path.basename(b)}: {len(ref)} rows, {len(bad)} differ")
        failures += len(bad) > 0 or not ref
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
