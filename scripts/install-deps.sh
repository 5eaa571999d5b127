#!/usr/bin/env bash
# Installs the Debian 12 packages Warpscope builds, tests and runs with, skipping those already there.
# Runs apt-get as root, or through sudo when available; otherwise says what to install and fails.
set -euo pipefail

packages=(
    # toolchain
    g++ make cmake pkg-config file dpkg-dev
    # addr2line: symbolizing native launch stacks (capture tests)
    binutils
    # the fuzz targets (scripts/fuzz.sh): clang with libFuzzer and the sanitizer runtimes
    clang libclang-rt-14-dev
    # libraries (ARCHITECTURE.md "Toolchain")
    qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools libgl-dev
    libsqlite3-dev libzstd-dev libsimdjson-dev nlohmann-json3-dev zlib1g-dev
    # XLA/JAX profiles (xplane.pb): the protobuf runtime and protoc for core/import/proto
    libprotobuf-dev protobuf-compiler
    # remote traces (S3, GCS, Azure Blob, HTTP): libcurl with OpenSSL; openssl makes the tests' certificates
    libcurl4-openssl-dev libssl-dev openssl ca-certificates
    # curl uploads the objects of the remote-trace tests' storage servers
    curl
    # remote capture over SSH (issue #26): the user's ssh client; the tests' loopback sshd and keys
    openssh-client openssh-server
    libgtest-dev libgmock-dev
    # running under X and headless checks; fonts so text renders, CJK for the Chinese UI
    xvfb xauth xkb-data fonts-dejavu-core fonts-wqy-microhei qt6-translations-l10n
    # the sample trace generator used by benchmarks
    python3
    # the `warpscope` Python package (python/): pybind11, and pandas for its DataFrames; pytest tests it
    python3-dev pybind11-dev python3-pandas python3-pytest
    # job arrays on a real scheduler (scripts/warpscope-slurm-array.sh): the tests start a private
    # single-node Slurm with its own munge on loopback (tests/cluster)
    slurm-wlm munge
)

missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
    [ "$status" = installed ] || missing+=("$p")
done
# Those servers come from the npm registry: Debian's node and npm, unless a node with npm is there.
command -v npm >/dev/null || missing+=(nodejs npm)
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing missing packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null; then
    as_root=(sudo)
else
    echo "Please install as root: apt-get install ${missing[*]}" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -q
"${as_root[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
