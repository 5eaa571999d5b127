#!/usr/bin/env bash
# Builds Warpscope (Release) and launches it on the bundled sample session.
# Extra arguments go to warpscope, e.g. ./run.sh other.pt.trace.json
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
build=build/release
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DWARPSCOPE_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" --parallel "$(nproc)"
scripts/install-python-package.sh "$build"
app=$build/app/gui/warpscope
sample=resources/samples/h100_gaunernst_bert-small-uncased__1016001.json.gz
files=("$@")
[ ${#files[@]} -gt 0 ] || files=("$sample")

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    exec "$app" "${files[@]}"
fi
# No display (a server or CI shell): render the window once under Xvfb and say where the picture is.
mkdir -p build
shot=$PWD/build/warpscope-screenshot.png
echo "No display found; rendering Warpscope under Xvfb to $shot"
xvfb-run -a -s "-screen 0 1600x1000x24" "$app" --screenshot "$shot" "${files[@]}"
echo "Screenshot saved: $shot"
