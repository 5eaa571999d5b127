#!/bin/bash
# GPU-machine run of the portable capture tools (issue #26): the folder capture/package/build_portable.sh
# made (glibc 2.31 build), carried as device-carry/portable, captures the zoo's GPT step directly and
# through Deploy (an `ssh` stand-in that runs the remote command here through sh: the lent GPU
# machines have no sshd), and wscap-dump reads what each wrote.
#   bash capture/samples/device_portable.sh
set -u
P=$(pwd)/device-carry/portable; S=capture/samples
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ldd --version | head -1
$P/warpscope-capture --version || exit 1
rm -rf /tmp/pc; WS_STEPS=6 $P/warpscope-capture -q --py-stacks --torch-ops -o /tmp/pc -- python3 $S/zoo.py gpt plain | tail -1
f=$(ls -S /tmp/pc/*.wscap | head -1); $P/wscap-dump --summary "$f" | grep -E "^(Kernel|Api|CallStack|OpsWindow|Footer) "
printf '#!/bin/sh\nfor last; do :; done\nexec sh -c "$last"\n' > /tmp/fake-ssh; chmod +x /tmp/fake-ssh
rm -rf ~/.cache/warpscope/bin /tmp/rl /tmp/rr
WARPSCOPE_SSH=/tmp/fake-ssh WS_STEPS=6 $P/warpscope-capture --host wshost --deploy --remote-dir /tmp/rr -o /tmp/rl -- \
  python3 $(pwd)/$S/zoo.py gpt plain 2>&1 | tail -4
ls -la ~/.cache/warpscope/bin
f=$(ls -S /tmp/rl/*.wscap | head -1); $P/wscap-dump --summary "$f" | grep -E "^(Kernel|Footer) "
