#!/usr/bin/env bash
# Installs the `warpscope` Python package built in BUILD (default build/release) for the user who
# runs it: a copy into that user's site-packages (python3 -m site --user-site), so `import warpscope`
# works from any directory with Debian's python3 and pandas. Skips quietly when it was not built
# (no python3-dev/pybind11-dev). Run again after each build; the copy is replaced whole.
set -euo pipefail
build=${1:-build/release}
package=$build/python/warpscope
if ! ls "$package"/_warpscope*.so >/dev/null 2>&1; then
    echo "Python package not built in $build (python3-dev and pybind11-dev missing?); skipped"
    exit 0
fi
python=/usr/bin/python3
[ -x "$python" ] || python=python3
site=$("$python" -m site --user-site)
mkdir -p "$site"
rm -rf "$site/warpscope.tmp"
cp -r "$package" "$site/warpscope.tmp"
rm -rf "$site/warpscope"
mv "$site/warpscope.tmp" "$site/warpscope"
echo "Python package installed: $site/warpscope (import warpscope)"
