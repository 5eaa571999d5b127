#!/bin/bash
# The `host` activity on a GPU machine: a DataLoader-fed training run under the default capture.
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
mkdir -p "$OUT"; nvidia-smi --query-gpu=name --format=csv,noheader
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"; ls $C || exit 1
rm -rf /tmp/c_host; WS_STEPS=12 $C -o /tmp/c_host -- python3 $S/dataloader_step.py; echo "exit $?"
ls -la /tmp/c_host
f=$(ls -S /tmp/c_host/*.wscap | head -1)
$B/wscap-dump -n -1 "$f" | grep -E "MetricDescriptor" | head -12
$B/wscap-dump -n -1 "$f" | grep -E "MetricSample" | grep -E "metricId=20[12]" | awk 'NR%10==1' | head -20
gzip -9 -c "$f" > $OUT/dataloader_host.wscap.gz
ls -la $OUT
