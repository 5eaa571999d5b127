#!/usr/bin/env bash
# Import speed and memory of a PyTorch memory snapshot against the Chrome JSON importer (issue #28
# goals: >= 0.5x the Chrome importer's MB/s, peak RSS <= 0.5x the snapshot file).
#
#   bench/bench_memory_snapshot.sh CLI SNAPSHOT CHROME_JSON
#
# SNAPSHOT: e.g. from bench/gen_memory_snapshot.py OUT --size 1G; CHROME_JSON: a Kineto trace of about
# the same size. Each file is imported twice, in turn; the best run of each counts.
set -euo pipefail
cli=$1 snapshot=$2 chrome=$3
field() { awk -v k="$1" -F': ' '$1 == k {print $2}'; }
run() { "$cli" bench-import "$1" --repeat 2; }
snap=$(run "$snapshot")
json=$(run "$chrome")
snap_mbs=$(echo "$snap" | field mb_per_s)
json_mbs=$(echo "$json" | field mb_per_s)
snap_rss=$(echo "$snap" | field peak_rss_over_json)
echo "snapshot: $(echo "$snap" | field file_bytes) bytes, $snap_mbs MB/s, peak RSS $(echo "$snap" | field peak_rss_bytes) B = ${snap_rss}x the file"
echo "chrome:   $(echo "$json" | field json_bytes) bytes, $json_mbs MB/s, peak RSS $(echo "$json" | field peak_rss_bytes) B"
awk -v s="$snap_mbs" -v j="$json_mbs" -v r="$snap_rss" 'BEGIN {
    printf "speed ratio (snapshot / chrome): %.2f (goal >= 0.5)\n", s / j
    printf "peak RSS / snapshot file:        %.2f (goal <= 0.5)\n", r }'
