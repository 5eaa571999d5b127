"""ResNet-18 training fed by a DataLoader with worker processes that do CPU work (decode-like
augmentation), for the `host` activity: the workers' CPU use shows up under the training process.
WS_STEPS (default 20), WS_WORKERS (default 2)."""
import os, torch, torchvision

STEPS = int(os.environ.get("WS_STEPS", "20"))


class Synthetic(torch.utils.data.Dataset):
    def __len__(self):
        return 64 * STEPS

    def __getitem__(self, i):
        x = torch.randn(3, 224, 224)
        for _ in range(3):  # CPU work per sample, like decoding and augmenting an image
            x = torch.nn.functional.avg_pool2d(x.unsqueeze(0), 3, 1, 1).squeeze(0)
        return x, i % 1000


loader = torch.utils.data.DataLoader(Synthetic(), batch_size=64, num_workers=int(os.environ.get("WS_WORKERS", "2")))
model = torchvision.models.resnet18().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for x, y in loader:
    opt.zero_grad(set_to_none=True)
    torch.nn.functional.cross_entropy(model(x.cuda(non_blocking=True)), y.cuda()).backward()
    opt.step()
torch.cuda.synchronize()
print("done", flush=True)
