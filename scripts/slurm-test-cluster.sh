#!/usr/bin/env bash
# A real one-node Slurm cluster on this machine, for tests: Debian's slurmctld and slurmd
# with munge, everything (configuration, key, state, spool, logs, sockets) in one
# temporary directory, nothing of /etc or the system's services touched.
#
#   scripts/slurm-test-cluster.sh run [--cpus N] COMMAND [ARG...]
#       starts the cluster, runs COMMAND with SLURM_CONF (and DLFL_SLURM_DIR) set, stops
#       the cluster and removes its directory whatever happens (a trap), and exits with
#       COMMAND's status
#   scripts/slurm-test-cluster.sh start DIR [--cpus N]   starts one in DIR (made, must be empty)
#   scripts/slurm-test-cluster.sh stop DIR               stops the daemons DIR's cluster started
#
# The node: this host's short name, N CPUs (default 2, at most the host's), half the free
# memory, proctrack/linuxproc and task/none (no cgroups), select/cons_tres by CPU, one
# partition "debug" as default. The daemons run as root (SlurmUser=root), as slurmd must
# to start jobs. A daemon that does not start makes this fail with its own log's last
# lines: never a silent skip. Environment: DLFL_SLURM_WAIT (seconds to wait for the node
# to be idle, default 60), DLFL_SLURM_KEEP=1 keeps DIR of `run` for a post-mortem.
set -euo pipefail

fail() { echo "slurm-test-cluster.sh: $*" >&2; exit 2; }

# The last lines of a daemon's log, indented, for an error message.
log_tail() { [[ -s $1 ]] && sed 's/^/    /' <(tail -n 15 "$1") || echo "    ($1 is empty or missing)"; }

# A TCP port nothing listens on (the cluster must not meet another one on this host).
free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

write_config() {
  local dir=$1 cpus=$2 host mem_kib mem ctld_port slurmd_port
  host=$(hostname -s)
  mem_kib=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
  mem=$((mem_kib / 1024 / 2))
  ((mem >= 256)) || fail "only $((mem_kib / 1024)) MiB of memory available: too little for a test cluster"
  ctld_port=$(free_port)
  slurmd_port=$(free_port)
  [[ $ctld_port != "$slurmd_port" ]] || slurmd_port=$(free_port)
  mkdir -p "$dir/state" "$dir/spool" "$dir/log" "$dir/run" "$dir/munge"
  chmod 700 "$dir/munge"
  cat >"$dir/slurm.conf" <<EOF
# A one-node test cluster written by scripts/slurm-test-cluster.sh.
ClusterName=dlfltest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# cred_expire: a requeued job waits this long plus a second before it may start again, so
# that its first run's processes, I/O and credential are gone (slurm.conf(5)); the
# default is 120 s, 10 keeps the requeue test short without skipping the wait.
AuthInfo=socket=$dir/munge/munge.socket,cred_expire=10
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/slurmd-%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
# Short waits: a requeued or cancelled test job goes quickly.
KillWait=5
MinJobAge=300
SlurmdTimeout=60
InactiveLimit=0
JobRequeue=1
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  # Slurm reads a cgroup.conf beside slurm.conf only for cgroup plugins; none is used.
  echo "$host"
}

