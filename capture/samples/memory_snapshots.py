"""PyTorch caching-allocator snapshots for issue #28, recorded on the GPU machine.

Usage: python3 memory_snapshots.py train|oom|dict OUT_DIR

train: a small conv net trains 4 steps under _record_memory_history with Python stacks; the same run
       is traced by torch.profiler (profile_memory, with_stack) so the snapshot's time_us can be
       matched against the trace's clock. Writes train.pickle and train_trace.json.
oom:   the process is limited to a small fraction of the GPU, a model's activations grow until the
       allocator raises OutOfMemoryError; the snapshot is dumped in the except block, so its
       device_traces end with the 'oom' entry. Writes oom.pickle (C++ and Python stacks).
dict:  torch.cuda.memory._snapshot() pickled by hand (the other way users save one), gzip-compressed.
"""
import gzip
import os
import pickle
import sys

import torch
import torch.nn as nn


def small_net():
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
        nn.AdaptiveAvgPool2d(4), nn.Flatten(), nn.Linear(64 * 16, 10)).cuda()


def train_steps(model, opt, steps, batch=32):
    for _ in range(steps):
        x = torch.randn(batch, 3, 64, 64, device="cuda")
        y = torch.randint(0, 10, (batch,), device="cuda")
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    torch.cuda.synchronize()


def record_train(out):
    torch.cuda.memory._record_memory_history(max_entries=20000, stacks="python")
    model = small_net()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    from torch.profiler import profile, ProfilerActivity
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                 profile_memory=True, record_shapes=True, with_stack=True) as prof:
        train_steps(model, opt, 4)
    torch.cuda.memory._dump_snapshot(os.path.join(out, "train.pickle"))
    torch.cuda.memory._record_memory_history(enabled=None)
    prof.export_chrome_trace(os.path.join(out, "train_trace.json"))


def record_oom(out):
    torch.cuda.set_per_process_memory_fraction(768 * 2**20 / torch.cuda.get_device_properties(0).total_memory)
    torch.cuda.memory._record_memory_history(max_entries=5000, stacks="all")
    kept = []
    try:  # the limit counts the allocator's reserve only; training fits, the growing list does not
        model = small_net()
        opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
        train_steps(model, opt, 2)
        batch = 64
        while True:  # activations kept alive grow until the allocator gives up
            x = torch.randn(batch, 3, 64, 64, device="cuda")
            kept.append(model[0](x))
            batch *= 2
    except torch.cuda.OutOfMemoryError as e:
        print("OOM as intended:", str(e).splitlines()[0])
        torch.cuda.memory._dump_snapshot(os.path.join(out, "oom.pickle"))
    torch.cuda.memory._record_memory_history(enabled=None)


def record_dict(out):
    torch.cuda.memory._record_memory_history(max_entries=3000)
    model = small_net()
    opt = torch.optim.SGD(model.parameters(), lr=1e-2)
    train_steps(model, opt, 2)
    snap = torch.cuda.memory._snapshot()
    with gzip.open(os.path.join(out, "dict.pickle.gz"), "wb") as f:
        pickle.dump(snap, f, protocol=4)
    torch.cuda.memory._record_memory_history(enabled=None)


if __name__ == "__main__":
    mode, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    {"train": record_train, "oom": record_oom, "dict": record_dict}[mode](out)
    print(mode, "done:", torch.__version__, torch.cuda.get_device_name(0))
