#!/usr/bin/env bash
# Installs the storage servers the remote-trace tests run on loopback (issue #14) from the npm
# registry into DIR (default build/test/test-servers): s3rver (an S3 server). Skips what is there.
# Needs node and npm (scripts/install-deps.sh installs Debian's).
set -euo pipefail
dir=${1:-build/test/test-servers}
mkdir -p "$dir"
if [ ! -x "$dir/node_modules/.bin/s3rver" ]; then
    echo "Installing s3rver into $dir"
    npm install --prefix "$dir" --no-audit --no-fund --loglevel=error s3rver@3.7.1
fi
