#!/usr/bin/env bash
# The work for a GPU machine, in few calls of under ten minutes each:
#   scripts/gpu-session.sh prepare   # here (Debian): the .debs and the peer into .gpu-carry/
#   scripts/gpu-session.sh build     # there: build/cuda (scripts/build-cuda.sh)
#   scripts/gpu-session.sh test      # there: the gpu-labelled tests, then the engine's unit tests
#   scripts/gpu-session.sh bench     # there: the Hutter-shape table, fp32 and bf16, with the peer
# The GPU machine has no package registry and none of ../shared, so `prepare` puts what the
# others need in .gpu-carry/ (git-ignored; name it in the device tool's carry list). Logs and
# the table go to $OUT when the device tool sets it, else to build/cuda/gpu-logs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
carry="$root/.gpu-carry"
logs="${OUT:-$root/build/cuda/gpu-logs}"
step="${1:-}"

case "$step" in
  prepare)
    "$root/scripts/fetch-gpu-debs.sh" --dest "$carry/debs"
    cp "$root/../shared/bench/peer_mlstm.py" "$carry/peer_mlstm.py"
    du -sh "$carry"
    ;;
  build)
    mkdir -p "$logs"
    nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$logs/gpu.txt"
    "$root/scripts/build-cuda.sh" --debs "$carry/debs" --cuda-arch 90 2>&1 | tee "$logs/build.log"
    ;;
  test)
    mkdir -p "$logs"
    # The GPU tests first (they are what this run is for), then the engine's own tests on
    # this build: the CUDA LibTorch must not change what the CPU computes.
    ctest --test-dir "$root/build/cuda" -L gpu --output-on-failure --timeout 300 2>&1 |
      tee "$logs/gpu-tests.log" || true
    ctest --test-dir "$root/build/cuda" -L unit -j 8 --output-on-failure --timeout 600 2>&1 |
      tee "$logs/unit-tests.log" || true
    ;;
  bench)
    mkdir -p "$logs"
    # Krause et al.'s Hutter mLSTM shape (hidden 1900, embedding 400, batch 128, BPTT 200,
    # 205 symbols); the Mogrifier at r = 5, k = 40 (the defaults).
    "$root/build/cuda/app/cli/mrnn" bench --device cuda --hidden 1900 --emb 400 --batch 128 \
      --bptt 200 --vocab 205 --cells mlstm,lstm,mgru,mogrifier --precision fp32,bf16 \
      --steps 5 --repeats 3 --python python3 --peer "$carry/peer_mlstm.py" \
      --markdown "$logs/gpu-h100.md" 2>&1 | tee "$logs/bench.log"
    ;;
  *)
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
