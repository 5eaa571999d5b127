#!/usr/bin/env python3
"""warpscope-cli query against independent readings of the same files (issue #50): questions asked
in SQL of Warpscope's tables, answered again here straight from the file's own records.

  Nsight Systems SQLite: kernels per name (CUPTI_ACTIVITY_KIND_KERNEL, demangled names, end - start),
    copies (count and bytes of CUPTI_ACTIVITY_KIND_MEMCPY), memsets.
  PyTorch/Kineto JSON: kernels per name (X events of category kernel, us -> ns), cpu_op count,
    [memory] records (count and sum of Bytes).

    check_query_reference.py CLI FILE...
"""
import collections
import gzip
import json
import math
import sqlite3
import subprocess
import sys


def query(cli, path, sql):
    out = subprocess.check_output([cli, "query", path, sql, "--json"])
    return json.loads(out)["rows"]


def nsys_reference(path):
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    kernels = {name: (n, total) for name, n, total in db.execute(
        "SELECT s.value, COUNT(*), SUM(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
        "JOIN StringIds s ON s.id = k.demangledName GROUP BY s.value")}
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    copies = db.execute("SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM CUPTI_ACTIVITY_KIND_MEMCPY").fetchone() \
        if "CUPTI_ACTIVITY_KIND_MEMCPY" in tables else (0, 0)
    sets = db.execute("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMSET").fetchone()[0] \
        if "CUPTI_ACTIVITY_KIND_MEMSET" in tables else 0
    return {"kernels": kernels, "copies": tuple(copies), "sets": sets}


def kineto_reference(path):
    with (gzip.open if path.endswith(".gz") else open)(path, "rt", encoding="utf-8", errors="replace") as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    kernels = collections.defaultdict(lambda: [0, 0.0])
    ops = 0
    memory = [0, 0]
    for e in events:
        cat = str(e.get("cat", "")).lower()
        if e.get("ph") == "X" and cat == "kernel":
            kernels[e["name"]][0] += 1
            kernels[e["name"]][1] += float(e.get("dur", 0)) * 1000.0
        elif e.get("ph") == "X" and cat == "cpu_op":
            ops += 1
        elif e.get("ph") in ("i", "I") and e.get("name") == "[memory]":
            memory[0] += 1
            memory[1] += int(e.get("args", {}).get("Bytes", 0))
    return {"kernels": {k: tuple(v) for k, v in kernels.items()}, "ops": ops, "memory": tuple(memory)}


def main():
    cli, files = sys.argv[1], sys.argv[2:]
    failures = []

    def expect(what, got, want, tolerance=0):
        ok = got == want if not tolerance else all(math.isclose(g, w, abs_tol=tolerance) for g, w in zip(got, want))
        if not ok:
            failures.append("%s: warpscope %r, reference %r" % (what, got, want))

    for path in files:
        got_kernels = {name: (n, total) for name, n, total in query(
            cli, path, "SELECT kernel, COUNT(*), SUM(duration_ns) FROM kernels GROUP BY kernel")}
        if path.endswith(".sqlite"):
            ref = nsys_reference(path)
            expect(path + " kernel names", sorted(got_kernels), sorted(ref["kernels"]))
            for name, r in ref["kernels"].items():
                expect("%s kernel %s" % (path, name[:60]), got_kernels.get(name), r)
            expect(path + " copies", tuple(query(cli, path, "SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM memcpy WHERE kind = 'memcpy'")[0]),
                   ref["copies"])
            expect(path + " memsets", query(cli, path, "SELECT COUNT(*) FROM memcpy WHERE kind = 'memset'")[0][0], ref["sets"])
        else:
            ref = kineto_reference(path)
            expect(path + " kernel names", sorted(got_kernels), sorted(ref["kernels"]))
            for name, (n, total) in ref["kernels"].items():
                g = got_kernels.get(name, (0, 0))
                expect("%s kernel %s calls" % (path, name[:60]), g[0], n)
                expect("%s kernel %s ns" % (path, name[:60]), (g[1],), (total,), tolerance=n + 1)  # ns rounding per event
            expect(path + " cpu_op slices", query(cli, path, "SELECT COUNT(*) FROM slices WHERE kind = 'cpu_op'")[0][0], ref["ops"])
            expect(path + " memory records", tuple(query(cli, path, "SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM memory_events")[0]),
                   ref["memory"])
        print("%s: %d kernel names checked" % (path, len(got_kernels)))
    for f in failures[:40]:
        print("FAIL", f)
    if failures:
        print("%d disagreement(s)" % len(failures))
        return 1
    print("query answers equal the independent reading of %d file(s)" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
