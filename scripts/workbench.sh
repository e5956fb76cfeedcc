#!/usr/bin/env bash
# Installs what is missing, builds the workbench and mrnn for use (preset "workbench": Release,
# batched, no tests, every core, in build/workbench) and launches the workbench on the default
# project, or on the project file given as the first argument. Developers use preset "dev"
# (tests, debug information); a GPU build is scripts/build-cuda.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/install-deps.sh
cmake --preset workbench
cmake --build --preset workbench
exec build/workbench/app/gui/mrnn-workbench "$@"
