#!/bin/bash
# GPU-machine recording for the roofline and the Nsight Compute hand-off (issue #49): transformers'
# generate() (hf_generate.py eager, 2 calls: WS_STEPS=1 WS_WARMUP=1) captured with operator shapes,
# and with shapes and PM sampling; then Nsight Compute on the same program as `warpscope-cli ncu
# --kernel` writes its command (kernel-name-base function, an exact regex, a launch skip and count),
# for four kernels, each exported as CSV (--page raw and --page details). Into $OUT:
#   hf_opshapes.wscap.gz, hf_pm.wscap.gz, ncu_<name>_{raw,details}.csv
#   bash capture/samples/device_roofline.sh
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
export WS_STEPS=1 WS_WARMUP=1
mkdir -p "$OUT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; date -u
[ -x $C ] || { cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"; }
ls $C $B/libwarpscope_inject.so > /dev/null || exit 1
cap() { # cap NAME OPTIONS...: capture hf_generate, keep the largest stream gzip'd
  local name=$1; shift; local start=$(date +%s); rm -rf /tmp/c_$name
  $C -q "$@" -o /tmp/c_$name -- python3 $S/hf_generate.py eager plain 2>&1 | grep -E 'RESULT|rror|Traceback' | tr '\n' ' '
  local f; f=$(ls -S /tmp/c_$name/*.wscap | head -1)
  $B/wscap-dump -n 0 "$f" | grep -E "^(Kernel|MetricSample|Error|Dropped) " | sed "s/^/  $name: /"
  gzip -9 -c "$f" > $OUT/hf_$name.wscap.gz; echo "== $name [$(( $(date +%s) - start )) s] $(ls -la $OUT/hf_$name.wscap.gz)"
}
SECTIONS="--section SpeedOfLight --section SpeedOfLight_RooflineChart --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis"
prof() { # prof NAME REGEX SKIP COUNT
  local start=$(date +%s)
  ncu --kernel-name-base function --kernel-name "$2" --launch-skip $3 --launch-count $4 $SECTIONS -f -o /tmp/n_$1 \
    python3 $S/hf_generate.py eager plain > /tmp/n_$1.log 2>&1
  echo "== ncu $1: rc $? [$(( $(date +%s) - start )) s] $(grep -c '==PROF== Profiling' /tmp/n_$1.log) profiled"
  grep -E '==ERROR==|==WARNING==' /tmp/n_$1.log | head -3
  ncu --import /tmp/n_$1.ncu-rep --csv --page raw > $OUT/ncu_$1_raw.csv
  ncu --import /tmp/n_$1.ncu-rep --csv --page details > $OUT/ncu_$1_details.csv
  python3 -c "
import csv,sys
r=list(csv.reader(open('$OUT/ncu_$1_raw.csv'))); h=r[0]
for x in r[2:]: print('   ', x[h.index('ID')], x[h.index('Grid Size')], x[h.index('Block Size')], x[h.index('gpu__time_duration.sum')], x[h.index('Kernel Name')][:90])"
}
cap opshapes --torch-ops=shapes
cap pm --torch-ops=shapes --activities default,pm
prof nvjet 'regex:^nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT$' 200 3
prof elementwise 'regex:^elementwise_kernel$' 1500 3
prof reduce 'regex:^reduce_kernel$' 300 2
prof sdpa 'regex:cudnn_generated_fort_native_sdpa' 100 2
ls -la $OUT; date -u
