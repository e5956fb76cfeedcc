#!/usr/bin/env bash
# Training throughput, engine beside the Python peer (../shared/bench/peer_mlstm.py), run
# alternately in one session so machine noise hits both; prints medians and ratios.
#   scripts/bench-train.sh [build-dir] [rounds] [extra peer/engine options, e.g. --hidden 128]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build="${1:-build/ci}"; rounds="${2:-3}"; shift $(( $# > 2 ? 2 : $# )) || true
shape=(--hidden 512 --emb 64 --batch 32 --bptt 100 --vocab 128 --steps 10 --threads 2 "$@")
peer="../shared/bench/peer_mlstm.py"
bench="${build}/bench/mrnn-bench-train"
[[ -x "${bench}" ]] || { echo "build ${bench} first: cmake --build ${build} --target mrnn-bench-train" >&2; exit 1; }
[[ -f "${peer}" ]] || { echo "peer not found: ${peer}" >&2; exit 1; }

rate() { sed -n 's/.*chars_per_s=\([0-9]*\).*/\1/p'; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
declare -A runs
for ((r = 1; r <= rounds; r++)); do
  runs[peer_mlstm]+="$(/usr/bin/python3 "${peer}" --kind mlstm "${shape[@]}" | rate) "
  runs[engine_mlstm]+="$(OMP_NUM_THREADS=2 "${bench}" --cell mlstm "${shape[@]}" | rate) "
  runs[engine_mlstm_loop]+="$(OMP_NUM_THREADS=2 "${bench}" --cell mlstm --fused 0 "${shape[@]}" | rate) "
  runs[peer_lstm]+="$(/usr/bin/python3 "${peer}" --kind lstm "${shape[@]}" | rate) "
  runs[engine_lstm]+="$(OMP_NUM_THREADS=2 "${bench}" --cell lstm "${shape[@]}" | rate) "
  runs[torch_lstm]+="$(OMP_NUM_THREADS=2 "${bench}" --cell torch-lstm "${shape[@]}" | rate) "
done
declare -A med
echo "shape: ${shape[*]}; ${rounds} rounds, alternating; chars/s"
for key in peer_mlstm engine_mlstm engine_mlstm_loop peer_lstm engine_lstm torch_lstm; do
  med[$key]=$(tr ' ' '\n' <<<"${runs[$key]}" | grep . | median)
  printf '  %-13s median %8s   runs: %s\n' "${key}" "${med[$key]}" "${runs[$key]}"
done
awk -v a="${med[engine_mlstm]}" -v b="${med[peer_mlstm]}" -v c="${med[engine_lstm]}" -v d="${med[peer_lstm]}" -v e="${med[torch_lstm]}" -v f="${med[engine_mlstm_loop]}" 'BEGIN {
  printf "ratios: engine mLSTM / peer mLSTM = %.2f; engine LSTM / peer LSTM = %.2f; engine mLSTM / torch::nn::LSTM = %.2f; fused window / per-step loop = %.2f\n", a/b, c/d, a/e, a/f }'
