#!/bin/bash
# One-GPU run for issue #18: a 2-rank DDP job over Gloo with rank 1 slow, as torch.profiler traces
# (one per rank, with distributedInfo) and as warpscope-capture streams of the same script (plain
# NVTX steps, and --torch-ops for the operators and gloo:* collectives). NCCL needs a GPU per
# rank; only one-GPU machines are lent. Results land in $OUT.
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
mkdir -p "$OUT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; ldd --version | head -1
python3 -c "import torch; print('torch', torch.__version__)"
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"; ls $C || exit 1
RUN="python3 -m torch.distributed.run --nproc_per_node 2 --master_port 29517"
echo "== torch.profiler, one trace per rank"
rm -rf /tmp/gloo_traces; WS_STEPS=8 $RUN $S/gloo_job_step.py profiler /tmp/gloo_traces; echo "exit $?"
ls -la /tmp/gloo_traces
for f in /tmp/gloo_traces/*.json; do
  python3 -c "import json,sys,collections; t=json.load(open('$f')); print('$f', t.get('distributedInfo')); c=collections.Counter(e['name'] for e in t['traceEvents'] if e.get('name','').startswith(('gloo:','nccl:','record_param_comms','slow_input'))); print(c.most_common(8))"
  gzip -9 -c "$f" > $OUT/$(basename $f).gz
done
echo "== warpscope-capture, plain"
rm -rf /tmp/cap_gloo; WS_STEPS=8 $C -q -o /tmp/cap_gloo -- $RUN $S/gloo_job_step.py plain; echo "exit $?"
ls -la /tmp/cap_gloo
for f in /tmp/cap_gloo/*.wscap; do echo "$f $($B/wscap-dump -n 1 $f | grep -o 'rank=[-0-9]*')"; done
tar czf $OUT/cap_gloo.tar.gz -C /tmp cap_gloo
echo "== warpscope-capture --torch-ops"
rm -rf /tmp/cap_gloo_ops; WS_STEPS=8 $C -q --torch-ops -o /tmp/cap_gloo_ops -- $RUN $S/gloo_job_step.py plain; echo "exit $?"
for f in /tmp/cap_gloo_ops/*.wscap; do
  echo "$f $($B/wscap-dump -n 1 $f | grep -o 'rank=[-0-9]*')"
  $B/wscap-dump -n -1 $f | grep -o '"gloo:[a-z_]*"' | sort | uniq -c | head -5
done
tar czf $OUT/cap_gloo_ops.tar.gz -C /tmp cap_gloo_ops
ls -la $OUT
