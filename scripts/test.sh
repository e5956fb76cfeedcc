#!/usr/bin/env bash
# Installs what is missing, builds everything (preset "ci": Release, warnings are errors)
# and runs every test, one per processor (tests keep their own thread counts; those that time
# the machine run alone). Tests that need CUDA or a display report themselves skipped.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/install-deps.sh
cmake --preset ci
cmake --build --preset ci
ctest --preset ci -j "$(nproc)"
