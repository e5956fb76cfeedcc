#!/bin/bash
# Experiments as `mrnn` users run them: a 2x2 grid end to end whose table matches the store,
# the queue killed with kill -9 and started again, a failing trial, successive halving, a
# second queue refused, and `experiment stop`; Ctrl-C while planning, and a 10,648-trial grid
# whose status and stop answer at once.
# usage: experiment_life.sh <mrnn> <tiny project folder> <case>
set -u
mrnn=$1
source_project=$2
case=$3
source "$(dirname "${BASH_SOURCE[0]}")/cli_test_lib.sh"
# Trials get SIGTERM from the kernel when their queue dies (kill -9 included).
make_work_folder
cp "$source_project/corpus.txt" "$work/"
mkdir -p "$work/experiments"
experiment=$work/experiments/grid.yaml

# The tiny project: `steps` steps, a checkpoint and a validation every `every`.
write_project() {
  local steps=$1 every=$2
  write_tiny_project "$work/project.yaml" "experiment test" "$steps" "$every" "$every"
}

# An experiment of `points` points on each of three training axes: points^3 trials.
write_cube() {
  local points=$1
  cat >"$experiment" <<YAML
experiment:
  axes:
    - key: training.optimizer.lr
      log_range: [0.0001, 0.1]
      count: $points
    - key: training.batch_size
      range: [1, $points]
      count: $points
    - key: training.bptt
      range: [2, $((points + 1))]
      count: $points
YAML
}

# How many runs the store holds, and how many of them finished.
run_count() { "$mrnn" runs list "$work" | grep -Ec "^ *[0-9]+ "; }
finished_count() { "$mrnn" runs list "$work" | grep -Ec "^ *[0-9]+ .* finished "; }

# Runs the queue to its end, its output in $work/<name>.out; fails unless it exits `expected`.
run_queue() {
  local expected=$1 name=$2
  "$mrnn" experiment run "$experiment" >"$work/$name.out" 2>&1
  local status=$?
  cat "$work/$name.out"
  [ "$status" -eq "$expected" ] || fail "experiment run exited $status, not $expected"
}

# Waits until the queue's first trial has saved a checkpoint.
wait_for_first_checkpoint() {
  for _ in $(seq 1 600); do
    [ -f "$work/checkpoints/run-1/latest.pt" ] && return 0
    sleep 0.1
  done
  cat "$work/run1.out"
  fail "no checkpoint"
}

# Waits until no process trains any trial (children stop with checkpoints after a kill -9):
# each holds its trial's lock (flock, util-linux) while it lives.
wait_for_trials_to_stop() {
  for _ in $(seq 1 300); do
    local held=0
    for lock in "$work"/experiment-logs/grid/trial-*.lock; do
      [ -e "$lock" ] || continue
      flock -n "$lock" true || held=1
    done
    [ "$held" -eq 0 ] && return 0
    sleep 0.1
  done
  fail "trials still running after their queue died"
}

case $case in
  grid)
    write_project 20 10
    cat >"$experiment" <<'YAML'
experiment:
  axes:
    - key: model.layers[0].type
      cells: [lstm, mlstm]
      match_parameters: 2500
    - key: training.optimizer.lr
      values: [0.003, 0.01]
  slots: 2
