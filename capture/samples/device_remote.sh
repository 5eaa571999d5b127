#!/bin/bash
# GPU-machine run of the remote capture (issue #26): the zoo's GPT step captured through
# `warpscope-capture --host` over a loopback sshd (capture/samples/loopback_sshd.sh) with the real
# injection library, comparing what arrived with what the host kept. A machine without
# openssh-server (the lent GPU machines have none) gets a stand-in transport instead: an "ssh" that
# runs the remote command here through sh, so everything but the network is the real thing.
# Run from the repository root.
set -u
OUT=${OUT:-/tmp/out}; B=/tmp/b; S=capture/samples; C=$B/warpscope-capture
mkdir -p "$OUT"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
cmake -S capture -B $B -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $B -j16 2>&1 | grep -E "warning|error"
ls $C > /dev/null || exit 1
if [ -x /usr/sbin/sshd ] && command -v ssh > /dev/null; then
  . $S/loopback_sshd.sh || exit 1
  echo "transport: ssh to a loopback sshd"
else
  printf '#!/bin/sh\nfor last; do :; done\nexec sh -c "$last"\n' > /tmp/fake-ssh; chmod +x /tmp/fake-ssh
  export WARPSCOPE_SSH=/tmp/fake-ssh
  echo "transport: no sshd here; the remote command runs through sh (stand-in for ssh)"
fi
rm -rf /tmp/rl /tmp/rr
start=$(date +%s.%N)
$C --host wshost --remote-capture $C --remote-dir /tmp/rr --torch-ops --py-stacks -o /tmp/rl -- \
  python3 $(pwd)/$S/zoo.py gpt plain 2>&1 | tail -8
echo "client exit status ${PIPESTATUS[0]} after $(python3 -c "import time; print('%.1f s' % (time.time() - $start))")"
ls -la /tmp/rl /tmp/rr
for f in /tmp/rr/*.wscap; do
  cmp "$f" "/tmp/rl/$(basename $f)" && echo "$(basename $f): identical here and there ($(stat -c %s $f) bytes)"
done
f=$(ls -S /tmp/rl/*.wscap | head -1)
$B/wscap-dump -n 0 "$f" | grep -E "^(Kernel|Api|NvtxRange|CallStack|Footer) " | tr '\n' ' '; echo
gzip -9 -c "$f" > $OUT/remote_gpt.wscap.gz
