#!/usr/bin/env bash
# Renders a screenshot of each panel of the workbench into docs/screenshots/, under a
# virtual X server so it works on headless machines:
#   scripts/screenshots.sh [build-dir] [training-steps]
# It copies the default project (the quick mLSTM on Debian's fortunes) into a temporary
# folder, trains it with `mrnn train` so the monitor, runs table and sampler have a real
# model to show, then opens the workbench once per panel.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${repo_root}"

build_dir="${1:-build/dev}"
steps="${2:-300}"
gui="${build_dir}/app/gui/mrnn-workbench"
cli="${build_dir}/app/cli/mrnn"
for exe in "${gui}" "${cli}"; do
  if [[ ! -x "${exe}" ]]; then
    echo "screenshots.sh: ${exe} not found; build it first:" >&2
    echo "  cmake --build ${build_dir} --target mrnn-workbench mrnn" >&2
    exit 1
  fi
done

work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
# A private settings and data home: the user's own recent files and layout stay untouched.
export XDG_CONFIG_HOME="${work}/config" XDG_DATA_HOME="${work}/data"
mkdir -p "${work}/project"
cp projects/quick-mlstm/project.yaml "${work}/project/project.yaml"
project="${work}/project/project.yaml"

echo "training the default project for ${steps} steps (a few minutes on 2 cores)"
"${cli}" train "${project}" --max-steps "${steps}" --threads 2 | tail -n 3

mkdir -p docs/screenshots
# The composer and YAML view are in every picture (centre and right).
for panel in training runs sampler data summary; do
  out="docs/screenshots/workbench-${panel}.png"
  xvfb-run -a -s "-screen 0 1280x820x24" \
    "${gui}" "${project}" --panel "${panel}" --screenshot "${out}"
  echo "wrote ${out}"
done
