#!/bin/sh
# The capture tools Deploy copies to GPU hosts, built to run on any x86-64 Linux with glibc 2.31 or
# newer (Ubuntu 20.04, RHEL 8, Debian 11 and later; issue #26). Anything linked on a newer glibc
# needs that glibc (`__libc_start_main`, `dlopen` carry 2.34 since glibc 2.34; GCC 12's libstdc++
# needs 2.36 when linked in), so the tools are built in a Debian 11 root: glibc 2.31 and GCC 10's
# libstdc++ (GLIBCXX 3.4.28). Its CMake is 3.18, which capture/ configures with.
#
#   capture/package/build_portable.sh OUT_DIR [ROOT]
#
# ROOT: a Debian 11 root with g++, cmake, make and binutils (default /var/cache/warpscope/bullseye);
# made with debootstrap from Debian's mirror when missing (as root, a few minutes). CUDA/CUPTI:
# /usr/local/cuda or CUDA_HOME, copied into the root for the build. OUT_DIR then holds
# warpscope-capture, wscap-dump, libwarpscope_inject.so and libcupti.so.N; `OUT_DIR/warpscope-capture
# --host HOST --deploy ...` copies them to HOST. The script checks the symbol versions they need
# (tests/capture/check_portable.sh with glibc 2.31 and GLIBCXX 3.4.28) and that they start in the
# Debian 11 root.
set -eu
[ $# -ge 1 ] || { sed -n '2,17p' "$0"; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd)
root=${2:-/var/cache/warpscope/bullseye}
here=$(cd "$(dirname "$0")/../.." && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
[ -f "$cuda/include/cupti.h" ] || [ -f "$cuda/extras/CUPTI/include/cupti.h" ] || {
    echo "build_portable: no CUDA toolkit with CUPTI at $cuda (set CUDA_HOME)" >&2; exit 1; }
if [ ! -x "$root/usr/bin/g++" ]; then
    command -v debootstrap > /dev/null || apt-get install -y -q debootstrap > /dev/null
    mkdir -p "$root"
    debootstrap --variant=minbase --include=g++,cmake,make,binutils bullseye "$root" http://deb.debian.org/debian
fi
# The sources and the CUDA headers and CUPTI the injection library builds against, inside the root.
rm -rf "$root/ws"
mkdir -p "$root/ws/src" "$root/ws/cuda/lib64"
cp -a "$here/capture" "$here/cmake" "$root/ws/src/"
cp -a "$cuda/include" "$root/ws/cuda/"
[ -d "$cuda/extras/CUPTI/include" ] && cp -a "$cuda/extras/CUPTI/include/." "$root/ws/cuda/include/"
cupti=$(find -L "$cuda/lib64" "$cuda/extras/CUPTI/lib64" "$cuda/targets/x86_64-linux/lib" -maxdepth 1 -name 'libcupti.so*' 2>/dev/null | head -1)
[ -n "$cupti" ] || { echo "build_portable: no libcupti.so under $cuda" >&2; exit 1; }
cp -aL "$(dirname "$cupti")"/libcupti.so* "$root/ws/cuda/lib64/"
chroot "$root" /bin/sh -c "cd /ws && CUDA_HOME=/ws/cuda cmake -S src/capture -B build -DCMAKE_BUILD_TYPE=Release > build.log \
    && cmake --build build -j$(nproc) >> build.log 2>&1" || { tail -30 "$root/ws/build.log" >&2; exit 1; }
for f in warpscope-capture wscap-dump libwarpscope_inject.so; do cp "$root/ws/build/$f" "$out/"; done
cp "$root"/ws/build/libcupti.so.* "$out/"
MAX_GLIBC=2.31 MAX_GLIBCXX=3.4.28 sh "$here/tests/capture/check_portable.sh" "$out"/warpscope-capture "$out"/wscap-dump \
    "$out"/libwarpscope_inject.so "$out"/libcupti.so.*
# They start on glibc 2.31: the tools in the root itself, the library loaded by a program there.
mkdir -p "$root/ws/out" && cp "$out"/* "$root/ws/out/"
chroot "$root" /ws/out/warpscope-capture --version
chroot "$root" /bin/sh -c 'python3 -c "" 2>/dev/null; LD_BIND_NOW=1 /lib64/ld-linux-x86-64.so.2 --list /ws/out/libwarpscope_inject.so > /dev/null' \
    && echo "libwarpscope_inject.so: every symbol resolves on glibc 2.31"
echo "portable capture tools in $out"
