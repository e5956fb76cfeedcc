#!/bin/bash
# The life of a run as `mrnn` users live it: signals, killed processes, two writers, resource
# limits. usage: run_life.sh <mrnn> <tiny project folder> <case>
set -u
mrnn=$1
source_project=$2
case=$3
source "$(dirname "${BASH_SOURCE[0]}")/cli_test_lib.sh"
make_work_folder
cp "$source_project/project.yaml" "$source_project/corpus.txt" "$work/"
project=$work/project.yaml

# Starts a long training in the background; returns once it has saved a checkpoint.
start_training() {
  "$mrnn" train "$project" --max-steps 100000000 >"$work/train.out" 2>&1 &
  trainer=$!
  for _ in $(seq 1 600); do
    [ -f "$work/checkpoints/run-1/latest.pt" ] && return 0
    sleep 0.1
  done
  cat "$work/train.out"
  fail "training did not start"
}

# VmRSS or VmHWM of a process, in MB.
memory_mb() {
  awk -v key="$2:" '$1 == key { print int($2 / 1024) }' "/proc/$1/status" 2>/dev/null
}

case $case in
  sigterm | sighup)
    signal=${case#sig}
    start_training
    kill -"${signal^^}" "$trainer"
    wait "$trainer"
    status=$?
    cat "$work/train.out"
    [ "$status" -eq 0 ] || fail "exit status $status after SIG${signal^^}"
    grep -q "SIG${signal^^}: stopping after this step" "$work/train.out" || fail "no stop message"
    grep -q "^stopped at step" "$work/train.out" || fail "not stopped"
    [ -f "$work/checkpoints/run-1/latest.pt" ] || fail "no final checkpoint"
    "$mrnn" runs list "$work" | grep -Eq "^ *1 .* stopped " || fail "run not recorded as stopped"
    ;;
  kill9)
    start_training
    kill -9 "$trainer"
    wait "$trainer" 2>/dev/null
    "$mrnn" runs list "$work" | tee "$work/list.out"
    grep -Eq "^ *1 .* interrupted " "$work/list.out" || fail "a killed run must read interrupted"
    "$mrnn" runs show "$work" 1 | grep -q "reason .*resume" || fail "no word on resuming"
    "$mrnn" resume "$project" --max-steps 1 >"$work/resume.out" 2>&1
    # Resuming at a step past --max-steps ends at once, with the run finished.
    grep -q "resumed run 1" "$work/resume.out" || { cat "$work/resume.out"; fail "not resumed"; }
    ;;
  resume-length)
    # A run started with --max-steps its file lacks, stopped, and its file edited: `mrnn resume`
    # continues the run that was started (its length, its learning rate) and says so.
    "$mrnn" train "$project" --max-steps 300 >"$work/train.out" 2>&1 &
    trainer=$!
    for _ in $(seq 1 600); do
      [ -f "$work/checkpoints/run-1/latest.pt" ] && break
      sleep 0.1
    done
    kill -TERM "$trainer"
    wait "$trainer"
    grep -q "^stopped at step" "$work/train.out" || { cat "$work/train.out"; fail "not stopped"; }
    sed -i 's/lr: 0.01/lr: 0.02/' "$project"
    "$mrnn" resume "$project" >"$work/resume.out" 2>&1
    cat "$work/resume.out"
    grep -q "^finished at step 300 " "$work/resume.out" || fail "the run did not keep its length"
    grep -q "optimizer.lr 0.02 (the run's: 0.01)" "$work/resume.out" ||
      fail "the settings the run keeps are not named"
    grep -q "max_steps 20 (the run's: 300)" "$work/resume.out" || fail "the length is not named"
    ;;
  two-writers)
    start_training
    "$mrnn" resume "$project" --run 1 >"$work/second.out" 2>&1
    status=$?
    cat "$work/second.out"
    [ "$status" -ne 0 ] || fail "a second writer was let in"
    grep -q "run 1 is being written by process $trainer (mrnn)" "$work/second.out" ||
      fail "the refusal does not name the holder"
    rows_before=$("$mrnn" runs list "$work" | grep -c "^ *[0-9]")
    [ "$rows_before" -eq 1 ] || fail "the refused resume changed the runs"
    # Its name (its cells and size until renamed) and a note, given while it trains.
    "$mrnn" runs list "$work" | grep -Eq "^ *1 +mlstm 16 " || fail "the run is not named by its model"
    "$mrnn" runs rename "$work" 1 "the baseline" || fail "rename refused while training"
    "$mrnn" runs note "$work" 1 "lr 0.01, to compare" || fail "note refused while training"
    "$mrnn" runs list "$work" | grep -q " the baseline " || fail "the new name is not listed"
    "$mrnn" runs show "$work" 1 | grep -q "note  *lr 0.01, to compare" || fail "no note shown"
    "$mrnn" runs rename "$work" 1 " " >"$work/empty.out" 2>&1 && fail "an empty name was taken"
    grep -q "a name cannot be empty" "$work/empty.out" || fail "no reason for the refusal"
    kill -INT "$trainer"
    wait "$trainer"
    ;;
  threads)
    "$mrnn" train "$project" --threads 99999 >"$work/out" 2>&1
    status=$?
    cat "$work/out"
    [ "$status" -eq 2 ] || fail "exit status $status"
    grep -q -- "--threads 99999 is more than 4096" "$work/out" || fail "no limit named"
    ;;
  not-started)
    sed -i 's/train: corpus.txt/train: missing.txt/' "$project"
    "$mrnn" train "$project" >"$work/out" 2>&1
    cat "$work/out"
    grep -q "training could not start: .*missing.txt" "$work/out" || fail "wrong wording"
    grep -q "failed at step 0" "$work/out" && fail "says it failed at step 0"
    ;;
  sample-streams)
    "$mrnn" train "$project" --max-steps 2 >/dev/null 2>&1 || fail "training failed"
    "$mrnn" sample "$project" --length 99999999999 >/dev/null 2>"$work/err" &
    sampler=$!
    sleep 3
    early=$(memory_mb "$sampler" VmRSS)
    sleep 5
    late=$(memory_mb "$sampler" VmRSS)
    kill -9 "$sampler"
    echo "resident memory after 3 s: ${early} MB, after 8 s: ${late} MB"
    [ -n "$early" ] && [ -n "$late" ] || { cat "$work/err"; fail "the sampler ended early"; }
    [ $((late - early)) -lt 40 ] || fail "memory grows with the length"
    ;;
  score-long-file)
    "$mrnn" train "$project" --max-steps 2 >/dev/null 2>&1 || fail "training failed"
    # 2 MB of the corpus's own symbols.
    while [ "$(stat -c %s "$work/long.txt" 2>/dev/null || echo 0)" -lt 2000000 ]; do
      cat "$work/corpus.txt" >>"$work/long.txt"
    done
    "$mrnn" score "$project" --file "$work/long.txt" --csv >"$work/scores.csv" 2>"$work/err" &
    scorer=$!
    peak=0
    while kill -0 "$scorer" 2>/dev/null; do
      now=$(memory_mb "$scorer" VmHWM)
      [ -n "$now" ] && [ "$now" -gt "$peak" ] && peak=$now
      sleep 0.2
    done
    wait "$scorer"
    status=$?
    symbols=$(($(wc -l <"$work/scores.csv") - 1))
    echo "scored $symbols symbols, peak resident memory ${peak} MB, exit status $status"
    [ "$status" -eq 0 ] || { cat "$work/err"; fail "scoring failed"; }
    [ "$symbols" -ge 2000000 ] || fail "not every symbol was scored"
    [ "$peak" -lt 600 ] || fail "peak memory ${peak} MB for a 2 MB text"
    ;;
  eval-header)
    "$mrnn" train "$project" --max-steps 2 >/dev/null 2>&1 || fail "training failed"
    "$mrnn" eval "$project" --split valid --max-symbols 50 | tee "$work/out"
    grep -q "valid split, its first 50 of [0-9]* symbols" "$work/out" || fail "wrong count"
    ;;
  eval-long-words)
    # Words of 150 letters: an untrained model's word perplexity is near 10^100, and every
    # figure must still stand in its own column (and the JSON must parse).
    python3 -c "
import random
random.seed(3)
for _ in range(60):
    print(''.join(random.choice('abcdefghij') for _ in range(150)))" >"$work/corpus.txt"
    "$mrnn" train "$project" --max-steps 2 >/dev/null 2>&1 || fail "training failed"
    "$mrnn" eval "$project" --split valid | tee "$work/out"
    awk '$1 == "static" && NF != 5 { bad = 1 } END { exit bad }' "$work/out" ||
      fail "the figures ran together"
    grep -Eq '^static +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+e\+[0-9]+$' "$work/out" ||
      fail "no word perplexity in exponent form"
    "$mrnn" eval "$project" --split valid --json >"$work/json"
    python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$work/json" ||
      fail "the JSON does not parse"
    ;;
  clamp-nan)
    "$mrnn" train "$project" --max-steps 2 >/dev/null 2>&1 || fail "training failed"
    "$mrnn" sample "$project" --clamp 1:1:nan --length 5 >"$work/out" 2>&1
    status=$?
    cat "$work/out"
    [ "$status" -eq 2 ] || fail "exit status $status"
    grep -q "must be a finite number" "$work/out" || fail "no reason"
    ;;
  *)
    fail "unknown case"
    ;;
esac
echo "ok: $case"
