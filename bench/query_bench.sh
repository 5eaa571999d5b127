#!/usr/bin/env bash
# The query engine's goals (issue #50), measured:
#   a stored 1 GB session: kernel summary by name <= 0.5 s and a join of kernels to operators <= 2 s,
#   warm, equal to `warpscope-cli kernels --group name` and `ops`; memory beyond the open session
#   <= 0.2x the JSON size;
#   1,000 stored sessions of about 1 MB: a per-session kernel query <= 20 s on 2 cores.
# Usage: bench/query_bench.sh [BUILD_DIR] [WORK_DIR]   (needs ../shared/tools/gen_kineto_trace.py)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build/test}" && pwd)
work=${2:-/tmp/warpscope-query-bench}
cli=$build/app/cli/warpscope-cli
gen=$here/../../shared/tools/gen_kineto_trace.py
[ -f "$gen" ] || gen=/work/shared/tools/gen_kineto_trace.py
mkdir -p "$work"
cd "$work"
[ -f trace1g.json ] || python3 "$gen" --size 1G trace1g.json >/dev/null
[ -f s1g.warpscope ] || "$cli" import trace1g.json -o s1g.warpscope >/dev/null
json_mb=$(( $(stat -c %s trace1g.json) / 1000000 ))
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
field() { grep "^$1:" | head -1 | awk '{print $2}'; }

summary_sql="SELECT * FROM kernel_summary"
join_sql="SELECT o.name, COUNT(*) AS kernels, SUM(k.duration_ns) AS gpu_ns FROM kernels k JOIN operators o ON k.op_id = o.id GROUP BY o.name"
for what in summary join; do
    sql=$summary_sql; goal=0.5
    [ "$what" = join ] && sql=$join_sql && goal=2.0
    out=$("$cli" query s1g.warpscope "$sql" --bench)
    warm=$(echo "$out" | field vtab_warm_s)
    growth=$(echo "$out" | field vtab_rss_growth_mb)
    echo "1g_${what}_warm_s: $warm (goal $goal, ratio $(ratio "$warm" "$goal"))"
    echo "1g_${what}_cold_s: $(echo "$out" | field vtab_cold_s)"
    echo "1g_${what}_memory_mb: $growth (goal $(( json_mb / 5 )) = 0.2x the JSON, ratio $(ratio "$growth" $(( json_mb / 5 ))))"
    echo "1g_${what}_materialized: copy $(echo "$out" | field materialize_s) s and $(echo "$out" | field materialize_mb) MB, query $(echo "$out" | field materialized_query_s) s, results_equal $(echo "$out" | field results_equal)"
done
# Equal to the CLI's reports.
"$cli" query s1g.warpscope "SELECT kernel, calls, total_ns FROM kernel_summary ORDER BY kernel" --csv > q_k.csv
"$cli" kernels s1g.warpscope --group name | python3 -c '
import csv, sys
rows = sorted((r["kernel"], r["calls"], r["total_ns"]) for r in csv.DictReader(sys.stdin))
w = csv.writer(sys.stdout, lineterminator="\n"); w.writerow(["kernel", "calls", "total_ns"]); w.writerows(rows)' > c_k.csv
cmp -s q_k.csv c_k.csv && echo "1g_kernel_summary_equals_cli: yes" || echo "1g_kernel_summary_equals_cli: NO"

# 1,000 sessions of about 1 MB (one stored session copied: the per-session work is the same).
if [ ! -d lib1000 ]; then
    python3 "$gen" --size 28M t28.json >/dev/null
    "$cli" import t28.json -o one.warpscope >/dev/null
    mkdir -p lib1000
    for i in $(seq -w 1 1000); do cp one.warpscope "lib1000/s$i.warpscope"; done
fi
start=$(date +%s.%N)
"$cli" query --library lib1000 "SELECT kernel, COUNT(*) AS calls, SUM(duration_ns) AS total_ns FROM kernels GROUP BY kernel" --csv > lib.csv 2>/dev/null
secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
echo "library_1000_sessions_s: $secs on $(nproc) cores (goal 20, ratio $(ratio "$secs" 20)); $(($(wc -l < lib.csv) - 1)) rows, session file $(( $(stat -c %s lib1000/s0001.warpscope) / 1000 )) kB"
