"""Independent reference for core/analysis/inference_steps.h on a torch.profiler (Kineto) trace recorded
with record_shapes: the forwards cut at the LM head, their phases, time to first token and time per
output token, from the trace's own events (no Warpscope code).

  python3 reference_inference.py TRACE.json[.gz]   ->  one JSON object on stdout

A kernel's operator is the innermost GEMM or attention cpu_op, on the thread of the runtime or driver
call that launched it, enclosing that call (joined by the correlation id). The LM head is the GEMM operator whose output
width N is the widest of all (>= 1000), provided another GEMM width is called twice or more between
two of its calls (the layers): its kernels' last end closes a forward. A forward holds the
kernels of the head's device that start after the previous head's end and before its own head's
end. Its phase: prefill when its attention operator's query length (q [B, H, T, D]) exceeds 1. A
request opens at each prefill, starting at the first kernel after the longest idle gap of 100 us or
more before the forward's first GEMM kernel. Times in ns, from Kineto's microseconds rounded, plus the
trace's baseTimeNanoseconds.
"""
import bisect, gzip, json, sys

GEMM = {"aten::mm", "aten::addmm", "aten::linear", "aten::matmul", "aten::_scaled_mm", "aten::_addmm_activation"}


def ns(us):
    return int(round(float(us) * 1000))


def dims(op):
    text = (op.get("args") or {}).get("Input Dims")
    return text if isinstance(text, list) else []


def gemm_n(op):
    d, name = dims(op), op["name"]
    try:
        if name in ("aten::mm", "aten::matmul", "aten::_scaled_mm"):
            return d[1][1] if len(d[1]) == 2 else 0
        if name in ("aten::addmm", "aten::_addmm_activation"):
            return d[2][1] if len(d[2]) == 2 else 0
        if name == "aten::linear":
            return d[1][0] if len(d[1]) == 2 else 0
    except (IndexError, TypeError):
        pass
    return 0


def gemm_m(op):
    d, name = dims(op), op["name"]
    try:
        a = d[1] if name in ("aten::addmm", "aten::_addmm_activation") else d[0]
        m = 1
        for x in a[:-1]:
            m *= x
        return m if len(a) >= 2 else 0
    except (IndexError, TypeError):
        return 0


def attention_query(op):
    name, d = op["name"], dims(op)
    if len(d) < 2 or len(d[0]) != 4:
        return None
    if "_flash_attention_forward" in name or "_efficient_attention_forward" in name:
        return d[0][0], d[0][1], d[1][1]
    if "scaled_dot_product" in name or "cudnn_attention" in name:
        return d[0][0], d[0][2], d[1][2]
    return None


def main():
    path = sys.argv[1]
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    base = int(trace.get("baseTimeNanoseconds", 0))  # Kineto's epoch offset; Warpscope's times include it
    ops_by_tid, runtime, kernels = {}, {}, []
    for e in events:
        if e.get("ph") != "X":
            continue
        cat = e.get("cat")
        if cat == "cpu_op" and (e["name"] in GEMM or attention_query(e)):
            ops_by_tid.setdefault(e["tid"], []).append(e)
        elif cat in ("cuda_runtime", "cuda_driver") and "correlation" in (e.get("args") or {}):
            runtime[e["args"]["correlation"]] = e
        elif cat == "kernel":
            kernels.append(e)
    kernels.sort(key=lambda k: ns(k["ts"]))
    for tid in ops_by_tid:
        ops_by_tid[tid].sort(key=lambda o: ns(o["ts"]))
    starts = {tid: [ns(o["ts"]) for o in v] for tid, v in ops_by_tid.items()}

    def op_of(kernel):
        call = runtime.get((kernel.get("args") or {}).get("correlation"))
        if call is None or call["tid"] not in ops_by_tid:
            return None
        t, ops, best = ns(call["ts"]), ops_by_tid[call["tid"]], None
        # These operators nest a few deep at most (linear > matmul > mm): the last 16 starting before t.
        at = bisect.bisect_right(starts[call["tid"]], t)
        for op in ops[max(0, at - 16):at]:
            s = ns(op["ts"])
            if s <= t <= s + ns(op["dur"]) and (best is None or ns(op["dur"]) < ns(best["dur"])):
                best = op
        return best

    ops = [op_of(k) for k in kernels]
    widest = max([gemm_n(o) for o in ops if o and o["name"] in GEMM] + [0])
    if widest < 1000:
        print(json.dumps({"detected": False}))
        return
    heads = {}  # id(op) -> [start, end, device]
    for k, o in zip(kernels, ops):
        if o and o["name"] in GEMM and gemm_n(o) == widest:
            h = heads.setdefault(id(o), [ns(k["ts"]), 0, k["args"].get("device")])
            h[1] = max(h[1], ns(k["ts"]) + ns(k["dur"]))
    heads = sorted(heads.values())
    # Between two heads run the layers: another GEMM width is called twice or more (in >= 90 % of the
    # intervals); else the widest GEMM is a layer's, of a model without an LM head.
    calls = sorted({(ns(k["ts"]), id(o), gemm_n(o)) for k, o in zip(kernels, ops)
                    if o and o["name"] in GEMM and 0 < gemm_n(o) != widest}, key=lambda c: c[0])
    first_of_call = {}
    for start, op, n in calls:
        first_of_call.setdefault(op, (start, n))
    calls = sorted(first_of_call.values())
    passing = 0
    for a, b in zip(heads, heads[1:]):
        widths = [n for start, n in calls if a[0] < start < b[0]]
        passing += any(widths.count(n) >= 2 for n in set(widths))
    if len(heads) < 2 or passing * 10 < (len(heads) - 1) * 9:
        print(json.dumps({"detected": False}))
        return
    device = max(set(h[2] for h in heads), key=[h[2] for h in heads].count)
    heads = [h for h in heads if h[2] == device]
    rows = [(ns(k["ts"]), ns(k["dur"]), o) for k, o in zip(kernels, ops) if k["args"].get("device") == device]
    steps, i, previous_end = [], 0, None
    for start, end, _ in heads:
        chosen = []
        while i < len(rows) and rows[i][0] < end:
            if previous_end is None or rows[i][0] + rows[i][1] > previous_end:
                chosen.append(rows[i])
            i += 1
        query, start_row, reach, longest, gemm_seen = 0, 0, None, 100_000 - 1, False
        for j, (s, d, o) in enumerate(chosen):
            if not gemm_seen and reach is not None and s - reach > longest:
                longest, start_row = s - reach, j
            reach = s + d if reach is None else max(reach, s + d)
            gemm_seen |= bool(o and o["name"] in GEMM)
            a = attention_query(o) if o else None
            if a:
                query = max(query, a[1])
        steps.append({"phase": "prefill" if query > 1 else "decode", "end": end,
                      "start": chosen[start_row][0] if chosen else start})
        previous_end = end
    ttft, tpot = [], []
    for n, s in enumerate(steps):
        if s["phase"] == "prefill":
            ttft.append(s["end"] - s["start"])
        elif n > 0:
            tpot.append(s["end"] - steps[n - 1]["end"])
    print(json.dumps({"detected": True, "vocabulary": widest, "forwards": len(steps),
                      "phases": [s["phase"] for s in steps], "ends": [base + s["end"] for s in steps],
                      "ttft_ns": ttft, "time_per_token_ns": tpot}))


if __name__ == "__main__":
    main()
