"""Compares a capture's kernel operators with a torch.profiler trace of the same program (issue #25).

  python3 zoo_compare.py WARPSCOPE_CLI CAPTURE TRACE [--json]

Both go through `warpscope-cli kernels --csv` (the kernel table: each kernel's launching operator).
The capture records the whole run and the trace only its last steps, so kernels pair by name and
occurrence counted from the end: the last `aten_foo` kernel of one with the last of the other.
A kernel matches when both give it the same operator (both none counts as a match: a CUDA-graph
replay has no operator in either). Prints the share matched, the kernels the capture lacks, and
the operators that differ most, by kernel time.
"""
import csv, collections, io, json, subprocess, sys

csv.field_size_limit(1 << 30)


def kernels(cli, path):
    out = subprocess.run([cli, "kernels", path, "--csv"], check=True, capture_output=True, text=True).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    rows.sort(key=lambda r: int(r["start_ns"] or 0))
    return rows


def by_name_from_end(rows):
    groups = collections.defaultdict(list)
    for r in rows:
        groups[r["kernel"]].append(r)
    for g in groups.values():
        g.reverse()
    return groups


def short(name, n=60):
    return name if len(name) <= n else name[: n - 1] + "…"


def pair_from_end(ref, cap):
    """(trace row, capture row) pairs by name and occurrence from the end, and the trace's kernels
    left without a capture kernel, counted by short name."""
    cap_by = by_name_from_end(cap)
    pairs, missing_names = [], collections.Counter()
    for name, refs in by_name_from_end(ref).items():
        caps = cap_by.get(name, [])
        for i, r in enumerate(refs):
            if i < len(caps):
                pairs.append((r, caps[i]))
            else:
                missing_names[short(name)] += 1
    return pairs, missing_names


def compare(cli, capture, trace):
    """The comparison as a dict (see the keys below)."""
    cap, ref = kernels(cli, capture), kernels(cli, trace)
    pairs, missing_names = pair_from_end(ref, cap)
    missing = sum(missing_names.values())
    matched = sum(1 for r, c in pairs if r["operator"] == c["operator"])
    time_total = sum(int(r["duration_ns"] or 0) for r, _ in pairs) or 1
    wrong = collections.Counter()
    wrong_time = collections.Counter()
    for r, c in pairs:
        if r["operator"] != c["operator"]:
            key = (r["operator"] or "(none)", c["operator"] or "(none)", short(r["kernel"]))
            wrong[key] += 1
            wrong_time[key] += int(r["duration_ns"] or 0)
    result = {
        "trace_kernels": len(ref),
        "capture_kernels": len(cap),
        "paired": len(pairs),
        "missing_in_capture": missing,
        "missing_kernels": dict(missing_names.most_common(8)),
        "operator_matched": matched,
        "operator_match_pct": round(100.0 * matched / max(1, len(ref)), 2),
        "operator_match_pct_of_paired": round(100.0 * matched / max(1, len(pairs)), 2),
        "mismatched_time_pct": round(100.0 * sum(wrong_time.values()) / time_total, 2),
        "top_mismatches": [
            {"trace_op": k[0], "capture_op": k[1], "kernel": k[2], "count": n, "time_ns": wrong_time[k]}
            for k, n in [(k, wrong[k]) for k, _ in wrong_time.most_common(8)]
        ],
    }
    return result


def main():
    cli, capture, trace = sys.argv[1:4]
    result = compare(cli, capture, trace)
    matched, ref, pairs, missing = (result["operator_matched"], result["trace_kernels"], result["paired"],
                                    result["missing_in_capture"])
    if "--json" in sys.argv:
        print(json.dumps(result, indent=1))
        return
    print("%s: %d of %d kernels (%.2f %%) get torch.profiler's operator; %d paired, %d missing in the capture"
          % (capture, matched, ref, result["operator_match_pct"], pairs, missing))
    for name, n in result["missing_kernels"].items():
        print("  missing in the capture: %d x %s" % (n, name))
    for m in result["top_mismatches"]:
        print("  %5d x %-10.2f ms  trace %-34s capture %-34s %s"
              % (m["count"], m["time_ns"] / 1e6, short(m["trace_op"], 34), short(m["capture_op"], 34), m["kernel"]))


if __name__ == "__main__":
    main()
