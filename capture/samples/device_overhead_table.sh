#!/bin/bash
# The capture overhead table of issue #13: interleaved rounds of one workload of overhead_step.py
# (resnet18 or transformer), each round running every configuration once, 110 steps each (median of
# the last 100):
#   plain     uninstrumented
#   profiler  torch.profiler, CPU + CUDA activities
#   lean      warpscope-capture --activities kernel,runtime,memory
#   nodrvsync warpscope-capture --activities default,-driver,-sync
#   default   warpscope-capture (default activities)
#   full      warpscope-capture --py-stacks --torch-ops (default + Python stacks + operators)
# Usage: WORKLOAD=resnet18 ROUNDS=5 bash capture/samples/device_overhead_table.sh
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
W=${WORKLOAD:-resnet18}; ROUNDS=${ROUNDS:-5}; export WS_STEPS=${WS_STEPS:-110}
mkdir -p "$OUT"
[ -x $C ] || { cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"; }
ls $C > /dev/null || exit 1
for round in $(seq $ROUNDS); do
  r() { echo "round $round $W $1 $(shift; "$@" 2>/dev/null | grep RESULT)"; rm -rf /tmp/c_x; }
  r plain python3 $S/overhead_step.py $W plain
  r profiler python3 $S/overhead_step.py $W profiler
  r lean $C -q --activities kernel,runtime,memory -o /tmp/c_x -- python3 $S/overhead_step.py $W plain
  r nodrvsync $C -q --activities default,-driver,-sync -o /tmp/c_x -- python3 $S/overhead_step.py $W plain
  r default $C -q -o /tmp/c_x -- python3 $S/overhead_step.py $W plain
  r full $C -q --py-stacks --torch-ops -o /tmp/c_x -- python3 $S/overhead_step.py $W plain
done
