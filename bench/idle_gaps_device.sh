#!/bin/bash
# GPU-machine recordings of bench/idle_gap_workloads.py for the idle-gap classifier (issue #27): each
# workload captured by warpscope-capture with operators and Python stacks (`ops`), captured with the
# default activities (`plain`), and traced by torch.profiler without and with stacks (`pt`, `pt_stack`);
# everything gzipped into $OUT/idle_gaps.tar.   WORKLOADS="item loader0" bash bench/idle_gaps_device.sh
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; W=bench/idle_gap_workloads.py; C=$B/warpscope-capture; D=/tmp/idle_gaps
WORKLOADS=${WORKLOADS:-item sync loader0 loader2}
mkdir -p "$OUT" $D; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
python3 -c "import torch, sys; print('python', sys.version.split()[0], 'torch', torch.__version__)"
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"
ls $C > /dev/null || exit 1
for w in $WORKLOADS; do
  for cfg in ops plain; do
    rm -rf /tmp/c_$w; args=""; [ $cfg = ops ] && args="--torch-ops --py-stacks"
    echo "== $w capture $cfg: $($C -q $args -o /tmp/c_$w -- python3 $W $w plain 2>&1 | grep -E 'RESULT|rror' | tr '\n' ' ')"
    f=$(ls -S /tmp/c_$w/*.wscap | head -1); gzip -9 -c "$f" > $D/${w}_$cfg.wscap.gz
  done
  echo "== $w profiler: $(python3 $W $w profiler $D/${w}.pt.trace.json 2>&1 | grep -E 'RESULT|rror' | tr '\n' ' ')"
  echo "== $w profiler with_stack: $(python3 $W $w stack $D/${w}_stack.pt.trace.json 2>&1 | grep -E 'RESULT|rror' | tr '\n' ' ')"
  gzip -9 -f $D/*.json
done
ls -la $D; tar -C $D -cf $OUT/idle_gaps.tar .; ls -la $OUT
