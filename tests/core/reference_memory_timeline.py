#!/usr/bin/env python3
"""Independent reference for the PyTorch memory timeline importer (issue #17).

Reads a memory timeline export with Python's json module (no Warpscope code) and prints, as JSON,
the peak of the total live bytes and its time (ns), and per category (PyTorch's
_CATEGORY_TO_INDEX order) the peak live bytes and the bytes live at the total's peak and at the end.

Raw layout ([ts ns, action, delta bytes, category] rows, ts -1 for memory that existed before):
rows are summed in file order and the state is read after the last row of each timestamp, the
pre-existing rows counting from the first timestamp. Coalesced layout ([times µs, sizes]): each
sizes row is the state at its time, columns 1..8 the categories.

    python3 reference_memory_timeline.py FILE
"""
import gzip
import json
import sys

NAMES = ["Parameter", "Optimizer state", "Input", "Temporary", "Activation", "Gradient", "Autograd detail", "Unknown"]


def load(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return json.loads(raw)


def states(doc):
    """(ts ns, [bytes per category]) after each timestamp."""
    raw = all(isinstance(r, list) and len(r) == 4 and 1 <= r[1] <= 4 for r in doc[:50])
    if raw:
        live, out, current = [0] * 8, [], None
        for ts, _action, delta, cat in doc:
            if ts >= 0 and ts != current:
                if current is not None:
                    out.append((current, list(live)))
                current = ts
            live[cat] += delta
        if current is not None:
            out.append((current, list(live)))
        return out
    times, sizes = doc
    return [(t * 1000, list(row[1:9])) for t, row in zip(times, sizes)]


def main():
    st = states(load(sys.argv[1]))
    peak_ts, peak_state = max(st, key=lambda s: (sum(s[1]), -s[0]))
    result = {"peak_total_bytes": sum(peak_state), "peak_ts": peak_ts, "categories": {}}
    for i, name in enumerate(NAMES):
        result["categories"][name] = {
            "peak_bytes": max(s[1][i] for s in st),
            "at_total_peak_bytes": peak_state[i],
            "final_bytes": st[-1][1][i],
        }
    json.dump(result, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
