#!/usr/bin/env python3
"""`warpscope-cli memory` on PyTorch memory snapshots against the independent reference
(tests/core/reference_memory_snapshot.py): peak of live bytes, live and reserved bytes at each OOM
(to the byte), per-stack allocations and live bytes (at the end and at the OOM), and the final
segments. Each snapshot given is checked as recorded, and also as variants written here with
Python's pickle: the device trace cut to its last 60 % (what a wrapped ring buffer leaves: blocks
alive before the first entry must be reconstructed), the same data pickled with protocols 2 and 5,
gzipped, and a two-device snapshot (the run again as GPU 1 with a shorter trace).

    check_memory_snapshot_reference.py CLI SNAPSHOT...
"""
import copy
import csv
import gzip
import io
import json
import os
import pickle
import re
import subprocess
import sys
import tempfile

REFERENCE = os.path.join(os.path.dirname(__file__), "..", "core", "reference_memory_snapshot.py")


def run(args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def load(path):
    with open(path, "rb") as f:
        head = f.read(2)
    with (gzip.open if head == b"\x1f\x8b" else open)(path, "rb") as f:
        return pickle.load(f)


def fail(path, what, got, want):
    sys.exit(f"{os.path.basename(path)}: {what}: warpscope {got}, reference {want}")


def csv_rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def check(cli, path):
    ref = json.loads(run([sys.executable, REFERENCE, path]))
    summary = run([cli, "memory", path])
    devices = re.split(r"^GPU(\d+):$", summary, flags=re.M)
    got = {devices[i]: devices[i + 1] for i in range(1, len(devices), 2)}
    if set(got) != set(ref):
        fail(path, "devices", sorted(got), sorted(ref))
    oom_count = 0
    for dev, r in ref.items():
        text = got[dev]
        peak = int(re.search(r"peak live: .*\((\d+) B\)", text).group(1))
        if peak != r["peak_bytes"]:
            fail(path, f"GPU{dev} peak live bytes", peak, r["peak_bytes"])
        live = [tuple(map(int, m)) for m in re.findall(r"live at the OOM: .*\((\d+) B\) in (\d+) allocations", text)]
        reserved = [int(m) for m in re.findall(r"reserved then: .*\((\d+) B\)", text)]
        want = [(o["live_bytes"], o["live_count"]) for o in r["ooms"]]
        if live != want:
            fail(path, f"GPU{dev} live at the OOMs (bytes, allocations)", live, want)
        if reserved != [o["reserved_bytes"] for o in r["ooms"]]:
            fail(path, f"GPU{dev} reserved at the OOMs", reserved, [o["reserved_bytes"] for o in r["ooms"]])
        oom_count += len(want)
        stacks = {row["stack"]: [int(row[k]) for k in ("allocations", "allocated_bytes", "live_count", "live_bytes")]
                  for row in csv_rows(run([cli, "memory", path, "--csv", "stacks", "--device", dev]))}
        want_stacks = {k: v for k, v in r["stacks"].items() if any(v)}
        if stacks != want_stacks:
            diff = sorted(set(stacks.items()) ^ set((k, tuple(v)) for k, v in want_stacks.items()))[:3]
            stacks = {k: tuple(v) for k, v in stacks.items()}
            want_t = {k: tuple(v) for k, v in want_stacks.items()}
            diff = [(k[-80:], stacks.get(k), want_t.get(k)) for k in sorted(set(stacks) | set(want_t))
                    if stacks.get(k) != want_t.get(k)][:3]
            fail(path, f"GPU{dev} per-stack rows ({len(stacks)} vs {len(want_stacks)}), first differences", diff, "")
        for o in r["ooms"]:
            rows = csv_rows(run([cli, "memory", path, "--csv", "stacks", "--device", dev, "--at", str(o["time_us"])]))
            at_oom = {row["stack"]: int(row["live_bytes"]) for row in rows if int(row["live_bytes"])}
            if at_oom != o["by_stack"]:
                fail(path, f"GPU{dev} live bytes by stack at the OOM", len(at_oom), len(o["by_stack"]))
        segs = [{"address": int(row["address"]), "total": int(row["total_bytes"]), "allocated": int(row["allocated_bytes"]),
                 "requested": int(row["requested_bytes"]), "pending": int(row["pending_bytes"])}
                for row in csv_rows(run([cli, "memory", path, "--csv", "segments", "--device", dev]))]
        if sorted(segs, key=lambda s: s["address"]) != sorted(r["segments"], key=lambda s: s["address"]):
            fail(path, f"GPU{dev} segments", segs[:2], r["segments"][:2])
        # The totals at the end, as the text gives them: PyTorch's allocated, requested and inactive.
        end = text.split("at the end (the snapshot's segments):", 1)[-1]
        for key in ("allocated", "requested", "inactive"):
            m = re.search(r"\n\s+%s:\s+.*?\((\d+) B\)" % key, end)
            if not m or int(m.group(1)) != r["end"][key]:
                fail(path, f"GPU{dev} {key} at the end", m and int(m.group(1)), r["end"][key])
    return oom_count


def variants(path, tmp):
    snap = load(path)
    base = os.path.splitext(os.path.basename(path))[0]
    cut = dict(snap)
    cut["device_traces"] = [t[len(t) * 2 // 5:] for t in snap["device_traces"]]
    # Two devices: the same run again as GPU 1, its trace cut differently (device lists map by position).
    two = dict(snap)
    two["segments"] = snap["segments"] + [dict(s, device=1) for s in snap["segments"]]
    # (Copies: PyTorch never lets two entries share one dict, and Warpscope refuses a file that does.)
    two["device_traces"] = [snap["device_traces"][0],
                            copy.deepcopy(snap["device_traces"][0][len(snap["device_traces"][0]) // 3:])]
    out = []
    for name, data, proto, gz in (("cut", cut, 4, False), ("p2", snap, 2, True), ("p5cut", cut, 5, True),
                                  ("2dev", two, 4, False)):
        p = os.path.join(tmp, f"{base}.{name}.pickle" + (".gz" if gz else ""))
        with (gzip.open if gz else open)(p, "wb") as f:
            pickle.dump(data, f, protocol=proto)
        out.append(p)
    return out


def main():
    cli = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        checked = []
        for path in sys.argv[2:]:
            for p in [path] + variants(path, tmp):
                ooms = check(cli, p)
                checked.append(f"{os.path.basename(p)} ({ooms} OOM)" if ooms else os.path.basename(p))
    print("memory snapshots match the reference:", ", ".join(checked))


if __name__ == "__main__":
    main()
