#!/usr/bin/env python3
"""Synthetic multi-rank PyTorch profiler (Kineto) traces of one distributed training job.

Purpose
    Test and benchmark input for Warpscope's Distributed view: one trace file per rank, written the
    way `torch.profiler.tensorboard_trace_handler` names and lays them out, with NCCL collectives
    that are consistent across the ranks and, by default, one straggler rank that the others wait on.

Usage
    python3 scripts/gen_kineto_job.py --ranks N --size SIZE [--straggler R] [--straggler-delay-us D]
                                      [--steps S] [--seed X] [--layers L] [--all-to-all] [--gzip] OUTDIR

    --ranks N               number of ranks (files), default 8
    --size SIZE             target size of each file, suffixes K, M, G (powers of 1024), default 10M;
                            with --gzip it is the size of the uncompressed JSON document
    --steps S               number of ProfilerStep#k; by default derived from --size (at least 1)
    --straggler R           rank that arrives late at every collective; default N-1, -1 for none
    --straggler-delay-us D  extra GPU compute the straggler runs before each collective, default 2000
    --seed X                random seed; the same arguments give byte-identical files
    --layers L              model layers per step (forward 2 kernels, backward 5 kernels each), default 24
    --all-to-all            add an all_to_all collective to the forward pass of every step
    --gzip                  write OUTDIR/worker{r}.{span}.pt.trace.json.gz instead of .pt.trace.json

    One line per file is printed: path, bytes written, number of trace events.

What a file holds (modern Kineto layout, times relative to baseTimeNanoseconds, `<int>.<3 digits>` us)
    schemaVersion, deviceProperties (one H100: 132 SMs, totalGlobalMem), distributedInfo (nccl, rank,
    world_size, one default process group "0" with all ranks, nccl_version), record_shapes,
    baseTimeNanoseconds, traceEvents, traceName (last key).
    Host events (pid = a per-rank host pid, tid = its main thread): per step a ProfilerStep#k
    user_annotation around a DataLoader annotation, the forward and backward cpu_ops (aten::linear >
    aten::t / aten::addmm, aten::relu, autograd::engine::evaluate_function: ... > aten::mm, aten::sum,
    aten::threshold_backward, aten::add_), an Optimizer.step annotation and a final aten::item whose
    cudaMemcpyAsync + cudaStreamSynchronize wait for the GPU. Every kernel is launched by a
    cudaLaunchKernel cuda_runtime slice inside its op (same `correlation`, `External id` of the op),
    linked by an ac2g flow (ph "s" on the runtime, ph "f" bp "e" on the GPU activity).
    GPU events (pid 0 = device 0): compute kernels on stream 7 (tid 7), NCCL kernels on stream 13, the
    step's DtoH copy on stream 7, with Kineto's kernel args (device, stream, correlation, External id,
    registers, shared memory, blocks/warps per SM, grid, block, est. achieved occupancy %).
    Collectives per step: all_gather (forward, the forward waits for it), optionally all_to_all
    (forward, waited for), and in the backward all_reduce, reduce_scatter, all_reduce, all_reduce
    (overlapping the backward compute; the optimizer waits for the last one). Each is a
    `record_param_comms` cpu_op (Collective name, dtype "Float", In/Out msg nelems, Group size, Process
    Group Name "0", Process Group Description "default_pg", Seq, ...) enclosing a cudaStreamWaitEvent
    and a `nccl:<collective>` user_annotation (Input Dims [[nelems]], Input type ["float"]) that
    encloses the cudaLaunchKernel of the NCCL kernel; the kernel carries the record_param_comms'
    External id and the collective args, as Kineto copies them.

Timing model
    All ranks are simulated together on one clock. A rank's NCCL kernel starts when its host launched
    it, its communication stream is free and its compute stream has produced the data (stream wait);
    the k-th collective ends on every rank at the same moment: the latest start over the ranks plus a
    transfer time (bytes on the wire / 180 GB/s bus bandwidth + latency), plus < 1.5 us per-rank
    noise. Ranks that arrive early therefore have longer NCCL kernels (they wait). The straggler runs
    an extra aten::mm of --straggler-delay-us on its compute stream before each collective, so it
    arrives last. The step ends with a synchronisation, which realigns the ranks. Every rank's
    recorded times carry a constant clock jitter below 20 us (baseTimeNanoseconds is the same).

    Files are written step by step, all ranks at once (one open file per rank; the open-file limit
    is raised to the hard limit when N needs it). Generation runs at several tens of MB/s.
"""
import argparse
import gzip
import os
import random
import sys
import time

