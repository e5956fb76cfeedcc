#!/usr/bin/env bash
# Checks that every C++ and CUDA file git tracks is formatted as .clang-format says, and names
# the files that are not (fix them with: clang-format -i FILE). CTest's format_check runs it;
# without clang-format it exits 77 (skipped). usage: scripts/check-format.sh [clang-format]
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
formatter=${1:-clang-format}
if ! command -v "$formatter" >/dev/null 2>&1; then
  echo "SKIPPED: no $formatter on this machine"
  exit 77
fi
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "SKIPPED: not a git checkout, so no list of tracked files"
  exit 77
fi
# One formatter process for many files: its complaints name each file at fault.
mapfile -t unformatted < <(git ls-files -z '*.cpp' '*.h' '*.cu' '*.cuh' |
  xargs -0 "$formatter" --dry-run --Werror 2>&1 |
  sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)
if [ ${#unformatted[@]} -gt 0 ]; then
  echo "not formatted as .clang-format says (clang-format -i FILE fixes each):"
  printf '  %s\n' "${unformatted[@]}"
  exit 1
fi
echo "every tracked C++ file is formatted ($("$formatter" --version | head -n 1))"
