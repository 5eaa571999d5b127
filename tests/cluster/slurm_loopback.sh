#!/usr/bin/env bash
# A private single-node Slurm cluster on 127.0.0.1, for tests that submit real jobs (issue #50).
#
#   tests/cluster/slurm_loopback.sh start DIR [--owner PID]   # prints "export SLURM_CONF=..." lines
#   tests/cluster/slurm_loopback.sh stop DIR
#
# `start` creates everything under DIR (which must be empty or absent): its own munge key and munged
# (private socket, pid, log and seed files), its own slurm.conf with free ports (never 6817/6818),
# the state, spool, pid and log files, then runs slurmctld and slurmd in the foreground mode (-D)
# in the background, and waits until `sinfo` shows the node idle. It writes DIR/env (the variables
# clients need: SLURM_CONF, and the munge socket for debugging) and prints it. The system's
# /etc/slurm, /etc/munge and any running munged are never read or written: every path is passed
# explicitly, and clients find the cluster only through SLURM_CONF.
#
# `stop` asks slurmctld to shut down, then ends the daemons it started by the ids in DIR/*.pid
# (TERM, then KILL) and leaves DIR for the caller to remove (its logs explain failures).
#
# A watchdog started with the daemons stops the cluster when the owner process (--owner, default
# the caller of `start`) is gone, so a test killed by a ctest TIMEOUT leaves no daemons behind.
#
# Exit status 77 (ctest's SKIP_RETURN_CODE) when this cannot run here: not root (the daemons run
# as SlurmUser=root so jobs can be started without a slurm account), or slurm/munge missing.
set -euo pipefail

SKIP=77
usage() {
    echo "usage: $0 start DIR [--owner PID] | stop DIR" >&2
    exit 2
}
[ $# -ge 2 ] || usage
cmd=$1
dir=$2
shift 2

log() { echo "slurm_loopback: $*" >&2; }

# True while process $1 runs. A zombie counts as gone: our daemons are reparented to PID 1 when
# `start` exits, and a container's PID 1 may never reap them (kill -0 succeeds on a zombie).
alive() {
    local st
    kill -0 "$1" 2>/dev/null || return 1
    st=$(sed -n 's/^[0-9]* (.*) \([A-Za-z]\).*/\1/p' "/proc/$1/stat" 2>/dev/null || true)
    [ "$st" != Z ] && [ "$st" != X ]
}

# The id in a pid file, or nothing.
pid_of() {
    local pid
    pid=$(cat "$1" 2>/dev/null || true)
    case "$pid" in '' | *[!0-9]*) return 0 ;; esac
    echo "$pid"
}

# Ends one process by its id: TERM, up to 10 s, then KILL. Only that id is signalled, never
# processes found by name (another cluster, or the system's, may be running). A daemon still in
# its start-up may ignore TERM, hence the KILL.
stop_pid() {
    local pid=$1 i
    [ -n "$pid" ] || return 0
    alive "$pid" || return 0
    kill -TERM "$pid" 2>/dev/null || return 0
    for i in $(seq 1 50); do
        alive "$pid" || return 0
        sleep 0.2
    done
    kill -KILL "$pid" 2>/dev/null || true
}

