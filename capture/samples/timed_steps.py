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


def new_profiler(profiler):
    """A torch.profiler recording CPU and CUDA, or the CUDA activity alone for profiler="cuda"."""
    from torch.profiler import profile, ProfilerActivity
    # WS_PROFILE_SHAPES=1: input shapes and FLOPs too (record_shapes, with_flops), as issue #49's traces
    shapes = os.environ.get("WS_PROFILE_SHAPES") == "1"
    # WS_PROFILE_STACKS=1: Python stacks (with_stack), as a user records for source lines (issue #51)
    stacks = os.environ.get("WS_PROFILE_STACKS") == "1"
    return profile(activities=[ProfilerActivity.CUDA] if profiler == "cuda" else [ProfilerActivity.CPU, ProfilerActivity.CUDA],
                   record_shapes=shapes, with_flops=shapes, with_stack=stacks)


def timed_steps(train_step, steps, profiler=False, trace=None):
    cpu_times.clear()
    if os.environ.get("WS_TOGGLE_STEPS"):
        return toggle_steps(train_step, int(os.environ["WS_TOGGLE_STEPS"]), int(os.environ.get("WS_TOGGLE_CYCLES", "20")),
                            profiler)
    if os.environ.get("WS_AB_SWITCH_S"):
        return ab_steps(train_step, float(os.environ["WS_AB_SWITCH_S"]), float(os.environ["WS_AB_CUDA_START"]))
    prof = new_profiler(profiler) if profiler else None
    if prof:
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


toggle_blocks = []  # toggle_steps()'s blocks: (recording, median step seconds), for step_figures


def toggle_steps(train_step, block, cycles, profiler=False):
    """One process, recording switched on and off every `block` steps (issue #25): the comparison
    that needs no second process, whose step times alone move by a third on the GPU machines.

    Recording is switched the way a program would: torch.cuda.profiler.start() and stop()
    (cudaProfilerStart/Stop), which a capture with --capture-range=cudaProfilerApi follows and
    which cost nothing without one, so an uninstrumented process toggles too and tells the noise;
    with `profiler`, a torch.profiler (CPU + CUDA) is entered and left instead. Each cycle has an off
    and an on block, in the order off-on, on-off, on-off, off-on, ... (so a drift cancels), after one
    untimed warm-up cycle (which also lets a capture learn the launches: --torch-ops). The first 2
    steps of a block are not counted (the switch itself). WS_TOGGLE_LOG=FILE writes the on blocks'
    [start, stop] in CLOCK_REALTIME ns (CUPTI's clock), to check what a capture recorded.
    """
    import json
    if profiler:
        current = []

        def start():
            current.append(new_profiler(profiler))
            current[-1].__enter__()

        def stop():
            current.pop().__exit__(None, None, None)
    else:
        start, stop = torch.cuda.profiler.start, torch.cuda.profiler.stop
    skip = 2
    times, windows = [], []
    toggle_blocks.clear()

    def run(on, timed):
        if on:
            torch.cuda.synchronize()
            began = time.time_ns()
            start()
        kept = []
        for i in range(block):
            t0 = time.perf_counter()
            train_step()
            torch.cuda.synchronize()
            dt = time.perf_counter() - t0
            times.append(dt)
            if i >= skip:
                kept.append(dt)
        if on:
            stop()
            windows.append([began, time.time_ns()])
        if timed:
            toggle_blocks.append((on, statistics.median(kept)))

    for on in (True, False):  # warm-up
        run(on, False)
    for c in range(cycles):
        first_on = c % 4 in (1, 2)
        run(first_on, True)
        run(not first_on, True)
    if os.environ.get("WS_TOGGLE_LOG"):
        with open(os.environ["WS_TOGGLE_LOG"], "w") as f:
            json.dump({"block": block, "skip": skip, "on_windows": windows}, f)
    return times


def toggle_figures():
    """The on/off ratio of each cycle (its on block's median step over its off block's), their median
    and spread, and the pooled ratio of all on blocks' medians over all off blocks'."""
    on = [m for r, m in toggle_blocks if r]
    off = [m for r, m in toggle_blocks if not r]
    cycles = [(toggle_blocks[i], toggle_blocks[i + 1]) for i in range(0, len(toggle_blocks) - 1, 2)]
    ratios = sorted((a[1] / b[1]) if a[0] else (b[1] / a[1]) for a, b in cycles)
    return {"toggle_ratio": statistics.median(ratios), "toggle_pooled": statistics.median(on) / statistics.median(off),
            "toggle_p10": ratios[len(ratios) // 10], "toggle_p90": ratios[(9 * len(ratios)) // 10],
            "toggle_cycles": len(ratios), "on_ms": 1e3 * statistics.median(on), "off_ms": 1e3 * statistics.median(off)}


def step_figures(times, skip=0):
    """The step times' median, 10th percentile and minimum in ms, and the median CPU time per step.
    The machines' step times move by up to a third from one process to the next; the low percentile
    of a process is less exposed to what else the host runs than its median (the overhead rounds
    report both)."""
    kept = sorted(times[skip:])
    cpu = cpu_times[skip:] or [0.0]
    figures = {"median_ms": 1e3 * statistics.median(kept), "p10_ms": 1e3 * kept[len(kept) // 10],
               "min_ms": 1e3 * kept[0], "cpu_ms": 1e3 * statistics.median(cpu)}
    if toggle_blocks:
        figures.update(toggle_figures())
    if ab_times["before"] and ab_times["after"]:
        before, after = statistics.median(ab_times["before"]), statistics.median(ab_times["after"])
        figures.update({"before_ms": 1e3 * before, "after_ms": 1e3 * after, "ab_ratio": after / before,
                        "before_steps": len(ab_times["before"]), "after_steps": len(ab_times["after"])})
    return figures