YAML
    "$mrnn" experiment plan "$experiment" | tee "$work/plan.out"
    grep -Eq "4 trials" "$work/plan.out" || fail "plan does not list 4 trials"
    grep -Eq "^#3 +type=mlstm \(H [0-9]+\), lr=0.003 +1 +2,[45][0-9]{2} +20" "$work/plan.out" ||
      fail "plan lacks trial 3 with its parameter count"
    run_queue 0 run
    [ "$(run_count)" -eq 4 ] || fail "expected 4 runs, found $(run_count)"
    [ "$(finished_count)" -eq 4 ] || fail "not every run finished"
    "$mrnn" experiment status "$experiment" | tee "$work/status.out"
    [ "$(grep -Ec " done +[0-9]+ +20/20 " "$work/status.out")" -eq 4 ] || fail "status is not 4 x done"
    # The table's figures are the runs' own: join the table's CSV with the store's export.
    "$mrnn" experiment table "$experiment" --format csv --output "$work/table.csv" || fail "table"
    "$mrnn" runs export "$work" --format csv --output "$work/runs.csv" || fail "export"
    cat "$work/table.csv"
    # Quoted fields (run names hold commas) are emptied first: the columns compared have none.
    sed -i 's/"[^"]*"//g' "$work/runs.csv" "$work/table.csv"
    awk -F, 'NR == FNR { if (FNR == 1) { for (i = 1; i <= NF; i++) col[$i] = i; next }
                                         best[$col["id"]] = $col["best_valid"]; test[$col["id"]] = $col["test_result"]; next }
             FNR == 1 { for (i = 1; i <= NF; i++) tcol[$i] = i; next }
             { run = $tcol["runs"]; checked++
               if (best[run] + 0 != $tcol["valid_bpc_mean"] + 0 || test[run] + 0 != $tcol["test_bpc_mean"] + 0) {
                 print "mismatch for run " run ": " $tcol["valid_bpc_mean"] " vs " best[run]; bad = 1 } }
             END { if (checked != 4) { print "checked " checked " rows"; bad = 1 }; exit bad }' \
      "$work/runs.csv" "$work/table.csv" || fail "table does not match the store"
    "$mrnn" experiment table "$experiment" --format json | grep -q '"valid_bpc": {"mean": ' ||
      fail "json table"
    # A trial's run evaluates as the model it trained (an mlstm of its own size), not the base
    # project's: `eval --run` gives the test figure the run recorded.
    read -r run3 recorded < <(python3 -c '
import csv, sys
row = [r for r in csv.DictReader(open(sys.argv[1])) if r["configuration"] == "3"][0]
print(row["runs"], row["test_bpc_mean"])' "$work/table.csv")
    "$mrnn" eval "$work/project.yaml" --run "$run3" --split test --json >"$work/eval.json" ||
      fail "eval of trial 3's run $run3 failed: $(cat "$work/eval.json")"
    python3 - "$work/eval.json" "$recorded" <<'PY' || fail "eval's figure is not the recorded one"
import json, sys
measured = json.load(open(sys.argv[1]))["results"][0]["bits_per_symbol"]
assert abs(measured - float(sys.argv[2])) < 1e-4, (measured, sys.argv[2])
PY
    # Run again: every trial is done, nothing trains twice.
    "$mrnn" experiment run "$experiment" >"$work/again.out" 2>&1 || fail "second run failed"
    [ "$(run_count)" -eq 4 ] || fail "a finished trial ran twice"
    ;;
  kill9)
    write_project 300 20
    cat >"$experiment" <<'YAML'
experiment:
  axes:
    - key: training.optimizer.lr
      values: [0.003, 0.01]
  slots: 1
YAML
    "$mrnn" experiment run "$experiment" >"$work/run1.out" 2>&1 &
    queue=$!
    wait_for_first_checkpoint
    kill -9 "$queue"
    wait "$queue" 2>/dev/null
    wait_for_trials_to_stop
    "$mrnn" experiment status "$experiment" | tee "$work/status1.out"
    grep -Eq "^#1 .* (queued|stopped|interrupted) " "$work/status1.out" || fail "trial 1 should wait to resume"
    run_queue 0 run2
    grep -q "resuming .*run-1/latest.pt" "$work/experiment-logs/grid/trial-1.log" ||
      fail "trial 1 did not resume its run"
    # Every trial finished exactly once: two runs, both finished at step 300.
    "$mrnn" runs list "$work"
    [ "$(run_count)" -eq 2 ] || fail "expected 2 runs, found $(run_count)"
    [ "$("$mrnn" runs list "$work" | grep -Ec " finished +300 ")" -eq 2 ] || fail "not both at step 300"
    ;;
  failed)
    write_project 20 10
    cat >"$experiment" <<'YAML'
experiment:
  axes:
    - key: model.layers[0].hidden_size
      values: [16, 1000000]
  slots: 1
