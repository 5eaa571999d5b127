"""Independent reference for core/analysis/roofline.h on a torch.profiler (Kineto) trace recorded with
record_shapes: per kernel name, the calls, the FLOPs and bytes estimated from the launching operator's
input shapes and dtypes, and the bound verdict against the GPU's datasheet peaks (no Warpscope code).

  python3 reference_roofline.py TRACE.json[.gz]   ->  one JSON object on stdout

A kernel's operator is the innermost cpu_op, on the thread of the runtime call that launched it (joined
by the correlation id), enclosing that call. An operator's estimate goes to its longest kernel. The
formulas, from their definitions:
  - GEMM (mm, bmm, matmul, addmm, baddbmm, linear): 2*M*N*K*batch FLOPs; bytes: A, B and C (and the
    bias) once each;
  - scaled dot-product attention (SDPA, cuDNN [B,H,L,D], flash/efficient [B,L,H,D]): 2*B*H*Lq*Lk*(Dqk+Dv)
    FLOPs (twice in backward); bytes: q, k, v and the output [B,H,Lq,Dv];
  - element-wise: one FLOP per element of the largest input; bytes: the inputs and that output;
  - reductions: one FLOP per input element, bytes the input; normalizations/softmax: five FLOPs per
    element, bytes twice the input plus the other tensors;
  - copies (copy_: every tensor; clone/_to_copy/contiguous: twice the input), fill_/zero_ (the tensor),
    embedding (twice the gathered rows).
Bound: the longer of FLOPs at the compute peak (Tensor Cores: the dense 16-bit peak, TF32 for fp32 operators;
else FP32) and bytes
at HBM bandwidth; under 10 % of the kernel's time is latency, else compute or memory, whichever is longer;
a kernel without an estimate is latency under 5 us. The trace's own "flops" argument (with_flops) is
compared for GEMMs as a third opinion: "gemm_flops_agree".
"""
import bisect, gzip, json, sys

# Datasheet peaks (dense, NVIDIA's datasheets with their sparse figures halved): H200 SXM, H100 SXM5,
# V100 SXM2 (no TF32: its FP32 GEMMs run on CUDA cores).
PEAKS = {"NVIDIA H200": {"fp16": 989.5e12, "tf32": 494.5e12, "fp32": 67e12, "bw": 4800e9},
         "NVIDIA H100 80GB HBM3": {"fp16": 989.5e12, "tf32": 494.5e12, "fp32": 67e12, "bw": 3350e9},
         "Tesla V100-SXM2-32GB": {"fp16": 125e12, "tf32": 15.7e12, "fp32": 15.7e12, "bw": 900e9},
         # HGX B200's datasheet divided by its 8 GPUs; it gives no vector FP32 (0: no compute roof).
         "NVIDIA B200": {"fp16": 2250e12, "tf32": 1125e12, "fp32": 0, "bw": 8000e9},
         # AMD's MI300X datasheet, dense matrix figures.
         "AMD Instinct MI300X": {"fp16": 1307.4e12, "tf32": 653.7e12, "fp32": 163.4e12, "bw": 5300e9}}
SIZE = {"float": 4, "double": 8, "c10::Half": 2, "c10::BFloat16": 2, "int": 4, "long int": 8, "bool": 1,
        "unsigned char": 1, "signed char": 1, "short int": 2, "c10::Float8_e4m3fn": 1, "c10::Float8_e5m2": 1}
ELEMENTWISE = set("add sub mul div neg abs exp log sqrt rsqrt pow reciprocal relu gelu silu sigmoid tanh hardtanh "
                  "leaky_relu elu clamp clamp_min clamp_max where masked_fill threshold_backward gelu_backward "
                  "silu_backward sigmoid_backward tanh_backward addcmul addcdiv lerp maximum".split())
REDUCTION = set("sum mean amax amin max min argmax argmin var std var_mean std_mean norm linalg_vector_norm prod "
                "all any logsumexp cumsum".split())
