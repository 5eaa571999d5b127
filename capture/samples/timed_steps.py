"""The measured loop the sample workloads share (zoo.py, overhead_step.py): `steps` timed steps, each
ended by a device synchronize, under torch.profiler (CPU + CUDA) when `profiler` is set, its trace
exported to `trace` when given; `profiler="cuda"` records the CUDA activity only (what CUPTI's kernel and
runtime records cost by themselves, the floor a capture is compared with). Returns the step times in seconds;
step_figures() turns them into the RESULT line's figures."""
import os
import statistics
import time

import torch


cpu_times = []  # the process's CPU seconds (all threads) of each step of the last timed_steps()


def timed_steps(train_step, steps, profiler=False, trace=None):
    cpu_times.clear()
    if os.environ.get("WS_AB_SWITCH_S"):
        return ab_steps(train_step, float(os.environ["WS_AB_SWITCH_S"]), float(os.environ["WS_AB_CUDA_START"]))
    prof = None
    if profiler:
        from torch.profiler import profile, ProfilerActivity
        activities = [ProfilerActivity.CUDA] if profiler == "cuda" else [ProfilerActivity.CPU, ProfilerActivity.CUDA]
        prof = profile(activities=activities)
        prof.__enter__()
    times = []
    for _ in range(steps):
        t0, c0 = time.perf_counter(), time.process_time()
        train_step()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
        cpu_times.append(time.process_time() - c0)
    if prof:
        prof.__exit__(None, None, None)
        if trace:
            prof.export_chrome_trace(trace)
    return times


ab_times = {"before": [], "after": []}  # ab_steps()'s steps, for step_figures


def ab_steps(train_step, switch_s, cuda_start):
    """Steps before and after the capture's --delay (see ab_run.py); returns all timed steps."""
    guard = 1.0
    switch = cuda_start + switch_s
    ab_times["before"].clear()
    ab_times["after"].clear()
    times = []
    warmup = 10  # overhead_step.py warms up inside its timed steps: those are not "before"
    while len(ab_times["after"]) < max(20, len(ab_times["before"])):
        t0 = time.perf_counter()
        started = time.monotonic()
        train_step()
        torch.cuda.synchronize()
        dt = time.perf_counter() - t0
        times.append(dt)
        if time.monotonic() < switch - guard:
            if len(times) > warmup:
                ab_times["before"].append(dt)
        elif started > switch + guard:
            ab_times["after"].append(dt)
    if not ab_times["before"]:
        raise SystemExit("ab_steps: no step before the switch; give WS_AB_SWITCH_S (and --delay) more seconds")
    return times


def step_figures(times, skip=0):
    """The step times' median, 10th percentile and minimum in ms, and the median CPU time per step.
    The machines' step times move by up to a third from one process to the next; the low percentile
    of a process is less exposed to what else the host runs than its median (the overhead rounds
    report both)."""
    kept = sorted(times[skip:])
    cpu = cpu_times[skip:] or [0.0]
    figures = {"median_ms": 1e3 * statistics.median(kept), "p10_ms": 1e3 * kept[len(kept) // 10],
               "min_ms": 1e3 * kept[0], "cpu_ms": 1e3 * statistics.median(cpu)}
    if ab_times["before"] and ab_times["after"]:
        before, after = statistics.median(ab_times["before"]), statistics.median(ab_times["after"])
        figures.update({"before_ms": 1e3 * before, "after_ms": 1e3 * after, "ab_ratio": after / before,
                        "before_steps": len(ab_times["before"]), "after_steps": len(ab_times["after"])})
    return figures
