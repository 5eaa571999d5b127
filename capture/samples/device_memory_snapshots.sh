#!/bin/bash
# GPU-machine run for issue #28: PyTorch memory snapshots (training run + trace, OOM run, pickled
# _snapshot() dict). Run from the repository root; results land in $OUT.
set -u
OUT=${OUT:-/tmp/out}; S=capture/samples
mkdir -p "$OUT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for m in train oom dict; do python3 $S/memory_snapshots.py $m "$OUT" 2>&1 | tail -3; done
gzip -9 "$OUT/train_trace.json"
ls -la "$OUT"
