#!/usr/bin/env bash
# A one-node Slurm cluster on this machine (slurmctld + slurmd on localhost, munge, a generated
# slurm.conf in a temporary folder), and under it (issue 50, docs/cluster.md):
#   1. sbatch --array=0-3 --wait docs/examples/tcosim-array.sbatch (tcosim run --shard auto),
#      then tcosim merge: the unsplit run's report (its "run" block aside);
#   2. the same array with task 1 killed and requeued (scontrol requeue): the merge is still equal;
#   3. srun -n 2 --mpi=pmix|pmi2 tcosim run: the one-process report, as under mpirun.
# The daemons are stopped on every exit (trap). Exit 77 (ctest: skipped), with what failed, where
# Slurm is not installed or its daemons cannot start (no root, a container without the privileges).
# Usage: run_slurm_test.sh TCOSIM SOURCE_DIR [mpi|no-mpi]   (no-mpi: a build without MPI; step 3 is left out)
set -uo pipefail
tcosim=$(readlink -f "${1:?usage: run_slurm_test.sh TCOSIM SOURCE_DIR}")
src=$(readlink -f "${2:?usage: run_slurm_test.sh TCOSIM SOURCE_DIR}")
with_mpi=${3:-mpi}
started=$(date +%s)

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

for program in slurmctld slurmd sbatch srun squeue scontrol munged; do
  command -v "$program" >/dev/null || skip "$program is not installed (scripts/install-deps.sh installs slurm-wlm and munge)"
done
[ "$(id -u)" = 0 ] || skip "the test starts slurmd, which needs root (it runs as $(id -un))"

work=$(mktemp -d /tmp/tcosim-slurm.XXXXXX)
chmod 755 "$work"
pids=()
stop_daemons() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap stop_daemons EXIT

# munge: its own key and socket, so a munged already on the machine is left alone.
mkdir -p "$work/munge" && chmod 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
munged --force --key-file="$work/munge/munge.key" --socket="$work/munge/munge.socket" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed" \
  || skip "munged did not start: $(tail -3 "$work/munge/munged.log" 2>/dev/null)"
pids+=("$(cat "$work/munge/munged.pid")")

# Two free ports above 20000 for slurmctld and slurmd.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
ports = []
for _ in range(2):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); ports.append(s.getsockname()[1]); s.close()
print(*ports)')
node=$(hostname -s)
cpus=$(nproc)
mkdir -p "$work/state" "$work/spool" "$work/out"
export SLURM_CONF="$work/slurm.conf"
cat > "$SLURM_CONF" <<CONF
ClusterName=tcosimtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobRequeue=1
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
slurmctld -D -i -f "$SLURM_CONF" >"$work/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$node" >"$work/slurmd.out" 2>&1 &
pids+=($!)

# Up when the node is idle (at most 30 s).
for _ in $(seq 60); do
  state=$(sinfo -h -n "$node" -o %t 2>/dev/null)
  [ "$state" = idle ] && break
  for i in 1 2; do kill -0 "${pids[$i]}" 2>/dev/null || \
    skip "$( ((i == 1)) && echo slurmctld || echo slurmd) exited: $(tail -5 "$work/slurm$( ((i == 1)) && echo ctld || echo d).log" "$work"/slurm*.out 2>/dev/null | tr '\n' ' ')"
  done
  sleep 0.5
done
[ "$state" = idle ] || skip "the node did not become idle in 30 s (state \"$state\"): $(tail -3 "$work/slurmd.log" 2>/dev/null | tr '\n' ' ')"
echo "ok: one-node Slurm up in $(($(date +%s) - started)) s ($node, $cpus CPUs)"

scenario="$src/scenarios/deadline-campaign-spot-policies.json"
[ -d "$src/../shared/data" ] || skip "../shared/data is absent: the scenario replays a spot trace from it (a user's clone does not have it)"
run_args=(--paths 9 --today 2026-06-01)
same_report() {  # same_report A B: equal, each without its top-level "run" block
  python3 - "$1" "$2" <<'PY'
import re, sys
def body(path):
    return re.sub(r'^  "run": \{\n(?:    .*\n)*?  \},?\n', '', open(path).read(), count=1, flags=re.M)
sys.exit(0 if body(sys.argv[1]) == body(sys.argv[2]) else 1)
PY
}
cd "$work/out" || fail "no $work/out"
"$tcosim" run "$scenario" "${run_args[@]}" --threads 1 -q --out whole.json || fail "the unsplit run failed"