NORMALIZATION = set("softmax _softmax log_softmax _log_softmax _softmax_backward_data _log_softmax_backward_data "
                    "layer_norm native_layer_norm rms_norm _fused_rms_norm group_norm native_group_norm batch_norm "
                    "native_batch_norm _batch_norm_impl_index".split())
TENSOR_CORE_MARKS = ["hmma", "imma", "wgmma", "tensorop", "xmma", "nvjet", "884", "1688", "16816", "16832", "mfma",
                     "wmma", "xdlops", "_xdl_"]


def ns(us):
    return int(round(float(us) * 1000))


def prod(v):
    p = 1
    for x in v:
        p *= x
    return p


def base_name(name):
    if name.startswith("aten::"):
        name = name[6:]
    if name.endswith("_") and not name.startswith("_"):
        name = name[:-1]
    return name


def cost(op):
    """(flops, bytes) of one operator call, or None."""
    args = op.get("args") or {}
    dims, types = args.get("Input Dims") or [], args.get("Input type") or []
    size = lambda i: SIZE.get(types[i], 0) if i < len(types) else 0
    tensor = lambda i: i < len(dims) and isinstance(dims[i], list) and dims[i] and all(isinstance(x, int) for x in dims[i])
    b = base_name(op["name"])

    def mm(a, w, extra=0):
        if not (tensor(a) and tensor(w)) or len(dims[a]) < 2 or len(dims[w]) < 2 or size(a) == 0:
            return None
        x, y = dims[a], dims[w]
        if x[-1] != y[-2]:
            return None
        batch = max(prod(x[:-2]), prod(y[:-2]))
        m, k, n = x[-2], x[-1], y[-1]
        return 2 * batch * m * k * n, (batch * (m * k + k * n + m * n) + extra) * size(a)

    if b in ("mm", "matmul", "bmm"):
        return mm(0, 1)
    if b in ("addmm", "baddbmm", "addbmm", "_addmm_activation"):
        return mm(1, 2, prod(dims[0]) if tensor(0) else 0)
    if b == "linear":
        if not (tensor(0) and tensor(1)) or len(dims[1]) != 2 or size(0) == 0 or dims[0][-1] != dims[1][1]:
            return None
        rows, (n, k) = prod(dims[0][:-1]), dims[1]
        bias = prod(dims[2]) if tensor(2) else 0
        return 2 * rows * k * n, (rows * k + k * n + rows * n + bias) * size(0)
    conv = conv_cost(b, dims, args.get("Concrete Inputs") or [], size(1 if b == "convolution_backward" else 0))
    if conv is not False:
        return conv
    if "scaled_dot_product" in b or "_cudnn_attention_" in b or "_flash_attention_" in b or "_efficient_attention_" in b:
        bwd = "backward" in b
        q = 1 if bwd else 0
        if not all(tensor(q + i) and len(dims[q + i]) == 4 for i in range(3)) or size(q) == 0:
            return None
        qd, kd, vd = dims[q], dims[q + 1], dims[q + 2]
        l, h = (1, 2) if b.startswith(("_flash_attention_", "_efficient_attention_")) else (2, 1)
        f = 2 * qd[0] * qd[h] * qd[l] * kd[l] * (qd[3] + vd[3])
        out = qd[0] * qd[h] * qd[l] * vd[3]
        by = (prod(qd) + prod(kd) + prod(vd) + out) * size(q)
        return (2 * f, 2 * by) if bwd else (f, by)
    tensors = [(prod(dims[i]), size(i)) for i in range(len(dims)) if tensor(i) and size(i) > 0]
    if not tensors:
        return None
    if b == "copy":
        return 0, sum(n * s for n, s in tensors)
    if b in ("clone", "contiguous", "_to_copy", "to", "_copy_from", "_copy_from_and_resize"):
        return 0, 2 * tensors[0][0] * tensors[0][1]
    if b in ("fill", "zero"):
        return 0, tensors[0][0] * tensors[0][1]
    if b == "embedding" and tensor(0) and len(dims[0]) == 2 and len(dims) >= 2 and isinstance(dims[1], list):
        return 0, 2 * prod(dims[1]) * dims[0][1] * tensors[0][1]
    if b in REDUCTION:
        return tensors[0][0], tensors[0][0] * tensors[0][1]
    if b in NORMALIZATION:
        return 5 * tensors[0][0], 2 * tensors[0][0] * tensors[0][1] + sum(n * s for n, s in tensors[1:])
    if b in ELEMENTWISE:
        out = max(n for n, _ in tensors)
        return out, sum(n * s for n, s in tensors) + out * tensors[0][1]
    return None


