#!/bin/bash
# The experiment queue's Slurm executor on a private one-node Slurm cluster that this script
# starts (munged with its own key and socket, slurmctld and slurmd with a generated
# slurm.conf, everything under a temporary folder) and stops on exit. Cases:
#   table   a 2-trial experiment runs as a job array, its runs are collected into the project's
#           store, and its table equals the local executor's for the same experiment
#   resume  the trials' processes use their own run databases, never the project's; the queue
#           killed with kill -9 while its jobs run: run again, it submits nothing and collects
#           both trials
#   stop    `mrnn experiment stop` cancels the jobs (scancel); the trials stop with checkpoints,
#           are collected, and read queued
#   halving successive halving: the kept trials go on from their checkpoints in later job
#           arrays (their runs collected again, not twice), and the table equals the local one
# Exits 77 (CTest: skipped), saying why, without Slurm and munge or when not run as root.
# usage: experiment_slurm.sh <mrnn> <tiny project folder> <case>
set -u
mrnn=$1
source_project=$2
case=$3
PATH=$PATH:/usr/sbin:/sbin
source "$(dirname "${BASH_SOURCE[0]}")/cli_test_lib.sh"

for program in munged slurmctld slurmd sbatch squeue scancel sinfo; do
  if ! command -v "$program" >/dev/null; then
    echo "SKIP ($case): $program is not installed (Debian: apt-get install slurm-wlm munge)"
    exit 77
  fi
done
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP ($case): slurmd must run as root to start jobs (CI runs this as root)"
  exit 77
fi

make_work_folder
# munged insists that every folder above its socket lets others pass.
chmod 711 "$work"
cluster=$work/cluster
mkdir -p "$cluster"/{socket,key,state,spool,log}
chmod 755 "$cluster/socket"
chmod 700 "$cluster/key"
at_exit stop_cluster

# A failure shows the end of each daemon's log.
on_fail() {
  for log in "$cluster"/log/*.log; do
    echo "--- $log"
    tail -n 20 "$log"
  done
}

# Stops what this script started, by the ids the daemons wrote, on exit once the script's
# jobs are killed (so that no slurmstepd outlives its slurmd): slurmd, slurmctld and munged.
stop_cluster() {
  if [ -f "$cluster/slurmctld.pid" ]; then
    scancel --user="$(id -un)" 2>/dev/null
    for _ in $(seq 1 100); do
      [ -z "$(squeue --noheader 2>/dev/null)" ] && break
      sleep 0.2
    done
  fi
  # slurmd and slurmctld together (each takes seconds to exit), then munged.
  local daemons
  for daemons in "slurmd.pid slurmctld.pid" "socket/munged.pid"; do
    local pids=() file
    for file in $daemons; do
      [ -f "$cluster/$file" ] && pids+=("$(cat "$cluster/$file")")
    done
    [ ${#pids[@]} -eq 0 ] && continue
    kill "${pids[@]}" 2>/dev/null
    for _ in $(seq 1 100); do
      kill -0 "${pids[@]}" 2>/dev/null || break
      sleep 0.1
    done
    local pid
    for pid in "${pids[@]}"; do
      kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
    done
  done
}

# A TCP port nothing listens on.
free_port() {
  local port=$1
  while (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
  echo "$port"
}

start_cluster() {
  local started=$SECONDS
  dd if=/dev/urandom of="$cluster/key/munge.key" bs=1024 count=1 2>/dev/null
  chmod 400 "$cluster/key/munge.key"
  munged --key-file="$cluster/key/munge.key" --socket="$cluster/socket/munge.sock" \
    --pid-file="$cluster/socket/munged.pid" --log-file="$cluster/log/munged.log" \
    --seed-file="$cluster/key/munged.seed" || fail "munged did not start"
  # This machine as one node with its real processors and memory, at 127.0.0.1 (no DNS).
  local node host
  node=$(slurmd -C | head -n 1 | sed 's/ UpTime=.*//')
  host=$(echo "$node" | sed -n 's/^NodeName=\([^ ]*\).*/\1/p')
  [ -n "$host" ] || fail "slurmd -C printed no node: $node"
  local ctld_port slurmd_port
  ctld_port=$(free_port $((20000 + $$ % 20000)))
  slurmd_port=$(free_port $((ctld_port + 1)))
  cat >"$cluster/slurm.conf" <<CONF
ClusterName=mrnntest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$cluster/socket/munge.sock
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldPidFile=$cluster/slurmctld.pid
SlurmdPidFile=$cluster/slurmd.pid
SlurmctldLogFile=$cluster/log/slurmctld.log
SlurmdLogFile=$cluster/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
SwitchType=switch/none
MailProg=/bin/true
ReturnToService=2
KillWait=30
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=mrnn Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$cluster/slurm.conf
  slurmctld || fail "slurmctld did not start"
  slurmd || fail "slurmd did not start"
  for _ in $(seq 1 150); do
    [ "$(sinfo --noheader --format=%T 2>/dev/null)" = idle ] && {
      echo "one-node Slurm cluster up in $((SECONDS - started)) s: $host"
      return 0
    }
    sleep 0.2
  done
  sinfo
  fail "the node did not become idle"
}

