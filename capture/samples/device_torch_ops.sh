#!/bin/bash
# GPU-machine run for --torch-ops (issue #13, part): step times of ResNet-18 and the bf16
# transformer uninstrumented, under the default capture, with --torch-ops and --torch-ops=shapes
# (interleaved rounds), and small captures with operators for the tests. Results land in $OUT.
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
ROUNDS=${ROUNDS:-2}; export WS_STEPS=${WS_STEPS:-40}
mkdir -p "$OUT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"; ls $C || exit 1
for round in $(seq $ROUNDS); do
  for w in transformer resnet; do
    script=$S/transformer_step.py; [ $w = resnet ] && script=$S/resnet_step.py
    echo "round $round $w plain $(WS_NVTX=0 python3 $script plain | grep RESULT)"
    echo "round $round $w default $(WS_NVTX=0 $C -q -o /tmp/c_d -- python3 $script plain | grep RESULT)"; rm -rf /tmp/c_d
    echo "round $round $w ops $(WS_NVTX=0 $C -q --torch-ops -o /tmp/c_o -- python3 $script plain | grep RESULT)"; rm -rf /tmp/c_o
    echo "round $round $w shapes $(WS_NVTX=0 $C -q --torch-ops=shapes -o /tmp/c_s -- python3 $script plain | grep RESULT)"; rm -rf /tmp/c_s
  done
done
echo "== small captures with operators"
rm -rf /tmp/c_t; WS_STEPS=6 $C -q --torch-ops=shapes -o /tmp/c_t -- python3 $S/transformer_step.py plain; ls -la /tmp/c_t
f=$(ls -S /tmp/c_t/*.wscap | head -1); gzip -9 -c "$f" > $OUT/transformer_torch_ops.wscap.gz
WS_STEPS=6 WS_TRACE=/tmp/t6.json python3 $S/transformer_step.py profiler > /dev/null; gzip -9 -c /tmp/t6.json > $OUT/transformer_prof6.json.gz
ls -la $OUT
