#!/bin/bash
# The Python package (python/mrnn_workbench) against mrnn on one model: trains a tiny model of
# the case's kind, exports it, scores a held-out text and samples greedily with mrnn, and runs
# python/tests/check_export.py, which recomputes both with the package and compares them
# symbol by symbol (log-probabilities to 1e-5).
# usage: export_matches_python.sh <mrnn> <python3> <tiny project folder> <python folder> <case>
# Exit 77 (skipped) when <python3> is empty or cannot import torch.
set -u
mrnn=$1
python=$2
source_project=$3
package=$4
case=$5

if [ -z "$python" ] || ! "$python" -c "import torch" >/dev/null 2>&1; then
  echo "SKIPPED ($case): no python3 that can import torch (Debian: apt-get install python3-torch)"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$source_project/project.yaml" "$source_project/corpus.txt" "$work/"
project=$work/project.yaml

fail() {
  echo "FAIL ($case): $*"
  exit 1
}

# The case's model section (tiny: a char-level corpus of 21 symbols, embedding 8).
format=pt
prime="the "
level=char
model_section() {
  local input="{level: $level, embedding_size: 8}"
  local output=""
  local layers
  case $case in
    rnn) layers="{type: rnn, hidden_size: 16}" ;;
    mrnn) layers="{type: mrnn, hidden_size: 16, factor_size: 12, bias: true}" ;;
    lstm) layers="{type: lstm, hidden_size: 16}" ;;
    mlstm) layers="{type: mlstm, hidden_size: 16, m_size: 12, output_gate: inside}" ;;
    tmlstm) layers="{type: tmlstm, hidden_size: 16, m_size: 8}" ;;
    gru) layers="{type: gru, hidden_size: 16}" ;;
    gru-reset-after) layers="{type: gru, hidden_size: 16, reset_after: true}" ;;
    mgru) layers="{type: mgru, hidden_size: 16, m_size: 12}" ;;
    tmgru) layers="{type: tmgru, hidden_size: 16, m_size: 12}" ;;
    mogrifier) layers="{type: mogrifier, hidden_size: 16, rounds: 3, rank: 4}" ;;
    mmlstm) layers="{type: mmlstm, hidden_size: 16, major_share: 0.75}" ;;
    mmlstm-below) layers="{type: mmlstm, hidden_size: 16, major_share: 0.5, minor_input: below}" ;;
    milstm) layers="{type: milstm, hidden_size: 16}" ;;
    mos)
      layers="{type: lstm, hidden_size: 16}"
      output="{type: mos, mixtures: 3, latent_size: 10}"
      ;;
    mos-tied)
      layers="{type: gru, hidden_size: 16}"
      output="{type: mos, mixtures: 2, tie_embeddings: true}"
      ;;
    tied)
      layers="{type: lstm, hidden_size: 8}"
      output="{type: softmax, tie_embeddings: true}"
      ;;
    weight-norm) layers="{type: mlstm, hidden_size: 16, weight_norm: true}" ;;
    one-hot)
      input="{level: char, embedding_size: 0}"
      layers="{type: gru, hidden_size: 16}"
      ;;
    stacked)
      # The Major-Minor minor LSTM of layer 2 reads the embedding, not layer 1.
      layers="{type: mogrifier, hidden_size: 16, rounds: 2, rank: 0, zigzag: false}
    - {type: mmlstm, hidden_size: 12, major_share: 0.5}"
      ;;
    word)
      level=word
      input="{level: word, embedding_size: 8}"
      layers="{type: lstm, hidden_size: 16}"
      prime="the cat "
      ;;
    byte)
      level=byte
      input="{level: byte, embedding_size: 8}"
      layers="{type: lstm, hidden_size: 16}"
      ;;
    safetensors)
      layers="{type: mlstm, hidden_size: 16}"
      format=safetensors
      ;;
    *) fail "unknown case" >&2 ;;
  esac
  echo "model:"
  echo "  input: $input"
  echo "  layers:"
  echo "    - $layers"
  [ -n "$output" ] && echo "  output: $output"
  return 0
}
model_section >"$work/model.yaml" || fail "no model section"
# The copy's model section replaced by the case's, the rest of the project kept.
awk -v section="$work/model.yaml" '
  /^model:/ { while ((getline line < section) > 0) print line; skipping = 1; next }
  skipping && /^[^ #]/ { skipping = 0 }
  !skipping { print }' "$source_project/project.yaml" >"$project"

# Held out: not in the corpus. Word level: "zebra" is no word of the corpus (<unk>).
if [ "$level" = word ]; then
  printf 'the old cat sat near a red ball.\nthen its zebra ran under the tree.\n' >"$work/held.txt"
else
  printf 'the old cat sat near a red ball.\nthen its dog ran under the tree.\n' >"$work/held.txt"
fi

run() {
  local what=$1
  shift
  "$mrnn" "$@" >"$work/$what.out" 2>"$work/$what.err"
  local status=$?
  if [ $status -ne 0 ]; then
    cat "$work/$what.out" "$work/$what.err"
    fail "mrnn $what exited with status $status"
  fi
}

run train train "$project" --max-steps 20
checkpoint=$work/checkpoints/run-1/latest.pt
[ -f "$checkpoint" ] || { cat "$work/train.out"; fail "no checkpoint after training"; }
if [ $format = safetensors ]; then
  exported=$work/model.safetensors
  run export export "$checkpoint" --output "$exported" --format safetensors
else
  exported=$work/model.pt
  run export export "$checkpoint" --output "$exported"
  [ -f "$exported.json" ] || fail "no $exported.json beside the export"
fi
[ -f "$exported" ] || fail "mrnn export wrote no $exported"
run score score "$project" --checkpoint "$checkpoint" --file "$work/held.txt" --json
run sample sample "$project" --checkpoint "$checkpoint" --prime "$prime" --greedy --length 40 --json

if PYTHONPATH="$package${PYTHONPATH:+:$PYTHONPATH}" "$python" "$package/tests/check_export.py" \
  "$exported" --score "$work/score.out" --text "$work/held.txt" --sample "$work/sample.out"; then
  echo "PASS ($case)"
else
  status=$?
  [ $status -eq 1 ] || fail "check_export.py could not run (status $status)"
  fail "the package differs from mrnn (above)"
fi
