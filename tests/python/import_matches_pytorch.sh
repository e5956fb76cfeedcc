#!/bin/bash
# A language model trained for a few steps in PyTorch, imported with `mrnn import`, scores a
# held-out text as PyTorch itself does (1e-5 nats a symbol); what cannot be imported is
# refused in words, leaving the project as it was.
# usage: import_matches_pytorch.sh <mrnn> <python3 with torch> <tiny project folder> <case>
set -u
mrnn=$1
python=$2
tiny=$3
case=$4
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$tiny/project.yaml" "$tiny/corpus.txt" "$work/"
cd "$work" || exit 1
# The PyTorch model reads words; a project takes in models of its own level.
sed -i 's/level: char/level: word/' project.yaml

fail() {
  echo "FAIL ($case): $*"
  exit 1
}
make_model() {
  "$python" "$here/pytorch_lm.py" make --out lm "$@" || fail "PyTorch could not train the model"
}
# Imports with the given options and checks the scores against PyTorch's.
import_and_compare() {
  "$mrnn" import lm/model.pt --project project.yaml "$@" || fail "import refused the model"
  "$mrnn" score project.yaml --file lm/heldout.txt --json >score.json || fail "score failed"
  "$python" "$here/pytorch_lm.py" compare lm/expected.json score.json || fail "scores differ"
}
# The import fails with a message matching $1 and leaves no run behind.
refused() {
  local pattern=$1
  shift
  if "$mrnn" import lm/model.pt --project project.yaml "$@" >out.txt 2>&1; then
    fail "the import was accepted: $(cat out.txt)"
  fi
  grep -q -- "$pattern" out.txt || fail "the message lacks '$pattern': $(cat out.txt)"
  [ ! -d checkpoints ] || fail "a refused import left $(ls checkpoints) behind"
  "$mrnn" runs list . 2>/dev/null | grep -q imported && fail "a refused import left a run"
  cat out.txt
}

case $case in
  lstm) make_model --kind lstm && import_and_compare --vocabulary lm/vocab.txt ;;
  lstm_two_layers) make_model --kind lstm --layers 2 && import_and_compare --corpus lm/corpus.txt ;;
  rnn) make_model --kind rnn && import_and_compare --vocabulary lm/vocab.txt ;;
  mapping)
    make_model --kind lstm --rename
    refused "cannot tell the decoder" --vocabulary lm/vocab.txt
    printf 'embedding: emb_table.weight\ndecoder_weight: head.weight\n' >map.yaml
    import_and_compare --vocabulary lm/vocab.txt --mapping map.yaml
    ;;
  gru) make_model --kind gru && import_and_compare --vocabulary lm/vocab.txt ;;
  gru_two_layers) make_model --kind gru --layers 2 && import_and_compare --corpus lm/corpus.txt ;;
  wrong_vocabulary)
    make_model --kind lstm
    refused "the vocabulary has 21 symbols" --corpus corpus.txt --level char
    ;;
  code_in_pickle)
    make_model --kind lstm
    "$python" - <<'PY' || fail "could not write the booby-trapped file"
import os, torch
class Trap:
    def __reduce__(self):
        return (os.system, ("touch trapped",))
state = torch.load("lm/model.pt")
state["trap"] = Trap()
torch.save(state, "lm/model.pt")
PY
    refused "which is code, not data" --vocabulary lm/vocab.txt
    [ ! -e trapped ] || fail "the pickle's code ran"
    ;;
  *) fail "unknown case" ;;
esac
echo "PASS ($case)"