BASE_NS = 1_761_000_000_000_000_000      # baseTimeNanoseconds of every rank
SPAN = 1_761_000_000_117_000_000         # the <span> part of tensorboard_trace_handler's file names
HOST_PID0 = 2_317_400                    # rank r's host pid = HOST_PID0 + 37 r (main tid = pid)
DEVICE = 0
COMPUTE_STREAM = 7
COMM_STREAM = 13
NUM_SMS = 132
BUS_BW = 180.0                           # bytes per ns (GB/s) of the simulated NVLink bus
START_NS = 400_000                       # first step starts this long after the profiler window

# Kernel kinds: name, mean duration (ns), grid x, block x, registers/thread, shared mem (B), est. occ %.
KERNELS = {
    "gemm_fwd": ("sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x256x32_warpgroupsize2x1x1_"
                 "execute_segment_k_off_kernel__5x_cublas", 88_000, 264, 384, 168, 197_632, 19),
    "relu": ("void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
             "launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::"
             "ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::"
             "{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::(anonymous namespace)::"
             "launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::"
             "ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::"
             "{lambda(float)#1}, std::array<char*, 2ul>)", 9_000, 2048, 128, 24, 0, 100),
    "gemm_dgrad": ("sm90_xmma_gemm_f32f32_tf32f32_f32_nt_n_tilesize128x128x32_warpgroupsize1x1x1_"
                   "execute_segment_k_off_kernel__5x_cublas", 81_000, 528, 256, 168, 131_072, 12),
    "gemm_wgrad": ("sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize64x128x32_warpgroupsize1x1x1_"
                   "splitK_kernel__5x_cublas", 97_000, 396, 256, 154, 98_304, 12),
    "reduce": ("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::"
               "func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()"
               "(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4, 4> >"
               "(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor"
               "<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
               "unsigned int, float, 4, 4>)", 6_500, 132, 512, 32, 16, 25),
    "relu_bwd": ("void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
                 "threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::{lambda(float, "
                 "float)#1}, std::array<char*, 3ul> >(int, at::native::(anonymous namespace)::"
                 "threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::{lambda(float, "
                 "float)#1}, std::array<char*, 3ul>)", 11_000, 2048, 128, 26, 0, 100),
    "add": ("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
            "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)",
            7_500, 1024, 128, 28, 0, 100),
    "foreach": ("void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::"
                "(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::"
                "BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float>(at::native::"
                "(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::"
                "BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float)", 42_000, 320, 512, 40,
                0, 50),
    "straggle": ("sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize256x128x32_warpgroupsize2x1x1_"
                 "execute_segment_k_off_kernel__5x_cublas", 2_000_000, 264, 384, 168, 197_632, 19),
}

# Host op trees: (name, category, kernel kind or None, shape args or "", children).
SH_ADDMM = (', "Input Dims": [[1024], [256, 1024], [1024, 1024], [], []], '
            '"Input type": ["float", "float", "float", "Scalar", "Scalar"]')
