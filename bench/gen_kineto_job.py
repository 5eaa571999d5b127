#!/usr/bin/env python3
"""Writes the Kineto traces of a synthetic distributed training job, one file per rank, for the
Distributed view's benchmarks and tests (issue #12).

    python3 bench/gen_kineto_job.py --ranks 8 --size 100M OUTDIR [--straggler R] [--delay-us D]
                                   [--steps S] [--seed X] [--gzip]

Each rank gets `OUTDIR/worker<r>.<span>.pt.trace.json` (tensorboard_trace_handler naming) of about
SIZE bytes in the modern Kineto layout: deviceProperties (one H100), distributedInfo with pg_config,
baseTimeNanoseconds, and per step a ProfilerStep#N with forward/backward cpu_ops that launch compute
kernels (cudaLaunchKernel + ac2g flows) and a few collectives, each a record_param_comms cpu_op
(collective args) enclosing a `nccl:*` annotation (Input Dims/Input type) enclosing the launch of
its NCCL kernel on the communication stream.

The job is simulated on one clock, all ranks together, so collectives are consistent: the k-th
collective's kernel starts on each rank when that rank launches it and ends on every rank at the
same moment, the last arrival plus the transfer time. The straggler rank (default the last one;
--straggler -1 for none) spends --delay-us more CPU time before each collective, so the others wait
for it. --clock-skew-ms makes the hosts' clocks disagree (rank r reads r x SKEW late). Same
arguments, same bytes.
"""
import argparse
import gzip
import os
import random

