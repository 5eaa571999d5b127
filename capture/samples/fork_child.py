"""A CUDA process that forks a child which exits through the normal exit path (running atexit
handlers) while the parent keeps tracing: the parent's stream must stay intact and the child must
neither write into it nor hang."""
import os, sys, torch
a = torch.ones(1 << 20, device="cuda")
pid = os.fork()
if pid == 0:
    sum(range(100000))
    sys.exit(0)
os.waitpid(pid, 0)
for _ in range(5):
    a = a * 2
torch.cuda.synchronize()
print("fork_child: parent done", float(a[0]))
