#!/bin/bash
# Why do two uninstrumented processes of the same launch-bound step differ by a third (issue #25)?
# Runs the plain workload REPEAT times under each VARIANT, interleaved, pinned to PIN, and prints
# each run's median step:
#   normal  as the overhead rounds run it
#   seed    PYTHONHASHSEED=0 (the same dict and set layouts in every process)
#   fixed   PYTHONHASHSEED=0 and no address-space randomization (setarch -R)
#   WORKLOADS="transformer" REPEAT=4 bash capture/samples/device_process_spread.sh
set -u
S=capture/samples; WORKLOADS=${WORKLOADS:-transformer}; REPEAT=${REPEAT:-4}; PIN=${PIN:-2-9}
VARIANTS=${VARIANTS:-normal seed fixed}
export WS_STEPS=${WS_STEPS:-60}
program() {
  case $1 in
    resnet18|transformer) echo "python3 $S/overhead_step.py $1 plain" ;;
    *) echo "python3 $S/zoo.py $1 plain" ;;
  esac
}
for r in $(seq 1 "$REPEAT"); do
  for w in $WORKLOADS; do
    for v in $VARIANTS; do
      case $v in
        normal) pre="" ;;
        seed) pre="env PYTHONHASHSEED=0" ;;
        fixed) pre="env PYTHONHASHSEED=0 setarch $(uname -m) -R" ;;
      esac
      echo "run $r $w $v $(taskset -c $PIN $pre $(program $w) 2>&1 | grep RESULT | grep -o '"median_ms": [0-9.]*')"
    done
  done
done
