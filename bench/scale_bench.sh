#!/usr/bin/env bash
# Issue #29's goals in one run: every view of a 10 GB Kineto trace against the 1 GB one, on this
# machine, with each figure's ratio to the import time of the same file (so a noisy machine shows
# in every row alike). Generates what is missing, reuses what is there.
#
# Usage: bench/scale_bench.sh [--quick] [BUILD_DIR]
#   --quick            the 1 GB trace only (and the compare, job and XSpace rows); the 10 GB rows are left out
#   BUILD_DIR          default build/test (needs app/cli/warpscope-cli)
# Environment:
#   WARPSCOPE_BENCH_DIR   where the generated traces and sessions live (default /tmp/warpscope-scale-bench;
#                         the 10 GB trace needs ~11 GB there, its session ~0.5 GB)
#   WARPSCOPE_BENCH_1G    an existing 1 GB Kineto trace to use instead of generating one
#   WARPSCOPE_BENCH_10G   an existing 10 GB Kineto trace to use instead of generating one
#   WARPSCOPE_CLI         a warpscope-cli binary to time instead of BUILD_DIR's (e.g. a saved "before" build)
#   REPEAT                imports per bench-import (default 3; the best is reported)
#   XSPACE_SIZE           size of the generated XSpace file (default 500M)
#   JOB_RANK_SIZE         size of each rank of the 8-rank job (default 100M)
# Goals (issue #29): 1 GB -> model <= 1.0 s; 10 GB <= 10x the 1 GB; kernel table of 10 GB <= 2 s;
# operator tree <= 1 s; Overview <= 1 s; sort of 2.7 M rows p95 <= 100 ms; store <= 0.5x import;
# reopen of the 10 GB session with every tab's first view <= 2 s; compare of two stored 1 GB
# sessions <= 0.3 s; 8-rank job reopen <= 1.5x one rank; XSpace peak RSS <= 1.3x the file;
# peak RSS of a 10 GB import <= 0.2x the file.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
quick=0
if [ "${1:-}" = "--quick" ]; then
    quick=1
    shift
fi
build=${1:-$here/../build/test}
cli=${WARPSCOPE_CLI:-$(cd "$build" && pwd)/app/cli/warpscope-cli}
[ -x "$cli" ] || { echo "no $cli: build the warpscope-cli target first" >&2; exit 2; }
work=${WARPSCOPE_BENCH_DIR:-/tmp/warpscope-scale-bench}
repeat=${REPEAT:-3}
gen=$here/../../shared/tools/gen_kineto_trace.py
[ -f "$gen" ] || gen=/work/shared/tools/gen_kineto_trace.py
mkdir -p "$work"
log=$work/scale_bench.log
: > "$log"

now() { date +%s.%N; }
# field KEY FILE: the first number after "KEY:" in FILE.
field() { sed -n "s/^$1: *\([-0-9.e+]*\).*/\1/p" "$2" | head -1; }
calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }
run() { # run OUT CMD...: output to OUT and the log
    local out=$1
    shift
    echo "+ $*" >> "$log"
    "$@" > "$out" 2>> "$log"
    cat "$out" >> "$log"
}
rows=()
# row NAME VALUE UNIT GOAL_TEXT OK(1/0/-) IMPORT_S
row() {
    local ratio="-"
    if [ -n "$6" ] && [ "$6" != "-" ]; then
        ratio=$(calc "$2 / $6")
    fi
    local verdict="-"
    [ "$5" = 1 ] && verdict=met
    [ "$5" = 0 ] && verdict=NOT
    rows+=("$(printf '%-44s %12s %-4s %10s  %-26s %s' "$1" "$2" "$3" "$ratio" "$4" "$verdict")")
}
le() { awk "BEGIN { exit !($1 <= $2) }" && echo 1 || echo 0; }

trace_for() { # trace_for 1g|10g -> path, generated when missing
    local size=$1 var path
    if [ "$size" = 1g ]; then var=${WARPSCOPE_BENCH_1G:-}; else var=${WARPSCOPE_BENCH_10G:-}; fi
    path=${var:-$work/trace_$size.json}
    if [ ! -f "$path" ]; then
        echo "generating $path ..." >&2
        python3 "$gen" "$path" --size "$(echo "$size" | tr a-z A-Z)" >> "$log"
    fi
    echo "$path"
}

