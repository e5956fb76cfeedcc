#!/usr/bin/env bash
# Two builds or two settings of mrnn side by side in one run: each round measures every cell
# once with A, then once with B (each measurement `mrnn bench --probe`, a process of its own),
# so the machine's noise falls on both; prints every round, the medians and B / A per cell (of
# the medians, and the median of the rounds' own ratios).
# A subject is a command prefix: an mrnn binary, optionally after environment assignments.
# usage: scripts/bench-ab.sh "A" "B" [cells] [rounds] [measure] [hidden] [threads]
#   scripts/bench-ab.sh before/mrnn build/ci/app/cli/mrnn mlstm 5
#   scripts/bench-ab.sh "env MRNN_PACKED_PRODUCTS=0 build/ci/app/cli/mrnn" build/ci/app/cli/mrnn
set -euo pipefail
a=${1:?usage: bench-ab.sh A B [cells] [rounds] [measure] [hidden] [threads]}
b=${2:?usage: bench-ab.sh A B [cells] [rounds] [measure] [hidden] [threads]}
cells=${3:-mlstm}
rounds=${4:-5}
measure=${5:-train}
hidden=${6:-512}
threads=${7:-2}
results=$(mktemp)
trap 'rm -f "$results"' EXIT

probe() {  # name command cell -> GFLOP/s
  local out
  # shellcheck disable=SC2086  # the subject is a command prefix, split on purpose
  out=$($2 bench --probe "$measure" --cells "$3" --hidden "$hidden" --threads "$threads")
  local rate flops
  rate=$(sed -n 's/.*symbols_per_s=\([0-9.e+]*\).*/\1/p' <<<"$out")
  flops=$(sed -n 's/.*flops_per_symbol=\([0-9.e+]*\).*/\1/p' <<<"$out")
  [[ -n $rate && -n $flops ]] || { echo "bench-ab: no figure from '$2': $out" >&2; exit 1; }
  # flops_per_symbol is the measure's own count (training's includes the backward pass).
  awk -v r="$rate" -v f="$flops" 'BEGIN { printf "%.1f", r * f / 1e9 }'
}

echo "A: $a"
echo "B: $b"
echo "measure $measure, hidden $hidden, $threads threads, $rounds rounds, OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-(unset)}"
for round in $(seq "$rounds"); do
  for cell in ${cells//,/ }; do
    ga=$(probe A "$a" "$cell")
    gb=$(probe B "$b" "$cell")
    echo "round $round $cell A $ga B $gb GFLOP/s"
    echo "$cell $ga $gb" >>"$results"
  done
done
echo
echo "| cell | A GFLOP/s | B GFLOP/s | B / A | B / A by round |"
echo "| --- | ---: | ---: | ---: | ---: |"
for cell in ${cells//,/ }; do
  # Medians of each, their ratio, and the median of the rounds' own ratios (each round's pair
  # ran back to back, so slow drifts of the machine cancel in it).
  awk -v c="$cell" '
    $1 == c { a[++n] = $2; b[n] = $3; r[n] = $3 / $2 }
    function median(v, n,   i, j, t) {
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
      return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    END {
      ma = median(a, n); mb = median(b, n); mr = median(r, n)
      printf "| %s | %.1f | %.1f | %.2f | %.2f |\n", c, ma, mb, mb / ma, mr
    }
  ' "$results"
done
