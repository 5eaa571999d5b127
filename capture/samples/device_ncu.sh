#!/bin/bash
# GPU-machine recording of Nsight Compute's exports for the ncu import (issue #49): the eager decode
# of hf_generate.py profiled by ncu for a few launches of its hot kernels, exported as CSV with
# `--page raw` (one row per launch, one column per metric) and `--page details` (one row per metric,
# with the rule findings), and the same report kept as .ncu-rep. Into $OUT/ncu_<name>.{csv,ncu-rep}.
#   bash capture/samples/device_ncu.sh
set -u
OUT=${OUT:-/tmp/out}; S=capture/samples
mkdir -p "$OUT"; ncu --version | tail -1; date -u
export WS_STEPS=1 WS_WARMUP=1
SECTIONS="--section SpeedOfLight --section SpeedOfLight_RooflineChart --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis"
start=$(date +%s)
ncu -f -o /tmp/ncu_hf $SECTIONS -k regex:'nvjet|cudnn|elementwise' --launch-skip 200 --launch-count 12 \
  python3 $S/hf_generate.py eager plain > /tmp/ncu_run.log 2>&1
echo "ncu run: rc $? [$(( $(date +%s) - start )) s]"; grep -E '==PROF==|==ERROR==|RESULT' /tmp/ncu_run.log | head -8
ncu --import /tmp/ncu_hf.ncu-rep --csv --page raw > $OUT/ncu_hf_raw.csv
ncu --import /tmp/ncu_hf.ncu-rep --csv --page details > $OUT/ncu_hf_details.csv
ncu --import /tmp/ncu_hf.ncu-rep --csv --page details --print-units base > $OUT/ncu_hf_details_base.csv
cp /tmp/ncu_hf.ncu-rep $OUT/
ls -la $OUT; head -c 600 $OUT/ncu_hf_raw.csv; echo; head -5 $OUT/ncu_hf_details.csv; date -u
