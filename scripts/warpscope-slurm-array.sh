#!/usr/bin/env bash
# Runs Warpscope's per-trace work as one Slurm job array, one task per trace, and merges the
# results (issue #50). docs/CLUSTER.md explains the layout and the Kubernetes equivalent.
#
#   scripts/warpscope-slurm-array.sh --cli PATH/warpscope-cli --traces DIR --out DIR
#       [--query "SQL"] [--max-parallel K] [--sbatch-arg ARG]... [--wait]
#   scripts/warpscope-slurm-array.sh --cli PATH/warpscope-cli --out DIR [--query "SQL"] --merge-only
#   scripts/warpscope-slurm-array.sh --cli PATH/warpscope-cli --traces DIR --out DIR [--query "SQL"] --prepare-only
#
# Task i (SLURM_ARRAY_TASK_ID, 0-based) reads line i+1 of OUT/traces.lst and writes
#   OUT/summaries/<i>.json   warpscope-cli summary --json TRACE
#   OUT/query/<i>.csv        warpscope-cli query TRACE "SQL" --csv --with-session  (with --query)
#   OUT/errors/<i>.txt       what failed, with its exit status and stderr  (only on failure)
# Slurm's own output of each task goes to OUT/logs/<jobid>_<i>.out.
# With --wait the script blocks until the array is done (sbatch --wait), then merges:
#   OUT/job.json             warpscope-cli dist --summaries OUT/summaries --json
#   OUT/query.csv            warpscope-cli query --merge OUT/query --csv      (with --query)
# Without --wait it prints the job id and the command that merges later (--merge-only).
# --prepare-only writes OUT/traces.lst and OUT/array-task.sh and submits nothing: another scheduler
# runs task i as `SLURM_ARRAY_TASK_ID=i OUT/array-task.sh` (or JOB_COMPLETION_INDEX=i, as a
# Kubernetes Indexed Job sets it).
#
# The CLI, DIR and OUT must be visible under the same paths on the compute nodes (a shared
# filesystem): every path is made absolute here, before it is written into the batch script.
#
# Exit status: 0 done; 1 a task or the merge of the summaries failed; 2 usage; 3 the tasks and
# job.json are fine but the merge of the query results failed (reported, never hidden).
set -euo pipefail

prog=$(basename "$0")
usage() {
    sed -n '5,8p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
die() {
    echo "$prog: $*" >&2
    exit 1
}

cli='' traces='' out='' query='' have_query=0 wait=0 merge_only=0 prepare_only=0 max_parallel=''
sbatch_args=()
while [ $# -gt 0 ]; do
    case "$1" in
    # --opt=value is the same as --opt value.
    --cli=* | --traces=* | --out=* | --query=* | --max-parallel=* | --sbatch-arg=*)
        opt=${1%%=*} val=${1#*=}
        shift
        set -- "$opt" "$val" "$@"
        continue
        ;;
    --cli) cli=${2:?}; shift 2 ;;
    --traces) traces=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --query) query=${2:?}; have_query=1; shift 2 ;;
    --max-parallel) max_parallel=${2:?}; shift 2 ;;
    --sbatch-arg) sbatch_args+=("${2:?}"); shift 2 ;;
    --wait) wait=1; shift ;;
    --merge-only) merge_only=1; shift ;;
    --prepare-only) prepare_only=1; shift ;;
    -h | --help) sed -n '2,/^set -euo pipefail$/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "$prog: unknown argument '$1'" >&2; usage ;;
    esac
done
if [ -z "$cli" ] || [ -z "$out" ]; then usage; fi
[ "$merge_only" -eq 1 ] || [ -n "$traces" ] || usage
case "$max_parallel" in *[!0-9]* | 0*) echo "$prog: --max-parallel needs a positive number" >&2; usage ;; esac

# Absolute paths: the batch script runs in the job's working directory on another host.
abspath() { (cd "$(dirname "$1")" && printf '%s/%s\n' "$(pwd -P)" "$(basename "$1")"); }
[ -x "$cli" ] || die "$cli is not an executable warpscope-cli"
cli=$(abspath "$cli")
mkdir -p "$out"
out=$(cd "$out" && pwd -P)

