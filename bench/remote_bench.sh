#!/usr/bin/env bash
# Issue #14's goals on loopback: a 300 MB Kineto trace in s3rver (the S3 server ./test.sh installs
# into BUILD_DIR/test-servers) opened as the app opens a URL, against the same file from local
# disk (goal <= 1.3x), and the reopen of the unchanged object (goal <= 0.3 s).
# Usage: bench/remote_bench.sh [BUILD_DIR] [WORK_DIR] [SIZE]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build/test}
work=${2:-/tmp/warpscope-remote-bench}
size=${3:-300M}
cli=$build/app/cli/warpscope-cli
s3rver=$build/test-servers/node_modules/.bin/s3rver
[ -x "$s3rver" ] || { echo "s3rver is missing: run ./test.sh (or scripts/install-test-servers.sh $build/test-servers)" >&2; exit 1; }
mkdir -p "$work"
trace=$(ls "$work"/job/*.pt.trace.json 2>/dev/null | head -1 || true)
if [ -z "$trace" ]; then
    python3 "$here/gen_kineto_job.py" --ranks 1 --size "$size" "$work/job"
    trace=$(ls "$work"/job/*.pt.trace.json | head -1)
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
rm -rf "$work/s3"
mkdir -p "$work/s3"
NODE_OPTIONS=--openssl-legacy-provider "$s3rver" -d "$work/s3" -a 127.0.0.1 -p "$port" --silent --configure-bucket traces &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
export AWS_ENDPOINT_URL=http://127.0.0.1:$port AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER
curl -sf --aws-sigv4 aws:amz:us-east-1:s3 --user S3RVER:S3RVER -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' \
    -o /dev/null -T "$trace" "$AWS_ENDPOINT_URL/traces/bench/$(basename "$trace")"
ls -l "$trace"
"$cli" bench-remote "s3://traces/bench/$(basename "$trace")" "$trace" --repeat "${REPEAT:-3}"