do_stop() {
    local d=$1 watchdog ctld slurmd munged
    [ -d "$d" ] || return 0
    # The ids first: a daemon told to shut down may remove its pid file before it has exited.
    watchdog=$(pid_of "$d/watchdog.pid")
    ctld=$(pid_of "$d/slurmctld.pid")
    slurmd=$(pid_of "$d/slurmd.pid")
    munged=$(pid_of "$d/munged.pid")
    # The watchdog first, so it does not race this stop.
    stop_pid "$watchdog"
    if [ -f "$d/slurm.conf" ] && command -v scontrol >/dev/null 2>&1; then
        # Private cluster: SLURM_CONF points only at ours. Cancel what is left, then shut down.
        SLURM_CONF="$d/slurm.conf" timeout 10 scancel --quiet --user=root >/dev/null 2>&1 || true
        SLURM_CONF="$d/slurm.conf" timeout 10 scontrol shutdown >/dev/null 2>&1 || true
    fi
    stop_pid "$slurmd"
    stop_pid "$ctld"
    stop_pid "$munged"
    rm -f "$d"/*.pid
}

if [ "$cmd" = stop ]; then
    do_stop "$dir"
    exit 0
fi
[ "$cmd" = start ] || usage

owner=$PPID
while [ $# -gt 0 ]; do
    case "$1" in
    --owner) owner=${2:?--owner needs a PID}; shift 2 ;;
    *) usage ;;
    esac
done

# --- Can it run here? (77 = skip, with the reason) -------------------------------------------
if [ "${EUID:-$(id -u)}" -ne 0 ]; then
    log "SKIP: needs root (slurmd starts job steps as the submitting user and SlurmUser=root here)"
    exit $SKIP
fi
for b in munged munge slurmctld slurmd slurmstepd sinfo scontrol sbatch; do
    if ! command -v "$b" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$b" ]; then
        log "SKIP: '$b' not found (apt-get install -y --no-install-recommends slurm-wlm munge)"
        exit $SKIP
    fi
done
PATH=$PATH:/usr/sbin:/sbin
command -v python3 >/dev/null 2>&1 || { log "SKIP: python3 not found (used to pick free ports)"; exit $SKIP; }

mkdir -p "$dir"
dir=$(cd "$dir" && pwd -P)
if [ -n "$(ls -A "$dir")" ]; then
    log "$dir is not empty"
    exit 1
fi
# munged refuses a socket or key in a directory others can write to, and warns unless clients can
# reach the socket: the top is 0755 (slurm.conf is not secret), state/spool/log stay 0700.
chmod 0755 "$dir"
mkdir -m 0700 "$dir/state" "$dir/spool" "$dir/log"
# The socket's directory must be searchable by all (munged warns otherwise); the key inside is 0400.
mkdir -m 0755 "$dir/munge"

# If anything below fails, stop what was started so far.
started=0
cleanup_on_error() {
    local rc=$?
    if [ "$started" -ne 1 ]; then
        # Stop first: printing the logs may fail (a closed stderr) and must not leave daemons.
        trap '' PIPE
        do_stop "$dir"
        log "start failed (status $rc); logs in $dir/log:"
        for f in "$dir"/log/*.log; do
            [ -f "$f" ] || continue
            echo "--- $f (last lines)" >&2
            tail -n 20 "$f" >&2 || true
        done
    fi
}
trap cleanup_on_error EXIT

# --- munge: a private key and daemon ---------------------------------------------------------
# 1024 random bytes, as `mungekey` writes; generated directly so this works on munge 0.5.x
# without the mungekey tool too.
key="$dir/munge/munge.key"
head -c 1024 /dev/urandom >"$key"
chmod 0400 "$key"
msock="$dir/munge/munge.socket"
# --force: munged also checks the permissions of every parent of its key, socket and log; a CI
# image's temp dir (TMPDIR group-writable, say) can fail that although our own directories are
# private, so it only warns. Not needed under a plain /tmp.
munged --force --socket="$msock" --key-file="$key" --pid-file="$dir/munged.pid" \
    --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed" </dev/null \
    >"$dir/log/munged.out" 2>&1
# munged forks into the background once its socket is listening; check a credential round trip.
for i in $(seq 1 50); do
    if munge -S "$msock" -n 2>/dev/null | unmunge -S "$msock" >/dev/null 2>&1; then
        break
    fi
    [ "$i" -lt 50 ] || { log "munged did not answer on $msock"; exit 1; }
    sleep 0.2
done

# --- slurm.conf ------------------------------------------------------------------------------
# Two free TCP ports on loopback (the kernel picks them; closed again before slurm binds them, a
# tiny race that a retry of the test covers).
read -r ctld_port slurmd_port < <(python3 - <<'EOF'
import socket
socks = []
for _ in range(2):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(*[s.getsockname()[1] for s in socks])
EOF
)
cpus=$(nproc)
conf="$dir/slurm.conf"
: >"$dir/plugstack.conf" # an empty SPANK stack: never the system's /etc/slurm/plugstack.conf
cat >"$conf" <<EOF
# Written by tests/cluster/slurm_loopback.sh: a private one-node cluster on 127.0.0.1.
ClusterName=warpscope-loopback
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
# Root in a container: no slurm user, so the daemons (and the jobs of root) run as root.
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# Both auth/munge and cred/munge read the socket from here: the private munged, never the system's.
AuthInfo=socket=$msock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$dir/plugstack.conf
# No cgroup anywhere (containers rarely delegate a writable cgroup tree): processes are tracked by
# walking /proc, tasks are not bound, nothing is accounted.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
# A node that was DOWN comes back as soon as its slurmd registers with a valid configuration.
ReturnToService=2
# The node is what slurmd finds (CPUs may differ from a container's cgroup view): do not drain it.
SlurmdParameters=config_overrides
MailProg=/bin/true
# Short timers: a test cluster should start, schedule and finish quickly.
SlurmdTimeout=30
SlurmctldTimeout=30
InactiveLimit=0
KillWait=5
MinJobAge=60
SchedulerParameters=bf_interval=1
NodeName=localhost NodeAddr=127.0.0.1 NodeHostname=localhost CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$conf

# --- the daemons -----------------------------------------------------------------------------
# -D: stay in the foreground (we background them ourselves and keep their ids; no systemd here).
# Their stdio goes to files so a caller reading our stdout is not held open by them.
# -i: ignore (empty) saved state. slurmd -N localhost: this host is the node "localhost" whatever
# the container's hostname is.
setsid slurmctld -D -i -f "$conf" </dev/null >"$dir/log/slurmctld.out" 2>&1 &
echo $! >"$dir/slurmctld.pid.launch"
setsid slurmd -D -N localhost -f "$conf" </dev/null >"$dir/log/slurmd.out" 2>&1 &
echo $! >"$dir/slurmd.pid.launch"
# The daemons write their own pid files; until they do, the ids we launched stand in.
cp "$dir/slurmctld.pid.launch" "$dir/slurmctld.pid"
cp "$dir/slurmd.pid.launch" "$dir/slurmd.pid"
rm -f "$dir"/*.pid.launch

# --- wait for the node to be idle ------------------------------------------------------------
deadline=$((SECONDS + ${SLURM_LOOPBACK_START_TIMEOUT:-60}))
state=
while :; do
    for d in slurmctld slurmd; do
        if ! alive "$(cat "$dir/$d.pid")"; then
            log "$d exited during start-up"
            exit 1
        fi
    done
    state=$(timeout 5 sinfo -h -n localhost -o '%t' 2>/dev/null | head -n 1 || true)
    case "$state" in idle) break ;; esac
    if [ "$SECONDS" -ge "$deadline" ]; then
        log "node not idle after ${SLURM_LOOPBACK_START_TIMEOUT:-60} s (state '${state}')"
        exit 1
    fi
    sleep 0.5
done

# --- watchdog --------------------------------------------------------------------------------
# Stops the cluster when the owner is gone (a test killed by ctest's TIMEOUT runs no cleanup).
self=$(cd "$(dirname "$0")" && pwd -P)/$(basename "$0")
(
    trap - EXIT
    while alive "$owner" && [ -f "$dir/slurm.conf" ]; do sleep 2; done
    rm -f "$dir/watchdog.pid" # so `stop` does not signal this subshell itself
    "$self" stop "$dir" >/dev/null 2>&1 || true
) </dev/null >/dev/null 2>&1 &
echo $! >"$dir/watchdog.pid"

cat >"$dir/env" <<EOF
export SLURM_CONF='$conf'
export SLURM_LOOPBACK_MUNGE_SOCKET='$msock'
EOF
started=1
log "node localhost idle (slurmctld port $ctld_port, slurmd port $slurmd_port, $cpus CPUs) in $dir"
cat "$dir/env"