# --- merge: run once every task is done --------------------------------------------------------
merge() {
    local rc=0 errs status
    # A failed task leaves a partial set of summaries; merging it would report a job with fewer
    # workers as if it were whole, so nothing is merged then.
    errs=$(find "$out/errors" -maxdepth 1 -type f -name '*.txt' 2>/dev/null | LC_ALL=C sort || true)
    if [ -n "$errs" ]; then
        echo "$prog: $(printf '%s\n' "$errs" | wc -l) task(s) failed; not merging. First error:" >&2
        sed 's/^/  /' "$(printf '%s\n' "$errs" | head -n 1)" >&2
        return 1
    fi
    local n_sum
    [ -d "$out/summaries" ] || { echo "$prog: no $out/summaries (was the array submitted with this --out?)" >&2; return 1; }
    n_sum=$(find "$out/summaries" -maxdepth 1 -type f -name '*.json' | wc -l)
    if [ -s "$out/traces.lst" ] && [ "$n_sum" -ne "$(wc -l <"$out/traces.lst")" ]; then
        echo "$prog: $n_sum summaries for $(wc -l <"$out/traces.lst") traces (tasks still running or lost?); not merging" >&2
        return 1
    fi
    # Temp name, then rename: a reader never sees half a job.json.
    if "$cli" dist --summaries "$out/summaries" --json >"$out/.job.json.tmp" 2>"$out/.job.json.err"; then
        mv -f "$out/.job.json.tmp" "$out/job.json"
        rm -f "$out/.job.json.err"
        echo "merged $n_sum summaries -> $out/job.json"
    else
        status=$?
        echo "$prog: warpscope-cli dist --summaries failed (exit status $status):" >&2
        sed 's/^/  /' "$out/.job.json.err" >&2
        rm -f "$out/.job.json.tmp"
        return 1
    fi
    if [ "$have_query" -eq 1 ]; then
        # `query --merge` concatenates the per-trace CSVs (first column: session). Its failure is
        # reported and gives status 3 so a caller can tell it from a failed array.
        if "$cli" query --merge "$out/query" --csv >"$out/.query.csv.tmp" 2>"$out/.query.csv.err"; then
            mv -f "$out/.query.csv.tmp" "$out/query.csv"
            rm -f "$out/.query.csv.err"
            echo "merged $(find "$out/query" -maxdepth 1 -type f -name '*.csv' | wc -l) query results -> $out/query.csv"
        else
            status=$?
            echo "$prog: warpscope-cli query --merge failed (exit status $status); $out/query/*.csv are the per-trace results:" >&2
            sed 's/^/  /' "$out/.query.csv.err" >&2
            rm -f "$out/.query.csv.tmp"
            rc=3
        fi
    fi
    return $rc
}

if [ "$merge_only" -eq 1 ]; then
    merge
    exit $?
fi

# --- list the traces ---------------------------------------------------------------------------
# Every regular file in DIR (not recursive), sorted byte-wise so task i is the same trace on every
# run whatever the locale. Formats are recognised by content, so no name filter: a stray non-trace
# file fails its own task and is reported in OUT/errors.
[ -d "$traces" ] || die "$traces is not a directory"
traces=$(cd "$traces" && pwd -P)
list="$out/traces.lst"
: >"$list.tmp"
while IFS= read -r -d '' f; do
    case "$f" in *$'\n'*) die "a trace name contains a newline: $f" ;; esac
    printf '%s\n' "$f" >>"$list.tmp"
done < <(find "$traces" -mindepth 1 -maxdepth 1 -type f -print0 | LC_ALL=C sort -z)
mv -f "$list.tmp" "$list"
n=$(wc -l <"$list")
[ "$n" -gt 0 ] || die "no files in $traces"

# A fresh run: results of an earlier one in OUT must not be merged with this one.
mkdir -p "$out/summaries" "$out/errors" "$out/logs"
find "$out/summaries" "$out/errors" -maxdepth 1 -type f \( -name '*.json' -o -name '*.txt' -o -name '.*.tmp.*' \) -delete
rm -f "$out/job.json" "$out/query.csv"
if [ "$have_query" -eq 1 ]; then
    mkdir -p "$out/query"
    find "$out/query" -maxdepth 1 -type f \( -name '*.csv' -o -name '.*.tmp.*' \) -delete
fi

# The query's CSV gets the trace's `session` column first (--with-session), so the merged table
# says which trace each row is from.
query_opts=(--with-session)

