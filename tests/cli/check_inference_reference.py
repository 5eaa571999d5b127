"""`warpscope-cli inference --json --steps` of torch.profiler traces against tests/core/reference_inference.py,
the independent cut at the LM head from the trace's own events: the same forwards, phases and head
ends, and the same time to first token and per output token (within 1 us: Kineto's microseconds).

  python3 check_inference_reference.py WARPSCOPE_CLI TRACE...
"""
import json, os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
reference = os.path.join(here, "..", "core", "reference_inference.py")
cli = sys.argv[1]
failed = False


def close(a, b):
    return len(a) == len(b) and all(abs(x - y) <= 1000 for x, y in zip(a, b))


for trace in sys.argv[2:]:
    ref = json.loads(subprocess.run([sys.executable, reference, trace], check=True, capture_output=True, text=True).stdout)
    got = json.loads(subprocess.run([cli, "inference", trace, "--json", "--steps"], check=True, capture_output=True,
                                    text=True).stdout)
    steps = got.get("steps", [])
    checks = {
        "detected": ref["detected"] == got["detected"],
        "forwards": ref.get("forwards", 0) == len(steps),
        "phases": ref.get("phases", []) == [s["phase"] for s in steps],
        "ends": close(ref.get("ends", []), [s["end_ns"] for s in steps]),
        "ttft": close(ref.get("ttft_ns", []), [s["end_ns"] - s["start_ns"] for s in steps if s["phase"] == "prefill"]),
        "tpot": close(ref.get("time_per_token_ns", []), [s["latency_ns"] for s in steps[1:] if s["phase"] == "decode"]),
        "vocabulary": ref.get("vocabulary", 0) == got["vocabulary"],
    }
    bad = [k for k, ok in checks.items() if not ok]
    print("%s: %d forwards, %s" % (os.path.basename(trace), len(steps), "equal" if not bad else "DIFFERENT: " + ", ".join(bad)))
    failed |= bool(bad) or not ref["detected"]
sys.exit(1 if failed else 0)