YAML
    run_queue 1 run
    "$mrnn" experiment status "$experiment" | tee "$work/status.out"
    grep -Eq "^#1 .* done " "$work/status.out" || fail "the good trial did not finish"
    # Out of memory, before a run was made: the reason is the child's own words.
    grep -Eq "^#2 .* failed .*training could not start: training this model .* needs about" \
      "$work/status.out" || fail "no reason for the failure"
    "$mrnn" experiment table "$experiment" | grep -Eq "failed: training could not start" ||
      fail "table does not say why"
    ;;
  retry-failed)
    # The defect: a trial that failed for a reason outside it (killed twice by the kernel's
    # out-of-memory killer, a disk that filled) stayed failed: every later run ended at once,
    # and nothing could train it again. `--retry-failed` does, from its run's last checkpoint.
    write_project 1500 50
    cat >"$experiment" <<'YAML'
experiment:
  axes:
    - key: training.optimizer.lr
      values: [0.01]
  slots: 1
YAML
    "$mrnn" experiment run "$experiment" >"$work/run.out" 2>&1 &
    queue=$!
    wait_for_first_checkpoint
    # Killed as the out-of-memory killer would, then its second child too: this test's own
    # children only (tests run side by side, each with an experiments/grid.yaml of its own).
    killed=""
    for _ in 1 2; do
      child=""
      for _ in $(seq 1 300); do
        child=$(pgrep -f -- "experiment trial $experiment " | grep -vx "${killed:-none}" | head -1)
        [ -n "$child" ] && break
        sleep 0.05
      done
      [ -n "$child" ] || fail "no trial process to kill"
      kill -9 "$child"
      killed=$child
    done
    wait "$queue"
    status=$?
    cat "$work/run.out"
    [ "$status" -eq 1 ] || fail "experiment run exited $status, not 1"
    grep -Eq "trial #1 .* failed: killed by signal 9 twice" "$work/run.out" ||
      fail "trial 1 did not fail"
    grep -q -- "--retry-failed" "$work/run.out" || fail "the end does not say how to retry"
    run_queue 1 again  # without the option the failure stands
    grep -q "started" "$work/again.out" && fail "a failed trial started without --retry-failed"
    "$mrnn" experiment run "$experiment" --retry-failed >"$work/retry.out" 2>&1 ||
      { cat "$work/retry.out"; fail "the retry did not finish the trial"; }
    cat "$work/retry.out"
    grep -Eq "trial #1 .* failed \(killed by signal 9 twice.*\); it trains again" \
      "$work/retry.out" || fail "the retry does not say what it does"
    grep -q "resuming .*run-1/" "$work/experiment-logs/grid/trial-1.log" ||
      fail "the retried trial did not resume its run"
    "$mrnn" experiment status "$experiment" | tee "$work/status.out"
    grep -Eq "^#1 .* done +1 +1500/1500 " "$work/status.out" || fail "trial 1 not done"
    [ "$(run_count)" -eq 1 ] || fail "the retried trial did not go on with its own run"
    ;;
  halving)
    write_project 40 10
    cat >"$experiment" <<'YAML'
experiment:
  axes:
    - key: training.optimizer.lr
      values: [0.0001, 0.003, 0.01, 0.03]
  search: {kind: halving, rungs: [10, 40], keep: 0.5}
  slots: 2
YAML
    run_queue 0 run
    "$mrnn" experiment status "$experiment" | tee "$work/status.out"
    [ "$(grep -Ec " cut .*cut at step 10: validation" "$work/status.out")" -eq 2 ] || fail "not 2 cut"
    [ "$(grep -Ec " done +[0-9]+ +40/40 " "$work/status.out")" -eq 2 ] || fail "not 2 trained to 40"
    # Promoted trials went on with their own runs: 4 runs in all, 2 finished at 40 steps.
    [ "$(run_count)" -eq 4 ] || fail "expected 4 runs"
    [ "$("$mrnn" runs list "$work" | grep -Ec " finished +40 ")" -eq 2 ] || fail "not 2 finished"
    [ "$("$mrnn" runs list "$work" | grep -Ec " stopped +10 ")" -eq 2 ] || fail "not 2 stopped at 10"
    ;;
  busy-and-stop)
    write_project 100000 20
    cat >"$experiment" <<'YAML'
experiment:
  axes:
    - key: training.optimizer.lr
      values: [0.003, 0.01]
