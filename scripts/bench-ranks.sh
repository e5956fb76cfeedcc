#!/usr/bin/env bash
# Data-parallel training beside one process, side by side in one run: 1 process x 1 thread,
# 1 process x 2 threads and 2 ranks x 1 thread (`mrnn train --nproc 2`, Gloo on loopback),
# training symbols/s on the bench shape (mLSTM, hidden 512, embedding 64, batch 32, bptt 100,
# 128 symbols; ../shared/bench/peer_mlstm.py's), rounds alternating so that the machine's
# noise falls on all three. Prints each round and the medians, the machine, and for reference
# one `mrnn bench` round of the shape on 2 threads (the training loop alone, no run store).
# usage: scripts/bench-ranks.sh [mrnn] [rounds] [steps per run] [hidden]
set -euo pipefail
mrnn=${1:-build/ci/app/cli/mrnn}
rounds=${2:-3}
steps=${3:-12}
hidden=${4:-512}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 400,000 random symbols of 128 (printable and not): the shape's uniform random input.
/usr/bin/env python3 - "$work/corpus.txt" <<'PY'
import random, sys
random.seed(1)
alphabet = [chr(c) for c in range(0x100, 0x180)]
with open(sys.argv[1], "w", encoding="utf-8") as f:
    f.write("".join(random.choice(alphabet) for _ in range(400000)))
PY

project() {
  mkdir -p "$work/$1"
  ln -sf "$work/corpus.txt" "$work/$1/corpus.txt"
  cat >"$work/$1/project.yaml" <<YAML
name: bench $1
model:
  input: {level: char, embedding_size: 64}
  layers:
    - {type: mlstm, hidden_size: $hidden}
data:
  train: corpus.txt
  valid_fraction: 0.001
  test_fraction: 0.001
training:
  batch_size: 32
  bptt: 100
  max_steps: $steps
  validate_every: 100000
  checkpoint_every: 100000
  validation_symbols: 200
  optimizer: {type: adam, lr: 0.001}
YAML
  echo "$work/$1/project.yaml"
}

# Median symbols/s of a run's steps after the first two (warm-up).
median_rate() {
  "$mrnn" runs export "$(dirname "$1")" "$2" --format csv |
    awk -F, '$1 == "symbols_per_s" && $2 > 2 { print $5 }' | sort -g |
    awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

declare -A rates
printf '%-24s' "round"
configs=("1 process x 1 thread" "1 process x 2 threads" "2 ranks x 1 thread")
for c in "${configs[@]}"; do printf '%24s' "$c"; done
echo
for round in $(seq 1 "$rounds"); do
  printf '%-24s' "$round"
  for c in 0 1 2; do
    p=$(project "r$round-c$c")
    case $c in
      0) "$mrnn" train "$p" --threads 1 >/dev/null 2>&1 ;;
      1) "$mrnn" train "$p" --threads 2 >/dev/null 2>&1 ;;
      2) "$mrnn" train "$p" --nproc 2 >/dev/null 2>&1 ;;
    esac
    rate=$(median_rate "$p" 1)
    rates[$c]="${rates[$c]:-} $rate"
    printf '%24.0f' "$rate"
  done
  echo
done
printf '%-24s' "median"
for c in 0 1 2; do
  printf '%24.0f' "$(tr ' ' '\n' <<<"${rates[$c]}" | grep . | sort -g |
    awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')"
done
echo
"$mrnn" bench --cells mlstm --measures train --peer none --no-torch-lstm --repeats 1 --threads 2 \
  --hidden "$hidden" 2>/dev/null | grep "^Machine:\|^| engine mlstm" || true
