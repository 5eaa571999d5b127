"""Share of kernels whose correlation id has an API record (a launching thread and time) in
`wscap-dump -n -1` output (issue #25: launches recorded from the driver).

  wscap-dump -n -1 FILE | python3 wscap_launch_match.py
"""
import re, sys

api, kernels = set(), []
for line in sys.stdin:
    if not line.startswith("@"):
        continue
    kind = line.split(" ", 2)[1]
    m = re.search(r" correlationId=(\d+)", line)
    if not m:
        continue
    if kind == "Api":
        api.add(int(m.group(1)))
    elif kind == "Kernel":
        kernels.append(int(m.group(1)))
matched = sum(1 for k in kernels if k in api)
print(f"kernels={len(kernels)} with_launch={matched} share={matched / max(1, len(kernels)):.4f}")
