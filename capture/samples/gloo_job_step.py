"""A 2-rank DDP job on ONE GPU over Gloo, with rank 1 deliberately slow (issue #18).

Only single-GPU machines are lent, and NCCL refuses two ranks on one device, so both ranks share
cuda:0 and reduce gradients through Gloo (host copies). What this exercises: one trace or capture
stream per rank, `distributedInfo`, `gloo:*` collectives, and a straggler whose lateness shows as
the other rank's wait inside the collective.

  torchrun --nproc_per_node 2 gloo_job_step.py profiler DIR   # torch.profiler trace per rank in DIR
  torchrun --nproc_per_node 2 gloo_job_step.py plain          # for warpscope-capture: NVTX step ranges

WS_SLOW_MS (default 30): host time rank 1 spends in a "slow_input_rank1" range before each forward
(a slow data pipeline on one worker). WS_STEPS (default 8) training steps. WS_BACKEND=nccl: the
same job over NCCL, one GPU per rank (a machine with two or more GPUs).
"""
import os, sys, time
import torch, torch.distributed as dist

MODE = sys.argv[1] if len(sys.argv) > 1 else "plain"
TRACE_DIR = sys.argv[2] if len(sys.argv) > 2 else "/tmp/gloo_traces"
STEPS = int(os.environ.get("WS_STEPS", "8"))
SLOW_S = float(os.environ.get("WS_SLOW_MS", "30")) / 1e3

BACKEND = os.environ.get("WS_BACKEND", "gloo")
dist.init_process_group(BACKEND)
rank, world = dist.get_rank(), dist.get_world_size()
DEVICE = int(os.environ.get("LOCAL_RANK", "0")) if BACKEND == "nccl" else 0
torch.cuda.set_device(DEVICE)
torch.manual_seed(0)
# A small MLP block stack: enough kernels per step to see compute, small traces for tests/data.
model = torch.nn.Sequential(*[torch.nn.Sequential(torch.nn.Linear(1024, 1024), torch.nn.GELU())
                              for _ in range(6)], torch.nn.Linear(1024, 10)).cuda()
ddp = torch.nn.parallel.DistributedDataParallel(model, device_ids=[DEVICE])
opt = torch.optim.SGD(ddp.parameters(), lr=0.01)
x = torch.randn(256, 1024, device="cuda")
y = torch.randint(0, 10, (256,), device="cuda")

prof = None
if MODE == "profiler":
    from torch.profiler import profile, ProfilerActivity, schedule
    os.makedirs(TRACE_DIR, exist_ok=True)
    def save(p):
        p.export_chrome_trace(os.path.join(TRACE_DIR, f"{BACKEND}_job_rank{rank}.pt.trace.json"))
    prof = profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True,
                   schedule=schedule(wait=1, warmup=1, active=STEPS - 2), on_trace_ready=save)
    prof.__enter__()

times = []
for i in range(STEPS):
    torch.cuda.nvtx.range_push(f"step {i}")
    t0 = time.perf_counter()
    if rank == 1 and SLOW_S > 0:
        with torch.profiler.record_function("slow_input_rank1"):
            torch.cuda.nvtx.range_push("slow_input_rank1")
            time.sleep(SLOW_S)
            torch.cuda.nvtx.range_pop()
    opt.zero_grad(set_to_none=True)
    torch.nn.functional.cross_entropy(ddp(x), y).backward()
    opt.step()
    torch.cuda.synchronize()
    times.append(time.perf_counter() - t0)
    torch.cuda.nvtx.range_pop()
    if prof:
        prof.step()
if prof:
    prof.__exit__(None, None, None)
dist.barrier()
print(f"rank {rank}/{world} done, step ms: " + " ".join(f"{1e3 * t:.1f}" for t in times), flush=True)
dist.destroy_process_group()
