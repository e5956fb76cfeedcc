#!/usr/bin/env bash
# Reruns the claims page (docs/claims.md): each paper's central comparison as an experiment
# with three seeds a configuration, trained by the experiment queue (it survives restarts:
# run this again and it goes on), then each recipe's table with its claims tested and the
# Experiments panel's figure into docs/claims/.
#   scripts/claims.sh [build-dir] [tables]
# With "tables" it trains nothing and only writes the tables and figures of what has run.
# About 3 hours on a 2-core machine (docs/claims.md gives each recipe's time); the trials
# follow the machine's load.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build_dir="${1:-build/workbench}"
mode="${2:-all}"
mrnn="${build_dir}/app/cli/mrnn"
gui="${build_dir}/app/gui/mrnn-workbench"
for exe in "${mrnn}" "${gui}"; do
  if [[ ! -x "${exe}" ]]; then
    echo "claims.sh: ${exe} not found; build it first (cmake --build --preset workbench)" >&2
    exit 1
  fi
done

# name, recipe, the metric the figure shows and the axis it is drawn against; page order.
rounds="model.layers[0].rounds"
type="model.layers[0].type"
recipes=(
  "krause projects/claims/krause-mlstm/experiments/claim.yaml test_bpc ${type}"
  "maupome projects/maupome-ptb-char/experiments/claim.yaml test_bpc ${type}"
  "melis-char projects/claims/melis-mogrifier-char/experiments/claim.yaml test_bpc ${rounds}"
  "melis-word projects/claims/melis-mogrifier-word/experiments/claim.yaml test_perplexity ${rounds}"
  "sutskever projects/sutskever-mrnn-vs-rnn/experiments/claim.yaml test_bpc ${type}"
  "shuang projects/claims/shuang-mmlstm/experiments/claim.yaml test_perplexity ${type}"
)

if [[ "${mode}" != "tables" ]]; then
  for entry in "${recipes[@]}"; do
    read -r name recipe metric axis <<<"${entry}"
    echo "== ${name}: ${recipe} ($(date -u +%H:%M:%S))"
    start=$(date +%s)
    "${mrnn}" experiment run "${recipe}"
    echo "== ${name}: $(( ($(date +%s) - start) / 60 )) minutes"
  done
  # Dynamic evaluation (Krause et al. 2017) of each trained mLSTM of the first recipe.
  krause=projects/claims/krause-mlstm
  for run in $("${mrnn}" experiment table "${krause}/experiments/claim.yaml" --format json |
               python3 -c 'import json, sys
rows = json.load(sys.stdin)["configurations"]
print(" ".join(str(r) for row in rows if "mlstm" in row["label"] for r in row["runs"]))'); do
    "${mrnn}" eval "${krause}/project.yaml" --run "${run}" --dynamic
  done
fi

mkdir -p docs/claims
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
for entry in "${recipes[@]}"; do
  read -r name recipe metric axis <<<"${entry}"
  "${mrnn}" experiment table "${recipe}"
  # --figure replaces only a figure it marked; these are this script's to redraw.
  rm -f "docs/claims/${name}.png"
  "${gui}" --figure "docs/claims/${name}.png" --experiment "${recipe}" --metric "${metric}" \
    --axis "${axis}"
done
