"""Training steps of two workloads for the capture overhead table (issue #13), unmodified: no NVTX,
no markers, nothing Warpscope-specific.

  python overhead_step.py resnet18 plain        # ResNet-18, batch 64, SGD, fp32
  python overhead_step.py transformer plain     # launch-bound transformer, bf16 autocast, AdamW
  python overhead_step.py WORKLOAD profiler     # the same under torch.profiler (CPU + CUDA)

WS_STEPS (default 110) steps; the first 10 (half of fewer) are warm-up. Prints one line
`RESULT {"workload": ..., "mode": ..., "median_ms": ...}` with the median step time of the rest.
"""
import json, os, sys
import torch

WORKLOAD = sys.argv[1] if len(sys.argv) > 1 else "resnet18"
MODE = sys.argv[2] if len(sys.argv) > 2 else "plain"
STEPS = int(os.environ.get("WS_STEPS", "110"))
WARMUP = min(10, STEPS // 2)
torch.manual_seed(0)

if WORKLOAD == "resnet18":
    import torchvision
    model = torchvision.models.resnet18().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = torch.randn(64, 3, 224, 224, device="cuda")
    y = torch.randint(0, 1000, (64,), device="cuda")

    def train_step():
        opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
elif WORKLOAD == "transformer":
    layer = torch.nn.TransformerEncoderLayer(d_model=256, nhead=8, dim_feedforward=1024, batch_first=True)
    model = torch.nn.TransformerEncoder(layer, num_layers=6).cuda()
    head = torch.nn.Linear(256, 1000).cuda()
    opt = torch.optim.AdamW(list(model.parameters()) + list(head.parameters()), lr=1e-4)
    x = torch.randn(16, 64, 256, device="cuda")
    y = torch.randint(0, 1000, (16 * 64,), device="cuda")

    def train_step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = torch.nn.functional.cross_entropy(head(model(x)).reshape(-1, 1000), y)
        loss.backward()
        opt.step()
else:
    sys.exit("unknown workload " + WORKLOAD)

# Imported here, below the workloads: the recorded captures' stacks name their lines (tests read them).
from timed_steps import step_figures, timed_steps  # noqa: E402
times = timed_steps(train_step, STEPS, profiler={"profiler": True, "profiler_cuda": "cuda"}.get(MODE, False), trace=os.environ.get("WS_TRACE"))
print("RESULT " + json.dumps({"workload": WORKLOAD, "mode": MODE, "python": sys.version.split()[0],
                              **step_figures(times, WARMUP)}), flush=True)
