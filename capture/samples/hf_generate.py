"""Hugging Face transformers' own generate() loop (issues #48 and #49): a LlamaForCausalLM with random
weights (bf16, 8 layers, d 1024, 16 heads, 4 KV heads, SDPA), 4 prompts of 64 tokens, 24 new tokens
each; nothing Warpscope-specific in the program.

  python hf_generate.py WORKLOAD plain
  WS_TRACE=t.json python hf_generate.py WORKLOAD profiler   # CPU + CUDA trace (shapes, FLOPs) of the steps
  python hf_generate.py WORKLOAD flops      # torch.utils.flop_counter's FLOPs of one generate() call, by operator

Workloads:
  eager   generate() with its default dynamic KV cache: one launch per kernel, a host-bound decode loop
  static  generate(cache_implementation="static"): transformers compiles the decoding forward with
          torch.compile(mode="reduce-overhead"), so each decoded token replays CUDA graph trees
A step is one generate() call. WS_STEPS measured steps (default 4) after WS_WARMUP (default 2: the
static workload compiles and records its graphs there). Prints `RESULT {...}` (timed_steps.py).
"""
import json, os, sys

import torch
import transformers
from transformers import LlamaConfig, LlamaForCausalLM

WORKLOAD = sys.argv[1] if len(sys.argv) > 1 else "eager"
MODE = sys.argv[2] if len(sys.argv) > 2 else "plain"
STEPS = int(os.environ.get("WS_STEPS", "4"))
WARMUP = int(os.environ.get("WS_WARMUP", "2"))
BATCH, PROMPT, NEW = 4, 64, 24
torch.manual_seed(0)

config = LlamaConfig(vocab_size=32000, hidden_size=1024, intermediate_size=2816, num_hidden_layers=8,
                     num_attention_heads=16, num_key_value_heads=4, max_position_embeddings=512)
model = LlamaForCausalLM(config).to("cuda", torch.bfloat16).eval()
model.config._attn_implementation = "sdpa"
prompts = torch.randint(3, config.vocab_size, (BATCH, PROMPT), device="cuda")
attention = torch.ones_like(prompts)
extra = {"cache_implementation": "static"} if WORKLOAD == "static" else {}
if WORKLOAD not in ("eager", "static"):
    sys.exit("unknown workload %s (eager or static)" % WORKLOAD)


def step():
    with torch.no_grad():
        model.generate(prompts, attention_mask=attention, max_new_tokens=NEW, min_new_tokens=NEW, do_sample=False,
                       pad_token_id=0, **extra)


for _ in range(WARMUP):
    step()
torch.cuda.synchronize()

if MODE == "flops":
    # The reference for Warpscope's FLOP estimates (issue #49's roofline): PyTorch's own counter.
    from torch.utils.flop_counter import FlopCounterMode
    # Its SDPA formulas assert on grouped-query attention (4 KV heads for 16 query heads: "query/key/value
    # shapes are incompatible", torch 2.11), so attention counts nothing here: GEMMs only.
    aten = torch.ops.aten
    skip = {op: (lambda *args, **kwargs: 0) for op in (
        aten._scaled_dot_product_cudnn_attention, aten._scaled_dot_product_flash_attention,
        aten._scaled_dot_product_efficient_attention, aten._flash_attention_forward, aten._efficient_attention_forward)}
    with FlopCounterMode(display=False, custom_mapping=skip) as counter:
        step()
    counts = {str(op): int(n) for op, n in counter.get_flop_counts().get("Global", {}).items()}
    print("FLOPS " + json.dumps({"total": int(counter.get_total_flops()), "by_operator": counts}), flush=True)
    sys.exit(0)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timed_steps import step_figures, timed_steps  # noqa: E402
times = timed_steps(step, STEPS, profiler=MODE == "profiler", trace=os.environ.get("WS_TRACE"))
print("RESULT " + json.dumps({"workload": WORKLOAD, "mode": MODE, "steps": STEPS, "transformers": transformers.__version__,
                              "compiled": hasattr(model, "_compiled_call"), **step_figures(times)}), flush=True)
