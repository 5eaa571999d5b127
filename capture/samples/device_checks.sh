#!/bin/bash
# The GPU-machine checks of issue #8: build capture/ standalone, capture a native CUDA program and
# ResNet-18 training, compare step times and kernel counts with torch.profiler, SIGKILL a target
# mid-run, PM sampling. Run from the repository root; small results land in $OUT.
set -u
OUT=${OUT:-/tmp/out}
B=/tmp/b
S=capture/samples
C=$B/warpscope-capture
mkdir -p "$OUT"
echo "== machine"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "== build"
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error|Built target" || exit 1
nvcc -O2 -arch=sm_90 -o $B/vector_add $S/vector_add.cu || exit 1
echo "== (a) native CUDA program"
rm -rf /tmp/cap_native; $C -o /tmp/cap_native -- $B/vector_add; echo "exit $?"
f=$(ls /tmp/cap_native/*.wscap | head -1); $B/wscap-dump -n 0 "$f"; cp "$f" $OUT/vector_add.wscap
echo "== (b) ResNet-18 batch 64: step time plain vs captured"
run() { label=$1; shift; rm -rf /tmp/cap_$label; WS_LABEL=$label "$@"; }
for round in 1 2 3; do
  run plain python3 $S/resnet_step.py plain
  run default $C -q -o /tmp/cap_default -- python3 $S/resnet_step.py plain
  run goal $C -q -o /tmp/cap_goal --activities kernel,memcpy,memset,runtime,driver,memory -- python3 $S/resnet_step.py plain
  run kernel $C -q -o /tmp/cap_kernel --activities kernel -- python3 $S/resnet_step.py plain
done
WS_LABEL=torchprof python3 $S/resnet_step.py profiler
f=$(ls -S /tmp/cap_default/*.wscap | head -1)
$B/wscap-dump -n -1 "$f" | python3 $S/wscap_stats.py 10
$B/wscap-dump -n 0 "$f"; gzip -c "$f" > $OUT/resnet18.wscap.gz
echo "== (c) SIGKILL mid-run"
rm -rf /tmp/cap_kill; $C -o /tmp/cap_kill -- $B/vector_add --seconds 30 &
sleep 8; f=$(ls /tmp/cap_kill/*.wscap); kill -9 "$(basename "$f" .wscap)"; wait; echo "capture exit $?"
$B/wscap-dump -n 0 "$f"; gzip -c "$f" > $OUT/sigkill.wscap.gz
echo "== (d) fork"
rm -rf /tmp/cap_fork; $C -o /tmp/cap_fork -- python3 $S/fork_child.py; echo "exit $?"
echo "== (e) PM sampling"
rm -rf /tmp/cap_pmv; MALLOC_CHECK_=3 $C -o /tmp/cap_pmv --activities default,pm -- $B/vector_add --seconds 2; echo "exit $?"
rm -rf /tmp/cap_pm; MALLOC_CHECK_=3 WS_LABEL=pm $C -o /tmp/cap_pm --activities default,pm -- python3 $S/resnet_step.py plain; echo "exit $?"
f=$(ls -S /tmp/cap_pm/*.wscap | head -1); $B/wscap-dump -n -1 "$f" | grep -E "Error|MetricDescriptor" ; $B/wscap-dump -n -1 "$f" | grep "MetricSample" | grep -E "metricId=10[123]" | awk 'NR%200==1'
ls -la $OUT
