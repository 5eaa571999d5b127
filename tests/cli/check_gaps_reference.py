#!/usr/bin/env python3
"""Cross-checks `warpscope-cli gaps` against tests/core/reference_idle_gaps.py (issue #27).

    check_gaps_reference.py CLI [--expect CATEGORY:MIN_PCT] FILE [[--expect ...] FILE ...]

Every FILE is classified by both: the gap rows (`--csv`, all columns but the thread label) and the
lines (`--lines-csv`) must be identical. A capture (.wscap, .wscap.gz) is first exported to Chrome JSON
by `warpscope-cli export`, which both then read. `--expect sync:90` before a FILE also requires that
category's share of the CLI's gap time in the file itself (a capture's own steps) to be at least 90 %; `--expect drained:80`, that
of the gap time whose cause names the synchronization that drained the queue. A FILE that does not exist (the
shared test data is absent) is skipped with a note. Exit status 1 on any difference.
"""
import csv
import io
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = os.path.join(HERE, "..", "core", "reference_idle_gaps.py")


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def main():
    cli, args = sys.argv[1], sys.argv[2:]
    failed = False
    expect = []
    with tempfile.TemporaryDirectory() as tmp:
        for arg in args:
            if arg == "--expect":
                expect.append(None)
                continue
            if expect and expect[-1] is None:
                cat, pct = arg.split(":")
                expect[-1] = (cat, float(pct))
                continue
            path = arg
            if not os.path.exists(path):
                print("skip %s: not here" % path)
                expect = []
                continue
            name = os.path.basename(path)
            source = path
            if ".wscap" in name:
                source = os.path.join(tmp, name.split(".wscap")[0] + ".json")
                run([cli, "export", path, "-o", source])
            raw_gaps = list(csv.reader(io.StringIO(run([cli, "gaps", source, "--csv"]))))
            # Without the thread label, and without the name of the synchronization that drained the
            # queue (a note the C++ side adds to the cause; the reference's definition is the time split).
            got_gaps = [row[:11] + [re.sub(r", after .* drained the GPU's queue$", "", c) for c in row[12:]]
                        for row in raw_gaps]
            ref_gaps = list(csv.reader(io.StringIO(run([sys.executable, REFERENCE, source]))))
            got_lines = run([cli, "gaps", source, "--lines-csv"])
            ref_lines = run([sys.executable, REFERENCE, source, "--lines"])
            bad = []
            if got_gaps != ref_gaps:
                diff = [(g, r) for g, r in zip(got_gaps, ref_gaps) if g != r]
                bad.append("gaps differ (%d vs %d rows, %d differing), first: %s" %
                           (len(got_gaps), len(ref_gaps), len(diff), diff[:1]))
            if got_lines != ref_lines:
                bad.append("lines differ:\n--- warpscope\n%s--- reference\n%s" % (got_lines, ref_lines))
            # Shares of the file itself (a capture's own steps, not those of its export).
            own = raw_gaps if source == path else list(csv.reader(io.StringIO(run([cli, "gaps", path, "--csv"]))))
            total = sum(int(r[4]) for r in own[1:])
            shares = {}
            for col, cat in ((6, "sync"), (7, "collective"), (8, "data"), (9, "cpu"), (10, "none")):
                shares[cat] = 100.0 * sum(int(r[col]) for r in own[1:]) / total if total else 0.0
            # The gap time whose cause names the synchronization that drained the GPU's queue.
            shares["drained"] = 100.0 * sum(int(r[4]) for r in own[1:] if r[-1].endswith("drained the GPU's queue")) / total \
                if total else 0.0
            for cat, pct in expect:
                if shares[cat] < pct:
                    bad.append("%s: %.2f %% of the gap time, expected at least %.1f %%" % (cat, shares[cat], pct))
            print("%s %s: %d gaps, %d lines; %s" % ("FAIL" if bad else "ok", name, len(got_gaps) - 1,
                                                  got_lines.count("\n") - 1,
                                                  ", ".join("%s %.1f %%" % (c, v) for c, v in shares.items() if v > 0)))
            for b in bad:
                print("  " + b)
            failed |= bool(bad)
            expect = []
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
