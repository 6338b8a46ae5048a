#!/usr/bin/env bash
# A single-node Slurm on this machine, for CI and for trying `orcl tune --slurm` (issue 14 step 4):
# installs Debian's slurm-wlm and munge when missing, writes a minimal slurm.conf (one node,
# `localhost`, no cgroups, no GRES: PoCL's CPU devices need none), starts munged, slurmctld and
# slurmd, and waits until `sinfo` shows the node idle. Needs root (Debian 12; CI runs as root).
# Idempotent: a Slurm whose node is already idle is left alone. Exit 0 when the node is idle.
#
# Environment: ORCL_SLURM_CPUS (CPUs the node advertises; default 8, more than this 2-core box
# has, so that a few one-CPU worker jobs run at once), ORCL_SLURM_WAIT (seconds to wait for the
# node, default 60).
set -euo pipefail

CPUS="${ORCL_SLURM_CPUS:-8}"
WAIT="${ORCL_SLURM_WAIT:-60}"
CONF=/etc/slurm/slurm.conf
LOGDIR=/var/log/slurm

idle() { sinfo -h -N -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; }

if command -v sinfo >/dev/null && idle; then
    echo "slurm-local: a Slurm node is already up:"; sinfo
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "slurm-local: must run as root (it installs packages and starts daemons)" >&2
    exit 1
fi

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null \
    || ! command -v srun >/dev/null || ! command -v munged >/dev/null; then
    echo "slurm-local: installing slurm-wlm and munge"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends slurm-wlm munge >/dev/null \
        || { apt-get update >/dev/null && apt-get install -y --no-install-recommends slurm-wlm munge >/dev/null; }
fi

# munge: a key, its run directory, the daemon (as the munge user, as systemd would).
if [ ! -s /etc/munge/munge.key ]; then
    if command -v mungekey >/dev/null; then
        mungekey --create --keyfile=/etc/munge/munge.key --force
    else
        dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
    fi
fi
chown munge:munge /etc/munge/munge.key
chmod 400 /etc/munge/munge.key
mkdir -p /run/munge /var/log/munge /var/lib/munge
chown munge:munge /run/munge /var/log/munge /var/lib/munge
if ! munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
    runuser -u munge -- /usr/sbin/munged --force
    for _ in $(seq 1 50); do
        munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1 && break
        sleep 0.1
    done
fi

# slurm.conf: written unless one is there that this script did not write.
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd "$LOGDIR"
if [ ! -e "$CONF" ] || grep -q '^# written by orcl scripts/slurm-local.sh' "$CONF"; then
    cat >"$CONF" <<CONFEOF
# written by orcl scripts/slurm-local.sh: a single-node Slurm for tests
ClusterName=orcl-local
SlurmctldHost=localhost
AuthType=auth/munge
SlurmUser=root
SlurmdUser=root
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=$LOGDIR/slurmctld.log
SlurmdLogFile=$LOGDIR/slurmd.log
# The node advertises more CPUs than the machine may have (config_overrides): tests run a few
# one-CPU worker jobs at once on a 2-core box.
SlurmdParameters=config_overrides
KillWait=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONFEOF
else
    echo "slurm-local: keeping $CONF (not written by this script)"
fi

pgrep -x slurmctld >/dev/null || slurmctld
pgrep -x slurmd >/dev/null || slurmd -N localhost

for _ in $(seq 1 "$WAIT"); do
    if idle; then
        echo "slurm-local: Slurm is up:"; sinfo
        exit 0
    fi
    # A node left `down` by an earlier unclean stop comes back (ReturnToService=2 does it on
    # registration; this covers a node registered before the state was saved).
    scontrol update NodeName=localhost State=RESUME >/dev/null 2>&1 || true
    sleep 1
done
echo "slurm-local: the node did not become idle within ${WAIT}s" >&2
sinfo >&2 || true
tail -n 20 "$LOGDIR/slurmctld.log" "$LOGDIR/slurmd.log" >&2 || true
exit 1
