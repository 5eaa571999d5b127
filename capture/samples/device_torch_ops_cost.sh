#!/bin/bash
# Where --torch-ops' cost goes (issue #13): the bf16 transformer uninstrumented, with torch's
# emit_nvtx switched on by the hook but nothing recording NVTX (torch's own cost), under the default
# capture, and under --torch-ops (torch's cost + CUPTI recording every range). Interleaved rounds.
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
ROUNDS=${ROUNDS:-4}; export WS_STEPS=${WS_STEPS:-60}
mkdir -p "$OUT"; nvidia-smi --query-gpu=name --format=csv,noheader
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"; ls $C || exit 1
# The hook, as a capture writes it.
rm -rf /tmp/c_h; $C -q --torch-ops -o /tmp/c_h -- python3 -c "print(1)" > /dev/null; H=/tmp/c_h/.warpscope-python; ls $H || exit 1
for round in $(seq $ROUNDS); do
  echo "round $round plain $(python3 $S/transformer_step.py plain | grep RESULT)"
  echo "round $round emit_nvtx_only $(PYTHONPATH=$H WARPSCOPE_TORCH_OPS=ops python3 $S/transformer_step.py plain 2>/dev/null | grep RESULT)"
  echo "round $round emit_nvtx_shapes_only $(PYTHONPATH=$H WARPSCOPE_TORCH_OPS=shapes python3 $S/transformer_step.py plain 2>/dev/null | grep RESULT)"
  echo "round $round default $($C -q -o /tmp/c_d -- python3 $S/transformer_step.py plain | grep RESULT)"; rm -rf /tmp/c_d
  echo "round $round torch_ops $($C -q --torch-ops -o /tmp/c_o -- python3 $S/transformer_step.py plain 2>/dev/null | grep RESULT)"; rm -rf /tmp/c_o
done
