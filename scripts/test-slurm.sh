#!/usr/bin/env bash
# test-slurm.sh - the class-grading path through a real Slurm: a controller and a node daemon on
# this machine (with munge), a job array over two submissions, then the gradebook.
# Needs root and the distribution's slurm-wlm and munge; SKIP when they are missing.
set -u
for p in slurmctld slurmd sbatch munged; do
    command -v $p >/dev/null 2>&1 || { echo "SKIP  slurm batch path: $p not installed (apt-get install slurm-wlm munge)"; exit 0; }
done
[ "$(id -u)" = 0 ] || { echo "SKIP  slurm batch path: the test daemons need root"; exit 0; }
top=$(pwd)
t=$(mktemp -d /tmp/wb-slurm.XXXXXX)
host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
cleanup() {
    for f in "$t"/slurmctld.pid "$t"/slurmd.pid "$t"/munged.pid; do
        [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
    done
    sleep 1
    rm -rf "$t"
}
trap cleanup EXIT
mkdir -p "$t/spool" "$t/state" "$t/munge"
dd if=/dev/urandom bs=1 count=1024 of="$t/munge/munge.key" 2>/dev/null
chmod 700 "$t/munge"; chmod 400 "$t/munge/munge.key"
munged --key-file="$t/munge/munge.key" --socket="$t/munge/sock" --pid-file="$t/munged.pid" \
    --log-file="$t/munged.log" --seed-file="$t/munge/seed" --force 2>"$t/munged.err" ||
    { echo "FAIL  slurm batch path: munged did not start: $(cat "$t/munged.err")"; exit 1; }
cat >"$t/slurm.conf" <<CONF
ClusterName=wbtest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$t/munge/sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$t/state
SlurmdSpoolDir=$t/spool
SlurmctldPidFile=$t/slurmctld.pid
SlurmdPidFile=$t/slurmd.pid
SlurmctldLogFile=$t/slurmctld.log
SlurmdLogFile=$t/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=grade Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$t/slurm.conf
slurmctld -f "$t/slurm.conf" 2>"$t/ctld.err" || { echo "FAIL  slurm batch path: slurmctld: $(cat "$t/ctld.err")"; exit 1; }
slurmd -f "$t/slurm.conf" 2>"$t/slurmd.err" || { echo "FAIL  slurm batch path: slurmd: $(cat "$t/slurmd.err")"; exit 1; }
for i in $(seq 60); do
    state=$(sinfo -h -o %T 2>/dev/null | head -1)
    [ "$state" = idle ] && break
    sleep 1
done
[ "$state" = idle ] || { echo "FAIL  slurm batch path: node not idle after 60 s ($state); $(tail -3 "$t/slurmctld.log")"; exit 1; }

# Two submissions of lab 00: the reference as a tarball, the stub as a folder whose name holds
# quotes, a comma, $(...) and a newline (each task finds its submission by number, not by line).
stub_name=$'stub "b, c" $(touch PWNED)\nd'
mkdir -p "$t/subs/ref/labs/00-device-query" "$t/subs/$stub_name/labs/00-device-query"
cp solutions/00-device-query/* "$t/subs/ref/labs/00-device-query/"
tar -czf "$t/subs/ref.tar.gz" -C "$t/subs/ref" labs && rm -rf "$t/subs/ref"
cp labs/00-device-query/device_query.cu labs/00-device-query/answers.txt "$t/subs/$stub_name/labs/00-device-query/"
# Without a GPU the job asks for none; with one, one GPU per task needs Gres in slurm.conf: keep it simple.
LAB=00 SLURM=1 SLURM_GRES= SLURM_WAIT=1 TIME_LIMIT=00:10:00 \
    scripts/grade-class.sh "$t/subs" "$t/out" >"$t/class.log" 2>&1
csv=$t/out/gradebook.csv
if [ ! -f "$csv" ]; then
    echo "FAIL  slurm batch path: no gradebook; $(tail -5 "$t/class.log")"; exit 1
fi
# The rows as "name<NUL>lab 00 points<NUL>", read as CSV.
rows=$(python3 -c 'import csv, sys
for r in list(csv.reader(open(sys.argv[1], newline="")))[1:]: sys.stdout.write(r[0] + "\0" + r[1] + "\0")' "$csv" | tr '\0' '\1')
IFS=$'\1' read -r -d '' n1 p1 n2 p2 rest <<<"$rows"
if [ "$n1" != ref ] || [ "$n2" != "$stub_name" ] || [ -n "${rest//$'\n'/}" ] || [ -z "$p1" ] || [ -z "$p2" ] ||
    [ "$p1" -le "$p2" ] || [ -e PWNED ] || [ -e "$t/PWNED" ]; then
    echo "FAIL  slurm batch path: gradebook wrong:"; cat "$csv"; exit 1
fi
echo "PASS  slurm batch path: job array of 2 submissions, gradebook ref=$p1, $(printf %q "$stub_name")=$p2 (lab 00)"