YAML
    "$mrnn" experiment run "$experiment" >"$work/run1.out" 2>&1 &
    queue=$!
    wait_for_first_checkpoint
    run_queue 4 run2
    grep -q "already running" "$work/run2.out" || fail "no word on the running queue"
    "$mrnn" experiment stop "$experiment" | tee "$work/stop.out"
    grep -q "^stopped" "$work/stop.out" || fail "stop did not wait for the queue"
    wait "$queue"
    status=$?
    cat "$work/run1.out"
    [ "$status" -eq 3 ] || fail "a stopped queue must exit 3, not $status"
    "$mrnn" experiment status "$experiment" | tee "$work/status.out"
    grep -Eq "queue not running" "$work/status.out" || fail "queue still listed"
    [ "$(grep -Ec " (queued|stopped) " "$work/status.out")" -eq 2 ] || fail "trials should wait to resume"
    grep -q " stopped " "$work/status.out" || fail "no trial reads stopped"
    "$mrnn" runs list "$work" | grep -Eq "^ *1 .* stopped " || fail "run 1 not stopped with a checkpoint"
    ;;
  interrupt)
    # 100 x 60 = 6,000 trials: seconds of planning. A script's background job inherits SIGINT
    # ignored, as the probe's did; Ctrl-C must still stop `plan` and `run` within a second.
    write_project 20 10
    cat >"$experiment" <<'YAML'
experiment:
  axes:
    - key: training.optimizer.lr
      log_range: [0.0001, 0.1]
      count: 100
    - key: training.batch_size
      range: [1, 60]
      count: 60
YAML
    for verb in plan run; do
      "$mrnn" experiment "$verb" "$experiment" >"$work/$verb.out" 2>&1 &
      pid=$!
      # Ctrl-C once its handler is in place, then a moment into planning.
      wait_for_handler "$pid" 2
      sleep 0.3
      kill -INT "$pid"
      gone=0
      for _ in $(seq 1 20); do
        kill -0 "$pid" 2>/dev/null || { gone=1; break; }
        sleep 0.1
      done
      cat "$work/$verb.out"
      [ "$gone" -eq 1 ] || fail "experiment $verb still going 2 s after Ctrl-C"
      wait "$pid"
    done
    grep -q "Ctrl-C: planning stopped after" "$work/run.out" || fail "run does not say it stopped"
    [ ! -e "$work/runs.sqlite" ] || [ "$(run_count)" -eq 0 ] || fail "a trial trained after Ctrl-C"
    ;;
  big-grid)
    # 3 axes of 22 points: 10,648 trials. status and stop read the ledger, not the plan.
    write_project 20 10
    write_cube 22
    # Beside the same command on a one-trial experiment: the process's own start (LibTorch's
    # libraries, about a second here, give or take half) is not the experiment's size.
    cat >"$work/experiments/one.yaml" <<'YAML'
experiment:
  axes:
    - key: training.optimizer.lr
      values: [0.01]
YAML
    elapsed_ms() {
      local start
      start=$(date +%s%N)
      "$mrnn" experiment "$@" >"$work/timed.out" 2>&1 || { cat "$work/timed.out"; fail "$* failed"; }
      echo $((($(date +%s%N) - start) / 1000000))
    }
    for verb in status stop; do
      small=$(elapsed_ms "$verb" "$work/experiments/one.yaml")
      big=$(elapsed_ms "$verb" "$experiment")
      echo "$verb: $big ms on 10,648 trials, $small ms on 1 trial"
      [ "$big" -lt 1000 ] || [ "$big" -lt $((small + 1000)) ] ||
        fail "experiment $verb took $big ms on 10,648 trials ($small ms on 1)"
    done
    # Planning past a second says how far it came.
    timeout 4 "$mrnn" experiment plan "$experiment" >/dev/null 2>"$work/plan.err"
    grep -Eq "^planning: [0-9]+ of 10648 trials" "$work/plan.err" || fail "no planning progress"
    # A grid past the cap is refused at its axes, its product named.
    write_cube 100
    "$mrnn" experiment plan "$experiment" >"$work/capped.out" 2>&1 && fail "a million-trial grid was planned"
    cat "$work/capped.out"
    grep -Eq "grid.yaml:3:[0-9]+: experiment.axes: the grid has 100 x 100 x 100 = 1000000 configurations, more than the 100000" \
      "$work/capped.out" || fail "the cap is not named at the axes"
    ;;
  *)
    fail "unknown case"
    ;;
esac
echo "PASS ($case)"
