"""Training steps whose GPU idle time has one known cause, for the idle-gap classifier (issue #27,
core/analysis/idle_gaps.h). Run by bench/idle_gaps_device.sh on a GPU machine, under torch.profiler
and under warpscope-capture; tests/data/idle_gaps/README.md lists the recordings.

  item     fp32 MLP (8 x Linear(4096) + GELU, batch 2048, AdamW) that checks every layer's output on the
           host (`torch.isfinite(h).all().item()`) and logs the loss (`loss.item()`) before backward:
           sync-bound, the GPU drains at every check and waits for the next launch
  sync     the same MLP timed per layer the usual wrong way (`torch.cuda.synchronize()` around each
           layer) and copying its predictions to the host each step (`.cpu()`): sync-bound
  loader0  ResNet-18 fed by a DataLoader without workers (num_workers=0) whose samples cost CPU work:
           the main thread loads while the GPU waits
  loader2  a small CNN fed by a DataLoader with 2 workers doing CPU work per sample: input-bound

Usage: idle_gap_workloads.py WORKLOAD plain|profiler|stack [TRACE.json]
  plain: WS_WARMUP (2) + WS_STEPS (6) steps; profiler: the same with torch.profiler (CPU + CUDA)
  around the measured steps, prof.step() after each (ProfilerStep#N); stack: with_stack=True too.
"""
import os
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

WORKLOAD, MODE = sys.argv[1], sys.argv[2]
TRACE = sys.argv[3] if len(sys.argv) > 3 else None
STEPS = int(os.environ.get("WS_STEPS", "6"))
WARMUP = int(os.environ.get("WS_WARMUP", "2"))
dev = "cuda"
torch.manual_seed(0)


def mlp():
    layers = []
    for _ in range(8):
        layers += [nn.Linear(4096, 4096), nn.GELU()]
    return nn.Sequential(*layers).to(dev)


def item_step():
    model = mlp()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    x = torch.randn(2048, 4096, device=dev)
    y = torch.randn(2048, 4096, device=dev)
    losses = []

    def train_step():
        h = x
        for layer in model:
            h = layer(h)
            if not torch.isfinite(h).all().item():  # a host check per layer: a sync each
                raise RuntimeError("non-finite activation")
        loss = F.mse_loss(h, y)
        losses.append(loss.item())  # logs the loss before backward: another sync
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    return train_step


def sync_step():
    model = mlp()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    x = torch.randn(2048, 4096, device=dev)
    y = torch.randint(0, 4096, (2048,), device=dev)
    times = []

    def train_step():
        h = x
        for layer in model:
            torch.cuda.synchronize()  # timing each layer on the host: a sync around each
            t0 = time.perf_counter()
            h = layer(h)
            torch.cuda.synchronize()
            times.append(time.perf_counter() - t0)
        loss = F.cross_entropy(h, y)
        preds = h.argmax(1).cpu()  # predictions to the host for a metric: a sync copy
        times.append(float((preds == y.cpu()).float().mean()))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    return train_step


class Samples(torch.utils.data.Dataset):
    def __init__(self, size, work):
        self.size, self.work = size, work

    def __len__(self):
        return 1 << 20

    def __getitem__(self, i):
        x = torch.randn(3, self.size, self.size)
        for _ in range(self.work):  # CPU work per sample, like decoding and augmenting an image
            x = F.avg_pool2d(x.unsqueeze(0), 3, 1, 1).squeeze(0)
        return x, i % 10


def loader0_step():
    import torchvision
    model = torchvision.models.resnet18(num_classes=10).to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    batches = iter(torch.utils.data.DataLoader(Samples(128, 2), batch_size=32, num_workers=0))

    def train_step():
        x, y = next(batches)
        opt.zero_grad(set_to_none=True)
        F.cross_entropy(model(x.to(dev)), y.to(dev)).backward()
        opt.step()
    return train_step


def loader2_step():
    model = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(), nn.Conv2d(64, 64, 3, padding=1), nn.ReLU(),
                          nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10)).to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    batches = iter(torch.utils.data.DataLoader(Samples(160, 4), batch_size=48, num_workers=2))

    def train_step():
        x, y = next(batches)
        opt.zero_grad(set_to_none=True)
        F.cross_entropy(model(x.to(dev, non_blocking=True)), y.to(dev, non_blocking=True)).backward()
        opt.step()
    return train_step


MAKERS = {"item": item_step, "sync": sync_step, "loader0": loader0_step, "loader2": loader2_step}
if WORKLOAD not in MAKERS:
    sys.exit("unknown workload %s (one of %s)" % (WORKLOAD, ", ".join(MAKERS)))
train_step = MAKERS[WORKLOAD]()
for _ in range(WARMUP):
    train_step()
torch.cuda.synchronize()
t0 = time.perf_counter()
if MODE == "plain":
    for _ in range(STEPS):
        train_step()
else:
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], with_stack=MODE == "stack") as prof:
        for _ in range(STEPS):
            train_step()
            prof.step()
    if TRACE:
        prof.export_chrome_trace(TRACE)
torch.cuda.synchronize()
print("RESULT %s %s %.1f ms per step" % (WORKLOAD, MODE, 1e3 * (time.perf_counter() - t0) / STEPS), flush=True)
