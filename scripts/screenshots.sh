#!/usr/bin/env bash
# Renders a screenshot of each panel of the workbench into docs/screenshots/, under a
# virtual X server so it works on headless machines:
#   scripts/screenshots.sh [build-dir] [training-steps]
# With SCREENSHOT_PROJECT=<project.yaml> it skips training and shows that project's runs.
# It copies the default project (the quick mLSTM on Debian's fortunes) into a temporary
# folder and trains, with `mrnn train`, first three smaller models (LSTMs of 128 and 256
# units, an mLSTM of 128) and then the project itself, so the monitor, runs table, sampler
# and analysis views have real models to show and compare (the analysis views compare the
# newest mLSTM with the newest LSTM; the size plot shows all four runs), and runs a small
# experiment (an LSTM against an mLSTM at 100,000 parameters, two seeds) for the Experiments
# panel. Then it opens the workbench once per panel, and once per view (a state of a panel:
# seeds as groups in the monitor, a range brushed on the gates' map, the surprisal's A - B,
# two runs' settings compared), into workbench-<view>.png. PANELS="gates tree" and
# VIEWS="seeds" (either may be empty) picture only those.
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

# Variants of the project for the comparisons: same data and schedule, another cell or size.
variant() {  # variant <type> <hidden> <steps>
  sed -e "s/type: mlstm/type: $1/" -e "s/hidden_size: 256/hidden_size: $2/" \
      -e "s/m_size: 256/m_size: $2/" -e "s/^name: .*/name: $1 $2 (comparison)/" \
      projects/quick-mlstm/project.yaml >"${project}"
  [[ "$1" == "mlstm" ]] || sed -i '/m_size:/d' "${project}"
  echo "training $1 with $2 units for $3 steps"
  "${cli}" train "${project}" --max-steps "$3" --threads 2 | tail -n 1
}
if [[ -n "${SCREENSHOT_PROJECT:-}" ]]; then
  project="${SCREENSHOT_PROJECT}"
else
  variant lstm 128 $((steps / 2))
  variant mlstm 128 $((steps / 2))
  variant lstm 256 "${steps}"
  cp projects/quick-mlstm/project.yaml "${project}"
  echo "training the default project for ${steps} steps (a few minutes on 2 cores)"
  "${cli}" train "${project}" --max-steps "${steps}" --threads 2 | tail -n 3
  mkdir -p "${work}/project/experiments"
  cat >"${work}/project/experiments/cells.yaml" <<YAML
experiment:
  name: cells
  description: An LSTM against an mLSTM of the same size, two seeds each.
  set:
    training.max_steps: $((steps / 3))
    training.validate_every: $((steps / 6))
  axes:
    - key: model.layers[0].type
      cells: [lstm, mlstm]
      match_parameters: 100000
  seeds: [1, 2]
  slots: 2
YAML
  echo "running a four-trial experiment"
  "${cli}" experiment run "${work}/project/experiments/cells.yaml" | tail -n 2
fi

mkdir -p docs/screenshots
# Every panel at a desktop size (workbench-<panel>.png) and at a 1280x720 laptop's
# (workbench-<panel>-1280x720.png). The composer and YAML view are in every picture.
for size in 1600x1000 1280x720; do
  suffix=""
  [[ "${size}" == "1600x1000" ]] || suffix="-${size}"
  for panel in ${PANELS-training runs experiments sampler data summary gates tree surprisal masking sizes}; do
    out="docs/screenshots/workbench-${panel}${suffix}.png"
    rm -f "${out}"  # the project's own picture: --screenshot replaces only its marked PNGs
    xvfb-run -a -s "-screen 0 ${size}x24" \
      "${gui}" "${project}" --panel "${panel}" --screenshot "${out}" --size "${size}"
    echo "wrote ${out}"
  done
  for view in ${VIEWS-seeds brushed difference compare}; do
    out="docs/screenshots/workbench-${view}${suffix}.png"
    rm -f "${out}"
    xvfb-run -a -s "-screen 0 ${size}x24" \
      "${gui}" "${project}" --view "${view}" --screenshot "${out}" --size "${size}"
    echo "wrote ${out}"
  done
done
