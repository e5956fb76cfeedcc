#!/usr/bin/env bash
# Takes the documentation screenshot of the workbench's model summary under a virtual X
# server, so it works on headless machines: scripts/screenshot-gui.sh [build-dir]
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${repo_root}"

build_dir="${1:-build/dev}"
exe="${build_dir}/app/gui/mrnn-workbench"
out="docs/screenshots/workbench-model-summary.png"

if [[ ! -x "${exe}" ]]; then
  echo "screenshot-gui.sh: ${exe} not found; build it first:" >&2
  echo "  cmake --build ${build_dir} --target mrnn-workbench" >&2
  exit 1
fi

mkdir -p docs/screenshots
xvfb-run -a -s "-screen 0 1280x800x24" "${exe}" --screenshot "${out}"
echo "wrote ${out}"