declare -A importS
bench_size() { # bench_size 1g|10g
    local size=$1 trace tmp=$work/out.txt
    trace=$(trace_for "$size")
    echo "== $size: $trace" >&2
    run "$tmp" "$cli" bench-import "$trace" --repeat "$repeat"
    local imp mean bpe rss
    imp=$(field wall_s_best "$tmp"); mean=$(field wall_s_mean "$tmp")
    bpe=$(field model_bytes_per_event "$tmp"); rss=$(field peak_rss_over_json "$tmp")
    importS[$size]=$imp
    row "$size import to model (best of $repeat)" "$imp" s "$([ "$size" = 1g ] && echo '<= 1.0 s' || echo '<= 10x the 1 GB')" \
        "$([ "$size" = 1g ] && le "$imp" 1.0 || le "$imp" "$(calc "10 * ${importS[1g]:-1e9}")")" "$imp"
    row "$size import mean" "$mean" s "" - "$imp"
    row "$size model bytes per event" "$bpe" B "(was ~36)" - -
    row "$size import peak RSS / file" "$rss" x "$([ "$size" = 10g ] && echo '<= 0.2x')" \
        "$([ "$size" = 10g ] && le "$rss" 0.2 || echo -)" -

    run "$tmp" "$cli" kernels "$trace" --bench
    local kb kp krows
    kb=$(calc "$(field build_ms "$tmp") / 1000"); kp=$(field sort_ms_p95 "$tmp"); krows=$(field rows "$tmp")
    row "$size kernel table build ($krows rows)" "$kb" s "$([ "$size" = 10g ] && echo '<= 2 s')" \
        "$([ "$size" = 10g ] && le "$kb" 2 || echo -)" "$imp"
    row "$size kernel sort p95 ($krows rows)" "$kp" ms "<= 100 ms at 2.7 M rows" \
        "$(le "$(calc "$kp * 2.7e6 / ($krows > 0 ? $krows : 1)")" 100)" -

    run "$tmp" "$cli" ops "$trace" --bench
    local tree treeArgs
    tree=$(calc "$(field tree_ms "$tmp") / 1000"); treeArgs=$(calc "$(field tree_with_args_ms "$tmp") / 1000")
    row "$size operator tree (no args)" "$tree" s "" - "$imp"
    row "$size operator tree (with args)" "$treeArgs" s "<= 1 s" "$(le "$treeArgs" 1)" "$imp"

    run "$tmp" "$cli" overview "$trace" --bench
    local ov
    ov=$(calc "$(field overview_ms "$tmp") / 1000")
    row "$size Overview" "$ov" s "<= 1 s" "$(le "$ov" 1)" "$imp"

    local session=$work/$size.warpscope
    rm -f "$session"
    run "$tmp" "$cli" import "$trace" -o "$session"
    local si ss
    si=$(sed -n 's/.*import \([0-9.]*\) s, store \([0-9.]*\) s.*/\1/p' "$tmp")
    ss=$(sed -n 's/.*import \([0-9.]*\) s, store \([0-9.]*\) s.*/\2/p' "$tmp")
    row "$size store session (after a ${si} s import)" "$ss" s "<= 0.5x import" "$(le "$ss" "$(calc "0.5 * $si")")" "$si"
    # An import that is going to be stored packs the args and hashes the file on its way (store
    # work moved into it): the whole cost of a stored session, against the plain import above.
    row "$size import and store, in all" "$(calc "$si + $ss")" s "" - "$imp"

    # Reopen with every tab's first view: the stored session reopened, then Overview, Kernels and
    # Operators computed on it (each command reopens; the reopen is counted once).
    local t0 t1 reopen
    t0=$(now); run "$tmp" "$cli" summary "$session"; t1=$(now)
    reopen=$(calc "$t1 - $t0")
    local ovOut=$work/reopen_overview.txt kOut=$work/reopen_kernels.txt opOut=$work/reopen_ops.txt
    run "$ovOut" "$cli" overview "$session" --bench
    local rov; rov=$(calc "$(field overview_ms "$ovOut") / 1000")
    run "$kOut" "$cli" kernels "$session" --bench
    local rk; rk=$(calc "$(field build_ms "$kOut") / 1000")
    run "$opOut" "$cli" ops "$session" --bench
    local rop; rop=$(calc "$(field tree_with_args_ms "$opOut") / 1000")
    local all; all=$(calc "$reopen + $rov + $rk + $rop")
    # The same first views as the stored results the session file carries give them (Overview
    # report, kernel groups by name, operator rows): what a reopen shows without recomputing.
    local sov sk sop first=""
    sov=$(field stored_first_view_ms "$ovOut"); sk=$(field stored_first_view_ms "$kOut"); sop=$(field stored_first_view_ms "$opOut")
    # The reopen counted here is the model read in the process (overview --bench's import_ms on the
    # session), not the summary command's wall time, which also summarizes every slice and exits.
    local readS; readS=$(calc "$(field import_ms "$ovOut") / 1000")
    if [ -n "$sov" ] && [ -n "$sk" ] && [ -n "$sop" ]; then
        first=$(calc "$readS + ($sov + $sk + $sop) / 1000")
    fi
    row "$size reopen session (summary, process wall)" "$reopen" s "" - "$imp"
    row "$size reopen: model read in process" "$readS" s "" - "$imp"
    row "$size reopen + Ov/Kernels/Ops computed" "$all" s "" - "$imp"
    if [ -n "$first" ]; then
        row "$size reopen + first views, stored" "$first" s "$([ "$size" = 10g ] && echo '<= 2 s')" \
            "$([ "$size" = 10g ] && le "$first" 2 || echo -)" "$imp"
    else
        row "$size reopen + first views, stored" "-" s "(the session has none)" - -
    fi
}

