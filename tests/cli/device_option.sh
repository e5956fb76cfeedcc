#!/bin/bash
# --device on the analysis commands, as a user types it: `--device cpu` prints exactly what no
# flag prints; `--device cuda` is refused with the reason where this LibTorch or machine has no
# CUDA (exit 1), and runs where it has; `--device gpu` is a usage error naming the value
# (exit 2). usage: device_option.sh <mrnn> <trained tiny folder> <trained copy folder> <case>
set -u
mrnn=$1
tiny=$2
copy=$3
case=$4
source "$(dirname "${BASH_SOURCE[0]}")/cli_test_lib.sh"
make_work_folder

case $case in
  eval) command=(eval "$tiny/project.yaml" --split valid) ;;
  sample) command=(sample "$tiny/project.yaml" --prime "the " --length 20 --completions 2 --json) ;;
  sample-beam) command=(sample "$tiny/project.yaml" --prime "the " --length 8 --beam 3) ;;
  score) command=(score "$tiny/project.yaml" --text "the cat sat." --json) ;;
  debag)
    command=(score debag "$tiny/project.yaml" --left "the " --bag "cat sat on" --right " a mat.")
    ;;
  recovery) command=(analyze recovery "$tiny/project.yaml" --file "$tiny/corpus.txt") ;;
  mask) command=(analyze mask "$tiny/project.yaml" --file "$tiny/corpus.txt" --runs 2) ;;
  gates) command=(analyze gates "$tiny/project.yaml" --text "the cat sat." --csv) ;;
  tree) command=(analyze tree "$tiny/project.yaml" --context "the " --depth 2 --top-k 3) ;;
  copy) command=(analyze copy "$copy/project.yaml") ;;
  *) fail "unknown case" ;;
esac

# Runs the command with extra arguments; its output (both streams) in $work/$1.out, its exit
# status in $status.
run() {
  local name=$1
  shift
  "$mrnn" "${command[@]}" "$@" >"$work/$name.out" 2>&1
  status=$?
}

run default
[ "$status" -eq 0 ] || { cat "$work/default.out"; fail "exit status $status without --device"; }
run cpu --device cpu
[ "$status" -eq 0 ] || { cat "$work/cpu.out"; fail "exit status $status with --device cpu"; }
diff "$work/default.out" "$work/cpu.out" || fail "--device cpu printed something else"

run cuda --device cuda
cat "$work/cuda.out" | head -5
if [ "$status" -eq 0 ]; then
  # This build and machine have a GPU: the command ran there (tests/engine/cuda/cuda_analysis_test
  # compares the numbers with the CPU's).
  echo "note: this machine has CUDA; --device cuda ran"
else
  [ "$status" -eq 1 ] || fail "exit status $status with --device cuda (expected 1)"
  grep -q -- "--device is 'cuda', but " "$work/cuda.out" || fail "the refusal does not name --device"
  grep -Eq "has no CUDA|no CUDA GPU" "$work/cuda.out" || fail "the refusal gives no reason"
fi

run gpu --device gpu
cat "$work/gpu.out"
[ "$status" -eq 2 ] || fail "exit status $status with --device gpu (expected 2, a usage error)"
grep -q -- "--device is cpu, cuda or cuda:N .*not 'gpu'" "$work/gpu.out" ||
  fail "the usage error does not name the value"
echo "ok: $case"
