# Sourced: starts a throwaway OpenSSH server on 127.0.0.1 with its own host key and one authorized
# client key, and sets WARPSCOPE_SSH so that `warpscope-capture --host wshost` reaches it (the remote
# capture's bench and GPU-machine runs; the tests do the same in C++). INJECT and DRIVER, when set,
# reach the host side through sshd's SetEnv (a fake injection library and "CUDA driver" on machines
# without a GPU). The server stops when the sourcing shell exits.
#   . capture/samples/loopback_sshd.sh
[ -x /usr/sbin/sshd ] || { echo "loopback_sshd: needs openssh-server (/usr/sbin/sshd)" >&2; return 1; }
WS_SSHD_DIR=$(mktemp -d /tmp/wssshd.XXXXXX)
trap '[ -f $WS_SSHD_DIR/sshd.pid ] && kill $(cat $WS_SSHD_DIR/sshd.pid) 2>/dev/null; rm -rf $WS_SSHD_DIR' EXIT
for k in host_key client_key; do ssh-keygen -q -t ed25519 -N '' -f $WS_SSHD_DIR/$k; done
cp $WS_SSHD_DIR/client_key.pub $WS_SSHD_DIR/authorized_keys
echo "wsloopback $(cut -d' ' -f1,2 $WS_SSHD_DIR/host_key.pub)" > $WS_SSHD_DIR/known_hosts
ws_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
[ "$(id -u)" = 0 ] && mkdir -p /run/sshd
{
  echo "Port $ws_port"; echo "ListenAddress 127.0.0.1"; echo "HostKey $WS_SSHD_DIR/host_key"
  echo "PidFile $WS_SSHD_DIR/sshd.pid"; echo "AuthorizedKeysFile $WS_SSHD_DIR/authorized_keys"
  echo "StrictModes no"; echo "UsePAM no"; echo "PasswordAuthentication no"; echo "PermitRootLogin yes"
  # One SetEnv line (sshd keeps the first): the host's PATH and libraries as this shell has them
  # (a login would not), and the stand-ins.
  env_line="PATH=$PATH LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
  [ -n "${INJECT:-}" ] && env_line="$env_line WARPSCOPE_INJECT_LIBRARY=$INJECT"
  [ -n "${DRIVER:-}" ] && env_line="$env_line WARPSCOPE_CUDA_DRIVER_LIBRARY=$DRIVER"
  echo "SetEnv $env_line"
} > $WS_SSHD_DIR/sshd_config
printf 'Host wshost\n  HostName 127.0.0.1\n  Port %s\n  User %s\n  IdentityFile %s\n  IdentitiesOnly yes\n  UserKnownHostsFile %s\n  HostKeyAlias wsloopback\n  StrictHostKeyChecking yes\n' \
  $ws_port "$(id -un)" $WS_SSHD_DIR/client_key $WS_SSHD_DIR/known_hosts > $WS_SSHD_DIR/ssh_config
/usr/sbin/sshd -f $WS_SSHD_DIR/sshd_config
sleep 0.5
export WARPSCOPE_SSH="ssh -F $WS_SSHD_DIR/ssh_config"
