#!/usr/bin/env python3
"""The kernel table of a trace (warpscope-cli kernels --csv --group name) against an independent
reference script that prints {"kernels": {name: {calls, total_ns[, mean_blocks_per_sm,
mean_occupancy_pct]}}}: tests/core/reference_rocprof.py (rocprofiler-sdk JSON),
tests/core/reference_xplane.py (XSpace). Every kernel name with the same calls and total time, and
the weighted blocks per SM (CU) and occupancy within rounding where the reference gives them.

    check_kernel_reference.py CLI REFERENCE_SCRIPT FILE...
"""
import csv
import io
import json
import os
import subprocess
import sys

def main():
    cli, reference, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    failures = 0
    for path in files:
        ref = json.loads(subprocess.check_output([sys.executable, reference, path]))["kernels"]
        table = subprocess.check_output([cli, "kernels", path, "--csv", "--group", "name"], text=True)
        got = {row["kernel"]: row for row in csv.DictReader(io.StringIO(table))}
        if set(got) != set(ref):
            print("%s: kernel names differ: only in warpscope %s, only in reference %s"
                  % (path, sorted(set(got) - set(ref))[:3], sorted(set(ref) - set(got))[:3]))
            failures += 1
        for name, r in ref.items():
            g = got.get(name)
            if g is None:
                continue
            checks = [
                ("calls", int(g["calls"]), r["calls"], 0),
                ("total_ns", int(g["total_ns"]), r["total_ns"], 0),
            ]
            if "mean_blocks_per_sm" in r:
                checks.append(("mean_blocks_per_sm", float(g["mean_blocks_per_sm"]), r["mean_blocks_per_sm"], 0.01))
            if "mean_occupancy_pct" in r:
                checks.append(("mean_est_achieved_occupancy_pct", float(g["mean_est_achieved_occupancy_pct"]),
                               r["mean_occupancy_pct"], 0.01))
            for what, a, b, tol in checks:
                if abs(a - b) > tol * max(1.0, abs(b)):
                    print("%s: %s of %s: warpscope %s, reference %s" % (path, what, name[:80], a, b))
                    failures += 1
        print("%s: %d kernel names compared" % (path, len(ref)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
