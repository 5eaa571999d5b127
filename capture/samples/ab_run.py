"""Runs a sample workload (overhead_step.py or zoo.py) so that one process measures its steps both
before and after the capture starts recording (warpscope-capture --delay S): the comparison the
overhead rounds cannot make across processes, whose plain step times alone move by a third on the
GPU machines (capture/README.md).

CUDA is initialised here, first, so that the capture's delay and this clock start together; then
the workload runs unchanged (runpy keeps its file and line numbers). With WS_AB_SWITCH_S=S set,
timed_steps() times steps until S - 1 s after CUDA started ("before") and from S + 1 s on ("after",
as many steps as before), and the RESULT line gets before_ms, after_ms and ab_ratio (medians).
Without a capture the same run says how much a process drifts by itself.

  WS_AB_SWITCH_S=12 warpscope-capture --delay 12 -o OUT -- python3 ab_run.py overhead_step.py transformer plain
  WS_AB_SWITCH_S=12 python3 ab_run.py overhead_step.py transformer plain          # the drift alone
"""
import os, runpy, sys, time

import torch

torch.cuda.init()
os.environ["WS_AB_CUDA_START"] = repr(time.monotonic())
script = os.path.join(os.path.dirname(os.path.abspath(__file__)), sys.argv[1])
sys.argv = [script] + sys.argv[2:]
sys.path.insert(0, os.path.dirname(script))
runpy.run_path(script, run_name="__main__")
