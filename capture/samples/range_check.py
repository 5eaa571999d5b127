"""Checks a --capture-range=cudaProfilerApi capture against the on blocks its program logged
(timed_steps.toggle_steps, WS_TOGGLE_LOG): the stream's Recording spans (format 1.6) are one per
block, each inside its block; every recorded kernel ran inside a Recording span; and each
on block after the first has as many kernels as the others (the first is the warm-up cycle's, whose
steps may launch more: AdamW's first step creates its state).

  wscap-dump -n -1 FILE | python3 range_check.py TOGGLE_LOG.json

Prints `windows=N kernels_per_window=[...] kernels_outside=K spans=M` and exits 1 when a kernel lies
outside every window or span, a window has none, the later windows' counts differ, or the spans do
not match the windows.
"""
import json, re, sys

windows = json.load(open(sys.argv[1]))["on_windows"]
kernels, spans = [], []
for line in sys.stdin:
    if not line.startswith("@"):
        continue
    if " Kernel " in line:
        kernels.append(int(re.search(r"start=(\d+)", line).group(1)))
    elif " Recording " in line:
        spans.append(tuple(int(x) for x in re.search(r"start=(\d+) end=(\d+)", line).groups()))
counts, outside = [0] * len(windows), 0
for start in kernels:
    for i, (a, b) in enumerate(windows):
        if a <= start <= b:
            counts[i] += 1
            break
    else:
        outside += 1
outside_spans = sum(1 for k in kernels if not any(a <= k <= b for a, b in spans))
spans_match = len(spans) == len(windows) and all(w[0] <= a <= b <= w[1] for (a, b), w in zip(sorted(spans), windows))
print("windows=%d kernels_per_window=%s kernels_outside=%d spans=%d kernels_outside_spans=%d spans_inside_windows=%s" % (
    len(windows), counts, outside, len(spans), outside_spans, spans_match))
sys.exit(0 if windows and outside == 0 and outside_spans == 0 and spans_match and min(counts) > 0 and
         len(set(counts[1:])) <= 1 else 1)
