#!/bin/bash
# Remote capture over loopback SSH (issue #26): how long after the program ends on the "host" is its
# capture here, and then in the session library? Starts a throwaway sshd
# (capture/samples/loopback_sshd.sh) and runs `warpscope-capture --host` with a program that writes
# SIZE_MB of real capture streams (copies of tests/data/captures/transformer_torch_ops.wscap.gz, a
# d-256 transformer recorded with --torch-ops on an H100) and exits. Then imports the folder into a
# fresh library as File > Open does after a capture (`warpscope-cli import DIR --library LIB`:
# import, analyses' results, store). Prints, per round, the lag from the program's end to the
# complete copy here, the library's import, and their sum (goal: in the library within 2 s).
#   bash bench/remote_capture_bench.sh [BUILD_DIR]      (SIZE_MB=100 ROUNDS=3)
set -eu
cd "$(dirname "$0")/.."
build=${1:-build/test}
cap=$(readlink -f "$build/capture/warpscope-capture")
cli=$(readlink -f "$build/app/cli/warpscope-cli")
size=${SIZE_MB:-100}; rounds=${ROUNDS:-3}
INJECT=$cap DRIVER=libc.so.6 . capture/samples/loopback_sshd.sh
d=$WS_SSHD_DIR
mkdir $d/streams
gzip -dc tests/data/captures/transformer_torch_ops.wscap.gz > $d/streams/r0.wscap
one=$(stat -c %s $d/streams/r0.wscap)
copies=$(( (size * 1024 * 1024 + one - 1) / one ))
for i in $(seq 1 $((copies - 1))); do cp $d/streams/r0.wscap $d/streams/r$i.wscap; done
total=$(du -cb $d/streams/*.wscap | tail -1 | cut -f1)
echo "capture of $copies streams, $((total / 1024 / 1024)) MB, over loopback ssh ($(ssh -V 2>&1)), $(nproc) cores"
for r in $(seq $rounds); do
  rm -rf $d/local $d/remote $d/lib
  start=$(date +%s.%N)
  "$cap" -q --host wshost --remote-capture "$cap" --remote-dir $d/remote -o $d/local -- \
    sh -c "for f in $d/streams/*.wscap; do cat \$f > \$WARPSCOPE_OUTPUT/\$(basename \$f); done; date +%s.%N > $d/program_end"
  arrived=$(date +%s.%N)
  same=identical
  for f in $d/streams/*.wscap; do cmp -s $f $d/local/$(basename $f) || same=DIFFERENT; done
  "$cli" import $d/local --library $d/lib > /dev/null 2> $d/import.err || { cat $d/import.err; exit 1; }
  stored=$(date +%s.%N)
  python3 -c "s,e,a,l=$start,$(cat $d/program_end),$arrived,$stored; print('round $r: program ran %.2f s; after its end: complete here %.3f s ($same), in the library %.3f s later, total %.3f s (goal 2 s)' % (e-s, a-e, l-a, l-e))"
done
