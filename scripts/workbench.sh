#!/usr/bin/env bash
# Installs what is missing, builds (preset "dev") and launches the workbench on the default
# project, or on the project file given as the first argument.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/install-deps.sh
cmake --preset dev
cmake --build --preset dev --target mrnn-workbench mrnn
exec build/dev/app/gui/mrnn-workbench "$@"
