#!/bin/bash
# GPU-machine check of operators recorded in windows (issue #25, inject/operatorwindows.h): the
# libtorch symbols the start-up hook needs, then the zoo captured with `--torch-ops --py-stacks`
# (windows, the default) and with WARPSCOPE_TORCH_OPS_WINDOWS=all, each beside torch.profiler,
# packed into $OUT/zoo_<workload>.tar for zoo_compare.py; and a --py-sample capture of waits.py's
# sync loop, whose samples name the CUDA call they are in (issue #27).
#   WORKLOADS="gpt compile" WS_STEPS=40 bash capture/samples/device_ops_windows.sh
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
WORKLOADS=${WORKLOADS:-gpt compile graph resnet50 loader}
export WS_STEPS=${WS_STEPS:-40}
mkdir -p "$OUT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
python3 -c "import torch, sys; print('python', sys.version.split()[0], 'torch', torch.__version__)"
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"
ls $C $B/libwarpscope_inject.so > /dev/null || exit 1
lib=$(python3 -c "import torch, os; print(os.path.join(os.path.dirname(torch.__file__), 'lib', 'libtorch_cpu.so'))")
nm -D --defined-only "$lib" | grep -E "enableRecordFunctionEb|isRecordFunctionEnabledEv"
for w in $WORKLOADS; do
  rm -rf /tmp/zp_$w; mkdir -p /tmp/zp_$w
  for mode in windows all; do
    rm -rf /tmp/z_$w
    env WARPSCOPE_TORCH_OPS_WINDOWS=$([ $mode = all ] && echo all) $C -q --torch-ops --py-stacks -o /tmp/z_$w -- \
      python3 $S/zoo.py $w plain 2>&1 | grep -E 'RESULT|rror|warpscope' | sed "s/^/== $w $mode: /"
    f=$(ls -S /tmp/z_$w/*.wscap | head -1)
    echo "   OpsWindow records: $($B/wscap-dump -n -1 "$f" | grep -c '^OpsWindow'), PyTorch ranges: $($B/wscap-dump -n -1 "$f" | grep -c 'domainId=[0-9]*("PyTorch")')"
    $B/wscap-dump -n -1 "$f" | grep '^OpsWindow' | head -3
    gzip -9 -c "$f" > /tmp/zp_$w/${w}_$mode.wscap.gz
  done
  WS_TRACE=/tmp/zp_$w/$w.pt.trace.json python3 $S/zoo.py $w profiler 2>&1 | grep -E 'RESULT|rror' | sed "s/^/== $w profiler: /"
  gzip -9 /tmp/zp_$w/$w.pt.trace.json
  tar -C /tmp/zp_$w -cf $OUT/zoo_$w.tar .
done
rm -rf /tmp/zs_sync
WS_STEPS=12 $C -q --py-sample -o /tmp/zs_sync -- python3 $S/waits.py sync plain 2>&1 | grep -E 'RESULT|rror|warpscope'
f=$(ls -S /tmp/zs_sync/*.wscap | head -1)
echo "samples in a CUDA call: $($B/wscap-dump -n -1 "$f" | grep '^PySample' | grep -vc 'cudaCbid=0')" \
     "of $($B/wscap-dump -n -1 "$f" | grep -c '^PySample')"
gzip -9 -c "$f" > $OUT/waits_sync_pysample.wscap.gz
ls -la $OUT
