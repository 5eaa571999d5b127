"""Two training loops whose GPU waits on the host, for "Why the GPU waits" (issue #27): each runnable
plain (for warpscope-capture) or under torch.profiler with Python stacks (the reference).

  python waits.py WORKLOAD plain
  WS_TRACE=t.json python waits.py WORKLOAD profiler

Workloads (a small CNN on 64x64 images, SGD, fp32):
  loader  a DataLoader without workers whose samples cost CPU work (decode and augment stand-ins),
          so each step first waits in the main thread's `next(batches)`
  sync    every step reads values back to the host: the loss (`.item()`), an accuracy computed on
          the host (`.cpu()`), and a data-dependent branch on a GPU value, so the GPU idles while
          the host waits for it and then launches again
  sleep   every step reads the logits back (`.cpu()`, the GPU then has nothing queued) and then
          sleeps 4 ms in `time.sleep` before the backward pass: the GPU idles because the host
          sleeps, not because it waits (issue #51)

WS_STEPS measured steps (default 8) after WS_WARMUP (default 3). Prints `RESULT {...}`.
"""
import json, os, statistics, sys, time

import torch
import torch.nn as nn
import torch.nn.functional as F

WORKLOAD = sys.argv[1] if len(sys.argv) > 1 else "loader"
MODE = sys.argv[2] if len(sys.argv) > 2 else "plain"
STEPS = int(os.environ.get("WS_STEPS", "8"))
WARMUP = int(os.environ.get("WS_WARMUP", "3"))
torch.manual_seed(0)
dev = "cuda"


def small_cnn():
    return nn.Sequential(
        nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(), nn.Conv2d(64, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(64, 128, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(128 * 16 * 16, 256), nn.ReLU(), nn.Linear(256, 100)).to(dev)


class Augmented(torch.utils.data.Dataset):
    def __len__(self):
        return 1 << 20

    def __getitem__(self, i):
        x = torch.rand(3, 72, 72)
        for _ in range(4):  # decode and augment stand-ins: CPU work per sample
            x = F.avg_pool2d(x.unsqueeze(0), 3, 1, 1).squeeze(0)
        top, left = i % 8, (i * 3) % 8
        return x[:, top:top + 64, left:left + 64].contiguous(), i % 100


def loader_step():
    model = small_cnn()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    batches = iter(torch.utils.data.DataLoader(Augmented(), batch_size=128, num_workers=0))

    def step():
        x, y = next(batches)
        opt.zero_grad(set_to_none=True)
        F.cross_entropy(model(x.to(dev)), y.to(dev)).backward()
        opt.step()
    return step


def sync_step():
    model = small_cnn()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x = torch.rand(128, 3, 64, 64, device=dev)
    y = torch.randint(0, 100, (128,), device=dev)
    history = []

    def step():
        opt.zero_grad(set_to_none=True)
        out = model(x)
        loss = F.cross_entropy(out, y)
        if loss.item() > 100.0:  # a data-dependent branch: waits for the forward pass
            loss = loss * 0.5
        loss.backward()
        opt.step()
        history.append(loss.item())  # logging the loss: waits for the backward pass
        accuracy = (out.argmax(1).cpu() == y.cpu()).float().mean()  # a metric computed on the host
        history.append(float(accuracy))
    return step


def sleep_step():
    model = small_cnn()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x = torch.rand(128, 3, 64, 64, device=dev)
    y = torch.randint(0, 100, (128,), device=dev)

    def step():
        opt.zero_grad(set_to_none=True)
        out = model(x)
        logits = out.cpu()  # drains the GPU's queue; returns once the forward pass is done
        time.sleep(0.004)   # host-side work stand-in: the GPU idles for it
        F.cross_entropy(out, y).backward()
        opt.step()
        return logits
    return step


MAKERS = {"loader": loader_step, "sync": sync_step, "sleep": sleep_step}
if WORKLOAD not in MAKERS:
    sys.exit("unknown workload %s (one of %s)" % (WORKLOAD, ", ".join(MAKERS)))
train_step = MAKERS[WORKLOAD]()
for _ in range(WARMUP):
    train_step()
torch.cuda.synchronize()

prof = None
if MODE == "profiler":
    from torch.profiler import profile, ProfilerActivity
    prof = profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], with_stack=True)
    prof.__enter__()
times = []
for _ in range(STEPS):
    t0 = time.perf_counter()
    train_step()
    torch.cuda.synchronize()
    times.append(time.perf_counter() - t0)
if prof:
    prof.__exit__(None, None, None)
    if os.environ.get("WS_TRACE"):
        prof.export_chrome_trace(os.environ["WS_TRACE"])
print("RESULT " + json.dumps({"workload": WORKLOAD, "mode": MODE, "steps": STEPS,
                              "median_ms": 1e3 * statistics.median(times)}), flush=True)
