#!/usr/bin/env python3
"""The kernel table of a rocprofiler-sdk JSON file (warpscope-cli kernels --csv --group name)
against the independent reference (tests/core/reference_rocprof.py): every kernel name with the same
calls and total time, and weighted workgroups per CU and occupancy within rounding.

    check_rocprof_reference.py CLI FILE...
"""
import csv
import io
import json
import os
import subprocess
import sys

REFERENCE = os.path.join(os.path.dirname(__file__), "..", "core", "reference_rocprof.py")


def main():
    cli, files = sys.argv[1], sys.argv[2:]
    failures = 0
    for path in files:
        ref = json.loads(subprocess.check_output([sys.executable, REFERENCE, path]))["kernels"]
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
                ("mean_blocks_per_sm", float(g["mean_blocks_per_sm"]), r["mean_blocks_per_sm"], 0.01),
                ("mean_est_achieved_occupancy_pct", float(g["mean_est_achieved_occupancy_pct"]), r["mean_occupancy_pct"], 0.01),
            ]
            for what, a, b, tol in checks:
                if abs(a - b) > tol * max(1.0, abs(b)):
                    print("%s: %s of %s: warpscope %s, reference %s" % (path, what, name[:80], a, b))
                    failures += 1
        print("%s: %d kernel names compared" % (path, len(ref)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
