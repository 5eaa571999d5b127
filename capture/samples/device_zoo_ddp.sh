#!/bin/bash
# GPU-machine run of the zoo's 2-GPU DDP job (issue #25), on a machine of two GPUs: captured with
# operators and Python stacks (one stream per rank and the launcher's) and traced by torch.profiler
# per rank, packed into $OUT/zoo_ddp.tar; then the NCCL domain's NVTX ranges a capture records.
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
mkdir -p "$OUT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"
ls $C > /dev/null || exit 1
python3 -c "import torch; print('nccl', torch.cuda.nccl.version())"
export NCCL_NVLS_ENABLE=0
rm -rf /tmp/z_ddp /tmp/zp_ddp; mkdir -p /tmp/zp_ddp
echo "== ddp capture: $($C -q --torch-ops --py-stacks -o /tmp/z_ddp -- python3 -m torch.distributed.run --nproc_per_node 2 $S/zoo.py ddp plain 2>&1 | grep -E 'RESULT|rror|warpscope' | tr '\n' ' ')"
echo "== ddp profiler: $(WS_TRACE=/tmp/zp_ddp/ddp.pt.trace.json python3 -m torch.distributed.run --nproc_per_node 2 $S/zoo.py ddp profiler 2>&1 | grep -E 'RESULT|rror' | tr '\n' ' ')"
ls -la /tmp/z_ddp /tmp/zp_ddp
for f in /tmp/z_ddp/*.wscap; do
  echo "-- $f"; $B/wscap-dump -n 0 "$f" | grep -E "^(Kernel|Api|NvtxRange|CallStack|Footer) " | tr '\n' ' '; echo
  $B/wscap-dump -n -1 "$f" | grep -E 'domainId=[0-9]+\("NCCL"\)' | head -3
  gzip -9 -c "$f" > /tmp/zp_ddp/$(basename $f).gz
done
gzip -9 /tmp/zp_ddp/*.json
tar -C /tmp/zp_ddp -cf $OUT/zoo_ddp.tar .; ls -la $OUT
