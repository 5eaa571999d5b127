#!/bin/bash
# GPU-machine run of waits.py's `sleep` loop (issue #51: a step that synchronizes, then sleeps 4 ms
# before its next launch), captured with operators and Python stacks and traced by torch.profiler
# with stacks, and captured with the Python sampler alone, into $OUT. Run from the repository root.
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
mkdir -p "$OUT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
python3 -c "import torch, sys; print('torch', torch.__version__, 'python', sys.version.split()[0])"
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"
ls $C > /dev/null || exit 1
echo "== sleep capture: $($C -q --torch-ops --py-stacks -o /tmp/zs -- python3 $S/waits.py sleep plain 2>&1 | grep -E 'RESULT|rror|warpscope' | tr '\n' ' ')"
echo "== sleep profiler: $(WS_TRACE=/tmp/waits_sleep.pt.trace.json python3 $S/waits.py sleep profiler 2>&1 | grep -E 'RESULT|rror' | tr '\n' ' ')"
f=$(ls -S /tmp/zs/*.wscap | head -1)
$B/wscap-dump -n 0 "$f" | grep -E "^(Kernel|Api|CallStack|Footer) " | tr '\n' ' '; echo
gzip -9 -c "$f" > $OUT/waits_sleep.wscap.gz
gzip -9 -c /tmp/waits_sleep.pt.trace.json > $OUT/waits_sleep.pt.trace.json.gz
ls -la $OUT
# With the Python sampler (--py-sample): what the host ran between the calls, the sleep included.
echo "== sleep capture --py-sample: $($C -q --py-sample -o /tmp/zsp -- python3 $S/waits.py sleep plain 2>&1 | grep -E 'RESULT|rror|warpscope' | tr '\n' ' ')"
f=$(ls -S /tmp/zsp/*.wscap | head -1)
$B/wscap-dump -n 0 "$f" | grep -E "^(Kernel|Api|PySample|Footer) " | tr '\n' ' '; echo
gzip -9 -c "$f" > $OUT/waits_sleep_pysample.wscap.gz
ls -la $OUT
