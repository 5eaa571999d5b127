#!/bin/bash
# On a 2-GPU machine: a 2-rank NCCL (DDP) capture (one stream per rank), PM sampling checks and a
# longer step-time comparison. Results land in $OUT.
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
mkdir -p "$OUT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j32 2>&1 | grep -E "warning|error"
nvcc -O2 -arch=sm_90 -o $B/vector_add $S/vector_add.cu || exit 1
echo "== DDP 2 ranks"
rm -rf /tmp/cap_ddp
$C -o /tmp/cap_ddp -- python3 -m torch.distributed.run --nproc_per_node 2 $S/ddp_step.py; echo "exit $?"
for f in /tmp/cap_ddp/*.wscap; do
  echo "== $f"; $B/wscap-dump -n 1 "$f" | grep -o 'rank=[-0-9]*'
  $B/wscap-dump -n -1 "$f" | grep ' Kernel ' | grep -o 'nameId=[0-9]*("[^"]*nccl[^"]*")' | sort | uniq -c | head -3
done
tar czf $OUT/ddp.tar.gz -C /tmp cap_ddp
echo "== PM sampling"
rm -rf /tmp/cap_pmv; MALLOC_CHECK_=3 $C -o /tmp/cap_pmv --activities default,pm -- $B/vector_add --seconds 2; echo "exit $?"
rm -rf /tmp/cap_pmk; MALLOC_CHECK_=3 $C -q -o /tmp/cap_pmk --activities kernel,pm -- $B/vector_add --seconds 2; echo "exit $?"
rm -rf /tmp/cap_pm; WS_LABEL=pm $C -o /tmp/cap_pm --activities default,pm -- python3 $S/resnet_step.py plain; echo "exit $?"
f=$(ls -S /tmp/cap_pm/*.wscap | head -1); $B/wscap-dump -n -1 "$f" | grep "MetricSample" | grep -E "metricId=10[123]" | awk 'NR%150==1' | head -30
gzip -c "$f" > $OUT/resnet18_pm.wscap.gz
echo "== step times, 50 measured steps"
export WS_STEPS=60
for round in 1 2 3 4; do
  WS_LABEL=plain python3 $S/resnet_step.py plain
  WS_LABEL=goal $C -q -o /tmp/cap_goal --activities kernel,memcpy,memset,runtime,driver,memory -- python3 $S/resnet_step.py plain
  WS_LABEL=default $C -q -o /tmp/cap_default -- python3 $S/resnet_step.py plain
  WS_LABEL=torchprof python3 $S/resnet_step.py profiler
done
ls -la $OUT
