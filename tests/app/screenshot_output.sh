#!/bin/bash
# `mrnn-workbench --screenshot FILE` writes as every command writes a file its user names: a
# file of the user's, a link's target or a project's own file is never replaced; a screenshot
# it wrote before is. The defect: any of them was written over.
# usage: screenshot_output.sh <mrnn-workbench> <project.yaml>
set -u
gui=$1
project=$2
case=screenshot
source "$(dirname "${BASH_SOURCE[0]}")/../cli/cli_test_lib.sh"
make_work_folder
export QT_QPA_PLATFORM=offscreen HOME="$work/home"

shoot() {
  timeout -s KILL 60 "$gui" "$project" --panel training --size 640x480 --screenshot "$@" \
    >"$work/out.txt" 2>&1
}

shoot "$work/new.png" || { cat "$work/out.txt"; fail "a new screenshot"; }
head -c 4 "$work/new.png" | grep -q PNG || fail "new.png is no PNG"
shoot "$work/new.png" || { cat "$work/out.txt"; fail "its own screenshot again"; }

expect_users_files_kept shoot png
echo "PASS ($case)"
