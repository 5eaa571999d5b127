"""Reads the `round R WORKLOAD CONFIG RESULT {...}` lines of device_overhead_zoo.sh and prints, per
workload and configuration, the median step time and two ratios to uninstrumented: the median of the
per-round ratios (each round's configuration against the same round's plain run) and, in brackets,
the ratio of the medians pooled over all rounds.

  python3 overhead_table.py LOG [LOG...]
"""
import collections, json, re, statistics, sys

runs = collections.defaultdict(dict)  # (workload, config) -> round -> median_ms
for path in sys.argv[1:]:
    for line in open(path):
        m = re.match(r"round (\d+) (\S+) (\S+) RESULT (\{.*\})", line)
        if m:
            runs[(m.group(2), m.group(3))][int(m.group(1))] = json.loads(m.group(4))["median_ms"]

workloads = sorted({w for w, _ in runs})
configs = []
for _, c in runs:
    if c not in configs:
        configs.append(c)
for w in workloads:
    plain = runs.get((w, "plain"), {})
    print("%s (%d rounds)" % (w, len(plain)))
    for c in configs:
        r = runs.get((w, c))
        if not r:
            continue
        per_round = [r[k] / plain[k] for k in r if k in plain and plain[k] > 0]
        pooled = statistics.median(r.values()) / statistics.median(plain.values()) if plain else float("nan")
        print("  %-20s %8.2f ms  %5.2fx  (%.2fx)" % (c, statistics.median(r.values()),
                                                  statistics.median(per_round) if per_round else float("nan"), pooled))
