#!/usr/bin/env bash
# dls run --slurm inside a real Slurm allocation (make check-cluster): a
# private one-node Slurm (munged, slurmctld, slurmd, all state and sockets in
# the test's folder, on free loopback ports), then, under salloc:
#  - dls run --slurm: exact image, every program a job step (squeue -s);
#  - --hmasters per-host and --scheme trees: exact;
#  - dls run killed -9 inside the allocation: its steps all end (the
#    lifeline through srun's stdin).
# Needs root (the daemons) and the packages slurm-wlm and munge.
set -eu
. "$(dirname "$0")/../integration/lib.sh"

[ "$(id -u)" = 0 ] || { echo "t_slurm needs root to start munged, slurmctld and slurmd" >&2; exit 1; }
for p in munged slurmctld slurmd salloc srun; do
	command -v $p >/dev/null || { echo "t_slurm needs $p (apt-get install slurm-wlm munge)" >&2; exit 1; }
done
D=$T/slurm
mkdir -p "$D/state" "$D/spool"
chmod 700 "$T" "$D"
head -c 1024 /dev/urandom >"$D/munge.key"
chmod 600 "$D/munge.key"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ctl_port=$(free_port) d_port=$(free_port)
cat >"$D/slurm.conf" <<CONF
ClusterName=dlstest
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmctldPort=$ctl_port
SlurmdPort=$d_port
AuthType=auth/munge
AuthInfo=socket=$D/munge.socket
CredType=cred/munge
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/slurmctld.log
SlurmdLogFile=$D/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SlurmUser=root
SlurmdUser=root
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmdParameters=config_overrides
NodeName=dlsnode$$ NodeAddr=127.0.0.1 NodeHostname=$(hostname) CPUs=8 State=UNKNOWN
PartitionName=dls Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
export SLURM_CONF=$D/slurm.conf
slurm_down() {
	for f in slurmd slurmctld munged; do
		[ -f "$D/$f.pid" ] && kill "$(cat "$D/$f.pid")" 2>/dev/null
	done
	sleep 0.5
}
CLEANUP_HOOK=slurm_down
munged --force -S "$D/munge.socket" --key-file="$D/munge.key" --log-file="$D/munged.log" \
	--pid-file="$D/munged.pid" --seed-file="$D/munged.seed"
slurmctld -c -f "$SLURM_CONF"
wait_for scontrol ping
slurmd -N dlsnode$$ -f "$SLURM_CONF"
for _ in $(seq 100); do sinfo -h -o %t | grep -q idle && break; sleep 0.2; done
sinfo -h -o %t | grep -q idle || { cat "$D/slurmctld.log" "$D/slurmd.log" >&2; exit 1; }
echo "private Slurm up: $(sinfo -h -o '%P %D %t %N')"

REF=$(reference 400 200)
SRUN=(salloc -N1 -n8 dls run --slurm --cluster C8 --width 400 --height 200 --no-progress)
"${SRUN[@]}" --raw "$T/flat.pgm" --dir "$T/flat" >"$T/flat.log" 2>&1
same_image "$T/flat.pgm" "$REF"
"${SRUN[@]}" --hmasters per-host --raw "$T/hm.pgm" --dir "$T/hm" >"$T/hm.log" 2>&1
same_image "$T/hm.pgm" "$REF"
"${SRUN[@]}" --scheme trees --raw "$T/trees.pgm" --dir "$T/trees" >"$T/trees.log" 2>&1
same_image "$T/trees.pgm" "$REF"
echo "dls run --slurm: flat, per-host hmasters and trees exact"

# every program is a job step; then dls run killed -9 ends them all
salloc -N1 -n8 --job-name=gone$$ sh -c 'echo $SLURM_JOB_ID >"$0"; exec dls run --slurm --cluster C8 \
	--width 400 --height 200 --t-iter 20000 --no-progress --dir "$1"' "$T/jobid" "$T/gone" \
	>"$T/gone.log" 2>&1 &
wait_for test -s "$T/jobid"
job=$(cat "$T/jobid")
for _ in $(seq 100); do [ "$(squeue -h -s -j "$job" | wc -l)" -ge 10 ] && break; sleep 0.1; done
steps=$(squeue -h -s -j "$job" | wc -l)
[ "$steps" -ge 10 ] || { echo "FAILED: $steps job steps, want 10 (names, master, 8 slaves)" >&2; exit 1; }
run=$(pgrep -f -- "--slurm --cluster C8 --width 400 --height 200 --t-iter 20000")
kill -9 $run
left=1
for _ in $(seq 100); do
	left=$(squeue -h -s -j "$job" 2>/dev/null | grep -vc "\.extern\|\.interactive" || true)
	[ "$left" = 0 ] && break
	sleep 0.1
done
expect_eq "job steps left after dls run was killed -9" "$left" 0
echo "dls run killed -9 in the allocation: its $steps job steps all ended"
