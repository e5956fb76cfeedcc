# shellcheck shell=bash
# What the command-line test scripts (tests/cli/*.sh) share, sourced by each:
#   source "$(dirname "${BASH_SOURCE[0]}")/cli_test_lib.sh"
# A script sets `case` (the name its FAIL lines carry; CTest's FAIL_REGULAR_EXPRESSION looks
# for "FAIL (") before it calls any of these.

# Fails the test: "FAIL (<case>): <message>", then the script's on_fail, where it defines one
# (a log to show), and exit status 1.
# shellcheck disable=SC2154  # case: set by the sourcing script
fail() {
  echo "FAIL ($case): $*"
  if declare -F on_fail >/dev/null; then on_fail; fi
  exit 1
}

# Commands run on exit after the script's background jobs are killed and before its work
# folder is removed: what it started outside its jobs (a launcher's ranks, daemons).
cli_exit_commands=()
at_exit() {
  cli_exit_commands+=("$*")
}

cli_test_cleanup() {
  # shellcheck disable=SC2046  # one pid a word
  kill -9 $(jobs -p) 2>/dev/null
  local command
  for command in "${cli_exit_commands[@]}"; do
    eval "$command"
  done
  rm -rf "$work"
}

# Makes $work, a fresh temporary folder, and removes it on exit (cli_test_cleanup).
make_work_folder() {
  work=$(mktemp -d)
  trap cli_test_cleanup EXIT
}

# Writes the tiny project the queue tests train to file $1: named $2, a 16-unit LSTM on
# corpus.txt beside it (which the caller copies there), $3 steps, a validation every $4 and a
# checkpoint every $5 steps, one thread.
write_tiny_project() {
  local file=$1 name=$2 steps=$3 validate_every=$4 checkpoint_every=$5
  cat >"$file" <<YAML
name: $name
model:
  input: {level: char, embedding_size: 8}
  layers:
    - {type: lstm, hidden_size: 16}
data:
  train: corpus.txt
training:
  batch_size: 4
  bptt: 20
  max_steps: $steps
  validate_every: $validate_every
  checkpoint_every: $checkpoint_every
  threads: 1
  optimizer: {type: adam, lr: 0.01}
evaluation: {batch_size: 2, bptt: 20}
YAML
}

# The user's files an output command must leave alone: `$1 PATH` (a function that runs the
# command with PATH as its output, its words in $work/out.txt) is run at a file of the user's
# and at a link to one, named with suffix $2; each must be refused in words, unchanged.
expect_users_files_kept() {
  local write=$1 suffix=$2
  printf 'my notes\n' >"$work/notes.$suffix"
  if "$write" "$work/notes.$suffix"; then fail "a file of the user's was replaced"; fi
  cat "$work/out.txt"
  grep -q "not a file this command wrote" "$work/out.txt" || fail "no reason given"
  grep -q "my notes" "$work/notes.$suffix" || fail "notes.$suffix changed"
  printf 'elsewhere\n' >"$work/target.txt"
  ln -s "$work/target.txt" "$work/link.$suffix"
  if "$write" "$work/link.$suffix"; then fail "written through a link"; fi
  grep -q "elsewhere" "$work/target.txt" || fail "the link's target changed"
}

# Waits (up to 10 s) until process $1 catches signal number $2 (its bit in /proc's SigCgt
# mask): a signal sent before then meets the default action or an inherited "ignored" and
# proves nothing. A fixed sleep was too short on a loaded machine (startup loads LibTorch).
wait_for_handler() {
  local pid=$1 signal=$2 caught
  for _ in $(seq 1 100); do
    caught=$(awk '/^SigCgt:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0)
    (( (16#${caught:-0} >> (signal - 1)) & 1 )) && return
    sleep 0.1
  done
}
