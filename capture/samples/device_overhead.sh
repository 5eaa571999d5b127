#!/bin/bash
# Where the capture overhead of a PyTorch training step comes from (issue #8 goal: ResNet-18 with
# kernels + API + memory <= 1.03x uninstrumented). Builds capture/, then runs resnet_step.py
# uninstrumented and under warpscope-capture with growing activity sets, interleaved over rounds so
# clock/thermal drift hits every configuration alike. Each run prints its median step time (JSON).
# Compare medians over the rounds: single runs under capture vary by up to 15 % on a shared H100.
# Run from the repository root on the GPU machine.
set -u
B=/tmp/bo
S=capture/samples
C=$B/warpscope-capture
ROUNDS=${ROUNDS:-3}
export WS_STEPS=${WS_STEPS:-100}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error" ; test -x $C || exit 1
configs=("kernel" "kernel,runtime" "kernel,runtime,memory" "kernel,runtime,driver,memory" "default,-nvml" "default")
for round in $(seq $ROUNDS); do
  WS_LABEL=plain python3 $S/resnet_step.py plain
  for a in "${configs[@]}"; do
    rm -rf /tmp/co; WS_LABEL="$a" $C -q -o /tmp/co --activities "$a" -- python3 $S/resnet_step.py plain
    echo "  dropped: $($B/wscap-dump -n 0 $(ls -S /tmp/co/*.wscap | head -1) | grep -E '^Dropped ' | tr -s ' ')"
  done
done
