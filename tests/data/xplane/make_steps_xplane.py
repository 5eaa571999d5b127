#!/usr/bin/env python3
"""Writes steps.xplane.pb: a small synthetic XSpace with step markers, in the layout JAX writes for
`with jax.profiler.StepTraceAnnotation("train", step_num=N)` (a host TraceMe event named "train"
with an int64 `step_num` stat), around a jitted call that launches one kernel per step on GPU 0
(correlation_id on the launch and the kernel). Written by hand on the wire (no protobuf module).

    python3 tests/data/xplane/make_steps_xplane.py tests/data/xplane/steps.xplane.pb
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench"))
from gen_xplane import enc as varint  # noqa: E402  (the wire's base-128 varint)


def field(number, value):
    if isinstance(value, int):
        return varint(number << 3) + varint(value)
    if isinstance(value, str):
        value = value.encode()
    return varint(number << 3 | 2) + varint(len(value)) + value


def msg(*fields):
    return b"".join(field(n, v) for n, v in fields)


def stat(meta, int64=None, text=None):
    return msg((1, meta), (4, int64)) if int64 is not None else msg((1, meta), (5, text))


def event(meta, offset_ps, duration_ps, *stats):
    return msg((1, meta), (2, offset_ps), (3, duration_ps), *[(4, s) for s in stats])


def plane(pid, name, lines, event_names, stat_names, plane_stats=()):
    parts = [(1, pid), (2, name)] + [(3, l) for l in lines]
    parts += [(4, msg((1, k), (2, msg((1, k), (2, v))))) for k, v in event_names.items()]
    parts += [(5, msg((1, k), (2, msg((1, k), (2, v))))) for k, v in stat_names.items()]
    parts += [(6, s) for s in plane_stats]
    return msg(*parts)


MS = 1_000_000_000  # picoseconds
T0 = 1_764_000_000_000_000_000  # ns
STEP_NUM, CORRELATION, KERNEL_DETAILS, CORE_COUNT = 1, 2, 3, 4
host_events, device_events = [], []
for step in range(3):
    start = step * 10 * MS
    host_events.append(event(1, start, 9 * MS, stat(STEP_NUM, int64=100 + step)))  # train
    host_events.append(event(2, start + 1 * MS, 2 * MS))  # jit_train_step
    host_events.append(event(3, start + 2 * MS, MS // 10, stat(CORRELATION, int64=500 + step)))  # cuLaunchKernel
    device_events.append(event(4, start + 3 * MS, 5 * MS, stat(CORRELATION, int64=500 + step),
                               stat(KERNEL_DETAILS, text=" grid:132,1,1 block:256,1,1 private_mem:0 group_mem:0 occ_pct:50")))
host = plane(1, "/host:CPU", [msg((1, 100), (2, "python3"), (3, T0), *[(4, e) for e in host_events])],
             {1: "train", 2: "jit_train_step", 3: "cuLaunchKernel"}, {STEP_NUM: "step_num", CORRELATION: "correlation_id"})
device = plane(2, "/device:GPU:0", [msg((1, 7), (2, "Stream #7(Kernel)"), (3, T0), *[(4, e) for e in device_events])],
               {4: "fusion_kernel"}, {CORRELATION: "correlation_id", KERNEL_DETAILS: "kernel_details", CORE_COUNT: "core_count"},
               [stat(CORE_COUNT, int64=132)])
with open(sys.argv[1], "wb") as f:
    f.write(msg((1, host), (1, device), (4, "synthetic-host")))