COLLECTIVES = [
    # (annotation, record_param_comms name, kernel name, elements)
    ("nccl:all_reduce", "allreduce", "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 6_553_600),
    ("nccl:_all_gather_base", "_allgather_base", "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 524_288),
    ("nccl:all_reduce", "allreduce", "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 2_097_152),
    ("nccl:_reduce_scatter_base", "_reduce_scatter_base", "ncclDevKernel_ReduceScatter_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 4_194_304),
]
COMPUTE = [
    ("aten::mm", "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"),
    ("aten::add_", "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)"),
    ("aten::relu", "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>)"),
    ("aten::sum", "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4, 4>)"),
]
PID = 4242
MAIN_TID = 4242
COMPUTE_STREAM = 7
COMM_STREAM = 13
BASE_NS = 1_764_000_000_000_000_000
SPAN = 1764000000000000123


def parse_size(text):
    text = text.strip().upper()
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
    return int(float(text[:-1] if text[-1:] in "KMG" else text) * mult)


def us(ns):
    """Kineto's `<int>.<3 digits>` microseconds relative to baseTimeNanoseconds."""
    return "%d.%03d" % divmod(ns, 1000)


class RankWriter:
    def __init__(self, path, rank, ranks, use_gzip, clock_offset_ns=0):
        self.f = gzip.open(path, "wt", compresslevel=1) if use_gzip else open(path, "w", buffering=1 << 20)
        self.path = path
        self.rank = rank
        self.events = 0
        self.first = True
        header = (
            '{\n  "schemaVersion": 1,\n'
            '  "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85029158912, '
            '"computeMajor": 9, "computeMinor": 0, "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048, '
            '"regsPerBlock": 65536, "warpSize": 32, "sharedMemPerBlock": 49152, "numSms": 132}],\n'
            '  "distributedInfo": {"backend": "nccl", "rank": %d, "world_size": %d, "pg_count": 1, "pg_config": '
            '[{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl", "pg_size": %d, "ranks": [%s]}], '
            '"nccl_version": "2.27.5"},\n'
            '  "record_shapes": 1,\n  "baseTimeNanoseconds": %d,\n  "traceEvents": [\n'
        ) % (rank, ranks, ranks, ", ".join(str(r) for r in range(ranks)), BASE_NS + clock_offset_ns)
        self.f.write(header)
        meta = [
            '{"name": "process_name", "ph": "M", "ts": "0.000", "pid": %d, "tid": 0, "args": {"name": "python3"}}' % PID,
            '{"name": "thread_name", "ph": "M", "ts": "0.000", "pid": %d, "tid": %d, "args": {"name": "thread %d (python3)"}}' % (PID, MAIN_TID, MAIN_TID),
            '{"name": "process_name", "ph": "M", "ts": "0.000", "pid": 0, "tid": 0, "args": {"name": "python3"}}',
            '{"name": "process_labels", "ph": "M", "ts": "0.000", "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}}',
        ]
        for m in meta:
            self.emit(m)

    def emit(self, line):
        if self.first:
            self.f.write("  " + line)
            self.first = False
        else:
            self.f.write(",\n  " + line)
        self.events += 1

    def x(self, cat, name, tid, pid, start, dur, args):
        self.emit('{"ph": "X", "cat": "%s", "name": "%s", "pid": %d, "tid": %d, "ts": %s, "dur": %s, "args": {%s}}'
                  % (cat, name, pid, tid, us(start), us(dur), args))

    def flow(self, corr, launch_start, kernel_start, stream):
        self.emit('{"ph": "s", "id": %d, "pid": %d, "tid": %d, "ts": %s, "cat": "ac2g", "name": "ac2g"}'
                  % (corr, PID, MAIN_TID, us(launch_start)))
        self.emit('{"ph": "f", "id": %d, "pid": 0, "tid": %d, "ts": %s, "cat": "ac2g", "name": "ac2g", "bp": "e"}'
                  % (corr, stream, us(kernel_start)))

    def close(self, end_ns):
        self.emit('{"ph": "X", "cat": "Trace", "ts": "0.000", "dur": %s, "pid": "Spans", "tid": "PyTorch Profiler", '
                  '"name": "PyTorch Profiler (0)", "args": {"Op count": 0}}' % us(end_ns))
        self.f.write('\n  ],\n  "traceName": "%s"\n}\n' % os.path.basename(self.path))
        self.f.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("--ranks", type=int, default=8)
    ap.add_argument("--size", default="10M", help="bytes per rank, with K/M/G suffixes")
    ap.add_argument("--steps", type=int, default=0, help="steps (default: from --size)")
    ap.add_argument("--straggler", type=int, default=None, help="rank that arrives late (-1: none; default: last)")
    ap.add_argument("--delay-us", type=float, default=2000.0, help="extra CPU time of the straggler per collective")
    ap.add_argument("--kernels-per-step", type=int, default=1600, help="compute kernels per step (default: a "
                    "mid-size model's training step)")
    ap.add_argument("--collectives", type=int, default=8, help="collectives per step (cycling all_reduce, "
                    "all_gather, all_reduce, reduce_scatter)")
    ap.add_argument("--clock-skew-ms", type=float, default=0.0,
                    help="rank r's host clock reads r x this much late (hosts not in sync)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gzip", action="store_true")
    a = ap.parse_args()
    n = a.ranks
    straggler = n - 1 if a.straggler is None else a.straggler
    # About 1.4 KB per launched kernel (cpu_op, runtime, kernel, two flow ends).
    steps = a.steps or max(1, parse_size(a.size) // (a.kernels_per_step * 1410))
    os.makedirs(a.outdir, exist_ok=True)
    suffix = ".pt.trace.json.gz" if a.gzip else ".pt.trace.json"
    # A skewed host clock shifts everything the rank records: Kineto's times are relative to
    # baseTimeNanoseconds, so moving the base moves the whole rank.
    writers = [RankWriter(os.path.join(a.outdir, "worker%d.%d%s" % (r, SPAN, suffix)), r, n, a.gzip,
                          int(r * a.clock_skew_ms * 1e6)) for r in range(n)]
    rng = random.Random(a.seed)
    cpu = [1_000_000 + rng.randrange(0, 20_000) for _ in range(n)]  # host cursor per rank (ns)
    gpu = list(cpu)  # compute stream free at
    comm_free = list(cpu)  # communication stream free at
    corr = [1000] * n
    ext = [1] * n
    coll_every = max(1, a.kernels_per_step // (a.collectives + 1))
    for step in range(steps):
        step_start = list(cpu)
        for r in range(n):
            ext[r] += 1
        step_ext = list(ext)
        coll = 0
        for op in range(a.kernels_per_step):
            name, kernel = COMPUTE[op % len(COMPUTE)]
            kdur = 8_000 + rng.randrange(0, 30_000)
            for r in range(n):
                w = writers[r]
                host = 6_000 + rng.randrange(0, 4_000)
                start = cpu[r]
                ext[r] += 1
                corr[r] += 1
                launch = start + 2_000
                k0 = max(gpu[r], launch + 5_000)
                w.x("cpu_op", name, MAIN_TID, PID, start, host,
                    '"External id": %d, "Input Dims": [[1024, 1024], [1024, 1024]], "Input type": ["float", "float"]' % ext[r])
                w.x("cuda_runtime", "cudaLaunchKernel", MAIN_TID, PID, launch, 3_000,
                    '"External id": %d, "cbid": 211, "correlation": %d' % (ext[r], corr[r]))
                w.x("kernel", kernel, COMPUTE_STREAM, 0, k0, kdur,
                    '"External id": %d, "device": 0, "stream": %d, "correlation": %d, "registers per thread": 128, '
                    '"shared memory": 49152, "blocks per SM": 1.939394, "warps per SM": 15.515152, "grid": [256, 1, 1], '
                    '"block": [256, 1, 1], "est. achieved occupancy %%": 25' % (ext[r], COMPUTE_STREAM, corr[r]))
                w.flow(corr[r], launch, k0, COMPUTE_STREAM)
                gpu[r] = k0 + kdur
                cpu[r] = start + host + 1_000
            if op % coll_every == coll_every - 1 and coll < a.collectives:
                ann, cname, kname, elems = COLLECTIVES[coll % len(COLLECTIVES)]
                coll += 1
                arrivals = []
                for r in range(n):
                    if r == straggler:
                        cpu[r] += int(a.delay_us * 1000)
                    cpu[r] += rng.randrange(0, 20_000)  # jitter
                    arrivals.append(max(cpu[r] + 40_000, comm_free[r]))
                transfer = elems * 4 // 200 + 10_000  # ~200 GB/s plus a fixed latency
                end = max(arrivals) + transfer
                for r in range(n):
                    w = writers[r]
                    start = cpu[r]
                    ext[r] += 1
                    rpc_ext = ext[r]
                    ext[r] += 1
                    corr[r] += 1
                    w.x("cpu_op", "record_param_comms", MAIN_TID, PID, start, 60_000,
                        '"External id": %d, "Collective name": "%s", "dtype": "Float", "In msg nelems": %d, '
                        '"Out msg nelems": %d, "Group size": %d, "Process Group Name": "0", '
                        '"Process Group Description": "default_pg", "Process Group Ranks": "[%s]", "Seq": %d'
                        % (rpc_ext, cname, elems, elems, n, ", ".join(str(q) for q in range(n)), step * a.collectives + coll))
                    w.x("user_annotation", ann, MAIN_TID, PID, start + 5_000, 50_000,
                        '"External id": %d, "Input Dims": [[%d]], "Input type": ["float"]' % (ext[r], elems))
                    w.x("cuda_runtime", "cudaLaunchKernel", MAIN_TID, PID, start + 30_000, 6_000,
                        '"External id": %d, "cbid": 211, "correlation": %d' % (rpc_ext, corr[r]))
                    w.x("kernel", kname, COMM_STREAM, 0, arrivals[r], end - arrivals[r],
                        '"External id": %d, "device": 0, "stream": %d, "correlation": %d, "registers per thread": 96, '
                        '"shared memory": 103808, "blocks per SM": 0.242424, "warps per SM": 3.878788, "grid": [32, 1, 1], '
                        '"block": [512, 1, 1], "est. achieved occupancy %%": 6, "Collective name": "%s", "In msg nelems": %d, '
                        '"Out msg nelems": %d, "Group size": %d, "dtype": "Float", "Process Group Name": "0"'
                        % (rpc_ext, COMM_STREAM, corr[r], cname, elems, elems, n))
                    w.flow(corr[r], start + 30_000, arrivals[r], COMM_STREAM)
                    comm_free[r] = end
                    cpu[r] = start + 65_000
        # The step ends when the rank has synchronized with its GPU work.
        for r in range(n):
            end = max(cpu[r], gpu[r], comm_free[r]) + 5_000
            writers[r].x("user_annotation", "ProfilerStep#%d" % step, MAIN_TID, PID, step_start[r], end - step_start[r],
                         '"External id": %d' % step_ext[r])
            cpu[r] = end + 2_000
            gpu[r] = max(gpu[r], cpu[r])
            comm_free[r] = max(comm_free[r], cpu[r])
    # Ranks leave the last step together.
    for r in range(n):
        writers[r].close(max(cpu))
        print("%s %d bytes %d events" % (writers[r].path, os.path.getsize(writers[r].path), writers[r].events))


if __name__ == "__main__":
    main()
