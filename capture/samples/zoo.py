"""The capture zoo (issue #25): today's training steps, each runnable plain (for warpscope-capture)
or under torch.profiler (the reference), with nothing Warpscope-specific in the program.

  python zoo.py WORKLOAD plain
  WS_TRACE=t.json python zoo.py WORKLOAD profiler     # CPU + CUDA trace of the measured steps

Workloads:
  gpt        GPT-style decoder (d 768, 6 layers, causal F.scaled_dot_product_attention on cuDNN's
             fused attention), bf16 autocast, AdamW: cuBLASLt (nvjet) matmuls and cuDNN kernels,
             both launched through the driver API
  gpt_flash  the same on the flash-attention backend
  compile    the same model under torch.compile (Triton kernels, driver launches)
  graph      the same model's whole step (forward, backward, capturable AdamW) in one CUDA graph
  resnet50   ResNet-50, channels_last, AMP (fp16 + GradScaler), SGD
  loader     ResNet-18 fed by a DataLoader whose 2 workers do CPU work per sample: input-bound
  ddp        the GPT step under DistributedDataParallel over NCCL, one GPU per rank, started by
             `torchrun --nproc_per_node 2 zoo.py ddp MODE`; each rank's trace is WS_TRACE with
             ".rankN" before its extension

WS_STEPS measured steps (default 6) after WS_WARMUP (default 3; compile and graph warm up before
that too). The profiler records only the measured steps; a capture records everything, so a
comparison pairs the capture's last kernels with the trace's. Prints `RESULT {...}` with the
median step time.
"""
import json, os, sys
import torch
import torch.nn as nn
import torch.nn.functional as F

WORKLOAD = sys.argv[1] if len(sys.argv) > 1 else "gpt"
MODE = sys.argv[2] if len(sys.argv) > 2 else "plain"
STEPS = int(os.environ.get("WS_STEPS", "6"))
WARMUP = int(os.environ.get("WS_WARMUP", "3"))
torch.manual_seed(0)
dev = "cuda"
if WORKLOAD == "ddp":
    import torch.distributed as dist
    dist.init_process_group("nccl")
    dev = "cuda:%d" % int(os.environ.get("LOCAL_RANK", "0"))
    torch.cuda.set_device(dev)


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.fc1, self.fc2 = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).reshape(b, t, d))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class GPT(nn.Module):
    def __init__(self, vocab=8192, d=768, layers=6, heads=12, seq=512):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(seq, d)
        self.blocks = nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.ln, self.head = nn.LayerNorm(d), nn.Linear(d, vocab, bias=False)

    def forward(self, idx):
        x = self.tok(idx) + self.pos(torch.arange(idx.shape[1], device=idx.device))
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.ln(x))


def gpt_step(backend="cudnn", compiled=False, capturable=False, ddp=False):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    model = GPT().to(dev)
    if ddp:
        model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[torch.cuda.current_device()])
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, capturable=capturable)
    idx = torch.randint(0, 8192, (8, 512), device=dev)
    tgt = torch.randint(0, 8192, (8, 512), device=dev)
    fwd = torch.compile(model) if compiled else model
    chosen = SDPBackend.CUDNN_ATTENTION if backend == "cudnn" else SDPBackend.FLASH_ATTENTION

    def step():
        opt.zero_grad(set_to_none=not capturable)
        with sdpa_kernel(chosen), torch.autocast(dev, dtype=torch.bfloat16):
            loss = F.cross_entropy(fwd(idx).view(-1, 8192), tgt.view(-1))
        loss.backward()
        opt.step()
    return step


def graph_step():
    step = gpt_step(capturable=True)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            step()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        step()
    return graph.replay


def resnet50_step():
    import torchvision
    model = torchvision.models.resnet50().to(dev).to(memory_format=torch.channels_last)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    scaler = torch.amp.GradScaler()
    x = torch.randn(64, 3, 224, 224, device=dev).to(memory_format=torch.channels_last)
    y = torch.randint(0, 1000, (64,), device=dev)

    def step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast(dev, dtype=torch.float16):
            loss = F.cross_entropy(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
    return step


class Synthetic(torch.utils.data.Dataset):
    def __len__(self):
        return 1 << 20

    def __getitem__(self, i):
        x = torch.randn(3, 224, 224)
        for _ in range(3):  # CPU work per sample, like decoding and augmenting an image
            x = F.avg_pool2d(x.unsqueeze(0), 3, 1, 1).squeeze(0)
        return x, i % 1000


def loader_step():
    import torchvision
    model = torchvision.models.resnet18().to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    batches = iter(torch.utils.data.DataLoader(Synthetic(), batch_size=64, num_workers=2, pin_memory=True))

    def step():
        x, y = next(batches)
        opt.zero_grad(set_to_none=True)
        F.cross_entropy(model(x.to(dev, non_blocking=True)), y.to(dev, non_blocking=True)).backward()
        opt.step()
    return step


MAKERS = {
    "gpt": lambda: gpt_step("cudnn"),
    "gpt_flash": lambda: gpt_step("flash"),
    "compile": lambda: gpt_step("cudnn", compiled=True),
    "graph": graph_step,
    "resnet50": resnet50_step,
    "loader": loader_step,
    "ddp": lambda: gpt_step("cudnn", ddp=True),
}
if WORKLOAD not in MAKERS:
    sys.exit("unknown workload %s (one of %s)" % (WORKLOAD, ", ".join(MAKERS)))
train_step = MAKERS[WORKLOAD]()
for _ in range(WARMUP):
    train_step()
torch.cuda.synchronize()

trace = os.environ.get("WS_TRACE")
if trace and WORKLOAD == "ddp":
    root, ext = os.path.splitext(trace)
    trace = "%s.rank%d%s" % (root, torch.distributed.get_rank(), ext)
# Imported here, below the workloads: recorded captures' stacks name their lines.
from timed_steps import step_figures, timed_steps  # noqa: E402
times = timed_steps(train_step, STEPS, profiler={"profiler": True, "profiler_cuda": "cuda"}.get(MODE, False), trace=trace)
print("RESULT " + json.dumps({"workload": WORKLOAD, "mode": MODE, "steps": STEPS, **step_figures(times)}), flush=True)
if WORKLOAD == "ddp":
    torch.distributed.destroy_process_group()
