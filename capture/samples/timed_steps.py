"""The measured loop the sample workloads share (zoo.py, overhead_step.py): `steps` timed steps, each
ended by a device synchronize, under torch.profiler (CPU + CUDA) when `profiler` is set, its trace
exported to `trace` when given; `profiler="cuda"` records the CUDA activity only (what CUPTI's kernel and
runtime records cost by themselves, the floor a capture is compared with). Returns the step times in seconds."""
import time

import torch


def timed_steps(train_step, steps, profiler=False, trace=None):
    prof = None
    if profiler:
        from torch.profiler import profile, ProfilerActivity
        activities = [ProfilerActivity.CUDA] if profiler == "cuda" else [ProfilerActivity.CPU, ProfilerActivity.CUDA]
        prof = profile(activities=activities)
        prof.__enter__()
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        train_step()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
    if prof:
        prof.__exit__(None, None, None)
        if trace:
            prof.export_chrome_trace(trace)
    return times
