"""A launch-bound transformer training step with bf16 autocast (small model, many small kernels).

  python transformer_step.py plain      # no markers at all: what an unmodified script looks like
  python transformer_step.py nvtx       # an NVTX range `step i` per step
  python transformer_step.py profiler   # torch.profiler (CPU + CUDA) with ProfilerStep#i per step
WS_STEPS (default 20) sets the number of steps. Prints one JSON line with per-step times.
"""
import json, os, statistics, sys, time
import torch

MODE = sys.argv[1] if len(sys.argv) > 1 else "plain"
STEPS = int(os.environ.get("WS_STEPS", "20"))
torch.manual_seed(0)
layer = torch.nn.TransformerEncoderLayer(d_model=256, nhead=8, dim_feedforward=1024, batch_first=True)
model = torch.nn.TransformerEncoder(layer, num_layers=6).cuda()
head = torch.nn.Linear(256, 1000).cuda()
params = list(model.parameters()) + list(head.parameters())
opt = torch.optim.AdamW(params, lr=1e-4)
x = torch.randn(16, 64, 256, device="cuda")
y = torch.randint(0, 1000, (16 * 64,), device="cuda")

def step():
    opt.zero_grad(set_to_none=True)
    with torch.autocast("cuda", dtype=torch.bfloat16):
        out = head(model(x)).reshape(-1, 1000)
        loss = torch.nn.functional.cross_entropy(out, y)
    loss.backward()
    opt.step()

prof = None
if MODE == "profiler":
    from torch.profiler import profile, ProfilerActivity
    prof = profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA])
    prof.__enter__()
times = []
for i in range(STEPS):
    if MODE == "nvtx":
        torch.cuda.nvtx.range_push(f"step {i}")
    t0 = time.perf_counter()
    step()
    torch.cuda.synchronize()
    times.append(time.perf_counter() - t0)
    if MODE == "nvtx":
        torch.cuda.nvtx.range_pop()
    if prof:
        prof.step()
if prof:
    prof.__exit__(None, None, None)
    prof.export_chrome_trace(os.environ.get("WS_TRACE", "/tmp/transformer_prof.json"))
print("RESULT " + json.dumps({"mode": MODE, "steps": STEPS, "median_ms": 1e3 * statistics.median(times[2:])}), flush=True)