bench_size 1g
if [ $quick = 0 ]; then
    bench_size 10g
    row "10g import / 1g import" "$(calc "${importS[10g]} / ${importS[1g]}")" x "<= 10x" \
        "$(le "$(calc "${importS[10g]} / ${importS[1g]}")" 10)" -
fi

# Compare two stored 1 GB sessions (different seeds), cold: nothing cached, as `diff` runs.
tmp=$work/out.txt
b=$work/trace_1g_seed2.json
[ -f "$b" ] || python3 "$gen" "$b" --size 1G --seed 2 >> "$log"
# Stored again by this binary: a session stored by an older one lacks what this one keeps.
rm -f "$work/1g_seed2.warpscope"
run "$tmp" "$cli" import "$b" -o "$work/1g_seed2.warpscope"
[ -f "$work/1g.warpscope" ] || run "$tmp" "$cli" import "$(trace_for 1g)" -o "$work/1g.warpscope"
run "$tmp" "$cli" diff "$work/1g.warpscope" "$work/1g_seed2.warpscope" --bench
cold=$(calc "$(field diff_cold_ms "$tmp") / 1000")
stored=$(field diff_stored_ms "$tmp")
t0=$(now); run "$work/diff_out.txt" "$cli" diff "$work/1g.warpscope" "$work/1g_seed2.warpscope"; t1=$(now)
wall=$(calc "$t1 - $t0")
row "compare two stored 1 GB sessions (analyses)" "$cold" s "" - "${importS[1g]}"
[ -n "$stored" ] && row "compare two stored 1 GB sessions (stored)" "$(calc "$stored / 1000")" s "" - "${importS[1g]}"
row "compare two stored 1 GB sessions (process)" "$wall" s "<= 0.3 s" "$(le "$wall" 0.3)" "${importS[1g]}"

# 8-rank job through a session library: reopen of the job against one rank.
job=$work/job8
[ -d "$job" ] || python3 "$here/gen_kineto_job.py" --ranks 8 --size "${JOB_RANK_SIZE:-100M}" "$job" >> "$log"
rm -rf "$work/joblib"
run "$tmp" "$cli" dist "$job" --library "$work/joblib" --bench --repeat 3
jr=$(field job_reopen_s "$tmp"); sr=$(field single_rank_reopen_s "$tmp"); jratio=$(field job_reopen_over_single_rank "$tmp")
jm=$(field job_reopen_with_models_s "$tmp"); sm=$(field single_rank_reopen_with_model_s "$tmp")
row "8-rank job reopen (tables, stored blocks)" "$jr" s "" - -
row "one rank reopen (its block)" "$sr" s "" - -
row "8-rank job tables / one rank's block" "$jratio" x "" - -
if [ -n "$sm" ]; then # a binary before the stored blocks prints the reopen with the models only
    row "one rank reopen with its model" "$sm" s "" - -
    row "8-rank job tables / one rank with model" "$(calc "$jr / $sm")" x "<= 1.5x" "$(le "$(calc "$jr / $sm")" 1.5)" -
    row "8-rank job reopen with all 8 models" "$jm" s "" - -
    row "8 models / one rank with model" "$(calc "$jm / $sm")" x "" - -
fi

# XSpace import peak memory.
xs=$work/xspace_${XSPACE_SIZE:-500M}.xplane.pb
[ -f "$xs" ] || python3 "$here/gen_xplane.py" "$xs" --size "${XSPACE_SIZE:-500M}" >> "$log"
run "$tmp" "$cli" bench-import "$xs"
row "XSpace import" "$(field wall_s_best "$tmp")" s "" - -
row "XSpace peak RSS / file" "$(field peak_rss_over_json "$tmp")" x "<= 1.3x" "$(le "$(field peak_rss_over_json "$tmp")" 1.3)" -

echo
echo "warpscope-cli: $cli (built $(date -r "$cli" -Is); tree at $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?')), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -Is)"
printf '%-44s %12s %-4s %10s  %-26s %s\n' "measure" "value" "unit" "/import" "goal" "verdict"
for r in "${rows[@]}"; do echo "$r"; done
echo "(ratio column: the value over the import time of the same file in this run; full log: $log)"
