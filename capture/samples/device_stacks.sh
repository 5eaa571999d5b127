#!/bin/bash
# The GPU-machine checks of native call stacks (issue #8, "stacks" activity): build capture/
# standalone, capture vector_add built with debug line info with stacks on, and compare ResNet-18
# step times uninstrumented vs default capture vs capture with stacks. Run from the repository
# root; small results land in $OUT. --stack-depth variants: (c).
set -u
OUT=${OUT:-/tmp/out}
B=/tmp/bs
S=capture/samples
C=$B/warpscope-capture
mkdir -p "$OUT"
echo "== machine"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "addr2line: $(command -v addr2line || echo missing) $(addr2line --version 2>/dev/null | head -1)"
echo "== build"
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error|Built target" || exit 1
nvcc -g -lineinfo -O2 -arch=sm_90 -o $B/vector_add $S/vector_add.cu || exit 1
echo "== (a) vector_add with stacks"
rm -rf /tmp/cap_st; $C -o /tmp/cap_st --activities default,stacks -- $B/vector_add; echo "exit $?"
f=$(ls /tmp/cap_st/*.wscap | head -1); $B/wscap-dump -n 0 "$f"
$B/wscap-dump -n -1 "$f" | grep -E " (Module|StackDef|CallStack|Symbol) " | grep -v "libnvidia\|ld-linux" | head -70
cp "$f" $OUT/vector_add_stacks.wscap
echo "== (b) ResNet-18 batch 64: plain vs default vs stacks"
for round in 1 2; do
  WS_LABEL=plain python3 $S/resnet_step.py plain
  rm -rf /tmp/cap_d; WS_LABEL=default $C -q -o /tmp/cap_d -- python3 $S/resnet_step.py plain
  rm -rf /tmp/cap_s; s0=$SECONDS; WS_LABEL=stacks $C -o /tmp/cap_s --activities default,stacks -- python3 $S/resnet_step.py plain
  echo "stacks run incl. symbolization: $((SECONDS - s0)) s"
done
echo "== (c) stack depth"
for d in 8 16 32; do
  rm -rf /tmp/cs$d; WS_LABEL=stacks$d $C -q -o /tmp/cs$d --activities default,stacks --stack-depth $d -- python3 $S/resnet_step.py plain
  echo "depth $d: $($B/wscap-dump -n 0 $(ls -S /tmp/cs$d/*.wscap | head -1) | grep -E '^(StackDef|CallStack|Symbol) ' | tr -s ' ' | tr '\n' ' ')"
done
f=$(ls -S /tmp/cap_s/*.wscap | head -1); $B/wscap-dump -n 0 "$f"
$B/wscap-dump -n -1 "$f" | grep -E " Symbol " | awk 'NR%40==1' | head -40
gzip -c "$f" > $OUT/resnet18_stacks.wscap.gz; ls -la $OUT
