#!/bin/bash
# One-GPU check for issue #18: does a Gloo DDP rank die at exit when torch's emit_nvtx is left on
# (as --torch-ops did before it switched off at exit)? Three runs with emit_nvtx entered and never
# exited, no capture; then three captures with --torch-ops (switching off at exit). Results in $OUT.
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
mkdir -p "$OUT"; date -u
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"; ls $C || exit 1
RUN="python3 -m torch.distributed.run --nproc_per_node 2 --master_port 29517"
cat > /tmp/emit_nvtx_forever.py <<'PY'
import runpy, sys, torch
torch.autograd.profiler.emit_nvtx().__enter__()  # never exited, as the old hook did
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
PY
for i in 1 2 3; do
  WS_STEPS=8 $RUN /tmp/emit_nvtx_forever.py $S/gloo_job_step.py plain > /tmp/forever_$i.log 2>&1
  echo "emit_nvtx never exited, run $i: exit $? $(grep -c 'SIGSEGV' /tmp/forever_$i.log) SIGSEGV lines"
done
for i in 1 2 3; do
  rm -rf /tmp/cap_ops_$i; WS_STEPS=8 $C -q --torch-ops -o /tmp/cap_ops_$i -- $RUN $S/gloo_job_step.py plain > /tmp/ops_$i.log 2>&1
  echo "--torch-ops capture, run $i: exit $? $(grep -c 'SIGSEGV' /tmp/ops_$i.log) SIGSEGV lines;" \
       "footers $(for f in /tmp/cap_ops_$i/*.wscap; do $B/wscap-dump -n -1 $f | grep -c ' Footer '; done | tr '\n' ' ')"
done
grep -h -E "Leaked|SIGSEGV" /tmp/forever_*.log /tmp/ops_*.log | sort | uniq -c | head
tar czf $OUT/cap_gloo_ops.tar.gz -C /tmp cap_ops_3
