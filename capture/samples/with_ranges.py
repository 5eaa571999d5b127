"""Runs a Python program with PyTorch's own per-operator ranges switched on and no profiler
collecting them, to measure what the ranges cost by themselves (issue #25's cost split):

  python3 with_ranges.py itt|nvtx PROGRAM.py [ARGS...]

itt: torch.autograd.profiler.emit_itt (RecordFunction callbacks into ITT's no-op stubs unless a
collector is named by INTEL_LIBITTNOTIFY64); nvtx: emit_nvtx (RecordFunction callbacks formatting
each range's text into NVTX's no-op stubs unless an NVTX injection is loaded)."""
import runpy, sys

import torch

kind, program = sys.argv[1], sys.argv[2]
sys.argv = sys.argv[2:]
ctx = torch.autograd.profiler.emit_itt() if kind == "itt" else torch.autograd.profiler.emit_nvtx()
with ctx:
    runpy.run_path(program, run_name="__main__")
