#!/usr/bin/env bash
# A two-node Slurm on this machine, for CI and for trying `orcl tune --slurm` (issue 14 step 4,
# issue 24): installs Debian's slurm-wlm and munge when missing, writes a minimal slurm.conf (nodes
# n1 and n2 on this host, each its own slurmd with its own port: Slurm's multiple-slurmd mode; no
# cgroups, no GRES: PoCL's CPU devices need none), starts munged, slurmctld and the slurmd of each
# node, and waits until `sinfo` shows every node idle. Needs root (Debian 12; CI runs as root).
# Idempotent: a Slurm whose nodes are all up is left alone. Exit 0 when they are.
#
# Environment: ORCL_SLURM_NODES (nodes, default 2; 1 gives the former single node `localhost`),
# ORCL_SLURM_CPUS (CPUs each node advertises; default 4, more than this 2-core box has, so that a
# few one-CPU worker jobs run at once), ORCL_SLURM_WAIT (seconds to wait, default 60).
set -euo pipefail

NODES="${ORCL_SLURM_NODES:-2}"
CPUS="${ORCL_SLURM_CPUS:-4}"
WAIT="${ORCL_SLURM_WAIT:-60}"
CONF=/etc/slurm/slurm.conf
LOGDIR=/var/log/slurm
if [ "$NODES" = 1 ]; then names=localhost; else names=$(seq -f 'n%g' 1 "$NODES"); fi

# Every node of this script's configuration up (idle, mixed or allocated).
idle() {
    local up
    up=$(sinfo -h -N -o '%N %T' 2>/dev/null | grep -cE ' (idle|mixed|allocated)') || true
    [ "${up:-0}" -ge "$NODES" ]
}

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
changed=0
if [ ! -e "$CONF" ] || grep -q '^# written by orcl scripts/slurm-local.sh' "$CONF"; then
    cat >"$CONF.new" <<CONFEOF
# written by orcl scripts/slurm-local.sh: a $NODES-node Slurm on one host for tests
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
SlurmdSpoolDir=/var/spool/slurmd/%n
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd-%n.pid
SlurmctldLogFile=$LOGDIR/slurmctld.log
SlurmdLogFile=$LOGDIR/slurmd-%n.log
# The node advertises more CPUs than the machine may have (config_overrides): tests run a few
# one-CPU worker jobs at once on a 2-core box.
SlurmdParameters=config_overrides
KillWait=2
$(p=6820; for n in $names; do p=$((p + 1))
  echo "NodeName=$n NodeHostname=localhost NodeAddr=127.0.0.1 Port=$p CPUs=$CPUS RealMemory=1000 State=UNKNOWN"
done)
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONFEOF
    if cmp -s "$CONF.new" "$CONF"; then rm -f "$CONF.new"; else mv "$CONF.new" "$CONF"; changed=1; fi
else
    echo "slurm-local: keeping $CONF (not written by this script)"
fi

# Other nodes than the running daemons know (a single-node set-up of an older version of this
# script): stop them all, to start again with this configuration.
running() { pgrep -x slurmctld >/dev/null || pgrep -x slurmd >/dev/null; }
if [ "$changed" = 1 ] && running; then
    scontrol shutdown >/dev/null 2>&1 || kill "$(cat /run/slurmctld.pid 2>/dev/null)" 2>/dev/null || true
    for _ in $(seq 1 50); do running || break; sleep 0.2; done
fi
pgrep -x slurmctld >/dev/null || slurmctld
for n in $names; do
    mkdir -p "/var/spool/slurmd/$n"
    pgrep -f "slurmd -N $n\$" >/dev/null || slurmd -N "$n"
done

for _ in $(seq 1 "$WAIT"); do
    if idle; then
        echo "slurm-local: Slurm is up:"; sinfo
        exit 0
    fi
    # A node left `down` by an earlier unclean stop comes back (ReturnToService=2 does it on
    # registration; this covers a node registered before the state was saved).
    for n in $names; do scontrol update NodeName="$n" State=RESUME >/dev/null 2>&1 || true; done
    sleep 1
done
echo "slurm-local: the node did not become idle within ${WAIT}s" >&2
sinfo >&2 || true
tail -n 20 "$LOGDIR/slurmctld.log" "$LOGDIR"/slurmd-*.log >&2 || true
exit 1
