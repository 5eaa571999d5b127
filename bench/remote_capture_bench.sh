#!/bin/bash
# Remote capture over loopback SSH (issue #26): how long after the program ends on the "host" is its
# capture complete here? Starts a throwaway sshd (capture/samples/loopback_sshd.sh), runs
# `warpscope-capture --host` with a program that writes SIZE_MB of capture stream and exits, and
# prints the program's end, the client's end and the lag between them, for ROUNDS runs.
#   bash bench/remote_capture_bench.sh [BUILD_DIR]      (SIZE_MB=100 ROUNDS=3)
set -eu
cd "$(dirname "$0")/.."
build=${1:-build/test}
cap=$(readlink -f "$build/capture/warpscope-capture")
size=${SIZE_MB:-100}; rounds=${ROUNDS:-3}
INJECT=$cap DRIVER=libc.so.6 . capture/samples/loopback_sshd.sh
d=$WS_SSHD_DIR
head -c ${size}M /dev/urandom > $d/stream.bin
echo "capture of $size MB over loopback ssh ($(ssh -V 2>&1)), $(nproc) cores"
for r in $(seq $rounds); do
  rm -rf $d/local $d/remote
  start=$(date +%s.%N)
  "$cap" -q --host wshost --remote-capture "$cap" --remote-dir $d/remote -o $d/local -- \
    sh -c "cat $d/stream.bin > \$WARPSCOPE_OUTPUT/bench.wscap; date +%s.%N > $d/program_end"
  done_at=$(date +%s.%N)
  cmp -s $d/stream.bin $d/local/bench.wscap && same=identical || same=DIFFERENT
  python3 -c "s,e,d=$start,$(cat $d/program_end),$done_at; print('round $r: program ended %.2f s after start, capture complete here %.3f s after the program ended (%s)' % (e-s, d-e, '$same'))"
done
