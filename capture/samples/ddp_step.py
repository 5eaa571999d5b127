"""2-rank DDP ResNet-18 training steps over NCCL (run with torchrun --nproc_per_node 2)."""
import os, time, torch, torch.distributed as dist, torchvision

dist.init_process_group("nccl")
rank = dist.get_rank()
torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
model = torch.nn.parallel.DistributedDataParallel(torchvision.models.resnet18().cuda())
opt = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(32, 3, 224, 224, device="cuda")
y = torch.randint(0, 1000, (32,), device="cuda")
for i in range(20):
    torch.cuda.nvtx.range_push(f"step {i}")
    opt.zero_grad(set_to_none=True)
    torch.nn.functional.cross_entropy(model(x), y).backward()
    opt.step()
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
dist.barrier()
print(f"rank {rank} done", flush=True)
dist.destroy_process_group()
