"""Steps that are nothing but launches through PyTorch, for what a capture costs per launch (issue #25):
each configuration's on/off ratio times the step time, over the launches a step makes, is the cost
of one launch with the Python and C++ of PyTorch's dispatcher around it, which a C++ loop
(launch_cost.cu) leaves out.

  python launch_steps.py tiny plain      # 600 small elementwise kernels (cudaLaunchKernel)
  python launch_steps.py tinymm plain    # 400 small bf16 matmuls (cuBLASLt, cuLaunchKernelEx)
  python launch_steps.py tinybwd plain   # a small MLP's forward here and its backward on autograd's thread, 8 times

Timed like overhead_step.py (timed_steps.py: WS_STEPS, WS_TOGGLE_STEPS, ...); prints its RESULT line.
"""
import json, os, sys
import torch

from timed_steps import step_figures, timed_steps

WORKLOAD = sys.argv[1] if len(sys.argv) > 1 else "tiny"
MODE = sys.argv[2] if len(sys.argv) > 2 else "plain"
STEPS = int(os.environ.get("WS_STEPS", "110"))
WARMUP = min(10, STEPS // 2)

if WORKLOAD == "tiny":
    x = torch.zeros(4096, device="cuda")

    def train_step():
        for _ in range(200):
            x.add_(1.0)
            x.mul_(0.5)
            x.relu_()
elif WORKLOAD == "tinymm":
    a = torch.randn(128, 128, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(128, 128, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(128, 128, device="cuda", dtype=torch.bfloat16)

    def train_step():
        for _ in range(400):
            torch.mm(a, b, out=c)
elif WORKLOAD == "tinybwd":
    net = torch.nn.Sequential(*[torch.nn.Linear(64, 64) for _ in range(8)]).cuda()
    inp = torch.randn(32, 64, device="cuda")

    def train_step():
        for _ in range(8):
            net(inp).sum().backward()
else:
    sys.exit("unknown workload " + WORKLOAD)

times = timed_steps(train_step, STEPS, profiler={"profiler": True, "profiler_cuda": "cuda"}.get(MODE, False))
print("RESULT " + json.dumps({"workload": WORKLOAD, "mode": MODE, "python": sys.version.split()[0],
                              **step_figures(times, WARMUP)}), flush=True)
