#!/usr/bin/env bash
# The Distributed view's goals (issue #12), end to end:
#   1. 8 ranks x 100 MB opened with the Distributed tables computed, against importing one trace of
#      the same total size (goal <= 1.5x), with peak RSS <= 0.5x the total JSON;
#   2. 1,024 rank summaries merged (goal <= 1 s), and the Distributed tab's table sorts at 1,024
#      workers (goal <= 100 ms).
# Usage: bench/dist_bench.sh [BUILD_DIR] [WORK_DIR]   (needs ../shared/tools/gen_kineto_trace.py)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build/test}
work=${2:-/tmp/warpscope-dist-bench}
cli=$build/app/cli/warpscope-cli
mkdir -p "$work"
[ -d "$work/job8" ] || python3 "$here/gen_kineto_job.py" --ranks 8 --size 100M "$work/job8"
[ -f "$work/single800.json" ] || python3 "$here/../../shared/tools/gen_kineto_trace.py" --size 800M "$work/single800.json"
echo "== 8 ranks x 100 MB vs one 800 MB trace"
"$cli" dist "$work/job8" --bench --repeat 3 --baseline "$work/single800.json"
echo "== 1,024 rank summaries"
rm -rf "$work/sum8" "$work/sum1024"
mkdir -p "$work/sum8"
for f in "$work"/job8/*.pt.trace.json; do
    "$cli" summary "$f" --json > "$work/sum8/$(basename "$f" .pt.trace.json).json"
done
python3 "$here/replicate_summaries.py" "$work/sum8" 1024 "$work/sum1024"
du -sh "$work/sum1024"
"$cli" dist --summaries "$work/sum1024" --bench --repeat 3
echo "== the Distributed tab at 1,024 workers (offscreen): table sorts, step switch"
QT_QPA_PLATFORM=offscreen "$build/app/gui/warpscope" --bench-job --summaries "$work/sum1024"