# ATen's argument positions: (stride, padding, dilation, transposed, groups, output_mask); None: absent.
CONV_ARGS = {"convolution": (3, 4, 5, 6, 8, None), "_convolution": (3, 4, 5, 6, 8, None),
             "conv1d": (3, 4, 5, None, 6, None), "conv2d": (3, 4, 5, None, 6, None), "conv3d": (3, 4, 5, None, 6, None),
             "cudnn_convolution": (3, 2, 4, None, 5, None), "convolution_backward": (4, 5, 6, 7, 9, 10)}


def conv_cost(b, dims, concrete, es):
    """(flops, bytes) of a convolution, None when its shapes do not say, False when it is not one."""
    if b not in CONV_ARGS:
        return False
    stride_at, pad_at, dil_at, transposed_at, _, mask_at = CONV_ARGS[b]
    backward = b == "convolution_backward"
    x, w = (dims[1], dims[2]) if backward else (dims[0], dims[1]) if len(dims) > 1 else ([], [])
    if len(dims) < (3 if backward else 2) or not isinstance(x, list) or not isinstance(w, list) or len(x) < 3 \
            or len(w) != len(x) or es == 0:
        return None
    if transposed_at is not None and transposed_at < len(concrete) and concrete[transposed_at] == "True":
        return None
    spatial = len(x) - 2
    ints = lambda i, default: ([int(v) for v in concrete[i].strip("[]").split(",") if v.strip()]
                               if i is not None and i < len(concrete) and concrete[i] else default)
    if backward:
        out = dims[0][2:]
    else:
        if pad_at >= len(concrete):
            return None
        expand = lambda v: v * spatial if len(v) == 1 else v
        stride, pad, dil = expand(ints(stride_at, [1])), expand(ints(pad_at, [])), expand(ints(dil_at, [1]))
        if len(pad) != spatial:
            return None
        out = [(x[2 + i] + 2 * pad[i] - dil[i] * (w[2 + i] - 1) - 1) // max(1, stride[i]) + 1 for i in range(spatial)]
    passes = 1
    if backward:
        passes = 2
        if mask_at is not None and mask_at < len(concrete):
            flags = [t for t in concrete[mask_at].replace("[", " ").replace("]", " ").replace(",", " ").split()]
            passes = sum(1 for t in flags[:2] if t == "True")
    outputs = x[0] * w[0] * prod(out)
    return passes * 2 * outputs * prod(w[1:]), (prod(x) + prod(w) + outputs) * es


def bound(peaks, flops, nbytes, dur, tensor_cores, fp32):
    if dur <= 0:
        return ""
    if flops is None:
        return "latency" if dur < 5000 else ""
    compute = peaks["tf32" if fp32 else "fp16"] if tensor_cores else peaks["fp32"]
    tc, tm = (flops / compute if compute else 0), nbytes / peaks["bw"]
    if tc == 0 and tm == 0:
        return "latency"
    if max(tc, tm) < 0.1 * dur * 1e-9:
        return "latency"
    return "compute" if tc >= tm else "memory"


def main():
    path = sys.argv[1]
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        trace = json.load(f)
    devices = {d["id"]: d.get("name", "") for d in trace.get("deviceProperties", [])}
    ops_by_tid, runtime, kernels = {}, {}, []
    for e in trace["traceEvents"]:
        if e.get("ph") != "X":
            continue
        cat = e.get("cat")
        if cat == "cpu_op":
            ops_by_tid.setdefault(e["tid"], []).append(e)
        elif cat in ("cuda_runtime", "cuda_driver") and "correlation" in (e.get("args") or {}):
            runtime[e["args"]["correlation"]] = e
        elif cat == "kernel":
            kernels.append(e)
    for tid in ops_by_tid:
        ops_by_tid[tid].sort(key=lambda o: ns(o["ts"]))
    starts = {tid: [ns(o["ts"]) for o in v] for tid, v in ops_by_tid.items()}
    longest = {tid: 0 for tid in ops_by_tid}
    for tid, v in ops_by_tid.items():
        longest[tid] = max([ns(o["dur"]) for o in v] + [0])

    def op_of(kernel):
        call = runtime.get((kernel.get("args") or {}).get("correlation"))
        if call is None or call["tid"] not in ops_by_tid:
            return None
        t, ops, best = ns(call["ts"]), ops_by_tid[call["tid"]], None
        at = bisect.bisect_right(starts[call["tid"]], t)
        i = at - 1
        while i >= 0 and ns(ops[i]["ts"]) >= t - longest[call["tid"]]:
            o = ops[i]
            if ns(o["ts"]) <= t <= ns(o["ts"]) + ns(o["dur"]) and (best is None or ns(o["ts"]) > ns(best["ts"]) or
                                                                   (ns(o["ts"]) == ns(best["ts"]) and ns(o["dur"]) < ns(best["dur"]))):
                best = o
            i -= 1
        return best

    ops = [op_of(k) for k in kernels]
    longest_kernel = {}
    for i, (k, o) in enumerate(zip(kernels, ops)):
        if o is not None and (id(o) not in longest_kernel or ns(k["dur"]) > ns(kernels[longest_kernel[id(o)]]["dur"])):
            longest_kernel[id(o)] = i
    main_device = max(set(k["args"].get("device") for k in kernels),
                      key=lambda d: sum(ns(k["dur"]) for k in kernels if k["args"].get("device") == d))
    # By the longest table name the device's starts with ("AMD Instinct MI300X VF" is a virtual MI300X).
    name = devices.get(main_device, "")
    peaks = next((PEAKS[k] for k in sorted(PEAKS, key=len, reverse=True) if name.startswith(k)), None)
    groups, gemm_checked, gemm_agree = {}, 0, 0
    for i, (k, o) in enumerate(zip(kernels, ops)):
        if k["args"].get("device") != main_device:
            continue
        g = groups.setdefault(k["name"], {"calls": 0, "estimated_calls": 0, "flops": 0, "bytes": 0, "estimated_ns": 0,
                                           "total_ns": 0, "by_bound": {}})
        dur = ns(k["dur"])
        g["calls"] += 1
        g["total_ns"] += dur
        c = cost(o) if o is not None and longest_kernel.get(id(o)) == i else None
        if c is not None:
            g["estimated_calls"] += 1
            g["flops"] += c[0]
            g["bytes"] += c[1]
            g["estimated_ns"] += dur
            if o["name"] in ("aten::mm", "aten::addmm", "aten::bmm") and "flops" in (o.get("args") or {}):
                gemm_checked += 1
                gemm_agree += abs(o["args"]["flops"] - c[0]) <= 1e-6 * max(1, c[0])
        if peaks:
            tc = any(m in k["name"].lower() for m in TENSOR_CORE_MARKS)
            # fp32 tensors on Tensor Cores run as TF32: the operator's first input's dtype says.
            fp32 = c is not None and ((o.get("args") or {}).get("Input type") or [""])[0] == "float"
            v = bound(peaks, c[0] if c else None, c[1] if c else None, dur, tc, fp32)
            g["by_bound"][v] = g["by_bound"].get(v, 0) + 1
    print(json.dumps({"device": devices.get(main_device, ""), "groups": groups, "gemm_checked": gemm_checked,
                      "gemm_flops_agree": gemm_agree}))


if __name__ == "__main__":
    main()