# A project copy: the tiny corpus, a small LSTM, `steps` steps with a checkpoint every `every`,
# and the 2-trial experiment (its slurm: section is read by the Slurm executor only).
write_project() {
  local folder=$1 steps=$2 every=$3
  mkdir -p "$folder/experiments"
  cp "$source_project/corpus.txt" "$folder/"
  write_tiny_project "$folder/project.yaml" "slurm test" "$steps" "$every" "$every"
  local values=${4:-"[0.003, 0.01]"} search=${5:-"{kind: grid}"}
  cat >"$folder/experiments/two.yaml" <<YAML
experiment:
  axes:
    - key: training.optimizer.lr
      values: $values
  search: $search
  slots: 2
  threads: 1
  slurm:
    partition: mrnn
    time: "10"
    poll_seconds: 1
YAML
}

# The experiment's table without its last column (run ids: trials are collected as they end).
table_without_runs() {
  "$mrnn" experiment table "$1/experiments/two.yaml" --format csv | sed 's/,[^,]*$//'
}

# While the jobs train, each trial process holds the database of its own run folder open and
# never the project's (SQLite is not safe across the machines of a network file system; only
# the queue on the submit host writes the project's store).
check_trials_use_their_own_databases() {
  local project found=0
  project=$(realpath "$1")
  for proc in /proc/[0-9]*; do
    local words
    words=$(tr '\0' ' ' <"$proc/cmdline" 2>/dev/null) || continue
    [[ $words == *mrnn" experiment trial "*" --run-folder "* ]] || continue
    local own=0
    for fd in "$proc"/fd/*; do
      local target
      target=$(readlink "$fd") || continue
      [ "$target" = "$project/runs.sqlite" ] &&
        fail "trial process ${proc#/proc/} opened the project's run database"
      [[ $target == "$project"/experiment-logs/two/slurm/trial-[12]/runs.sqlite ]] && own=1
    done
    [ "$own" -eq 1 ] || fail "trial process ${proc#/proc/} holds no run database of its own"
    found=$((found + 1))
  done
  [ "$found" -eq 2 ] || fail "found $found trial processes, not 2"
}

# Waits until both trials' jobs run, each having saved a checkpoint in its own folder.
wait_for_running_trials() {
  local project=$1
  for _ in $(seq 1 600); do
    local ready=0
    for trial in 1 2; do
      ls "$project"/experiment-logs/two/slurm/trial-$trial/checkpoints/run-*/latest.pt \
        >/dev/null 2>&1 && ready=$((ready + 1))
    done
    [ "$ready" -eq 2 ] && [ "$(squeue --noheader --states=RUNNING | wc -l)" -eq 2 ] && return 0
    sleep 0.1
  done
  squeue
  fail "the trials' jobs did not start"
}

