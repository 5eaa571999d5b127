"""`warpscope-cli roofline --json` of torch.profiler traces against tests/core/reference_roofline.py, the
independent estimate from the trace's own events: per kernel name the same calls and estimated calls,
the same FLOPs and bytes (within 1e-5: the table keeps them as floats), and the same count of calls
per bound verdict; and, in a trace recorded with_flops, the reference's GEMM FLOPs equal
torch.profiler's own.

  python3 check_roofline_reference.py WARPSCOPE_CLI TRACE...
"""
import json, os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
reference = os.path.join(here, "..", "core", "reference_roofline.py")
cli = sys.argv[1]
failed = False


def near(a, b):
    return abs(a - b) <= 1e-5 * max(1.0, abs(a), abs(b))


for trace in sys.argv[2:]:
    ref = json.loads(subprocess.run([sys.executable, reference, trace], check=True, capture_output=True, text=True).stdout)
    got = json.loads(subprocess.run([cli, "roofline", trace, "--json", "--top", "1000000"], check=True,
                                    capture_output=True, text=True).stdout)
    groups = {g["name"]: g for g in got["groups"]}
    bad = []
    if set(groups) != set(ref["groups"]):
        bad.append("names: %d against %d" % (len(groups), len(ref["groups"])))
    for name, r in ref["groups"].items():
        g = groups.get(name)
        if g is None:
            continue
        by_bound = {k: v for k, v in g["calls_by_bound"].items() if v}
        ref_bound = {("unknown" if k == "" else k): v for k, v in r["by_bound"].items()}
        problems = [what for what, ok in (
            ("calls", g["calls"] == r["calls"]), ("estimated calls", g["estimated_calls"] == r["estimated_calls"]),
            ("flops", near(g["flops"], r["flops"])), ("bytes", near(g["bytes"], r["bytes"])),
            ("bounds %s against %s" % (by_bound, ref_bound), by_bound == ref_bound)) if not ok]
        if problems:
            bad.append("%s: %s" % (name[:60], ", ".join(problems)))
    if ref["gemm_flops_agree"] != ref["gemm_checked"]:  # only traces recorded with_flops carry torch's count
        bad.append("torch.profiler's GEMM FLOPs: %d of %d agree" % (ref["gemm_flops_agree"], ref["gemm_checked"]))
    estimated = sum(g["estimated_calls"] for g in got["groups"])
    print("%s: %d kernel names, %d estimated calls, %d GEMMs as torch counts them; %s" % (
        os.path.basename(trace), len(groups), estimated, ref["gemm_checked"],
        "equal" if not bad else "DIFFERENT:\n  " + "\n  ".join(bad[:20])))
    failed |= bool(bad) or estimated == 0
sys.exit(1 if failed else 0)
