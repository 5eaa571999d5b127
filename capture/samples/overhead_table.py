"""Reads the `round R WORKLOAD CONFIG RESULT {...}` lines of device_overhead_zoo.sh and prints, per
workload and configuration, the median step time and ratios to uninstrumented, each the median of
the per-round ratios (each round's configuration against the same round's plain run):
  - of the processes' median step times, and in brackets the ratio of those medians pooled over rounds;
  - of their 10th-percentile step times (p10), where the RESULT lines carry it (timed_steps.step_figures);
  - of their CPU time per step (all threads, the capture's own included).
The spread of the per-round ratios of the median (lowest-highest) says how far one round can be trusted.
Configurations that measured in one process before and after the capture started (ab_*, ab_run.py)
also get the median over rounds of their after/before ratio, and of that ratio over ab_plain's in the
same round (the process's own drift taken out).

  python3 overhead_table.py LOG [LOG...]
"""
import collections, json, re, statistics, sys

runs = collections.defaultdict(dict)  # (workload, config) -> round -> figures
for path in sys.argv[1:]:
    for line in open(path):
        m = re.match(r"round (\d+) (\S+) (\S+) RESULT (\{.*\})", line)
        if m:
            runs[(m.group(2), m.group(3))][int(m.group(1))] = json.loads(m.group(4))

workloads = sorted({w for w, _ in runs})
configs = []
for _, c in runs:
    if c not in configs:
        configs.append(c)


def bare(c):
    """A configuration's name without the base: prefix of device_overhead_zoo.sh's second build."""
    return c.split(":", 1)[-1]


def ratio(r, plain, key):
    per_round = [r[k][key] / plain[k][key] for k in r if k in plain and key in r[k] and plain[k].get(key, 0) > 0]
    return (statistics.median(per_round), min(per_round), max(per_round)) if per_round else None


def text(x):
    return "    -" if x is None else "%5.2fx" % x[0]


for w in workloads:
    plain = runs.get((w, "plain"), {})
    if not plain:
        continue  # only one-process figures (tog_*, below)
    print("%s (%d rounds)" % (w, len(plain)))
    print("  %-20s %9s  %-16s %-16s %6s  %6s" % ("configuration", "median", "x median (pooled)", "spread", "x p10", "x cpu"))
    for c in configs:
        r = runs.get((w, c))
        if not r or bare(c).startswith("tog_"):
            continue
        medians = [f["median_ms"] for f in r.values()]
        pooled = statistics.median(medians) / statistics.median(f["median_ms"] for f in plain.values()) if plain else float("nan")
        med = ratio(r, plain, "median_ms")
        spread = "%.2f-%.2f" % (med[1], med[2]) if med else "-"
        print("  %-20s %6.2f ms  %s (%.2fx)    %-16s %s  %s" % (c, statistics.median(medians), text(med), pooled, spread,
                                                           text(ratio(r, plain, "p10_ms")), text(ratio(r, plain, "cpu_ms"))))

for w in workloads:
    drift = runs.get((w, "ab_plain"), {})
    rows = [(c, runs[(w, c)]) for c in configs if (w, c) in runs and bare(c).startswith("ab_")]
    if not rows:
        continue
    print("%s, one process before and after the switch" % w)
    for c, r in rows:
        ratios = [f["ab_ratio"] for f in r.values() if "ab_ratio" in f]
        net = [r[k]["ab_ratio"] / drift[k]["ab_ratio"] for k in r if k in drift and "ab_ratio" in r[k] and "ab_ratio" in drift[k]]
        if ratios:
            print("  %-20s after/before %5.3fx (%.3f-%.3f, %d rounds)%s" % (
                c, statistics.median(ratios), min(ratios), max(ratios), len(ratios),
                "  over ab_plain %5.3fx (%.3f-%.3f)" % (statistics.median(net), min(net), max(net)) if net and bare(c) != "ab_plain" else ""))

for w in workloads:
    rows = [(c, runs[(w, c)]) for c in configs if (w, c) in runs and bare(c).startswith("tog_")]
    if not rows:
        continue
    print("%s, one process switching recording on and off (toggle_steps)" % w)
    print("  %-16s %8s %8s  %-12s %-12s %s" % ("configuration", "off", "on", "on/off", "pooled", "cycles' p10-p90, per round"))
    for c, r in rows:
        figs = [r[k] for k in sorted(r) if "toggle_ratio" in r[k]]
        if not figs:
            continue
        med = statistics.median(f["toggle_ratio"] for f in figs)
        pooled = statistics.median(f["toggle_pooled"] for f in figs)
        spread = " ".join("%.2f-%.2f" % (f["toggle_p10"], f["toggle_p90"]) for f in figs)
        cycles = sorted({f["toggle_cycles"] for f in figs})
        print("  %-16s %5.2f ms %5.2f ms  %5.3fx      %5.3fx      %s (%d rounds of %s cycles)" % (
            c, statistics.median(f["off_ms"] for f in figs), statistics.median(f["on_ms"] for f in figs), med, pooled,
            spread, len(figs), "%d-%d" % (cycles[0], cycles[-1]) if len(cycles) > 1 else cycles[0]))