# --- the batch script --------------------------------------------------------------------------
# Written out with the values baked in (printf %q), so the job does not depend on this shell's
# environment and OUT/array-task.sh shows exactly what each task ran. sbatch copies it at submit.
task="$out/array-task.sh"
{
    echo '#!/usr/bin/env bash'
    echo '# Generated by scripts/warpscope-slurm-array.sh: one Warpscope task of a Slurm job array.'
    echo 'set -uo pipefail'
    printf 'cli=%q\nout=%q\nquery=%q\nhave_query=%q\n' "$cli" "$out" "$query" "$have_query"
    printf 'query_opts=(%s)\n' "${query_opts[*]:-}"
    cat <<'EOF'
# The index: Slurm's array task id, or a Kubernetes Indexed Job's completion index.
i=${SLURM_ARRAY_TASK_ID:-${JOB_COMPLETION_INDEX:-}}
case "$i" in '' | *[!0-9]*) echo "no SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX: not run as an array task" >&2; exit 2 ;; esac
trace=$(sed -n "$((i + 1))p" "$out/traces.lst")
err="$out/errors/$i.txt"
rm -f "$err" # a requeued task starts clean
failed=0
# run_step NAME DEST CMD...: CMD's stdout to a temp name beside DEST, renamed onto DEST only when it
# succeeds (a reader, e.g. the merge, never sees a partial file); a failure goes to OUT/errors/<i>.txt.
run_step() {
    local name=$1 dest=$2 tmp status
    shift 2
    tmp="$(dirname "$dest")/.$(basename "$dest").tmp.${SLURM_JOB_ID:-0}"
    if "$@" >"$tmp" 2>"$tmp.err"; then
        mv -f "$tmp" "$dest"
        rm -f "$tmp.err"
    else
        status=$?
        {
            echo "task: $i"
            echo "trace: $trace"
            echo "step: $name"
            echo "exit status: $status"
            echo "host: $(hostname)"
            echo "--- stderr"
            cat "$tmp.err"
        } >>"$err.tmp"
        rm -f "$tmp" "$tmp.err"
        failed=1
    fi
}
if [ -z "$trace" ]; then
    echo "task: $i"$'\n'"step: list"$'\n'"exit status: 1"$'\n'"no line $((i + 1)) in $out/traces.lst" >"$err.tmp"
    failed=1
else
    echo "task $i on $(hostname): $trace"
    run_step summary "$out/summaries/$i.json" "$cli" summary --json "$trace"
    if [ "$have_query" -eq 1 ]; then
        run_step query "$out/query/$i.csv" "$cli" query "$trace" "$query" --csv ${query_opts[@]+"${query_opts[@]}"}
    fi
fi
if [ "$failed" -ne 0 ]; then
    mv -f "$err.tmp" "$err"
    cat "$err" >&2
    exit 1
fi
EOF
} >"$task.tmp"
chmod +x "$task.tmp"
mv -f "$task.tmp" "$task"

if [ "$prepare_only" -eq 1 ]; then
    echo "traces: $n in $traces (list: $list)"
    echo "prepared $task: run it once per index 0..$((n - 1)) (SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX), then --merge-only"
    exit 0
fi

# --- submit ------------------------------------------------------------------------------------
array="0-$((n - 1))${max_parallel:+%$max_parallel}"
# --parsable: the id alone ("id" or "id;cluster"). --wait: sbatch returns when every task has ended,
# with the highest exit status of the tasks. The user's --sbatch-arg come last so they can override
# the defaults (job name, output); never --array itself, which must match traces.lst.
submit=(sbatch --parsable --array="$array" --job-name=warpscope-array
    --output="$out/logs/%A_%a.out" --chdir="$out")
[ "$wait" -eq 1 ] && submit+=(--wait)
# ${a[@]+...}: an empty array is "unbound" under set -u in bash < 4.4 (still on some clusters).
submit+=(${sbatch_args[@]+"${sbatch_args[@]}"} "$task")
echo "traces: $n in $traces (list: $list)"
echo "submitting: ${submit[*]}"
set +e
jobid=$("${submit[@]}")
status=$?
set -e
jobid=${jobid%%;*}
jobid=$(printf '%s\n' "$jobid" | tail -n 1)
[ -n "$jobid" ] && printf '%s\n' "$jobid" >"$out/job.id"
if [ "$wait" -eq 0 ]; then
    [ "$status" -eq 0 ] || die "sbatch failed (exit status $status)"
    echo "submitted job array $jobid ($n tasks); outputs in $out"
    merge_cmd="$0 --cli $(printf %q "$cli") --out $(printf %q "$out")"
    [ "$have_query" -eq 1 ] && merge_cmd+=" --query $(printf %q "$query")"
    echo "when it is done (squeue -j $jobid is empty), merge with:"
    echo "  $merge_cmd --merge-only"
    exit 0
fi

n_ok=$(find "$out/summaries" -maxdepth 1 -type f -name '*.json' | wc -l)
n_err=$(find "$out/errors" -maxdepth 1 -type f -name '*.txt' | wc -l)
echo "job array ${jobid:-?} done (sbatch exit status $status): $n_ok of $n summaries, $n_err failed task(s)"
if [ "$status" -ne 0 ] && [ "$n_err" -eq 0 ]; then
    # sbatch failed without any task reporting: the submission itself, or tasks killed by Slurm
    # (time limit, node failure) before they could write their error file.
    die "sbatch --wait failed (exit status $status) and no task wrote an error; see $out/logs/"
fi
merge
