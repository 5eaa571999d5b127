#!/usr/bin/env python3
"""The categories of a PyTorch memory timeline (warpscope-cli memory FILE --csv categories) against
the independent reference (tests/core/reference_memory_timeline.py), on the raw export given and on
the coalesced export made from it here the way torch's _coalesce_timeline makes it ([times µs,
sizes], a row of 9 per distinct time), plain and gzipped.

    check_memory_timeline_reference.py CLI RAW_FILE
"""
import csv
import gzip
import io
import json
import os
import subprocess
import sys
import tempfile

REFERENCE = os.path.join(os.path.dirname(__file__), "..", "core", "reference_memory_timeline.py")


def coalesce(rows):
    times, sizes = [], []
    t_min = min((r[0] for r in rows if r[0] >= 0), default=0)
    for ts, _action, delta, cat in rows:
        t = int((t_min if ts < 0 else ts) / 1000)
        if not times or times[-1] != t:
            times.append(t)
            sizes.append(list(sizes[-1]) if sizes else [0] * 9)
        sizes[-1][cat + 1] += delta
    return [times, sizes]


def compare(cli, path):
    ref = json.loads(subprocess.check_output([sys.executable, REFERENCE, path]))
    out = subprocess.check_output([cli, "memory", path, "--csv", "categories"], text=True)
    got = {r["category"]: r for r in csv.DictReader(io.StringIO(out))}
    failures = 0
    if int(got["total"]["at_total_peak_bytes"]) != ref["peak_total_bytes"]:
        print("%s: peak total %s, reference %s" % (path, got["total"]["at_total_peak_bytes"], ref["peak_total_bytes"]))
        failures += 1
    for name, r in ref["categories"].items():
        for key in ("peak_bytes", "at_total_peak_bytes", "final_bytes"):
            if int(got[name][key]) != r[key]:
                print("%s: %s %s: warpscope %s, reference %s" % (path, name, key, got[name][key], r[key]))
                failures += 1
    print("%s: peak %d B, %d categories compared" % (os.path.basename(path), ref["peak_total_bytes"], len(ref["categories"])))
    return failures


def main():
    cli, raw = sys.argv[1], sys.argv[2]
    failures = compare(cli, raw)
    with open(raw, "rb") as f:
        data = f.read()
    rows = json.loads(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data)
    with tempfile.TemporaryDirectory() as tmp:
        plain = os.path.join(tmp, "memory_timeline.json")
        with open(plain, "w") as f:
            json.dump(coalesce(rows), f)
        failures += compare(cli, plain)
        zipped = os.path.join(tmp, "memory_timeline.json.gz")
        with gzip.open(zipped, "wt") as f:
            json.dump(coalesce(rows), f)
        failures += compare(cli, zipped)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
