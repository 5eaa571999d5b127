#!/bin/bash
# Two-GPU run for issue #18: the job of gloo_job_step.py over NCCL (one GPU per rank, rank 1 slow),
# as torch.profiler traces per rank and as a warpscope-capture folder (NVTX steps, NCCL kernels,
# NVML). Short on purpose: it fits a few minutes of device time. Results land in $OUT.
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 WS_BACKEND=nccl WS_STEPS=8
mkdir -p "$OUT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
(cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j32 2>&1 | grep -E "warning|error") &
RUN="python3 -m torch.distributed.run --nproc_per_node 2 --master_port 29518"
timeout 120 $RUN $S/gloo_job_step.py profiler /tmp/nccl_traces 2>&1 | grep -E "done|Error|error" | head; echo "profiler exit $?"
for f in /tmp/nccl_traces/*.json; do gzip -9 -c "$f" > $OUT/$(basename $f).gz; done
wait; ls $C || exit 1
rm -rf /tmp/cap_nccl; timeout 120 $C -q -o /tmp/cap_nccl -- $RUN $S/gloo_job_step.py plain 2>&1 | grep -E "done|rror" | head; echo "capture exit $?"
tar czf $OUT/cap_nccl.tar.gz -C /tmp cap_nccl; ls -la $OUT
