#!/bin/bash
# A hostile pass over the experiment queue, checkpoints and resumes, bounded in time: mutated
# experiment files are planned, damaged checkpoints are resumed and evaluated, and queues are
# killed at random moments (kill -9, Ctrl-C, SIGTERM) and run again. Nothing may crash (a
# signal, "terminate called", a LibTorch backtrace), hang past its limit, or lose or double a
# trial. Prints the counts it reached.
# usage: hostile_pass.sh <mrnn> <tiny project folder> <seconds> [seed]
set -u
mrnn=$1
source_project=$2
budget=$3
RANDOM=${4:-$$}
case=hostile
source "$(dirname "${BASH_SOURCE[0]}")/cli_test_lib.sh"
make_work_folder
cp "$source_project/corpus.txt" "$work/"
mkdir -p "$work/experiments"
experiment=$work/experiments/grid.yaml
deadline=$(($(date +%s) + budget))

write_tiny_project "$work/project.yaml" "hostile pass" 30 10 5

valid_experiment() {
  cat <<'YAML'
experiment:
  axes:
    - key: training.optimizer.lr
      values: [0.003, 0.01]
    - key: model.layers[0].hidden_size
      range: [8, 16]
      count: 2
  seeds: [1]
  slots: 2
YAML
}

# Runs a command under a time limit and judges how it ended: an exit status of its own
# (0: accepted, 1-4: refused in words) with no crash text. Counts by outcome.
accepted=0
refused=0
judge() {
  local what=$1 limit=$2
  shift 2
  timeout -s KILL "$limit" "$@" >"$work/out.txt" 2>&1
  local status=$?
  if [ "$status" -ge 124 ]; then
    cat "$work/out.txt"
    fail "$what ended with status $status (a signal or a hang past ${limit}s)"
  fi
  if grep -Eq "terminate called|Exception raised from|frame #[0-9]|Segmentation|core dumped" \
      "$work/out.txt"; then
    cat "$work/out.txt"
    fail "$what printed a crash"
  fi
  if [ "$status" -eq 0 ]; then accepted=$((accepted + 1)); else refused=$((refused + 1)); fi
  if [ "$status" -ne 0 ] && [ ! -s "$work/out.txt" ]; then fail "$what refused without a word"; fi
  return 0
}

hostile_values=("-1" "0" "1e308" "-1e308" "nan" ".inf" "4294967298" "99999999999999999999"
  "/dev/zero" "[]" "{}" "~" "''" "\"\"" "[[[[" "!!binary AAAA" "&a *a" "x: y: z"
  "$(printf 'z%.0s' $(seq 1 300))" "0x10" "true" "lstm" "mogrifier" "-0")

# 1. Mutated experiment files, planned.
mutations=0
while [ "$(date +%s)" -lt $((deadline - budget * 2 / 3)) ]; do
  valid_experiment >"$experiment"
  lines=$(wc -l <"$experiment")
  line=$((RANDOM % lines + 1))
  value=${hostile_values[$((RANDOM % ${#hostile_values[@]}))]}
  case $((RANDOM % 4)) in
    0) sed -i "${line}d" "$experiment" ;;                                  # a line lost
    1) sed -i "${line}s/: .*/: ${value//\//\\/}/" "$experiment" ;;         # a value replaced
    2) sed -i "${line}s/\[[^]]*\]/[${value//\//\\/}]/" "$experiment" ;;    # a list's items
    3) head -c $((RANDOM % $(wc -c <"$experiment"))) "$experiment" >"$experiment.cut" &&
         mv "$experiment.cut" "$experiment" ;;                              # cut short
  esac
  judge "experiment plan of mutation $mutations" 30 "$mrnn" experiment plan "$experiment"
  mutations=$((mutations + 1))
done

# 2. Damaged checkpoints, resumed and evaluated; the store stays readable.
"$mrnn" train "$work/project.yaml" >"$work/train.out" 2>&1 || { cat "$work/train.out"; fail "train"; }
good=$work/checkpoints/run-1/latest.pt
[ -f "$good" ] || fail "no checkpoint to damage"
damaged=0
while [ "$(date +%s)" -lt $((deadline - budget / 2)) ]; do
  bad=$work/damaged.pt
  cp "$good" "$bad"
  size=$(stat -c %s "$bad")
  at=$((RANDOM * 32768 % size + RANDOM % size))
  at=$((at % size))
  case $((RANDOM % 4)) in
    0) truncate -s "$at" "$bad" ;;
    1) printf '\xff\x00\x13\x37' | dd of="$bad" bs=1 seek="$at" conv=notrunc status=none ;;
    2) head -c 4096 /dev/urandom >>"$bad" ;;
    3) dd if=/dev/zero of="$bad" bs=1 seek="$at" count=512 conv=notrunc status=none ;;
  esac
  judge "resume from damaged checkpoint $damaged" 60 \
    "$mrnn" resume "$work/project.yaml" --checkpoint "$bad" --max-steps 31
  judge "eval of damaged checkpoint $damaged" 60 \
    "$mrnn" eval "$work/project.yaml" --checkpoint "$bad" --max-symbols 200
  "$mrnn" runs list "$work" >/dev/null 2>&1 || fail "the run store is unreadable after damage $damaged"
  damaged=$((damaged + 1))
