#!/bin/bash
# GPU-machine check of --capture-range=cudaProfilerApi (issue #25): workloads switch recording on
# and off with torch.cuda.profiler.start/stop every few steps (timed_steps.toggle_steps), and
# range_check.py checks that every recorded kernel ran inside an on block and each on block has as
# many kernels as the others. A program that never calls cudaProfilerStart gets a warning and no kernels.
# The captures and their logs go to $OUT (range_<workload>.wscap.gz, range_<workload>.json).
#   WORKLOADS="transformer gpt" bash capture/samples/device_capture_range.sh
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
WORKLOADS=${WORKLOADS:-transformer gpt}
RANGE_ARGS=${RANGE_ARGS:---py-stacks --torch-ops}
mkdir -p "$OUT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
[ -x $C ] || { cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"; }
ls $C $B/libwarpscope_inject.so > /dev/null || exit 1
program() {
  case $1 in
    resnet18|transformer) echo "python3 $S/overhead_step.py $1 plain" ;;
    *) echo "python3 $S/zoo.py $1 plain" ;;
  esac
}
status=0
for w in $WORKLOADS; do
  rm -rf /tmp/rc_$w
  start=$(date +%s%N)
  WS_TOGGLE_STEPS=4 WS_TOGGLE_CYCLES=2 WS_TOGGLE_LOG=$OUT/range_$w.json \
    $C -q --capture-range=cudaProfilerApi $RANGE_ARGS -o /tmp/rc_$w -- $(program $w) 2>&1 | grep -E "RESULT|rror|warpscope" | cut -c1-300
  echo "== $w: $(( ($(date +%s%N) - start) / 1000000 )) ms"
  f=$(ls -S /tmp/rc_$w/*.wscap | head -1)
  $B/wscap-dump -n 0 "$f" | grep -E "^(Kernel|Api|NvtxRange|CallStack|OpsWindow|Footer|Error) "
  $B/wscap-dump -n -1 "$f" | grep " Error " | cut -c1-300
  $B/wscap-dump -n -1 "$f" | python3 $S/range_check.py $OUT/range_$w.json || status=1
  gzip -9 -c "$f" > $OUT/range_$w.wscap.gz
done
# Never started: a warning in the stream, nothing recorded, and the program unharmed.
rm -rf /tmp/rn
$C -q --capture-range=cudaProfilerApi -o /tmp/rn -- python3 -c "import torch; x = torch.ones(1 << 20, device='cuda'); print('sum', (x * 2).sum().item())"
echo "never started: exit $?"
$B/wscap-dump -n 0 /tmp/rn/*.wscap | grep -E "^(Kernel|Footer|Error) "
$B/wscap-dump -n -1 /tmp/rn/*.wscap | grep " Error " | cut -c1-300
exit $status
