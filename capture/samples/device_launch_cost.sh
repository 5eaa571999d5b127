#!/bin/bash
# What each activity set adds to a kernel launch (issue #25): launch_cost.cu plain and under
# warpscope-capture with each set in CONFIGS, interleaved over ROUNDS rounds (order rotated).
# Prints `round R CONFIG RESULT {...}` lines.
#   ROUNDS=5 bash capture/samples/device_launch_cost.sh
set -u
B=/tmp/b; S=capture/samples; C=$B/warpscope-capture; ROUNDS=${ROUNDS:-5}
CONFIGS=${CONFIGS:-plain kernel default default,runtime}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
[ -x $C ] || { cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"; }
[ -x /tmp/launch_cost ] || nvcc -O2 -o /tmp/launch_cost $S/launch_cost.cu -lcuda || exit 1
read -r -a configs <<< "$CONFIGS"
for round in $(seq $ROUNDS); do
  for i in $(seq 0 $(( ${#configs[@]} - 1 ))); do
    c=${configs[$(( (i + round) % ${#configs[@]} ))]}
    rm -rf /tmp/lc
    if [ "$c" = plain ]; then cmd="/tmp/launch_cost ${N:-200000}"
    else cmd="$C -q --activities $c -o /tmp/lc -- /tmp/launch_cost ${N:-200000}"; fi
    echo "round $round $c $($cmd 2>&1 | grep RESULT)"
  done
done
date -u
