#!/bin/bash
# GPU-machine run of the capture zoo (issue #25): each workload of zoo.py captured with operators and
# Python stacks (CAPTURE_ARGS, default `--torch-ops --py-stacks`) and traced by torch.profiler, the
# pairs packed into $OUT/zoo_<workload>.tar (the largest stream of the capture, gzip, and the trace,
# gzip) for capture/samples/zoo_compare.py. The capture runs CAPTURE_STEPS measured steps (default
# 24: operators are recorded while the launches are new, so most steps get theirs by inference,
# inject/operatorwindows.h), the trace the last 6 (zoo.py's default). Then a `pm` capture of the GPT step, with the exit status
# and the stream's last records (does it end with its Footer?).
#   WORKLOADS="gpt compile" bash capture/samples/device_zoo.sh
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
WORKLOADS=${WORKLOADS:-gpt compile graph resnet50 loader}
CAPTURE_ARGS=${CAPTURE_ARGS:---torch-ops --py-stacks}
CAPTURE_STEPS=${CAPTURE_STEPS:-24}
mkdir -p "$OUT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
python3 -c "import torch, sys; print('python', sys.version.split()[0], 'torch', torch.__version__, 'cuda', torch.version.cuda, 'cudnn', torch.backends.cudnn.version())"
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"
ls $C $B/libwarpscope_inject.so > /dev/null || exit 1
for w in $WORKLOADS; do
  rm -rf /tmp/z_$w /tmp/zp_$w; mkdir -p /tmp/zp_$w
  start=$(date +%s)
  echo "== $w capture ($CAPTURE_ARGS): $(WS_STEPS=$CAPTURE_STEPS $C -q $CAPTURE_ARGS -o /tmp/z_$w -- python3 $S/zoo.py $w plain 2>&1 | grep -E 'RESULT|rror|warpscope' | tr '\n' ' ') [$(( $(date +%s) - start )) s]"
  start=$(date +%s)
  echo "== $w profiler: $(WS_TRACE=/tmp/zp_$w/$w.pt.trace.json python3 $S/zoo.py $w profiler 2>&1 | grep -E 'RESULT|rror' | tr '\n' ' ') [$(( $(date +%s) - start )) s]"
  ls -la /tmp/z_$w
  f=$(ls -S /tmp/z_$w/*.wscap | head -1)
  $B/wscap-dump -n 0 "$f" | grep -E "^(Kernel|Api|NvtxRange|CallStack|PyStack|Footer|Error|Dropped) "
  $B/wscap-dump -n -1 "$f" | grep " Error " | head -5
  echo "ranges of PyTorch's ITT domain: $($B/wscap-dump -n -1 "$f" | grep -c 'domainId=[0-9]*("PyTorch")')"
  gzip -9 -c "$f" > /tmp/zp_$w/$w.wscap.gz; gzip -9 /tmp/zp_$w/$w.pt.trace.json
  tar -C /tmp/zp_$w -cf $OUT/zoo_$w.tar . ; ls -la $OUT/zoo_$w.tar
done
for pm in $(seq ${PM:-1}); do
  echo "== pm $pm: gpt, 3 steps, --activities default,pm"
  rm -rf /tmp/z_pm
  WS_STEPS=3 timeout 180 $C -o /tmp/z_pm --activities default,pm -- python3 $S/zoo.py gpt plain 2>&1 | tail -5
  echo "exit status ${PIPESTATUS[0]}"
  f=$(ls -S /tmp/z_pm/*.wscap | head -1)
  $B/wscap-dump -n 0 "$f" | grep -E "^(Kernel|MetricSample|Flush|Footer|Error) "
  $B/wscap-dump -n -1 "$f" | tail -3
  gzip -9 -c "$f" > $OUT/gpt_pm.wscap.gz
done
ls -la $OUT
