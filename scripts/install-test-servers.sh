#!/usr/bin/env bash
# Installs the storage servers the remote-trace tests run on loopback (issue #14) from the npm
# registry into DIR (default build/test/test-servers): s3rver (an S3 server) and Azurite (Microsoft's
# Azure Storage emulator); and the MCP SDK whose client tests `warpscope-cli mcp` (issue #50).
# Skips what is there.
# Needs node and npm (scripts/install-deps.sh installs Debian's).
set -euo pipefail
dir=${1:-build/test/test-servers}
mkdir -p "$dir"
# Trust what the system trusts (a Debian node uses its own CA list otherwise, and fails behind a
# proxy whose CA the administrator installed).
npm_options=(--no-audit --no-fund --loglevel=error)
[ -f /etc/ssl/certs/ca-certificates.crt ] && npm_options+=(--cafile /etc/ssl/certs/ca-certificates.crt)
if [ ! -x "$dir/node_modules/.bin/s3rver" ]; then
    echo "Installing s3rver into $dir"
    npm install --prefix "$dir" "${npm_options[@]}" s3rver@3.7.1
fi
if [ ! -x "$dir/node_modules/.bin/azurite-blob" ]; then
    echo "Installing azurite into $dir"
    npm install --prefix "$dir" "${npm_options[@]}" azurite@3.35.0
fi
# The official MCP SDK (TypeScript), whose client the MCP server's test drives (tests/mcp).
if [ ! -f "$dir/node_modules/@modelcontextprotocol/sdk/package.json" ]; then
    echo "Installing @modelcontextprotocol/sdk into $dir"
    npm install --prefix "$dir" "${npm_options[@]}" @modelcontextprotocol/sdk@1.32.2
fi
