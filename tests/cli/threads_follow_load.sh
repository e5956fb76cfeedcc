#!/bin/bash
# eval, score, sample and analyze beside a program that keeps one processor busy: with
# training.threads 0 (the default) each takes the processors left free, and says so, as
# training does. Exit 77 (skipped) on a machine with one processor.
# usage: threads_follow_load.sh <mrnn> <trained tiny project folder>
set -u
mrnn=$1
trained=$2
case=threads
source "$(dirname "${BASH_SOURCE[0]}")/cli_test_lib.sh"
[ "$(nproc)" -ge 2 ] || { echo "one processor: nothing to leave to other programs"; exit 77; }
make_work_folder
cp -r "$trained"/. "$work/"
sed -i 's/^  threads: .*/  threads: 0/' "$work/project.yaml"

taskset -c 0 sh -c 'while :; do :; done' &
sleep 0.5
check() {
  local activity=$1
  shift
  "$mrnn" "$@" >"$work/out.txt" 2>"$work/err.txt" || { cat "$work/err.txt"; fail "$* failed"; }
  grep -q "processors busy: $activity on $(($(nproc) - 1)) thread" "$work/err.txt" ||
    { cat "$work/err.txt"; fail "$1 did not leave the busy processor"; }
}
check evaluating eval "$work/project.yaml" --split valid
check scoring score "$work/project.yaml" --text "the cat sat on the mat."
check sampling sample "$work/project.yaml" --length 40
check analysing analyze gates "$work/project.yaml" --text "the cat sat."
echo "PASS (threads)"
