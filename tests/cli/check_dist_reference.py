#!/usr/bin/env python3
"""Cross-checks `warpscope-cli dist --json` against tests/core/reference_distributed.py (issue #12).

    check_dist_reference.py CLI JOB...    JOB = comma-separated trace files of one job, or a folder

Each job is computed by both; every per-step number, worker mean, ops-table cell and straggler must
agree (integers exactly, floats to 1e-6 relative). Exit status 1 on any difference, listing them.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = os.path.join(HERE, "..", "core", "reference_distributed.py")
TRACE_SUFFIXES = (".json", ".json.gz")


def close(a, b):
    if a is None or b is None or isinstance(a, str) or isinstance(b, str):
        return a == b
    return abs(float(a) - float(b)) <= 1e-6 * max(1.0, abs(float(a))) + 1e-3


def compare(ref, got):
    bad = []
    if len(ref["workers"]) != len(got["workers"]):
        return ["worker count %d != %d" % (len(ref["workers"]), len(got["workers"]))]
    for rw, gw in zip(ref["workers"], got["workers"]):
        if rw["rank"] != gw["rank"] or len(rw["steps"]) != len(gw["steps"]):
            bad.append("rank %s: rank or step count differs" % rw["rank"])
            continue
        for rs, gs in zip(rw["steps"], gw["steps"]):
            for f in ("label", "start_ns", "end_ns", "computation_ns", "communication_ns", "overlap_ns", "other_ns",
                      "sync_ns", "transfer_ns"):
                if not close(rs[f], gs[f]):
                    bad.append("rank %s step %s %s: reference %s, warpscope %s" % (rw["rank"], rs["label"], f, rs[f], gs[f]))
        for f, v in rw["mean"].items():
            if not close(v, gw["mean"][f]):
                bad.append("rank %s mean %s: reference %s, warpscope %s" % (rw["rank"], f, v, gw["mean"][f]))
    if len(ref["ops"]) != len(got["ops"]):
        bad.append("ops rows %d != %d" % (len(ref["ops"]), len(got["ops"])))
    for ro, go in zip(ref["ops"], got["ops"]):
        for f in ("rank", "process_group", "name", "collective", "calls", "total_bytes", "avg_bytes", "total_latency_ns",
                  "avg_latency_ns", "transfer_ns", "kernel_ns", "algbw_gbps", "busbw_gbps"):
            if not close(ro[f], go[f]):
                bad.append("op rank %s %s %s: reference %s, warpscope %s" % (ro["rank"], ro["name"], f, ro[f], go[f]))
    if len(ref["stragglers"]) != len(got["stragglers"]):
        bad.append("stragglers %d != %d" % (len(ref["stragglers"]), len(got["stragglers"])))
    for rs, gs in zip(ref["stragglers"], got["stragglers"]):
        if rs["step"] != gs["step"] or rs["rank"] != gs["rank"] or not close(rs["wait_ns"], gs["wait_ns"]):
            bad.append("straggler %s != %s" % (rs, gs))
    return bad


def main():
    cli, jobs = sys.argv[1], sys.argv[2:]
    failed = False
    for job in jobs:
        if os.path.isdir(job):
            files = sorted(os.path.join(job, f) for f in os.listdir(job) if f.endswith(TRACE_SUFFIXES))
        else:
            files = job.split(",")
        ref = json.loads(subprocess.check_output([sys.executable, REFERENCE] + files))
        got = json.loads(subprocess.check_output([cli, "dist", "--json"] + files))
        bad = compare(ref, got)
        print("%s: %d workers, %d ops rows, %d stragglers, %d differences"
              % (job, len(ref["workers"]), len(ref["ops"]), len(ref["stragglers"]), len(bad)))
        for b in bad[:20]:
            print("  " + b)
        failed |= bool(bad)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