SH_ACT = ', "Input Dims": [[256, 1024]], "Input type": ["float"]'
SH_MM = ', "Input Dims": [[256, 1024], [1024, 1024]], "Input type": ["float", "float"]'
SH_ADD = ', "Input Dims": [[1024, 1024], [1024, 1024], []], "Input type": ["float", "float", "Scalar"]'
FWD_LAYER = (
    ("aten::linear", "cpu_op", None, SH_ACT, (
        ("aten::t", "cpu_op", None, "", (("aten::transpose", "cpu_op", None, "", (
            ("aten::as_strided", "cpu_op", None, "", ()),)),)),
        ("aten::addmm", "cpu_op", "gemm_fwd", SH_ADDMM, ()))),
    ("aten::relu", "cpu_op", None, SH_ACT, (("aten::clamp_min", "cpu_op", "relu", SH_ACT, ()),)),
)
BWD_LAYER = (
    ("autograd::engine::evaluate_function: ReluBackward0", "cpu_op", None, "", (
        ("ReluBackward0", "cpu_op", None, "", (("aten::threshold_backward", "cpu_op", "relu_bwd", SH_ACT, ()),)),)),
    ("autograd::engine::evaluate_function: AddmmBackward0", "cpu_op", None, "", (
        ("AddmmBackward0", "cpu_op", None, "", (
            ("aten::t", "cpu_op", None, "", ()),
            ("aten::mm", "cpu_op", "gemm_dgrad", SH_MM, ()),
            ("aten::mm", "cpu_op", "gemm_wgrad", SH_MM, ()),
            ("aten::sum", "cpu_op", "reduce", SH_ACT, ()))),)),
    ("autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", "cpu_op", None, "", (
        ("torch::autograd::AccumulateGrad", "cpu_op", None, "", (("aten::add_", "cpu_op", "add", SH_ADD, ()),)),)),
)
OPTIMIZER = (
    ("Optimizer.step#SGD.step", "user_annotation", None, "", (
        ("aten::_foreach_add_", "cpu_op", "foreach", "", ()),
        ("aten::_foreach_add_", "cpu_op", "foreach", "", ()))),
)
DATALOADER = (
    ("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "user_annotation", None, "", (
        ("aten::stack", "cpu_op", None, "", (("aten::cat", "cpu_op", None, "", ()),)),)),
)
STRAGGLE = (("aten::mm", "cpu_op", "straggle", SH_MM, ()),)

