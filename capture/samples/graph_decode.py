"""CUDA graph workloads (issue #48): an inference decoder run eagerly, from CUDA graphs, under
torch.compile's CUDA graph trees, and a graph captured on a side stream with copy and set nodes;
nothing Warpscope-specific in the program.

  python graph_decode.py WORKLOAD plain
  WS_TRACE=t.json python graph_decode.py WORKLOAD profiler   # CPU + CUDA trace of the measured steps

Workloads (bf16, batch 4, a decoder of 8 layers, d 1024, 16 heads, RMSNorm, SwiGLU, F.scaled_dot_product_attention
over a static KV cache of 256 positions; a step prefills a 64-token prompt eagerly, then decodes 32 tokens):
  eager      each token's forward run eagerly (launch-bound: ~13 us of host time per kernel)
  graph      each token's forward replayed from one torch.cuda.CUDAGraph captured once (static token,
             position and KV cache)
  compile    the decoder's prompt forward (no cache) under torch.compile(mode="reduce-overhead"): Inductor's
             Triton kernels replayed from CUDA graph trees; a step runs it 4 times
  sidestream a graph captured on a side stream holding a device-to-device copy (memcpy node), a
             cuMemsetD32Async (memset node) and kernels, replayed 64 times a step

WS_STEPS measured steps (default 6) after WS_WARMUP (default 2; graphs are captured before that).
Each token's forward runs inside record_function("decode_token") in every workload, so a trace
pairs tokens. Prints `RESULT {...}` with the median step time (timed_steps.py; WS_TOGGLE_STEPS
switches recording on and off in one process, for the overhead rounds).
"""
import ctypes, json, os, sys
import torch
import torch.nn as nn
import torch.nn.functional as F

