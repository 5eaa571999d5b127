#!/bin/bash
# GPU-machine check of Python stacks, the NVTX recorder and --step-function (issue #13): small
# captures for the tests, then where the cost of --torch-ops goes now that the injection library
# records push/pop ranges itself (WARPSCOPE_NVTX_VIA_CUPTI=1: the old CUPTI path). Results in $OUT.
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
mkdir -p "$OUT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 --version
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"; ls $C || exit 1
echo "== transformer, 6 steps, --torch-ops --py-stacks --step-function train_step"
rm -rf /tmp/c_t; WS_STEPS=6 $C --torch-ops --py-stacks --step-function train_step -o /tmp/c_t -- \
  python3 $S/overhead_step.py transformer plain 2>&1 | tail -12
f=$(ls -S /tmp/c_t/*.wscap | head -1); $B/wscap-dump "$f" | head -40; gzip -9 -c "$f" > $OUT/transformer_ops_pystacks.wscap.gz
WS_STEPS=6 WS_TRACE=/tmp/t6.json python3 $S/overhead_step.py transformer profiler > /dev/null; gzip -9 -c /tmp/t6.json > $OUT/transformer_prof6.json.gz
echo "== resnet18, 12 steps, --py-stacks"
rm -rf /tmp/c_r; WS_STEPS=12 $C -q --py-stacks -o /tmp/c_r -- python3 $S/overhead_step.py resnet18 plain
f=$(ls -S /tmp/c_r/*.wscap | head -1); gzip -9 -c "$f" > $OUT/resnet18_pystacks.wscap.gz
echo "== cost, transformer, ${ROUNDS:=2} rounds of 60 steps"
export WS_STEPS=60
for round in $(seq $ROUNDS); do
  r() { echo "round $round $1 $(shift; "$@" 2>/dev/null | grep RESULT)"; }
  r plain python3 $S/overhead_step.py transformer plain
  r default $C -q -o /tmp/c1 -- python3 $S/overhead_step.py transformer plain; rm -rf /tmp/c1
  r ops_via_cupti env WARPSCOPE_NVTX_VIA_CUPTI=1 $C -q --torch-ops -o /tmp/c2 -- python3 $S/overhead_step.py transformer plain; rm -rf /tmp/c2
  r ops_own $C -q --torch-ops -o /tmp/c3 -- python3 $S/overhead_step.py transformer plain; rm -rf /tmp/c3
  r pystacks $C -q --py-stacks -o /tmp/c4 -- python3 $S/overhead_step.py transformer plain; rm -rf /tmp/c4
  r ops_pystacks $C -q --torch-ops --py-stacks -o /tmp/c5 -- python3 $S/overhead_step.py transformer plain; rm -rf /tmp/c5
done
ls -la $OUT