done

# 3. Exports aimed at what the project keeps, links, devices and FIFOs, and imports of damaged
# model files: every one refused in words or done; nothing the project keeps changes.
kept=("$work/runs.sqlite" "$work/checkpoints/run-1/latest.pt" "$work/project.yaml"
  "$work/corpus.txt")
sums() { sha256sum "${kept[@]}" 2>/dev/null; }
before=$(sums)
printf 'a user file\n' >"$work/target.txt"
ln -sf "$work/target.txt" "$work/link.pt"
rm -f "$work/fifo.pt" && mkfifo "$work/fifo.pt"
outputs=("${kept[@]}" "$work/link.pt" "$work/fifo.pt" /dev/null "$work/checkpoints/x.pt"
  "$work/experiments/grid.yaml" "$work/new.pt" "$work/new.safetensors" "$work/nowhere/x.pt")
exports=0
for output in "${outputs[@]}"; do
  judge "export to $output" 60 "$mrnn" export "$work/project.yaml" --output "$output"
  judge "runs export to $output" 60 "$mrnn" runs export "$work" --format csv --output "$output"
  exports=$((exports + 2))
done
[ "$(sums)" = "$before" ] || fail "an export changed a file the project keeps"
[ -L "$work/link.pt" ] && [ -p "$work/fifo.pt" ] && [ "$(cat "$work/target.txt")" = "a user file" ] ||
  fail "an export replaced a link, a FIFO or a link's target"
imports=0
kept=("$work/checkpoints/run-1/latest.pt" "$work/project.yaml" "$work/corpus.txt")  # runs join
before=$(sums)
"$mrnn" export "$work/project.yaml" --output "$work/good.pt" >/dev/null 2>&1 || fail "export"
while [ "$(date +%s)" -lt $((deadline - budget / 4)) ]; do
  cp "$work/good.pt" "$work/bad.pt"
  size=$(stat -c %s "$work/bad.pt")
  at=$(((RANDOM * 32768 + RANDOM) % size))
  case $((RANDOM % 3)) in
    0) truncate -s "$at" "$work/bad.pt" ;;
    1) printf '\xff\x00\x13\x37' | dd of="$work/bad.pt" bs=1 seek="$at" conv=notrunc status=none ;;
    2) rm -f "$work/bad.pt.json" ;;
  esac
  cp "$work/good.pt.json" "$work/bad.pt.json" 2>/dev/null
  judge "import of damaged model $imports" 60 "$mrnn" import "$work/bad.pt" \
    --project "$work/project.yaml" --corpus "$work/corpus.txt"
  imports=$((imports + 1))
done
[ "$(sums)" = "$before" ] || fail "an import changed a file the project keeps"

# 4. Queues killed at random moments, then run to the end: every trial finishes once.
rm -rf "$work/runs.sqlite"* "$work/checkpoints" "$work/experiment-logs"
valid_experiment >"$experiment"
kills=0
signals=(KILL INT TERM)
while [ "$(date +%s)" -lt "$deadline" ]; do
  "$mrnn" experiment run "$experiment" >"$work/queue.out" 2>&1 &
  queue=$!
  sleep "$((RANDOM % 3)).$((RANDOM % 10))"
  signal=${signals[$((RANDOM % 3))]}
  kill -s "$signal" "$queue" 2>/dev/null && kills=$((kills + 1))
  wait "$queue" 2>/dev/null
  # Trials of a killed queue stop with checkpoints (SIGTERM from the kernel); wait for them.
  for _ in $(seq 1 300); do
    held=0
    for lock in "$work"/experiment-logs/grid/trial-*.lock; do
      [ -e "$lock" ] || continue
      flock -n "$lock" true || held=1
    done
    [ "$held" -eq 0 ] && break
    sleep 0.1
  done
  "$mrnn" experiment status "$experiment" >/dev/null 2>&1 || fail "status after a $signal"
done
judge "the last queue run" 600 "$mrnn" experiment run "$experiment"
"$mrnn" experiment status "$experiment" | tee "$work/status.out"
[ "$(grep -Ec " done " "$work/status.out")" -eq 4 ] || fail "not every trial is done"
runs=$("$mrnn" runs list "$work" | grep -Ec "^ *[0-9]+ ")
finished=$("$mrnn" runs list "$work" | grep -Ec "^ *[0-9]+ .* finished +30 ")
[ "$runs" -eq 4 ] || fail "$runs runs for 4 trials: a trial trained twice"
[ "$finished" -eq 4 ] || fail "$finished of 4 runs finished at step 30"

echo "hostile pass: $mutations experiment mutations, $damaged damaged checkpoints (each resumed" \
  "and evaluated), $exports exports at kept files, links and devices, $imports damaged imports," \
  "$kills queues killed; $accepted commands accepted, $refused refused in words, 0 crashes," \
  "every trial finished once"
echo "PASS (hostile)"
