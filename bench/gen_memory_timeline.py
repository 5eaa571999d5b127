#!/usr/bin/env python3
"""Writes a large PyTorch memory timeline (export_memory_timeline's raw rows) for import benchmarks
(issue #17): the real raw export of tests/data/memory_timeline repeated, each copy shifted after the
previous one in time (its pre-existing rows only in the first), until the file has the asked size.

    bench/gen_memory_timeline.py OUT.json --size 1G
"""
import gzip
import json
import os

from gen_rocprof_json import out_and_size  # OUT [--size 1G]

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "tests", "data", "memory_timeline", "pytorch_memory_timeline.raw.gz")


def main():
    out_path, target = out_and_size()
    rows = json.loads(gzip.decompress(open(SOURCE, "rb").read()))
    timed = [r for r in rows if r[0] >= 0]
    t0, t1 = timed[0][0], timed[-1][0]
    with open(out_path, "w") as out:
        out.write("[" + ", ".join(json.dumps(r) for r in rows))
        shift, written = 0, out.tell()
        while written < target:
            shift += t1 - t0 + 1000
            chunk = "".join(", [%d, %d, %d, %d]" % (r[0] + shift, r[1], r[2], r[3]) for r in timed)
            out.write(chunk)
            written += len(chunk)
        out.write("]\n")
    print("%s: %.1f MB" % (out_path, os.path.getsize(out_path) / 1e6))


if __name__ == "__main__":
    main()
