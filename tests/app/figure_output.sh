#!/bin/bash
# `mrnn-workbench --figure FILE --experiment E` writes as every command writes a file its user
# names: a figure it saved before is replaced (PNG, SVG or PDF, each known by its mark); a file
# of the user's or a link's target never is. The defect: any existing file was written over.
# usage: figure_output.sh <mrnn-workbench> <mrnn> <tiny project folder>
set -u
gui=$1
mrnn=$2
source_project=$3
case=figure
source "$(dirname "${BASH_SOURCE[0]}")/../cli/cli_test_lib.sh"
make_work_folder
export QT_QPA_PLATFORM=offscreen HOME="$work/home"
cp "$source_project/project.yaml" "$source_project/corpus.txt" "$work/"
mkdir -p "$work/experiments"
printf 'experiment:\n  axes:\n    - key: training.optimizer.lr\n      values: [0.003, 0.01]\n  seeds: [1]\n  slots: 1\n' \
  >"$work/experiments/grid.yaml"
timeout -s KILL 120 "$mrnn" experiment run "$work/experiments/grid.yaml" >"$work/run.txt" 2>&1 ||
  { cat "$work/run.txt"; fail "the experiment did not run"; }

draw() {
  timeout -s KILL 60 "$gui" --figure "$1" --experiment "$work/experiments/grid.yaml" \
    >"$work/out.txt" 2>&1
}

for format in png svg pdf; do
  draw "$work/new.$format" || { cat "$work/out.txt"; fail "a new .$format figure"; }
  [ -s "$work/new.$format" ] || fail "new.$format is empty"
  touch -d '2000-01-01' "$work/new.$format"
  draw "$work/new.$format" || { cat "$work/out.txt"; fail "its own .$format figure again"; }
  [ "$(stat -c %Y "$work/new.$format")" -gt 946771200 ] || fail "new.$format was not redrawn"
done

expect_users_files_kept draw pdf
echo "PASS ($case)"
