"""Checks a --capture-range=cudaProfilerApi capture against the on blocks its program logged
(timed_steps.toggle_steps, WS_TOGGLE_LOG): every recorded kernel ran inside an on block, and each
on block after the first has as many kernels as the others (the first is the warm-up cycle's, whose
steps may launch more: AdamW's first step creates its state).

  wscap-dump -n -1 FILE | python3 range_check.py TOGGLE_LOG.json

Prints `windows=N kernels_per_window=[...] kernels_outside=K` and exits 1 when a kernel lies
outside every window, a window has none, or the later windows' counts differ.
"""
import json, re, sys

windows = json.load(open(sys.argv[1]))["on_windows"]
counts, outside = [0] * len(windows), 0
for line in sys.stdin:
    if not line.startswith("@") or " Kernel " not in line:
        continue
    start = int(re.search(r"start=(\d+)", line).group(1))
    for i, (a, b) in enumerate(windows):
        if a <= start <= b:
            counts[i] += 1
            break
    else:
        outside += 1
print("windows=%d kernels_per_window=%s kernels_outside=%d" % (len(windows), counts, outside))
sys.exit(0 if windows and outside == 0 and min(counts) > 0 and len(set(counts[1:])) <= 1 else 1)