# Collectives: kind, nccl annotation, record_param_comms "Collective name", kernel name, input
# nelems (floats), whether the compute stream waits for it.
COLL = {
    "all_gather": ("nccl:_all_gather_base", "_allgather_base",
                   "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 1_048_576, True),
    "all_to_all": ("nccl:all_to_all", "all_to_all",
                   "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)", 524_288, True),
    "all_reduce": ("nccl:all_reduce", "allreduce",
                   "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", None, False),
    "reduce_scatter": ("nccl:_reduce_scatter_base", "_reduce_scatter_base",
                       "ncclDevKernel_ReduceScatter_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                       8_388_608, False),
}
ALLREDUCE_BUCKETS = (6_553_600, 4_194_304, 2_097_152)


def parse_size(text):
    t = text.strip().upper().rstrip("B")
    scale = 1
    if t and t[-1] in "KMG":
        scale = 1 << (10 * ("KMG".index(t[-1]) + 1))
        t = t[:-1]
    return int(float(t) * scale)


def wire_ns(kind, in_bytes, n):
    """Transfer time of one collective: bytes each rank moves over the bus, plus latency."""
    if n <= 1:
        return 6_000
    if kind == "all_reduce":
        moved = 2 * (n - 1) / n * in_bytes
    elif kind == "all_gather":
        moved = (n - 1) * in_bytes          # receives the other ranks' shards
    else:                                   # reduce_scatter, all_to_all
        moved = (n - 1) / n * in_bytes
    return int(12_000 + moved / BUS_BW)


def kernel_static(kind):
    _, _, grid, block, regs, smem, occ = KERNELS[kind]
    bps = grid / NUM_SMS
    return ('"registers per thread": %d,      "shared memory": %d,      "blocks per SM": %.6f,      '
            '"warps per SM": %.6f,      "grid": [%d, 1, 1],      "block": [%d, 1, 1],      '
            '"est. achieved occupancy %%": %d' % (regs, smem, bps, bps * block / 32, grid, block, occ))


KSTATIC = {k: kernel_static(k) for k in KERNELS}
NCCL_STATIC = ('"registers per thread": 96,      "shared memory": 50448,      "blocks per SM": %.6f,      '
               '"warps per SM": %.6f,      "grid": [16, 1, 1],      "block": [512, 1, 1],      '
               '"est. achieved occupancy %%": 3' % (16 / NUM_SMS, 16 / NUM_SMS * 512 / 32))


def us(t):
    return "%d.%03d" % divmod(t, 1000)


class Rank:
    """One rank's simulated host and GPU timelines and the text of its events."""

    def __init__(self, r, n, seed, clock_ns, out):
        self.r, self.n = r, n
        self.rng = random.Random(seed * 1_000_003 + r * 7_919 + 17)
        self.off = clock_ns                  # recorded time = simulated time + off
        self.pid = HOST_PID0 + 37 * r
        self.tid = self.pid
        self.t = 0                           # host cursor (ns)
        self.gfree = 0                       # compute stream busy until
        self.cfree = 0                       # communication stream busy until
        self.ext = 1                         # External id / Record function id counters
        self.evidx = 0
        self.corr = 81_000 + 5 * r
        self.out = out
        self.buf = []
        self.events = 0
        self.bytes = 0
        self.hostfmt = '"pid": %d, "tid": %d,\n    "ts": ' % (self.pid, self.tid)

    # -- event text ---------------------------------------------------------------------------
    def host_x(self, cat, name, a, b, args):
        self.buf.append('  {\n    "ph": "X", "cat": "%s", "name": "%s", %s%s, "dur": %s,\n    "args": {\n      %s\n'
                        '    }\n  },\n' % (cat, name, self.hostfmt, us(a + self.off), us(b - a), args))
        self.events += 1

    def gpu_x(self, cat, name, stream, a, b, args):
        self.buf.append('  {\n    "ph": "X", "cat": "%s", "name": "%s", "pid": %d, "tid": %d,\n    "ts": %s, '
                        '"dur": %s,\n    "args": {\n      %s\n    }\n  },\n'
                        % (cat, name, DEVICE, stream, us(a + self.off), us(b - a), args))
        self.events += 1

    def flow(self, corr, host_ts, stream, gpu_ts):
        self.buf.append('  {\n    "ph": "s", "id": %d, "pid": %d, "tid": %d, "ts": %s,\n    "cat": "ac2g", '
                        '"name": "ac2g"\n  },\n  {\n    "ph": "f", "id": %d, "pid": %d, "tid": %d, "ts": %s,\n'
                        '    "cat": "ac2g", "name": "ac2g", "bp": "e"\n  },\n'
                        % (corr, self.pid, self.tid, us(host_ts + self.off), corr, DEVICE, stream,
                           us(gpu_ts + self.off)))
        self.events += 2

    def runtime(self, name, cbid, ext, a, b, corr):
        self.host_x("cuda_runtime", name, a, b, '"External id": %d, "cbid": %d, "correlation": %d' % (ext, cbid, corr))

    def next_corr(self):
        self.corr += 1 + (self.rng.random() < 0.3)
        return self.corr

    def new_op(self):
        e = self.ext
        self.ext += 1
        self.evidx += 1
        return e

    def flush(self):
        text = "".join(self.buf)
        self.buf = []
        self.out.write(text)
        self.bytes += len(text)

    # -- simulation ---------------------------------------------------------------------------
    def launch(self, ext, kind, stream=COMPUTE_STREAM):
        """cudaLaunchKernel at the host cursor; the kernel runs when the stream is free."""
        rng = self.rng
        a = self.t
        b = a + 3_500 + rng.randrange(0, 3_000)
        corr = self.next_corr()
        self.runtime("cudaLaunchKernel", 211, ext, a, b, corr)
        name, mean = KERNELS[kind][0], KERNELS[kind][1]
        ks = max(a + 2_500 + rng.randrange(0, 1_500), self.gfree)
        ke = ks + int(mean * (0.95 + 0.1 * rng.random()))
        self.gpu_x("kernel", name, stream, ks, ke,
                   '"External id": %d,      "queued": 0, "device": %d, "context": 1,      "stream": %d, '
                   '"correlation": %d,      %s' % (ext, DEVICE, stream, corr, KSTATIC[kind]))
        self.flow(corr, a, stream, ks)
        self.gfree = ke + 1_000 + rng.randrange(0, 800)
        self.t = b

    def run(self, trees):
        rng = self.rng
        for name, cat, kind, shapes, children in trees:
            ext = self.new_op()
            rfid = ext
            a = self.t
            self.t += 1_200 + rng.randrange(0, 2_500)
            self.run(children)
            if kind is not None:
                self.launch(ext, kind)
            self.t += 900 + rng.randrange(0, 1_600)
            self.host_x(cat, name, a, self.t, '"External id": %d, "Record function id": %d, "Ev Idx": %d%s'
                        % (ext, rfid, self.evidx, shapes))
            self.t += 300 + rng.randrange(0, 900)

    def coll_host(self, kind, nelems, seq):
        """Host side of a collective up to its launch; returns what the kernel needs."""
        rng = self.rng
        annot, cname, kname, _, _ = COLL[kind]
        n = self.n
        out_n = nelems * n if kind == "all_gather" else (nelems // n if kind == "reduce_scatter" else nelems)
        rpc_ext = self.new_op()
        rpc_idx = self.evidx
        ann_ext = self.new_op()
        ann_idx = self.evidx
        coll_args = ('"Collective name": "%s",      "In msg nelems": %d,      "Out msg nelems": %d,      '
                     '"Group size": %d,      "dtype": "Float",      "In split size": "[]",      '
                     '"Out split size": "[]",      "Process Group Name": "0",      '
                     '"Process Group Description": "default_pg"' % (cname, nelems, out_n, n))
        t0 = self.t
        w0 = t0 + 2_000 + rng.randrange(0, 1_500)
        w1 = w0 + 1_500 + rng.randrange(0, 800)
        self.runtime("cudaStreamWaitEvent", 147, rpc_ext, w0, w1, self.next_corr())
        a0 = w1 + 4_000 + rng.randrange(0, 3_000)
        l0 = a0 + 7_000 + rng.randrange(0, 4_000)
        l1 = l0 + 8_000 + rng.randrange(0, 5_000)
        corr = self.next_corr()
        self.runtime("cudaLaunchKernel", 211, rpc_ext, l0, l1, corr)
        a1 = l1 + 3_000 + rng.randrange(0, 2_000)
        t1 = a1 + 3_000 + rng.randrange(0, 2_500)
        self.host_x("user_annotation", annot, a0, a1,
                    '"External id": %d, "Record function id": %d, "Ev Idx": %d, "Input Dims": [[%d]], '
                    '"Input type": ["float"]' % (ann_ext, ann_ext, ann_idx, nelems))
        self.host_x("cpu_op", "record_param_comms", t0, t1,
                    '"External id": %d, "Record function id": %d, "Ev Idx": %d, %s, "Global rank start": 0, '
                    '"Global rank stride": 1, "Rank": %d, "Seq": %d'
                    % (rpc_ext, rpc_ext, rpc_idx, coll_args, self.r, seq))
        self.t = t1 + 500 + rng.randrange(0, 1_000)
        start = max(l0 + 3_000 + rng.randrange(0, 2_000), self.cfree, self.gfree)
        return (start, rpc_ext, corr, l0, kname, coll_args, COLL[kind][4])

    def coll_gpu(self, pending, end):
        start, rpc_ext, corr, l0, kname, coll_args, blocking = pending
        self.gpu_x("kernel", kname, COMM_STREAM, start, end,
                   '"External id": %d,      "queued": 0, "device": %d, "context": 1,      "stream": %d, '
                   '"correlation": %d,      %s,      %s'
                   % (rpc_ext, DEVICE, COMM_STREAM, corr, NCCL_STATIC, coll_args))
        self.flow(corr, l0, COMM_STREAM, start)
        self.cfree = end + 1_500
        if blocking:
            self.gfree = max(self.gfree, self.cfree)

    def step_begin(self, gap):
        self.t += gap
        self.step_start = self.t
        self.t += 2_000 + self.rng.randrange(0, 2_000)
        self.run(DATALOADER)

    def step_end(self, label):
        rng = self.rng
        self.gfree = max(self.gfree, self.cfree)      # the optimizer waits for the last collective
        self.run(OPTIMIZER)
        # loss.item(): DtoH copy of 4 bytes, then the host waits for the stream.
        item = self.new_op()
        a = self.t
        inner = self.new_op()
        b = a + 1_500 + rng.randrange(0, 1_000)
        corr = self.next_corr()
        ca = max(b + 2_500, self.gfree)
        cb = ca + 1_400 + rng.randrange(0, 600)
        self.gpu_x("gpu_memcpy", "Memcpy DtoH (Device -> Pageable)", COMPUTE_STREAM, ca, cb,
                   '"External id": %d,      "device": %d, "context": 1,      "stream": %d, "correlation": %d,      '
                   '"bytes": 4, "memory bandwidth (GB/s)": %.6f' % (inner, DEVICE, COMPUTE_STREAM, corr, 4 / (cb - ca)))
        self.flow(corr, b, COMPUTE_STREAM, ca)
        r1 = max(b + 6_000, cb + 3_000 + rng.randrange(0, 2_000))
        self.runtime("cudaMemcpyAsync", 41, inner, b, r1, corr)
        s1 = r1 + 1_200 + rng.randrange(0, 600)
        self.runtime("cudaStreamSynchronize", 131, inner, r1 + 300, s1, self.next_corr())
        c = s1 + 1_000 + rng.randrange(0, 1_000)
        self.host_x("cpu_op", "aten::_local_scalar_dense", a + 800, c,
                    '"External id": %d, "Record function id": %d, "Ev Idx": %d, "Input Dims": [[]], '
                    '"Input type": ["float"]' % (inner, inner, self.evidx))
        self.t = c + 700 + rng.randrange(0, 800)
        self.host_x("cpu_op", "aten::item", a, self.t,
                    '"External id": %d, "Record function id": %d, "Ev Idx": %d, "Input Dims": [[]], '
                    '"Input type": ["float"]' % (item, item, self.evidx))
        self.t += 3_000 + rng.randrange(0, 3_000)
        step_ext = self.new_op()
        self.host_x("user_annotation", "ProfilerStep#%d" % label, self.step_start, self.t,
                    '"External id": %d, "Record function id": %d, "Ev Idx": %d' % (step_ext, step_ext, self.evidx))


def header(r, n):
    return ('{\n  "schemaVersion": 1,\n  "deviceProperties": [\n    {\n      "id": 0, "name": "NVIDIA H100 80GB HBM3", '
            '"totalGlobalMem": 84929347584,\n      "computeMajor": 9, "computeMinor": 0,\n      '
            '"maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,\n      "regsPerBlock": 65536, '
            '"warpSize": 32,\n      "sharedMemPerBlock": 49152, "numSms": %d\n    , "regsPerMultiprocessor": 65536, '
            '"sharedMemPerBlockOptin": 232448, "sharedMemPerMultiprocessor": 233472\n    }\n  ],\n'
            '  "distributedInfo": {"backend": "nccl", "rank": %d, "world_size": %d, "pg_count": 1, "pg_config": '
            '[{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl", "pg_size": %d, "ranks": [%s]}], '
            '"nccl_version": "2.21.5"},\n  "record_shapes": 1,\n  "displayTimeUnit": "ms",\n'
            '  "baseTimeNanoseconds": %d,\n  "traceEvents": [\n'
            % (NUM_SMS, r, n, n, ", ".join(map(str, range(n))), BASE_NS))


def metadata(rk, t0):
    ts = us(t0 + rk.off)
    m = ['  {\n    "name": "process_name", "ph": "M", "ts": %s, "pid": %d, "tid": 0,\n    "args": {\n      "name": '
         '"python3"\n    }\n  },\n' % (ts, rk.pid),
         '  {\n    "name": "process_labels", "ph": "M", "ts": %s, "pid": %d, "tid": 0,\n    "args": {\n      "labels": '
         '"CPU"\n    }\n  },\n' % (ts, rk.pid),
         '  {\n    "name": "process_sort_index", "ph": "M", "ts": %s, "pid": %d, "tid": 0,\n    "args": {\n      '
         '"sort_index": %d\n    }\n  },\n' % (ts, rk.pid, rk.pid)]
    for d in range(16):
        m.append('  {\n    "name": "process_name", "ph": "M", "ts": %s, "pid": %d, "tid": 0,\n    "args": {\n      '
                 '"name": "python3"\n    }\n  },\n' % (ts, d))
        m.append('  {\n    "name": "process_labels", "ph": "M", "ts": %s, "pid": %d, "tid": 0,\n    "args": {\n      '
                 '"labels": "GPU %d"\n    }\n  },\n' % (ts, d, d))
        m.append('  {\n    "name": "process_sort_index", "ph": "M", "ts": %s, "pid": %d, "tid": 0,\n    "args": {\n      '
                 '"sort_index": %d\n    }\n  },\n' % (ts, d, d + 5_000_000))
    for pid, tid, name in ((rk.pid, rk.tid, "thread %d (python3)" % rk.tid),
                           (DEVICE, COMPUTE_STREAM, "stream %d " % COMPUTE_STREAM),
                           (DEVICE, COMM_STREAM, "stream %d " % COMM_STREAM)):
        m.append('  {\n    "name": "thread_name", "ph": "M", "ts": %s, "pid": %d, "tid": %d,\n    "args": {\n      '
                 '"name": "%s"\n    }\n  },\n' % (ts, pid, tid, name))
        m.append('  {\n    "name": "thread_sort_index", "ph": "M", "ts": %s, "pid": %d, "tid": %d,\n    "args": {\n'
                 '      "sort_index": %d\n    }\n  },\n' % (ts, pid, tid, tid))
    rk.buf.extend(m)
    rk.events += len(m)


def trailer(rk, t0, t1, path):
    a, b = us(t0 + rk.off), us(t1 + rk.off)
    rk.buf.append('  {\n    "ph": "X", "cat": "Trace", "ts": %s, "dur": %s,\n    "pid": "Spans", "tid": '
                  '"PyTorch Profiler",\n    "name": "PyTorch Profiler (0)",\n    "args": {\n      "Op count": 0\n'
                  '    }\n  },\n  {\n    "name": "process_sort_index", "ph": "M", "ts": %s, "pid": "Spans", '
                  '"tid": 0,\n    "args": {\n      "sort_index": 536870912\n    }\n  },\n  {\n    "name": '
                  '"Iteration Start: PyTorch Profiler", "ph": "i", "s": "g",\n    "pid": "Traces", "tid": '
                  '"Trace PyTorch Profiler", "ts": %s\n  },\n  {\n    "name": "Record Window End", "ph": "i", '
                  '"s": "g",\n    "pid": "", "tid": "", "ts": %s\n  }\n],\n  "traceName": "%s"\n}\n'
                  % (a, us(t1 - t0), a, a, b, path))
    rk.events += 4


def step_plan(layers, all_to_all):
    """Segments of one training step: ('ops', trees) or ('coll', kind, nelems)."""
    plan = [("coll", "all_gather", COLL["all_gather"][3])]
    half = layers // 2
    plan.append(("ops", FWD_LAYER * half))
    if all_to_all:
        plan.append(("coll", "all_to_all", COLL["all_to_all"][3]))
    plan.append(("ops", FWD_LAYER * (layers - half)))
    # Backward in four gradient buckets, each followed by its collective.
    bounds = [round(layers * i / 4) for i in range(5)]
    after = [("all_reduce", ALLREDUCE_BUCKETS[0]), ("reduce_scatter", COLL["reduce_scatter"][3]),
             ("all_reduce", ALLREDUCE_BUCKETS[1]), ("all_reduce", ALLREDUCE_BUCKETS[2])]
    for i in range(4):
        plan.append(("ops", BWD_LAYER * (bounds[i + 1] - bounds[i])))
        plan.append(("coll",) + after[i])
    return plan


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--ranks", type=int, default=8)
    ap.add_argument("--size", default="10M")
    ap.add_argument("--steps", type=int, default=None)
    ap.add_argument("--straggler", type=int, default=None)
    ap.add_argument("--straggler-delay-us", type=float, default=2000.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--layers", type=int, default=24)
    ap.add_argument("--all-to-all", action="store_true")
    ap.add_argument("--gzip", action="store_true")
    a = ap.parse_args()
    n = a.ranks
    if n < 1 or a.layers < 1:
        ap.error("--ranks and --layers must be at least 1")
    straggler = n - 1 if a.straggler is None else a.straggler
    if straggler >= n:
        ap.error("--straggler must be below --ranks (or -1)")
    delay = int(a.straggler_delay_us * 1000)
    target = parse_size(a.size)
    os.makedirs(a.outdir, exist_ok=True)
    if n + 16 > 256:
        try:
            import resource
            soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            want = n + 64 if hard == resource.RLIM_INFINITY else min(hard, n + 64)
            if soft != resource.RLIM_INFINITY and soft < want:
                resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        except (ImportError, ValueError, OSError):
            pass

    began = time.time()
    job = random.Random(a.seed * 31 + 5)
    suffix = ".pt.trace.json.gz" if a.gzip else ".pt.trace.json"
    paths, files, ranks = [], [], []
    for r in range(n):
        path = os.path.join(a.outdir, "worker%d.%d%s" % (r, SPAN, suffix))
        f = gzip.open(path, "wt", compresslevel=6, encoding="utf-8", newline="") if a.gzip \
            else open(path, "w", encoding="utf-8", newline="", buffering=1 << 22)
        clock = job.randrange(0, 20_000)             # per-rank clock jitter, < 20 us
        rk = Rank(r, n, a.seed, clock, f)
        paths.append(path)
        files.append(f)
        ranks.append(rk)
        rk.buf.append(header(r, n))
        metadata(rk, 0)
        rk.t = START_NS + job.randrange(0, 15_000)
        rk.flush()
    KERNELS["straggle"] = KERNELS["straggle"][:1] + (delay,) + KERNELS["straggle"][2:]

    plan = step_plan(a.layers, a.all_to_all)
    steps = a.steps
    seq = 0
    k = 0
    while steps is None or k < steps:
        for rk in ranks:
            rk.step_begin(5_000 + rk.rng.randrange(0, 10_000))
        for seg in plan:
            if seg[0] == "ops":
                for rk in ranks:
                    rk.run(seg[1])
                continue
            _, kind, nelems = seg
            pend = []
            for rk in ranks:
                if rk.r == straggler and delay > 0:
                    rk.run(STRAGGLE)
                pend.append(rk.coll_host(kind, nelems, seq))
            end = max(p[0] for p in pend) + int(wire_ns(kind, nelems * 4, n) * (0.97 + 0.06 * job.random()))
            for rk, p in zip(ranks, pend):
                rk.coll_gpu(p, end + rk.rng.randrange(0, 1_500))
            seq += 1
        for rk in ranks:
            rk.step_end(k)
        if steps is None:
            # Derive the step count from the first step's size (the same for every rank).
            per_step = sum(sum(map(len, rk.buf)) for rk in ranks) / n
            head = ranks[0].bytes
            steps = max(1, int(round((target - head - 700) / per_step)))
        for rk in ranks:
            rk.flush()
        k += 1

    total = 0
    for rk, f, path in zip(ranks, files, paths):
        trailer(rk, 0, rk.t + 20_000, path)
        rk.flush()
        f.close()
        size = os.path.getsize(path)
        total += rk.bytes
        print("%s %d bytes %d events" % (path, size, rk.events))
    took = time.time() - began
    print("# %d ranks x %d steps, %.1f MB of JSON in %.2f s (%.1f MB/s)"
          % (n, steps, total / 1e6, took, total / 1e6 / max(took, 1e-9)), file=sys.stderr)


if __name__ == "__main__":
    main()
