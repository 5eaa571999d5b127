#!/bin/bash
# GPU-machine recording of transformers' generate() (capture/samples/hf_generate.py; issues #48, #49):
# the static-cache workload (CUDA graph trees through transformers' own torch.compile) captured with
# operators and Python stacks and traced by torch.profiler; the eager workload captured with operators
# and Python stacks, with operator shapes (--torch-ops=shapes), and traced with shapes and FLOPs. Each
# capture's largest stream and each trace, gzip, into $OUT/hf_<name>.tar. Two lanes run side by side.
#   bash capture/samples/device_hf_generate.sh
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
export WS_STEPS=${WS_STEPS:-4}
mkdir -p "$OUT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
python3 -c "import torch, sys, transformers; print('python', sys.version.split()[0], 'torch', torch.__version__, 'transformers', transformers.__version__)"
[ -x $C ] || { cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"; }
ls $C $B/libwarpscope_inject.so > /dev/null || exit 1
pack() { # pack NAME [CAPTURE_DIR] [TRACE]
  local d=/tmp/hp_$1; rm -rf $d; mkdir -p $d
  if [ -n "${2:-}" ] && ls $2/*.wscap > /dev/null 2>&1; then
    local f; f=$(ls -S $2/*.wscap | head -1)
    $B/wscap-dump -n 0 "$f" | grep -E "^(Kernel|Memcpy|GraphNode|GraphExec|CallStack|OpsWindow|Error|Dropped) " | sed "s/^/  $1: /"
    gzip -9 -c "$f" > $d/$1.wscap.gz
  fi
  [ -n "${3:-}" ] && [ -f "$3" ] && gzip -9 -c "$3" > $d/$1.pt.trace.json.gz
  tar -C $d -cf $OUT/hf_$1.tar . ; ls -la $OUT/hf_$1.tar
}
run() { # run NAME COMMAND...: one line of what it printed
  local name=$1; shift; local start=$(date +%s)
  echo "== $name: $("$@" 2>&1 | grep -E 'RESULT|rror|warpscope|Traceback' | tr '\n' ' ') [$(( $(date +%s) - start )) s]"
}
lane1() {
  run static_capture $C -q --torch-ops --py-stacks -o /tmp/h_static -- python3 $S/hf_generate.py static plain
  run static_profiler env WS_TRACE=/tmp/h_static.json python3 $S/hf_generate.py static profiler
  pack static /tmp/h_static /tmp/h_static.json
}
lane2() {
  run eager_profiler env WS_PROFILE_SHAPES=1 WS_TRACE=/tmp/h_eager.json python3 $S/hf_generate.py eager profiler
  run eager_capture $C -q --torch-ops --py-stacks -o /tmp/h_eager -- python3 $S/hf_generate.py eager plain
  pack eager /tmp/h_eager /tmp/h_eager.json
  run eager_shapes $C -q --torch-ops=shapes -o /tmp/h_shapes -- python3 $S/hf_generate.py eager plain
  pack shapes /tmp/h_shapes
}
lane1 > /tmp/lane1.log 2>&1 &
lane2 > /tmp/lane2.log 2>&1
wait
cat /tmp/lane1.log /tmp/lane2.log
ls -la $OUT; date -u
