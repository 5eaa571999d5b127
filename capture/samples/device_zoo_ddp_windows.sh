#!/bin/bash
# GPU-machine run (two GPUs) of the zoo's DDP job for tests/data/captures/zoo (issue #25): captured
# with `--torch-ops --py-stacks` (operator windows, 24 measured steps) and traced by torch.profiler
# (6 measured steps), each rank's stream and trace into $OUT/zoo_ddp.tar as ddp_rankN.*.
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
mkdir -p "$OUT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"
export NCCL_NVLS_ENABLE=0
rm -rf /tmp/z_ddp /tmp/zp_ddp; mkdir -p /tmp/zp_ddp
echo "== capture: $(WS_STEPS=24 $C -q --torch-ops --py-stacks -o /tmp/z_ddp -- python3 -m torch.distributed.run --nproc_per_node 2 $S/zoo.py ddp plain 2>&1 | grep -E 'RESULT|rror|warpscope' | tr '\n' ' ')"
echo "== profiler: $(WS_TRACE=/tmp/zp_ddp/ddp.pt.trace.json python3 -m torch.distributed.run --nproc_per_node 2 $S/zoo.py ddp profiler 2>&1 | grep -E 'RESULT|rror' | tr '\n' ' ')"
# The two ranks are the two largest streams; rank order from each stream's RANK environment.
for f in $(ls -S /tmp/z_ddp/*.wscap | head -2); do
  r=$($B/wscap-dump -n 1 "$f" | grep -o 'rank=[0-9]*' | head -1 | cut -d= -f2)
  echo "-- $f rank $r: $($B/wscap-dump -n 0 "$f" | grep -E '^(Kernel|OpsWindow|Collective|Footer) ' | tr '\n' ' ')"
  gzip -9 -c "$f" > /tmp/zp_ddp/ddp_rank$r.wscap.gz
done
for r in 0 1; do gzip -9 -c /tmp/zp_ddp/ddp.pt.trace.rank$r.json > /tmp/zp_ddp/ddp_rank$r.pt.trace.json.gz; done
rm -f /tmp/zp_ddp/*.json
tar -C /tmp/zp_ddp -cf $OUT/zoo_ddp.tar .; ls -la /tmp/zp_ddp
