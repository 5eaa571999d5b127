#!/bin/bash
# GPU-machine overhead rounds (issue #25): each workload uninstrumented, under the default capture,
# with --py-stacks, with --py-stacks --torch-ops (ITT ranges, and emit_nvtx for comparison) and
# under torch.profiler (CPU + CUDA), interleaved: every round runs every configuration once, in an
# order rotated from round to round.
# Prints `round R WORKLOAD CONFIG RESULT {...median_ms...}` lines; overhead_table.py reads them.
#   WORKLOADS="gpt resnet18 transformer" ROUNDS=5 bash capture/samples/device_overhead_zoo.sh
# FIRST_ROUND numbers the rounds of a later call on from an earlier one's, so that their logs merge.
# BASE_C names a second warpscope-capture (an earlier build): a configuration written base:NAME runs
# NAME with it, interleaved with the build under test, e.g. CONFIGS="tog_default base:tog_default".
# VAR=VALUE@NAME runs NAME with VAR set, e.g. CONFIGS="tog_default WARPSCOPE_FLUSH_MS=5000@tog_default".
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
WORKLOADS=${WORKLOADS:-gpt resnet18 transformer}; ROUNDS=${ROUNDS:-5}; FIRST_ROUND=${FIRST_ROUND:-1}
CONFIGS=${CONFIGS:-plain default pystacks ops_pystacks ops_pystacks_nvtx profiler}
export WS_STEPS=${WS_STEPS:-60} WS_WARMUP=${WS_WARMUP:-10}
mkdir -p "$OUT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
[ -x $C ] || { cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"; }
ls $C > /dev/null || exit 1
# The zoo's workloads run with zoo.py; resnet18 and transformer are the issue #13 table's (overhead_step.py);
# tiny, tinymm and tinybwd are launches alone (launch_steps.py).
program() {
  case $1 in
    resnet18|transformer) echo "python3 $S/overhead_step.py $1 $2" ;;
    tiny|tinymm|tinybwd) echo "python3 $S/launch_steps.py $1 $2" ;;
    decode_*) echo "python3 $S/graph_decode.py ${1#decode_} $2" ;; # issue #48: decode_eager, decode_graph, ...
    *) echo "python3 $S/zoo.py $1 $2" ;;
  esac
}
# ab_*: one process measures its steps before and after the capture starts recording at --delay
# (ab_run.py); ab_plain is the same process without a capture, its drift. AB_S: the switch, seconds
# after CUDA starts (the workload's start-up and warm-up must fit before it).
AB_S=${AB_S:-15}
abprogram() { program "$1" "$2" | sed "s#python3 $S/#env WS_AB_SWITCH_S=$AB_S python3 $S/ab_run.py #"; }
# tog_*: one process switches recording on and off every TOG steps, TOG_CYCLES times
# (timed_steps.toggle_steps): torch.cuda.profiler.start/stop, which a capture with
# --capture-range=cudaProfilerApi follows; tog_profiler enters and leaves torch.profiler instead;
# tog_plain toggles with nothing listening (the noise).
TOG=${TOG:-20}; TOG_CYCLES=${TOG_CYCLES:-16}
togprogram() { echo "env WS_TOGGLE_STEPS=$TOG WS_TOGGLE_CYCLES=$TOG_CYCLES $(program "$1" "$2")"; }
RANGE="--capture-range=cudaProfilerApi"
read -r -a configs <<< "$CONFIGS"
for round in $(seq "$FIRST_ROUND" $(( FIRST_ROUND + ROUNDS - 1 ))); do
  for w in $WORKLOADS; do
    # Each round starts at another configuration, so none always runs first (the first run of a
    # round measured slower in earlier runs, whatever it was).
    for i in $(seq 0 $(( ${#configs[@]} - 1 ))); do
      c=${configs[$(( (i + round) % ${#configs[@]} ))]}
      rm -rf /tmp/oc
      cap=$C; cfg=$c; env=""
      # VAR=VALUE@NAME runs NAME with that environment, e.g. WARPSCOPE_FLUSH_MS=5000@tog_default
      case $cfg in *@*) env="env ${cfg%%@*}"; cfg=${cfg#*@} ;; esac
      case $cfg in base:*) cap=${BASE_C:?BASE_C names the base build}; cfg=${cfg#base:} ;; esac
      case $cfg in
        plain) cmd="$(program $w plain)" ;;
        profiler) cmd="$(program $w profiler)" ;;
        profiler_cuda) cmd="$(program $w profiler_cuda)" ;;
        # act=LIST: the capture with only these activities (act=kernel,memcpy,memset,runtime)
        act=*) cmd="$cap -q --activities ${cfg#act=} -o /tmp/oc -- $(program $w plain)" ;;
        default) cmd="$cap -q -o /tmp/oc -- $(program $w plain)" ;;
        pystacks) cmd="$cap -q --py-stacks -o /tmp/oc -- $(program $w plain)" ;;
        pysample) cmd="$cap -q --py-sample -o /tmp/oc -- $(program $w plain)" ;;
        pysample100) cmd="$cap -q --py-sample=100 -o /tmp/oc -- $(program $w plain)" ;;
        ops_pystacks) cmd="$cap -q --py-stacks --torch-ops -o /tmp/oc -- $(program $w plain)" ;;
        ops_pystacks_nvtx) cmd="env WARPSCOPE_TORCH_OPS_VIA=nvtx $cap -q --py-stacks --torch-ops -o /tmp/oc -- $(program $w plain)" ;;
        ops) cmd="$cap -q --torch-ops -o /tmp/oc -- $(program $w plain)" ;;
        # idle_*: the capture waits for a cudaProfilerStart that never comes: what being there costs
        # with nothing recorded (CUPTI loaded, the profiler API watched, NVML sampling unless off)
        idle_default) cmd="$cap -q $RANGE -o /tmp/oc -- $(program $w plain)" ;;
        idle_nonvml) cmd="$cap -q $RANGE --sample-hz 0 -o /tmp/oc -- $(program $w plain)" ;;
        idle_kernel) cmd="$cap -q $RANGE --activities kernel --sample-hz 0 -o /tmp/oc -- $(program $w plain)" ;;
        tog_plain) cmd="$(togprogram $w plain)" ;;
        tog_default) cmd="$cap -q $RANGE -o /tmp/oc -- $(togprogram $w plain)" ;;
        tog_kernel) cmd="$cap -q $RANGE --activities kernel -o /tmp/oc -- $(togprogram $w plain)" ;;
        # tog_act=LIST: toggled with only these activities, to split the default's cost by activity
        tog_act=*) cmd="$cap -q $RANGE --activities ${cfg#tog_act=} -o /tmp/oc -- $(togprogram $w plain)" ;;
        tog_pystacks) cmd="$cap -q $RANGE --py-stacks -o /tmp/oc -- $(togprogram $w plain)" ;;
        tog_ops) cmd="$cap -q $RANGE --torch-ops -o /tmp/oc -- $(togprogram $w plain)" ;;
        tog_full) cmd="$cap -q $RANGE --py-stacks --torch-ops -o /tmp/oc -- $(togprogram $w plain)" ;;
        # CUDA graphs (issue #48): each replay as one span; the default without watching graphs being built
        tog_graphtrace) cmd="$cap -q $RANGE --graph-trace=graph -o /tmp/oc -- $(togprogram $w plain)" ;;
        tog_nographs) cmd="$cap -q $RANGE --activities default,-graphs -o /tmp/oc -- $(togprogram $w plain)" ;;
        tog_profiler) cmd="$(togprogram $w profiler)" ;;
        ab_plain) cmd="$(abprogram $w plain)" ;;
        ab_default) cmd="$cap -q --delay $AB_S -o /tmp/oc -- $(abprogram $w plain)" ;;
        ab_pystacks) cmd="$cap -q --py-stacks --delay $AB_S -o /tmp/oc -- $(abprogram $w plain)" ;;
        # PyTorch's ranges alone, no capture: what RecordFunction and the range calls cost by themselves
        itt_ranges) cmd="python3 $S/with_ranges.py itt $(program $w plain | cut -d' ' -f2-)" ;;
        nvtx_ranges) cmd="python3 $S/with_ranges.py nvtx $(program $w plain | cut -d' ' -f2-)" ;;
        # A RecordFunction observer compiled against the installed libtorch, without the legacy
        # profiler state: doing nothing, and keeping (name, time) per operator start and end
        rf_empty) cmd="python3 $S/rf_observer.py empty $(program $w plain | cut -d' ' -f2-)" ;;
        rf_record) cmd="python3 $S/rf_observer.py record $(program $w plain | cut -d' ' -f2-)" ;;
      esac
      # PIN (e.g. PIN=2-9) runs every configuration on the same cores, away from the machine's others.
      [ -n "$env" ] && cmd="$env $cmd"
      [ -n "${PIN:-}" ] && cmd="taskset -c $PIN $cmd"
      out=$($cmd 2>&1)
      echo "round $round $w $c $(echo "$out" | grep RESULT)"
      # The capture's diagnostics (WARPSCOPE_TIME_CALLBACKS, WARPSCOPE_BENCH_CALLBACKS) on lines of their own
      echo "$out" | grep -E "^\[warpscope\] (launch callbacks|callback)" | sed "s/^/note $round $w $c /"
    done
  done
done
date -u
