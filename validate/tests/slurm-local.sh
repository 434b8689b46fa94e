# SPDX-License-Identifier: GPL-2.0
# slurm-local.sh - a private single-node Slurm cluster on 127.0.0.1 for
# the tests: munged, slurmctld and slurmd of Debian's slurm-wlm and munge,
# each with its own files in one directory and free ports, started by
# the test and stopped by it.  Source it, then:
#   slurm_start DIR   start the daemons (0, or 1 with the reason in
#                     $slurm_why); exports SLURM_CONF for sbatch & co.
#   slurm_stop        stop the daemons that slurm_start started
# The node is "localnode" at 127.0.0.1 with the machine's CPUs, in the
# partition "ro" (the default).  Both daemons listen on 127.0.0.1 only
# (CommunicationParameters=NoInAddrAny,NoCtldInAddrAny; the host name
# must resolve to a 127.x address, as Debian's /etc/hosts has it, or
# slurm_start refuses).

slurm_pids=

# slurm_port N: a TCP port nothing listens on
slurm_port() {
	_p=$((30000 + ($$ * 17 + $1 * 389) % 20000))
	while [ -n "$(ss -Hltn "sport = :$_p")" ]; do
		_p=$((_p + 1))
	done
	echo "$_p"
}

# slurm_wait SECONDS COMMAND...: until COMMAND succeeds, at most SECONDS
slurm_wait() {
	_t=$(($1 * 2))
	shift
	while [ $_t -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.5
		_t=$((_t - 1))
	done
	return 1
}

slurm_start() {
	_d=$1
	slurm_why=
	for _b in munged slurmctld slurmd sbatch sinfo scontrol; do
		command -v $_b >/dev/null || PATH=$PATH:/usr/sbin
		command -v $_b >/dev/null ||
			{ slurm_why="$_b not installed (slurm-wlm, munge)"; return 1; }
	done
	case $(getent hosts "$(hostname)" | awk '{ print $1; exit }') in
	127.*) ;;
	*) slurm_why="$(hostname) does not resolve to a 127.x address: slurmd would listen beyond loopback"; return 1 ;;
	esac
	mkdir -p "$_d/munge" "$_d/state" "$_d/spool" && chmod 700 "$_d" "$_d/munge" ||
		{ slurm_why="cannot create $_d"; return 1; }
	dd if=/dev/urandom of="$_d/munge/munge.key" bs=1024 count=1 2>/dev/null &&
		chmod 400 "$_d/munge/munge.key" || { slurm_why="no munge key"; return 1; }
	munged --force --socket="$_d/munge/munge.sock" \
		--key-file="$_d/munge/munge.key" --pid-file="$_d/munge/munged.pid" \
		--log-file="$_d/munge/munged.log" --seed-file="$_d/munge/munge.seed" \
		>"$_d/munge/start.log" 2>&1 ||
		{ slurm_why="munged: $(tail -n 1 "$_d/munge/start.log")"; return 1; }
	slurm_pids="$slurm_pids $(cat "$_d/munge/munged.pid")"
	_ctl=$(slurm_port 1)
	_sd=$(slurm_port 2)
	[ "$_sd" != "$_ctl" ] || _sd=$((_ctl + 1))
	cat >"$_d/slurm.conf" <<EOF
ClusterName=rocampaign
SlurmctldHost=$(hostname -s)(127.0.0.1)
MailProg=/bin/true
SlurmctldPort=$_ctl
SlurmdPort=$_sd
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$_d/munge/munge.sock
StateSaveLocation=$_d/state
SlurmdSpoolDir=$_d/spool
SlurmctldPidFile=$_d/slurmctld.pid
SlurmdPidFile=$_d/slurmd.pid
SlurmctldLogFile=$_d/slurmctld.log
SlurmdLogFile=$_d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
CommunicationParameters=NoInAddrAny,NoCtldInAddrAny
SlurmdTimeout=300
NodeName=localnode NodeAddr=127.0.0.1 NodeHostname=$(hostname) CPUs=$(nproc) State=UNKNOWN
PartitionName=ro Nodes=localnode Default=YES MaxTime=INFINITE State=UP
EOF
	SLURM_CONF=$_d/slurm.conf
	export SLURM_CONF
	slurmctld -f "$SLURM_CONF" >"$_d/slurmctld.out" 2>&1 ||
		{ slurm_why="slurmctld: $(tail -n 1 "$_d/slurmctld.out")"; return 1; }
	slurm_wait 20 test -s "$_d/slurmctld.pid" ||
		{ slurm_why="slurmctld wrote no pid: $(tail -n 2 "$_d/slurmctld.log")"; return 1; }
	slurm_pids="$slurm_pids $(cat "$_d/slurmctld.pid")"
	slurmd -f "$SLURM_CONF" -N localnode >"$_d/slurmd.out" 2>&1 ||
		{ slurm_why="slurmd: $(tail -n 1 "$_d/slurmd.out")"; return 1; }
	slurm_wait 20 test -s "$_d/slurmd.pid" ||
		{ slurm_why="slurmd wrote no pid: $(tail -n 2 "$_d/slurmd.log")"; return 1; }
	slurm_pids="$slurm_pids $(cat "$_d/slurmd.pid")"
	# the node is up when sinfo calls it idle
	slurm_wait 60 sh -c 'timeout 5 sinfo -h -N -o %T | grep -q "^idle"' ||
		{ slurm_why="the node never came up: $(sinfo -h -N -o '%T %E' 2>&1 | head -n 1)"; return 1; }
	return 0
}

slurm_stop() {
	for _p in $slurm_pids; do
		kill "$_p" 2>/dev/null
	done
	for _p in $slurm_pids; do
		slurm_wait 10 sh -c "! kill -0 $_p" || kill -KILL "$_p" 2>/dev/null
	done
	slurm_pids=
}
