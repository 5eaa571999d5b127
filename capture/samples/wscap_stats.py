"""Counts kernels inside NVTX ranges named "step N" (N >= FIRST) in `wscap-dump -n -1` output.

  wscap-dump -n -1 FILE | python3 wscap_stats.py FIRST
"""
import re, sys

first = int(sys.argv[1]) if len(sys.argv) > 1 else 0
steps, kernels, counts = [], [], {}
for line in sys.stdin:
    if not line.startswith("@"):
        continue  # the count table and status lines
    line = line.split(" ", 1)[1]
    kind = line.split(" ", 1)[0]
    counts[kind] = counts.get(kind, 0) + 1
    if kind == "NvtxRange":
        m = re.search(r'start=(\d+) end=(\d+) nameId=\d+\("step (\d+)"\)', line)
        if m and int(m.group(3)) >= first:
            steps.append((int(m.group(1)), int(m.group(2))))
    elif kind == "Kernel":
        kernels.append(int(re.search(r"start=(\d+)", line).group(1)))
inside = sum(1 for k in kernels if any(s <= k <= e for s, e in steps))
print(f"steps={len(steps)} kernels_in_steps={inside} kernels_total={len(kernels)}")
