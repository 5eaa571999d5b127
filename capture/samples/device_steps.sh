#!/bin/bash
# GPU-machine run for step detection (issue #13, part): captures of unmodified training scripts (no
# NVTX, no profiler) whose iterations must be found from the launch pattern alone, and the same
# script under torch.profiler for comparison. Run from the repository root; results land in $OUT.
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
mkdir -p "$OUT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
python3 -c "import torch; print('torch', torch.__version__)"
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error" ; ls $C || exit 1
echo "== transformer, plain (no markers), 12 steps"
rm -rf /tmp/cap_tp; WS_STEPS=12 $C -q -o /tmp/cap_tp -- python3 $S/transformer_step.py plain; echo "exit $?"
ls -la /tmp/cap_tp; f=$(ls -S /tmp/cap_tp/*.wscap | head -1); gzip -9 -c "$f" > $OUT/transformer_plain.wscap.gz
echo "== ResNet-18, no NVTX, 12 steps"
rm -rf /tmp/cap_rp; WS_STEPS=12 WS_NVTX=0 $C -q -o /tmp/cap_rp -- python3 $S/resnet_step.py plain; echo "exit $?"
f=$(ls -S /tmp/cap_rp/*.wscap | head -1); gzip -9 -c "$f" > $OUT/resnet18_plain.wscap.gz
echo "== transformer under torch.profiler, 12 steps"
WS_STEPS=12 WS_TRACE=/tmp/transformer_prof.json python3 $S/transformer_step.py profiler; echo "exit $?"
gzip -9 -c /tmp/transformer_prof.json > $OUT/transformer_prof.json.gz
ls -la $OUT
