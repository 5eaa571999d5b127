#!/bin/bash
# GPU-machine recording of the CUDA graph workloads (issue #48, capture/samples/graph_decode.py): each
# captured with operators and Python stacks (CAPTURE_ARGS, default `--torch-ops --py-stacks`) and traced
# by torch.profiler, packed into $OUT/graphs_<workload>.tar (the largest stream of the capture, gzip,
# and the trace, gzip). With the graph workload also: a capture that records only the program's
# cudaProfilerStart/Stop ranges (its graph is captured while recording is paused, as vLLM captures its
# graphs at start-up), and one with --graph-trace=graph. graph_ids.py says which ids each capture's
# replays carry.
#   WORKLOADS="graph eager" bash capture/samples/device_graphs.sh
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
WORKLOADS=${WORKLOADS:-graph eager sidestream compile}
CAPTURE_ARGS=${CAPTURE_ARGS:---torch-ops --py-stacks}
export WS_STEPS=${WS_STEPS:-4}
mkdir -p "$OUT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
python3 -c "import torch, sys; print('python', sys.version.split()[0], 'torch', torch.__version__, 'cuda', torch.version.cuda, 'cudnn', torch.backends.cudnn.version())"
[ -x $C ] || { cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"; }
ls $C $B/libwarpscope_inject.so > /dev/null || exit 1
pack() { # pack NAME CAPTURE_DIR [TRACE]: the largest stream and the trace, gzip, into $OUT/graphs_NAME.tar
  local d=/tmp/gp_$1; rm -rf $d; mkdir -p $d
  local f; f=$(ls -S $2/*.wscap | head -1)
  python3 $S/graph_ids.py $B/wscap-dump "$f" | grep -vE "^example_" | sed "s/^/  $1: /"
  $B/wscap-dump -n 0 "$f" | grep -E "^(Kernel|Memcpy|Memset|GraphNode|GraphExec|GraphTrace|Api|CallStack|Error|Dropped) " | sed "s/^/  $1: /"
  $B/wscap-dump -n -1 "$f" | grep " Error " | head -5
  gzip -9 -c "$f" > $d/$1.wscap.gz
  [ -n "${3:-}" ] && [ -f "$3" ] && gzip -9 -c "$3" > $d/$1.pt.trace.json.gz
  tar -C $d -cf $OUT/graphs_$1.tar . ; ls -la $OUT/graphs_$1.tar
}
for w in $WORKLOADS; do
  rm -rf /tmp/g_$w; start=$(date +%s)
  echo "== $w capture ($CAPTURE_ARGS): $($C -q $CAPTURE_ARGS -o /tmp/g_$w -- python3 $S/graph_decode.py $w plain 2>&1 | grep -E 'RESULT|rror|warpscope|skipping' | tr '\n' ' ') [$(( $(date +%s) - start )) s]"
  start=$(date +%s)
  echo "== $w profiler: $(WS_TRACE=/tmp/g_$w.pt.trace.json python3 $S/graph_decode.py $w profiler 2>&1 | grep -E 'RESULT|rror|skipping' | tr '\n' ' ') [$(( $(date +%s) - start )) s]"
  pack $w /tmp/g_$w /tmp/g_$w.pt.trace.json
done
if [[ " $WORKLOADS " == *" graph "* ]]; then
  rm -rf /tmp/g_range; start=$(date +%s)
  echo "== graph, recorded only in cudaProfilerStart/Stop ranges: $(WS_TOGGLE_STEPS=3 WS_TOGGLE_CYCLES=1 $C -q $CAPTURE_ARGS --capture-range=cudaProfilerApi -o /tmp/g_range -- python3 $S/graph_decode.py graph plain 2>&1 | grep -E 'RESULT|rror|warpscope' | tr '\n' ' ') [$(( $(date +%s) - start )) s]"
  pack graph_range /tmp/g_range
  rm -rf /tmp/g_gt; start=$(date +%s)
  echo "== graph, --graph-trace=graph: $($C -q --graph-trace=graph -o /tmp/g_gt -- python3 $S/graph_decode.py graph plain 2>&1 | grep -E 'RESULT|rror|warpscope' | tr '\n' ' ') [$(( $(date +%s) - start )) s]"
  pack graph_trace /tmp/g_gt
fi
ls -la $OUT; date -u
