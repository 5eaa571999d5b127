#!/bin/bash
set -u
# Overhead of the default capture as it is now (without driver and sync), alone and with --py-stacks and
# --torch-ops, on both workloads of overhead_step.py: 5 interleaved rounds (issue #13, run C of capture/README.md).
B=/tmp/b; S=capture/samples; C=$B/warpscope-capture; export WS_STEPS=110
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"
for round in 1 2 3 4 5; do
  for W in resnet18 transformer; do
    echo "round $round $W plain $(python3 $S/overhead_step.py $W plain 2>/dev/null | grep RESULT)"
    echo "round $round $W default $($C -q -o /tmp/c_z -- python3 $S/overhead_step.py $W plain 2>/dev/null | grep RESULT)"; rm -rf /tmp/c_z
    echo "round $round $W pystacks $($C -q --py-stacks -o /tmp/c_z -- python3 $S/overhead_step.py $W plain 2>/dev/null | grep RESULT)"; rm -rf /tmp/c_z
    echo "round $round $W full $($C -q --py-stacks --torch-ops -o /tmp/c_z -- python3 $S/overhead_step.py $W plain 2>/dev/null | grep RESULT)"; rm -rf /tmp/c_z
  done
done
