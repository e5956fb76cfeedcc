#!/bin/bash
# Data-parallel training as its users run it: `mrnn train --nproc N` and torchrun, ranks
# killed and hung, checkpoints moved between rank counts.
# usage: distributed_life.sh <mrnn> <mrnn_weights_difference> <tiny project folder> <case>
set -u
mrnn=$1
difference=$2
source_project=$3
case=$4
source "$(dirname "${BASH_SOURCE[0]}")/cli_test_lib.sh"
make_work_folder
# The ranks a launcher started are not this script's jobs.
# shellcheck disable=SC2016  # $work expands on exit
at_exit 'pkill -9 -f "$work/" 2>/dev/null'

# A copy of the tiny project with batch 16 (2 ranks x 8), in folder $1.
project_in() {
  mkdir -p "$work/$1"
  cp "$source_project/corpus.txt" "$work/$1/"
  sed -e 's/batch_size: 4/batch_size: 16/' "$source_project/project.yaml" >"$work/$1/project.yaml"
  [ $# -ge 2 ] && sed -i -e "s/max_steps: 20/max_steps: $2/" "$work/$1/project.yaml"
  # Plain SGD: Adam would hide a gradient off by a constant factor.
  sed -i -e 's/optimizer: {type: adam, lr: 0.01}/optimizer: {type: sgd, lr: 1.0}/' "$work/$1/project.yaml"
  echo "$work/$1/project.yaml"
}

# Weights of two checkpoints equal to 1e-5 relative.
expect_same_weights() {
  local line
  line=$("$difference" "$1" "$2") || fail "cannot compare $1 and $2"
  echo "$line"
  awk -v line="$line" 'BEGIN { split(line, f, " "); exit !(f[4] + 0 <= 1e-5) }' ||
    fail "weights differ: $line"
}

# The pid of rank $2 among the processes of the launcher $1 (from their environment).
rank_pid() {
  for pid in $(pgrep -P "$1"); do
    if tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "RANK=$2"; then
      echo "$pid"
      return 0
    fi
  done
  return 1
}

# Starts a long 2-rank training of project $1 in the background; returns when it has saved a
# checkpoint. Sets $launcher.
start_two_ranks() {
  local folder
  folder=$(dirname "$1")
  sed -i -e 's/max_steps: 20/max_steps: 100000000/' -e 's/checkpoint_every: 10/checkpoint_every: 5/' \
    -e 's/validate_every: 10/validate_every: 100000000/' "$1"
  "$mrnn" train "$1" --nproc 2 --timeout "${2:-10}" >"$work/train.out" 2>&1 &
  launcher=$!
  for _ in $(seq 1 600); do
    [ -f "$folder/checkpoints/run-1/latest.pt" ] && return 0
    sleep 0.1
  done
  cat "$work/train.out"
  fail "training did not start"
}

# Waits for the launcher to end; fails unless it exits 1 within $1 seconds.
expect_launcher_fails_within() {
  local started=$SECONDS
  for _ in $(seq 1 $(($1 * 10))); do
    kill -0 "$launcher" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$launcher" 2>/dev/null && fail "the ranks were still running after $1 s"
  wait "$launcher"
  local code=$?
  cat "$work/train.out"
  [ "$code" = 1 ] || fail "mrnn train --nproc 2 exited $code, expected 1"
  echo "stopped after $((SECONDS - started)) s"
}

# Resumes the run on two ranks for 10 more steps and checks it got there.
expect_resume_continues() {
  local step
  step=$(grep -o 'failed at step [0-9]*' "$work/train.out" | head -1 | awk '{ print $4 }')
  [ -n "$step" ] || fail "no rank said at which step it failed"
  "$mrnn" resume "$1" --nproc 2 --max-steps $((step + 10)) >"$work/resume.out" 2>&1 ||
    { cat "$work/resume.out"; fail "mrnn resume --nproc 2 failed"; }
  grep -q "resumed run 1 at step" "$work/resume.out" || { cat "$work/resume.out"; fail "no resume"; }
  grep -q "stopped at step $((step + 10))\|finished at step $((step + 10))" "$work/resume.out" ||
    { cat "$work/resume.out"; fail "the resumed run did not reach step $((step + 10))"; }
}

case $case in
  nproc)
    one=$(project_in one)
    two=$(project_in two)
    "$mrnn" train "$one" >"$work/one.out" 2>&1 || { cat "$work/one.out"; fail "1 process failed"; }
    "$mrnn" train "$two" --nproc 2 >"$work/two.out" 2>&1 || { cat "$work/two.out"; fail "--nproc 2 failed"; }
    cat "$work/two.out"
    grep -q "rank 0 of 2 (mrnn --nproc, gloo" "$work/two.out" || fail "no rank 0 of 2 line"
    grep -q "sym/s (ranks [0-9]* [0-9]*)" "$work/two.out" || fail "no per-rank throughput"
    expect_same_weights "$work/one/checkpoints/run-1/latest.pt" "$work/two/checkpoints/run-1/latest.pt"
    # Validation and test split over the ranks give one process's figures.
    # The figures, not what each validation cost.
    figures() { grep '^validation\|^test:' "$1" | sed 's/  (read in .*//'; }
    [ "$(figures "$work/one.out")" = "$(figures "$work/two.out")" ] ||
      fail "the 2 ranks' validation and test figures differ from one process's"
    "$mrnn" runs export "$work/two" 1 --format csv >"$work/metrics.csv" ||
      fail "cannot export the run's metrics"
    grep -q "rank1/symbols_per_s" "$work/metrics.csv" || fail "rank 1's throughput is not in the store"
    ;;
  torchrun)
    torchrun=$(command -v torchrun)
    if [ -z "$torchrun" ] || ! /usr/bin/python3 -c "import torch.distributed.run" 2>/dev/null; then
      echo "SKIP: torchrun (Debian's python3-torch) is not installed"
      exit 77
    fi
    # torchrun must first run a job of its own: Debian's 2.6 build, without libuv, cannot start
    # one (its TCPStore asks for libuv), and that is not mrnn's to pass or fail.
    if ! "$torchrun" --redirects 2 --tee 2 --no_python --nproc_per_node 1 \
        --master_port $((20000 + RANDOM % 20000)) true >"$work/probe.out" 2>&1; then
      echo "SKIP: torchrun cannot start even 'true' here: $(grep . "$work/probe.out" | tail -n 1)"
      exit 77
    fi
    one=$(project_in one)
    two=$(project_in two)
    "$mrnn" train "$one" >"$work/one.out" 2>&1 || fail "1 process failed"
    # Debian's torchrun 1.13 under Python 3.11 needs --redirects/--tee other than 0 (its
    # Std enum no longer lists NONE); the options keep the output on the terminal.
    "$torchrun" --redirects 2 --tee 2 --no_python --nproc_per_node 2 --master_port $((20000 + RANDOM % 20000)) \
      "$mrnn" train "$two" >"$work/two.out" 2>&1 || { cat "$work/two.out"; fail "torchrun failed"; }
    grep -q "rank 0 of 2 (torchrun, gloo" "$work/two.out" || { cat "$work/two.out"; fail "not a torchrun rank"; }
    expect_same_weights "$work/one/checkpoints/run-1/latest.pt" "$work/two/checkpoints/run-1/latest.pt"
    ;;
  kill9)
    project=$(project_in run)
    start_two_ranks "$project"
    victim=$(rank_pid "$launcher" 1) || fail "no rank 1 process"
    kill -9 "$victim"
    expect_launcher_fails_within 30
    grep -q "rank 1 (pid $victim) was killed by signal 9" "$work/train.out" || fail "the launcher did not name rank 1"
    grep -q "mrnn: rank 0: run 1 failed at step [0-9]*: rank 1 is gone" "$work/train.out" ||
      fail "rank 0 did not name rank 1"
    expect_resume_continues "$project"
    ;;
  kill-rank0)
    project=$(project_in run)
    start_two_ranks "$project"
    victim=$(rank_pid "$launcher" 0) || fail "no rank 0 process"
    kill -9 "$victim"
    expect_launcher_fails_within 30
    grep -q "mrnn: rank 1: run 1 failed at step [0-9]*: rank 0 is gone" "$work/train.out" ||
      fail "rank 1 did not name rank 0"
    # Rank 0 wrote the store and died: resume picks the run up from its latest checkpoint.
    "$mrnn" resume "$project" --nproc 2 --max-steps 60 >"$work/resume.out" 2>&1 ||
      { cat "$work/resume.out"; fail "mrnn resume --nproc 2 failed"; }
    grep -q "resumed run 1 at step" "$work/resume.out" || fail "no resume"
    ;;
  hang)
    project=$(project_in run)
    start_two_ranks "$project" 5
    victim=$(rank_pid "$launcher" 1) || fail "no rank 1 process"
    kill -STOP "$victim"
    started=$SECONDS
    # Rank 0 gives up after the 5 s timeout and names rank 1; the launcher kills the stopped
    # rank 15 s after that.
    for _ in $(seq 1 300); do
      grep -q "mrnn: rank 0: .*rank 1 is gone" "$work/train.out" && break
      sleep 0.1
    done
    waited=$((SECONDS - started))
    grep -q "mrnn: rank 0: .*rank 1 is gone" "$work/train.out" || { cat "$work/train.out"; fail "rank 0 did not name the hung rank 1"; }
    [ "$waited" -le 15 ] || fail "rank 0 took $waited s to give up on a 5 s timeout"
    echo "rank 0 named the hung rank 1 after $waited s"
    expect_launcher_fails_within 40
    "$difference" "$work/run/checkpoints/run-1/latest.pt" "$work/run/checkpoints/run-1/latest.pt" >/dev/null ||
      fail "the latest checkpoint does not load"
    ;;
  sigterm)
    # SIGTERM to the launcher stops both ranks after the same step, with a checkpoint.
    project=$(project_in run)
    start_two_ranks "$project"
    kill -TERM "$launcher"
    wait "$launcher"
    code=$?
    cat "$work/train.out"
    [ "$code" = 0 ] || fail "mrnn train --nproc 2 exited $code after SIGTERM, expected 0"
    step=$(grep -o 'stopped at step [0-9]*' "$work/train.out" | awk '{ print $4 }')
    [ -n "$step" ] || fail "no 'stopped at step'"
    "$mrnn" resume "$project" --nproc 2 --max-steps $((step + 5)) >"$work/resume.out" 2>&1 ||
      { cat "$work/resume.out"; fail "resume failed"; }
    grep -q "resumed run 1 at step $step" "$work/resume.out" || { cat "$work/resume.out"; fail "not resumed at step $step"; }
    ;;
  launcher-killed)
    # kill -9 of the launcher: its ranks get SIGTERM from the kernel and stop with a checkpoint.
    project=$(project_in run)
    start_two_ranks "$project"
    ranks=$(pgrep -P "$launcher" | tr '\n' ' ')
    kill -9 "$launcher"
    for _ in $(seq 1 300); do
      alive=0
      for pid in $ranks; do kill -0 "$pid" 2>/dev/null && alive=1; done
      [ $alive = 0 ] && break
      sleep 0.1
    done
    [ $alive = 0 ] || fail "the ranks outlived their launcher by 30 s"
    grep -q "stopped at step" "$work/train.out" || { cat "$work/train.out"; fail "rank 0 did not stop with a checkpoint"; }
    "$mrnn" resume "$project" --nproc 2 --max-steps 200 >"$work/resume.out" 2>&1 ||
      { cat "$work/resume.out"; fail "resume failed"; }
    ;;
  recount)
    # 10 steps on 2 ranks, 10 more on one process = 20 on one process (and 1 -> 2, 2 -> 2).
    whole=$(project_in whole)
    "$mrnn" train "$whole" >/dev/null 2>&1 || fail "1 process failed"
    a=$(project_in a)
    "$mrnn" train "$a" --nproc 2 --max-steps 10 >"$work/a.out" 2>&1 || { cat "$work/a.out"; fail "2 ranks failed"; }
    # The run ended at step 10, its length; resumed with a new one, it goes on to 20.
    "$mrnn" resume "$a" --max-steps 20 --checkpoint "$work/a/checkpoints/run-1/latest.pt" >"$work/a2.out" 2>&1 ||
      { cat "$work/a2.out"; fail "resuming on 1 process failed"; }
    expect_same_weights "$work/whole/checkpoints/run-1/latest.pt" "$work/a/checkpoints/run-1/latest.pt"
    b=$(project_in b)
    "$mrnn" train "$b" --max-steps 10 >/dev/null 2>&1 || fail "1 process failed"
    "$mrnn" resume "$b" --nproc 2 --max-steps 20 --checkpoint "$work/b/checkpoints/run-1/latest.pt" >"$work/b2.out" 2>&1 ||
      { cat "$work/b2.out"; fail "resuming on 2 ranks failed"; }
    expect_same_weights "$work/whole/checkpoints/run-1/latest.pt" "$work/b/checkpoints/run-1/latest.pt"
    c=$(project_in c)
    "$mrnn" train "$c" --nproc 2 --max-steps 10 >/dev/null 2>&1 || fail "2 ranks failed"
    "$mrnn" resume "$c" --nproc 2 --max-steps 20 --checkpoint "$work/c/checkpoints/run-1/latest.pt" >"$work/c2.out" 2>&1 ||
      { cat "$work/c2.out"; fail "resuming on 2 ranks failed"; }
    expect_same_weights "$work/whole/checkpoints/run-1/latest.pt" "$work/c/checkpoints/run-1/latest.pt"
    ;;
  dropout | gpu-dropout)
    # With dropout each rank draws its own masks; a checkpoint keeps every rank's generator
    # (on GPUs, each rank's GPU generator too), so 10 + 10 steps on 2 ranks equal 20 straight
    # on 2 ranks. On GPUs the ranks meet in NCCL, one GPU each.
    device=()
    if [ "$case" = gpu-dropout ]; then
      gpus=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU")
      [ "$gpus" -ge 2 ] || { echo "skipped: NCCL needs a GPU per rank; this machine has ${gpus:-0}"; exit 77; }
      device=(--device cuda)
    fi
    for p in straight split; do
      project_in $p >/dev/null
      sed -i -e 's/^    - {type: mlstm, hidden_size: 16}$/&\n  dropout: {embedding: 0.3, output: 0.3}/' "$work/$p/project.yaml"
      grep -q "dropout: {embedding: 0.3" "$work/$p/project.yaml" || fail "no dropout in the project"
    done
    "$mrnn" train "$work/straight/project.yaml" --nproc 2 "${device[@]}" >"$work/straight.out" 2>&1 || {
      grep -q "this LibTorch has no NCCL" "$work/straight.out" && { echo "skipped: no NCCL"; exit 77; }
      cat "$work/straight.out"
      fail "2 ranks failed"
    }
    "$mrnn" train "$work/split/project.yaml" --nproc 2 --max-steps 10 "${device[@]}" >/dev/null 2>&1 ||
      fail "2 ranks failed"
    "$mrnn" resume "$work/split/project.yaml" --nproc 2 --max-steps 20 "${device[@]}" \
      --checkpoint "$work/split/checkpoints/run-1/latest.pt" >"$work/split.out" 2>&1 ||
      { cat "$work/split.out"; fail "resuming on 2 ranks failed"; }
    expect_same_weights "$work/straight/checkpoints/run-1/latest.pt" "$work/split/checkpoints/run-1/latest.pt"
    ;;
  corrupt)
    # A corrupt checkpoint is refused once, before any rank starts, and no resume is suggested.
    project=$(project_in bad)
    "$mrnn" train "$project" --nproc 2 --max-steps 10 >/dev/null 2>&1 || fail "2 ranks failed"
    printf 'garbage' | dd of="$work/bad/checkpoints/run-1/latest.pt" bs=1 seek=3000 conv=notrunc 2>/dev/null
    "$mrnn" resume "$project" --nproc 2 --checkpoint "$work/bad/checkpoints/run-1/latest.pt" \
      >"$work/bad.out" 2>&1 && fail "a corrupt checkpoint was resumed"
    cat "$work/bad.out"
    grep -q "latest.pt' is corrupt" "$work/bad.out" || fail "the corruption is not named"
    grep -q "rank\|intact" "$work/bad.out" && fail "ranks were started, or a resume suggested"
    ;;
  uneven)
    project=$(project_in odd)
    sed -i -e 's/batch_size: 16/batch_size: 15/' "$project"
    "$mrnn" train "$project" --nproc 2 >"$work/odd.out" 2>&1 && fail "an uneven batch was accepted"
    cat "$work/odd.out"
    grep -q "training.batch_size: 15 streams do not split evenly over 2 ranks" "$work/odd.out" ||
      fail "the refusal does not name training.batch_size"
    ;;
  *)
    fail "unknown case"
    ;;
esac
echo "PASS ($case)"
