#!/usr/bin/env bash
# Installs what is missing, builds everything with the tests, and runs them all (ctest), including the
# end-to-end tests that start the real app under xvfb-run, then runs the fuzz targets briefly.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
build=build/test
scripts/install-test-servers.sh "$build/test-servers"
jobs=$(nproc)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DWARPSCOPE_WERROR=ON
cmake --build "$build" --parallel "$jobs"
scripts/install-python-package.sh "$build"
ctest --test-dir "$build" --output-on-failure --parallel "$jobs" --timeout 300
# Every fuzz target a few seconds on its seeds (clang + ASan + UBSan, build/fuzz); a finding fails.
scripts/fuzz.sh --smoke 5
