#!/bin/bash
# GPU-machine run for Python sampling (issue #27): waits.py's loader- and sync-bound loops and the
# zoo's GPT step captured with --py-sample (default activities otherwise, and with --py-stacks
# --torch-ops as before), packed into $OUT/pysample.tar with each stream's sampling report.
# Run from the repository root.
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
mkdir -p "$OUT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
python3 -c "import sys, torch; print('torch', torch.__version__, 'python', sys.version.split()[0])"
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"
ls $C > /dev/null || exit 1
rm -rf /tmp/zs; mkdir -p /tmp/zs
run() { # NAME ARGS...: capture into /tmp/zs_NAME, keep the largest stream
  local name=$1; shift
  rm -rf /tmp/zs_$name
  echo "== $name: $($C -q "$@" -o /tmp/zs_$name -- ${PROGRAM} 2>&1 | grep -E 'RESULT|rror|warpscope' | tr '\n' ' ')"
  local f=$(ls -S /tmp/zs_$name/*.wscap | head -1)
  $B/wscap-dump -n 0 "$f" | grep -E "^(Kernel|Api|PySample|PyStack|PyFrame|Footer) " | tr '\n' ' '; echo
  $B/wscap-dump -n -1 "$f" | grep -E "^Error" | head -5
  gzip -9 -c "$f" > /tmp/zs/$name.wscap.gz
}
for w in loader sync; do
  PROGRAM="python3 $S/waits.py $w plain" run waits_$w --py-sample
  PROGRAM="python3 $S/waits.py $w plain" run waits_${w}_full --py-sample --py-stacks --torch-ops
done
WS_STEPS=12 PROGRAM="python3 $S/zoo.py gpt plain" run gpt --py-sample
WS_STEPS=12 PROGRAM="python3 $S/zoo.py loader plain" run zoo_loader --py-sample
tar -C /tmp/zs -cf $OUT/pysample.tar .
ls -la /tmp/zs