start_cluster
slurm=$work/slurm
started=$SECONDS
case $case in
  table)
    local_project=$work/local
    write_project "$local_project" 20 10
    write_project "$slurm" 20 10
    "$mrnn" experiment run "$local_project/experiments/two.yaml" >"$work/local.out" 2>&1 ||
      { cat "$work/local.out"; fail "the local executor failed"; }
    # A partition the cluster lacks: sbatch's refusal, and the trials stay queued.
    sed -i 's/partition: mrnn/partition: nosuch/' "$slurm/experiments/two.yaml"
    "$mrnn" experiment run "$slurm/experiments/two.yaml" --executor slurm >"$work/refused.out" 2>&1
    status=$?
    [ "$status" -eq 1 ] && grep -q "Slurm refused the trials .*sbatch failed .*invalid partition" "$work/refused.out" ||
      { cat "$work/refused.out"; fail "sbatch's refusal was not reported (exit $status)"; }
    sed -i 's/partition: nosuch/partition: mrnn/' "$slurm/experiments/two.yaml"
    "$mrnn" experiment run "$slurm/experiments/two.yaml" --executor slurm >"$work/slurm.out" 2>&1
    status=$?
    cat "$work/slurm.out"
    [ "$status" -eq 0 ] || fail "the Slurm executor exited $status"
    grep -Eq "submitted trials #1, #2 as Slurm job [0-9]+ \(array 1-2\)" "$work/slurm.out" ||
      fail "the trials were not submitted as one job array"
    "$mrnn" experiment status "$slurm/experiments/two.yaml" | tee "$work/status.out"
    [ "$(grep -Ec " done +[0-9]+ +20/20 " "$work/status.out")" -eq 2 ] || fail "status is not 2 x done"
    # Each trial trained in its own folder; the project's store holds the imported runs, whose
    # config names the corpus as the project does (relative), not as the job read it.
    for trial in 1 2; do
      [ -f "$slurm/experiment-logs/two/slurm/trial-$trial/runs.sqlite" ] ||
        fail "trial $trial has no run folder of its own"
      grep -q "finished at step 20" "$slurm/experiment-logs/two/trial-$trial.log" ||
        fail "trial $trial's log lacks its end"
    done
    [ "$("$mrnn" runs list "$slurm" | grep -Ec "^ *[0-9]+ .* finished +20 ")" -eq 2 ] ||
      fail "the project's store lacks the 2 finished runs"
    "$mrnn" runs export "$slurm" --format json | grep -q 'train: corpus.txt' ||
      fail "the imported config does not name the corpus as the project does"
    # The collected runs are the project's: analyses find their checkpoints.
    "$mrnn" eval "$slurm/project.yaml" --run 1 --split valid | grep -Eq "static +[0-9.]+" ||
      fail "cannot evaluate a collected run"
    # The local executor cannot continue checkpoints of the Slurm executor's trials.
    "$mrnn" experiment run "$slurm/experiments/two.yaml" >"$work/mixed.out" 2>&1
    status=$?
    [ "$status" -eq 1 ] && grep -q "ran with the slurm executor" "$work/mixed.out" ||
      { cat "$work/mixed.out"; fail "the local executor took over Slurm trials (exit $status)"; }
    # The figures: the same seeds and one thread each give the same numbers on either
    # executor.
    for project in "$local_project" "$slurm"; do
      table_without_runs "$project" >"$project/table.csv"
    done
    cat "$slurm/table.csv"
    [ "$(grep -c ",done$" "$slurm/table.csv")" -eq 2 ] || fail "the Slurm table is not 2 x done"
    diff "$local_project/table.csv" "$slurm/table.csv" ||
      fail "the Slurm executor's table differs from the local executor's"
    ;;
  resume)
    # Long enough that both trials are still running when the queue is killed and when
    # status looks, even with the fused LSTM window on an idle machine.
    write_project "$slurm" 20000 100
    "$mrnn" experiment run "$slurm/experiments/two.yaml" --executor slurm >"$work/run1.out" 2>&1 &
    queue=$!
    wait_for_running_trials "$slurm"
    check_trials_use_their_own_databases "$slurm"
    kill -9 "$queue"
    wait "$queue" 2>/dev/null
    cat "$work/run1.out"
    # Slurm jobs outlive their queue.
    [ "$(squeue --noheader | wc -l)" -eq 2 ] || fail "the jobs did not outlive their queue"
    "$mrnn" experiment status "$slurm/experiments/two.yaml" | tee "$work/status.out"
    [ "$(grep -Ec " running .*job [0-9]+_[12]: running on " "$work/status.out")" -eq 2 ] ||
      fail "status does not show the running jobs"
    "$mrnn" experiment run "$slurm/experiments/two.yaml" --executor slurm >"$work/run2.out" 2>&1
    status=$?
    cat "$work/run2.out"
    [ "$status" -eq 0 ] || fail "the queue run again exited $status"
    grep -q "2 trials are still in Slurm from an earlier queue run" "$work/run2.out" ||
      fail "the queue did not find its jobs"
    ! grep -q "submitted" "$work/run2.out" || fail "the queue submitted trials again"
    [ "$("$mrnn" runs list "$slurm" | grep -Ec "^ *[0-9]+ .* finished +20000 ")" -eq 2 ] ||
      fail "the 2 trials did not finish once each"
    ;;
  stop)
    write_project "$slurm" 100000 20
    "$mrnn" experiment run "$slurm/experiments/two.yaml" --executor slurm >"$work/run1.out" 2>&1 &
    queue=$!
    wait_for_running_trials "$slurm"
    "$mrnn" experiment stop "$slurm/experiments/two.yaml" | tee "$work/stop.out"
    grep -q "^stopped" "$work/stop.out" || fail "stop did not wait for the queue"
    wait "$queue"
    status=$?
    cat "$work/run1.out"
    [ "$status" -eq 3 ] || fail "a stopped queue must exit 3, not $status"
    [ -z "$(squeue --noheader)" ] || fail "jobs left in Slurm"
    "$mrnn" experiment status "$slurm/experiments/two.yaml" | tee "$work/status.out"
    [ "$(grep -Ec " (queued|stopped) " "$work/status.out")" -eq 2 ] || fail "trials should wait to resume"
    grep -q " stopped " "$work/status.out" || fail "no trial reads stopped"
    # Cancelled jobs got SIGTERM: each trial saved a checkpoint and was collected as stopped.
    [ "$("$mrnn" runs list "$slurm" | grep -Ec "^ *[0-9]+ .* stopped ")" -eq 2 ] ||
      fail "the trials were not collected as stopped runs"
    grep -q "SIGTERM: stopping after this step" "$slurm/experiment-logs/two/trial-1.log" ||
      fail "trial 1 was not stopped by SIGTERM"
    ;;
  halving)
    local_project=$work/local
    values="[0.0001, 0.003, 0.01, 0.03]"
    search="{kind: halving, rungs: [10, 40], keep: 0.5}"
    write_project "$local_project" 40 10 "$values" "$search"
    write_project "$slurm" 40 10 "$values" "$search"
    "$mrnn" experiment run "$local_project/experiments/two.yaml" >"$work/local.out" 2>&1 ||
      { cat "$work/local.out"; fail "the local executor failed"; }
    "$mrnn" experiment run "$slurm/experiments/two.yaml" --executor slurm >"$work/slurm.out" 2>&1
    status=$?
    cat "$work/slurm.out"
    [ "$status" -eq 0 ] || fail "the Slurm executor exited $status"
    [ "$(grep -c "^submitted" "$work/slurm.out")" -eq 2 ] || fail "not one array per rung"
    "$mrnn" experiment status "$slurm/experiments/two.yaml" | tee "$work/status.out"
    [ "$(grep -Ec " cut .*cut at step 10: validation" "$work/status.out")" -eq 2 ] || fail "not 2 cut"
    [ "$(grep -Ec " done +[0-9]+ +40/40 " "$work/status.out")" -eq 2 ] || fail "not 2 trained to 40"
    # The kept trials went on with their own runs, collected again: 4 runs, not 6.
    "$mrnn" runs list "$slurm" | tee "$work/runs.out"
    [ "$(grep -Ec "^ *[0-9]+ " "$work/runs.out")" -eq 4 ] || fail "expected 4 runs"
    [ "$(grep -Ec " finished +40 " "$work/runs.out")" -eq 2 ] || fail "not 2 finished at 40"
    [ "$(grep -Ec " stopped +10 " "$work/runs.out")" -eq 2 ] || fail "not 2 stopped at 10"
    [ "$(grep -l "resuming .*latest.pt" "$slurm"/experiment-logs/two/trial-*.log | wc -l)" -eq 2 ] ||
      fail "the kept trials did not resume from their checkpoints"
    table_without_runs "$local_project" >"$work/local.csv"
    table_without_runs "$slurm" >"$work/slurm.csv"
    cat "$work/slurm.csv"
    diff "$work/local.csv" "$work/slurm.csv" ||
      fail "the Slurm executor's table differs from the local executor's"
    ;;
  *)
    fail "unknown case"
    ;;
esac
echo "PASS ($case) in $((SECONDS - started)) s after the cluster started"