WORKLOAD = sys.argv[1] if len(sys.argv) > 1 else "graph"
MODE = sys.argv[2] if len(sys.argv) > 2 else "plain"
STEPS = int(os.environ.get("WS_STEPS", "6"))
WARMUP = int(os.environ.get("WS_WARMUP", "2"))
torch.manual_seed(0)
dev = "cuda"
B, D, H, LAYERS, FF, VOCAB, CACHE, PROMPT, TOKENS = 4, 1024, 16, 8, 2816, 32000, 256, 64, 32


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm1, self.norm2 = nn.RMSNorm(D), nn.RMSNorm(D)
        self.qkv, self.out = nn.Linear(D, 3 * D, bias=False), nn.Linear(D, D, bias=False)
        self.gate, self.up = nn.Linear(D, FF, bias=False), nn.Linear(D, FF, bias=False)
        self.down = nn.Linear(FF, D, bias=False)
        self.register_buffer("k_cache", torch.zeros(B, H, CACHE, D // H))
        self.register_buffer("v_cache", torch.zeros(B, H, CACHE, D // H))

    def attend(self, x, pos):
        b, t, _ = x.shape
        q, k, v = self.qkv(self.norm1(x)).split(D, dim=2)
        q, k, v = (z.view(b, t, H, D // H).transpose(1, 2) for z in (q, k, v))
        if pos is None:  # the prompt: causal attention over itself, its keys and values into the cache
            self.k_cache[:, :, :t].copy_(k)
            self.v_cache[:, :, :t].copy_(v)
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:  # one token at the position `pos` holds (a device tensor, so a graph replays any position)
            self.k_cache.index_copy_(2, pos, k)
            self.v_cache.index_copy_(2, pos, v)
            mask = (torch.arange(CACHE, device=x.device) <= pos).view(1, 1, 1, CACHE)
            y = F.scaled_dot_product_attention(q, self.k_cache, self.v_cache, attn_mask=mask)
        return self.out(y.transpose(1, 2).reshape(b, t, D))

    def forward(self, x, pos=None):
        x = x + self.attend(x, pos)
        return x + self.down(F.silu(self.gate(self.norm2(x))) * self.up(self.norm2(x)))


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, D)
        self.layers = nn.ModuleList(Layer() for _ in range(LAYERS))
        self.norm = nn.RMSNorm(D)
        self.head = nn.Linear(D, VOCAB, bias=False)

    def forward(self, tokens, pos=None):
        x = self.embed(tokens)
        for layer in self.layers:
            x = layer(x, pos)
        return self.head(self.norm(x))


def decoder():
    return Decoder().to(dev, torch.bfloat16).eval()


def decode_step(graphed):
    model = decoder()
    prompt = torch.randint(0, VOCAB, (B, PROMPT), device=dev)
    token = torch.zeros(B, 1, dtype=torch.long, device=dev)
    pos = torch.zeros(1, dtype=torch.long, device=dev)

    def next_token():  # one token's forward: the work a graph captures
        logits = model(token, pos)
        token.copy_(logits[:, -1].argmax(-1, keepdim=True))
        pos.add_(1)

    replay = next_token
    if graphed:
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.no_grad(), torch.cuda.stream(side):
            for _ in range(3):
                next_token()
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.no_grad(), torch.cuda.graph(graph):
            next_token()
        replay = graph.replay

    def step():
        with torch.no_grad():
            with torch.profiler.record_function("prefill"):
                logits = model(prompt)
            token.copy_(logits[:, -1].argmax(-1, keepdim=True))
            pos.fill_(PROMPT)
            for _ in range(TOKENS):
                with torch.profiler.record_function("decode_token"):
                    replay()
    return step


def compile_step():
    model = decoder()
    compiled = torch.compile(model, mode="reduce-overhead")
    prompt = torch.randint(0, VOCAB, (B, PROMPT), device=dev)
    with torch.no_grad():
        for _ in range(3):  # compiles, records the CUDA graph tree, replays it
            compiled(prompt)

    def step():
        with torch.no_grad():
            for _ in range(4):
                with torch.profiler.record_function("decode_token"):
                    compiled(prompt)
    return step


def sidestream_step():
    src = torch.randn(1 << 22, device=dev)
    dst = torch.empty_like(src)
    flags = torch.empty(1 << 20, dtype=torch.int32, device=dev)
    weight = torch.randn(1024, 1024, device=dev, dtype=torch.bfloat16)
    acts = torch.randn(256, 1024, device=dev, dtype=torch.bfloat16)
    libcuda = ctypes.CDLL("libcuda.so.1")
    libcuda.cuMemsetD32Async.argtypes = [ctypes.c_uint64, ctypes.c_uint, ctypes.c_size_t, ctypes.c_void_p]

    def work(stream):
        dst.copy_(src)  # contiguous, same dtype: a cudaMemcpyAsync, a memcpy node
        libcuda.cuMemsetD32Async(flags.data_ptr(), 7, flags.numel(), ctypes.c_void_p(stream.cuda_stream))
        out = torch.relu(acts @ weight)
        dst.mul_(0.5)
        return out

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        work(side)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    capture = torch.cuda.Stream()
    with torch.cuda.graph(graph, stream=capture):
        work(capture)

    def step():
        for _ in range(64):
            with torch.profiler.record_function("decode_token"):
                graph.replay()
    return step


MAKERS = {
    "eager": lambda: decode_step(False),
    "graph": lambda: decode_step(True),
    "compile": compile_step,
    "sidestream": sidestream_step,
}
if WORKLOAD not in MAKERS:
    sys.exit("unknown workload %s (one of %s)" % (WORKLOAD, ", ".join(MAKERS)))
step_fn = MAKERS[WORKLOAD]()
for _ in range(WARMUP):
    step_fn()
torch.cuda.synchronize()

# Imported here, below the workloads: recorded captures' stacks name their lines.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timed_steps import step_figures, timed_steps  # noqa: E402
times = timed_steps(step_fn, STEPS, profiler={"profiler": True, "profiler_cuda": "cuda"}.get(MODE, False),
                    trace=os.environ.get("WS_TRACE"))
print("RESULT " + json.dumps({"workload": WORKLOAD, "mode": MODE, "steps": STEPS, **step_figures(times)}), flush=True)