# 1. The array, merged.
sbatch --array=0-3 --wait --output="$work/array-%a.log" --export=ALL,TCOSIM="$tcosim" \
  "$src/docs/examples/tcosim-array.sbatch" "$scenario" shards "${run_args[@]}" >"$work/sbatch.out" 2>&1 \
  || fail "sbatch --array=0-3 --wait: $(cat "$work/sbatch.out" "$work"/array-*.log)"
"$tcosim" merge shards/shard-3.shard shards/shard-0.shard shards/shard-2.shard shards/shard-1.shard -q --out merged.json \
  || fail "merge of the array's shards failed"
same_report whole.json merged.json || fail "the merged array's report differs from the unsplit run's"
echo "ok: sbatch --array=0-3 --wait, --shard auto, merged = the unsplit report"

# 2. Task 1 stalls on its first attempt (a wrapper in place of TCOSIM), is killed and requeued by
#    scontrol, and its second attempt (SLURM_RESTART_COUNT=1) runs tcosim.
cat > "$work/stall-task-1.sh" <<WRAP
#!/bin/bash
if [ "\$SLURM_ARRAY_TASK_ID" = 1 ] && [ "\${SLURM_RESTART_COUNT:-0}" = 0 ]; then touch "$work/task-1-started"; sleep 600; fi
exec "$tcosim" "\$@"
WRAP
chmod +x "$work/stall-task-1.sh"
job=$(sbatch --parsable --array=0-3 --output="$work/requeue-%a.log" --export=ALL,TCOSIM="$work/stall-task-1.sh" \
  "$src/docs/examples/tcosim-array.sbatch" "$scenario" requeued "${run_args[@]}") || fail "sbatch (requeue) failed"
for _ in $(seq 60); do [ -e "$work/task-1-started" ] && break; sleep 0.5; done
[ -e "$work/task-1-started" ] || fail "task 1 never started: $(squeue -a 2>&1)"
scontrol requeue "${job}_1" || fail "scontrol requeue ${job}_1 failed"
for _ in $(seq 120); do
  [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
  # Slurm holds a requeued job back (its begin time moves about 2 minutes on): start it now.
  if [ "$(squeue -h -j "${job}_1" -o %r 2>/dev/null)" = BeginTime ]; then
    scontrol update JobId="${job}_1" StartTime=now >/dev/null 2>&1
  fi
  sleep 0.5
done
[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] || fail "the requeued array did not finish in 60 s: $(squeue -a)"
restarts=$(scontrol show job "${job}_1" 2>/dev/null | grep -o 'Restarts=[0-9]*')
"$tcosim" merge requeued/*.shard -q --out requeued.json || fail "merge after the requeue failed: $(cat "$work"/requeue-*.log)"
same_report whole.json requeued.json || fail "after the requeue, the merged report differs from the unsplit run's"
echo "ok: task 1 killed and requeued (${restarts:-Restarts=?}), merged = the unsplit report"

# 3. srun -n 2 under MPI, with the PMI plugin Slurm and Open MPI share.
if [ "$with_mpi" != mpi ]; then
  echo "note: this tcosim is built without MPI: srun -n 2 left out"
  echo "ok: the Slurm test took $(($(date +%s) - started)) s"
  exit 0
fi
plugins=$(srun --mpi=list 2>&1)
mpi=""
for p in pmix pmi2; do grep -qw "$p" <<<"$plugins" && { mpi=$p; break; }; done
[ -n "$mpi" ] || fail "srun --mpi=list offers neither pmix nor pmi2: $plugins"
OMPI_MCA_pml=ob1 OMP_NUM_THREADS=1 srun -n 2 --mpi="$mpi" "$tcosim" run "$scenario" "${run_args[@]}" --threads 1 -q \
  --out srun.json >"$work/srun.out" 2>&1 || fail "srun -n 2 --mpi=$mpi: $(tail -20 "$work/srun.out")"
grep -q '"ranks": 2' srun.json || fail "srun -n 2 --mpi=$mpi ran as one process (no \"ranks\": 2 in its run block)"
same_report whole.json srun.json || fail "srun -n 2 --mpi=$mpi: the report differs from the unsplit run's"
echo "ok: srun -n 2 --mpi=$mpi: the one-process report"
echo "ok: the Slurm test took $(($(date +%s) - started)) s"