start() {
  local dir=$1 cpus=$2
  [[ $EUID -eq 0 ]] || fail "slurmd must run as root to start jobs (this is uid $EUID)"
  local d
  for d in munged mungekey slurmctld slurmd sinfo sbatch; do
    command -v "$d" >/dev/null || [[ -x /usr/sbin/$d ]] ||
      fail "$d is not installed (scripts/install-deps.sh installs slurmctld, slurmd, slurm-client and munge)"
  done
  export PATH=$PATH:/usr/sbin
  local host
  host=$(write_config "$dir" "$cpus")
  export SLURM_CONF=$dir/slurm.conf
  mungekey --create --keyfile="$dir/munge/munge.key" 2>"$dir/log/mungekey.log" ||
    fail "mungekey could not create a key:"$'\n'"$(log_tail "$dir/log/mungekey.log")"
  chmod 400 "$dir/munge/munge.key"
  # --force: the temporary directory's parents are not root-only, as munged would like.
  munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/seed" \
    2>>"$dir/log/munged.log" || fail "munged did not start:"$'\n'"$(log_tail "$dir/log/munged.log")"
  munge --socket="$dir/munge/munge.socket" -n 2>"$dir/log/munge-check.log" |
    unmunge --socket="$dir/munge/munge.socket" >/dev/null 2>>"$dir/log/munge-check.log" ||
    fail "munge does not answer on its socket:"$'\n'"$(log_tail "$dir/log/munge-check.log")"$'\n'"$(log_tail "$dir/log/munged.log")"
  # -i: ignore state files of an earlier cluster (there are none: a fresh directory).
  slurmctld -i 2>>"$dir/log/slurmctld.log" ||
    fail "slurmctld did not start:"$'\n'"$(log_tail "$dir/log/slurmctld.log")"
  slurmd -N "$host" 2>>"$dir/log/slurmd.log" || fail "slurmd did not start:"$'\n'"$(log_tail "$dir/log/slurmd.log")"
  local wait=${DLFL_SLURM_WAIT:-60} state=""
  local deadline=$((SECONDS + wait))
  while ((SECONDS < deadline)); do
    state=$(sinfo --noheader --nodes="$host" --format=%T 2>/dev/null || true)
    [[ $state == idle ]] && break
    for d in slurmctld slurmd; do
      local pid
      pid=$(cat "$dir/run/$d.pid" 2>/dev/null || true)
      if [[ -n $pid ]] && ! kill -0 "$pid" 2>/dev/null; then fail "$d stopped:"$'\n'"$(log_tail "$dir/log/$d.log")"; fi
    done
    sleep 1
  done
  [[ $state == idle ]] || fail "node $host is '${state:-unknown}', not idle, after ${wait}s:"$'\n'"slurmctld.log:"$'\n'"$(log_tail "$dir/log/slurmctld.log")"$'\n'"slurmd.log:"$'\n'"$(log_tail "$dir/log/slurmd.log")"
  echo "slurm-test-cluster.sh: node $host idle, $cpus CPUs; SLURM_CONF=$SLURM_CONF" >&2
}

# Stops the daemons of DIR (those its pid files name), newest first; quiet about those
# already gone.
stop() {
  local dir=$1 d pid
  for d in slurmd slurmctld munged; do
    pid=$(cat "$dir/run/$d.pid" 2>/dev/null || true)
    [[ -n $pid ]] && kill "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null || true
  done
  # Job steps that outlived slurmd (slurmstepd of this cluster's spool).
  local step
  for step in $(pgrep -x slurmstepd || true); do
    tr '\0' ' ' <"/proc/$step/cmdline" 2>/dev/null | grep -qF "$dir" && kill -9 "$step" 2>/dev/null || true
  done
  return 0
}

cpus_option() {
  local cpus=2 host
  host=$(nproc)
  if [[ ${1-} == --cpus ]]; then
    [[ ${2-} =~ ^[1-9][0-9]*$ ]] || fail "--cpus: a positive number, not '${2-}'"
    cpus=$2
  fi
  ((cpus <= host)) || cpus=$host
  echo "$cpus"
}

case ${1-} in
  start)
    [[ -n ${2-} ]] || fail "start DIR: no directory"
    mkdir -p "$2"
    [[ -z $(ls -A "$2") ]] || fail "$2 is not empty"
    dir=$(cd "$2" && pwd)
    cpus=$(cpus_option "${@:3}")
    start "$dir" "$cpus" || { status=$?; stop "$dir"; exit $status; }
    ;;
  stop)
    [[ -d ${2-} ]] || fail "stop DIR: no directory '${2-}'"
    stop "$(cd "$2" && pwd)"
    ;;
  run)
    shift
    cpus=$(cpus_option "$@")
    [[ ${1-} == --cpus ]] && shift 2
    (($#)) || fail "run: no command"
    dir=$(mktemp -d "${TMPDIR:-/tmp}/dlfl-slurm.XXXXXX")
    cleanup() {
      stop "$dir"
      if [[ ${DLFL_SLURM_KEEP:-0} == 1 ]]; then echo "slurm-test-cluster.sh: kept $dir" >&2; else rm -rf "$dir"; fi
    }
    trap cleanup EXIT
    trap 'exit 130' INT TERM
    (start "$dir" "$cpus")
    status=0
    SLURM_CONF=$dir/slurm.conf DLFL_SLURM_DIR=$dir PATH=$PATH:/usr/sbin "$@" || status=$?
    exit $status
    ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac
