#!/bin/bash
# The remote capture over a real OpenSSH server on the GPU machine (issue #26). The lent GPU machines
# have no sshd, so Debian 12's OpenSSH (sshd, ssh, ssh-keygen and the libraries they need that glibc
# does not provide) is carried as device-carry/sshd and put where capture/samples/loopback_sshd.sh
# looks, behind wrappers that give it its libraries; then capture/samples/device_remote.sh runs as is.
#   bash capture/samples/device_remote_sshd.sh   (as root on a throwaway machine: it adds a user sshd)
set -u
K=$(pwd)/device-carry/sshd
wrap() { printf '#!/bin/sh\nLD_LIBRARY_PATH=%s/lib exec %s/bin/%s "$@"\n' "$K" "$K" "$1" > "$2"; chmod +x "$2"; }
[ -x /usr/sbin/sshd ] || wrap sshd /usr/sbin/sshd
command -v ssh > /dev/null || wrap ssh /usr/local/bin/ssh
command -v ssh-keygen > /dev/null || wrap ssh-keygen /usr/local/bin/ssh-keygen
id sshd > /dev/null 2>&1 || useradd -r -M -d /run/sshd -s /usr/sbin/nologin sshd
/usr/sbin/sshd -V 2>&1 | head -1; ssh -V 2>&1 | head -1
bash capture/samples/device_remote.sh
