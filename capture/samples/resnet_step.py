"""ResNet-18 training steps (batch 64, synthetic data) for capture overhead and completeness checks.

  python resnet_step.py plain     # step times, NVTX range per step (WS_NVTX=0: none)
  python resnet_step.py profiler  # torch.profiler (CUDA activity) over the measured steps; kernel count
Prints one JSON line with the per-step times of the measured steps.
"""
import json, os, statistics, sys, time
import torch, torchvision

MODE = sys.argv[1] if len(sys.argv) > 1 else "plain"
STEPS, MEASURE_FROM = int(os.environ.get("WS_STEPS", "30")), 10
torch.backends.cudnn.benchmark = False
model = torchvision.models.resnet18().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
x = torch.randn(64, 3, 224, 224, device="cuda")
y = torch.randint(0, 1000, (64,), device="cuda")
loss_fn = torch.nn.CrossEntropyLoss()

def step():
    opt.zero_grad(set_to_none=True)
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()

times = []
prof = None
if MODE == "profiler":
    from torch.profiler import profile, ProfilerActivity, schedule
    prof = profile(activities=[ProfilerActivity.CUDA],
                   schedule=schedule(wait=MEASURE_FROM - 1, warmup=1, active=STEPS - MEASURE_FROM))
    prof.__enter__()
NVTX = os.environ.get("WS_NVTX", "1") != "0"  # WS_NVTX=0: no markers, like an unmodified script
for i in range(STEPS):
    if NVTX:
        torch.cuda.nvtx.range_push(f"step {i}")
    t0 = time.perf_counter()
    step()
    torch.cuda.synchronize()
    times.append(time.perf_counter() - t0)
    if NVTX:
        torch.cuda.nvtx.range_pop()
    if prof:
        prof.step()
result = {"mode": MODE, "label": os.environ.get("WS_LABEL", ""), "median_ms": 1e3 * statistics.median(times[MEASURE_FROM:]),
          "mean_ms": 1e3 * statistics.mean(times[MEASURE_FROM:])}
if prof:
    prof.__exit__(None, None, None)
    prof.export_chrome_trace("/tmp/resnet_prof.json")
    trace = json.load(open("/tmp/resnet_prof.json"))
    result["profiler_kernels_trace"] = sum(1 for e in trace["traceEvents"] if e.get("cat") == "kernel")
print("RESULT " + json.dumps(result), flush=True)
