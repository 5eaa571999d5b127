#!/bin/bash
# GPU-machine run (two GPUs) of the capture's NCCL collectives (issue #25): the zoo's DDP job captured
# with the default activities and with operators and Python stacks, and traced by torch.profiler,
# packed into $OUT/zoo_ddp.tar with what NCCL said about the plugin and each stream's Collective
# records; then waits.py's loader- and sync-bound loops (issue #27) captured and traced, into
# $OUT/waits.tar. Run from the repository root.
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
mkdir -p "$OUT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
python3 -c "import torch; print('torch', torch.__version__, 'nccl', torch.cuda.nccl.version())"
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"
ls $C > /dev/null || exit 1
export NCCL_NVLS_ENABLE=0
run_ddp() { python3 -m torch.distributed.run --nproc_per_node 2 $S/zoo.py ddp "$@"; }
if [ "$(nvidia-smi -L | wc -l)" -ge 2 ]; then
  rm -rf /tmp/z_ddp /tmp/z_ddpd /tmp/zp_ddp; mkdir -p /tmp/zp_ddp
  echo "== ddp default capture: $(NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV $C -q -o /tmp/z_ddpd -- python3 -m torch.distributed.run --nproc_per_node 2 $S/zoo.py ddp plain 2>&1 | grep -iE 'RESULT|rror|warpscope|profiler' | sort | uniq -c | head -12)"
  echo "== ddp capture --torch-ops --py-stacks: $($C -q --torch-ops --py-stacks -o /tmp/z_ddp -- python3 -m torch.distributed.run --nproc_per_node 2 $S/zoo.py ddp plain 2>&1 | grep -E 'RESULT|rror|warpscope' | tr '\n' ' ')"
  echo "== ddp profiler: $(WS_TRACE=/tmp/zp_ddp/ddp.pt.trace.json run_ddp profiler 2>&1 | grep -E 'RESULT|rror' | tr '\n' ' ')"
  for d in z_ddpd z_ddp; do
    for f in /tmp/$d/*.wscap; do
      echo "-- $f"; $B/wscap-dump -n 0 "$f" | grep -E "^(Kernel|Api|NvtxRange|Collective|Footer|Error) " | tr '\n' ' '; echo
      $B/wscap-dump -n -1 "$f" | grep "^Collective" | head -3
      $B/wscap-dump -n -1 "$f" | grep "^Collective" | awk '{print $6}' | sort | uniq -c
      [ "$(stat -c %s $f)" -gt 100000 ] && gzip -9 -c "$f" > /tmp/zp_ddp/$d.$(basename $f).gz
    done
  done
  gzip -9 /tmp/zp_ddp/*.json
  tar -C /tmp/zp_ddp -cf $OUT/zoo_ddp.tar .
fi
rm -rf /tmp/zw; mkdir -p /tmp/zw
for w in loader sync; do
  echo "== waits $w capture: $($C -q --torch-ops --py-stacks -o /tmp/zw_$w -- python3 $S/waits.py $w plain 2>&1 | grep -E 'RESULT|rror|warpscope' | tr '\n' ' ')"
  echo "== waits $w profiler: $(WS_TRACE=/tmp/zw/waits_$w.pt.trace.json python3 $S/waits.py $w profiler 2>&1 | grep -E 'RESULT|rror' | tr '\n' ' ')"
  f=$(ls -S /tmp/zw_$w/*.wscap | head -1)
  $B/wscap-dump -n 0 "$f" | grep -E "^(Kernel|Api|NvtxRange|CallStack|Footer) " | tr '\n' ' '; echo
  gzip -9 -c "$f" > /tmp/zw/waits_$w.wscap.gz
done
gzip -9 /tmp/zw/*.json
tar -C /tmp/zw -cf $OUT/waits.tar .
ls -la $OUT
