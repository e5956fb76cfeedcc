#!/usr/bin/env bash
# The work for a GPU machine, in few calls of under ten minutes each:
#   scripts/gpu-session.sh prepare   # here (Debian): the .debs, the peer, Gloo's headers and
#                                    # quick-mlstm's corpus into .gpu-carry/
#   scripts/gpu-session.sh build     # there: build/cuda (scripts/build-cuda.sh)
#   scripts/gpu-session.sh test      # there: the gpu-labelled tests, then the engine's unit tests
#   scripts/gpu-session.sh bench     # there: the Hutter-shape table, fp32 and bf16, with the peer
#   scripts/gpu-session.sh all       # there, in one call: build what the proof needs, the gpu
#                                    # tests, a quick-mlstm run on the GPU sampled on the CPU, the
#                                    # bench, and a summary; each step bounded so all fit in
#                                    # GPU_SESSION_SECONDS (default 500)
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
    # pip's torch ships c10d's headers without Gloo's. GLOO_GIT names a git copy of
    # github.com/pytorch/gloo (near the commit torch pins); else Debian's libgloo-dev, older.
    rm -rf "$carry/gloo-include" && mkdir -p "$carry/gloo-include"
    if [[ -n "${GLOO_GIT:-}" ]]; then
      git -C "$GLOO_GIT" archive HEAD gloo | tar -x -C "$carry/gloo-include" --wildcards '*.h'
      # What Gloo's CMake writes from config.h.in for a Linux CUDA torch build.
      {
        echo '#pragma once'
        for v in 'VERSION_MAJOR 0' 'VERSION_MINOR 5' 'VERSION_PATCH 0' 'USE_CUDA 1' 'USE_NCCL 0' \
                 'USE_ROCM 0' 'USE_RCCL 0' 'USE_REDIS 0' 'USE_IBVERBS 0' 'USE_MPI 0' 'USE_AVX 0' \
                 'USE_LIBUV 0' 'HAVE_TRANSPORT_TCP 1' 'HAVE_TRANSPORT_TCP_TLS 0' \
                 'HAVE_TRANSPORT_IBVERBS 0' 'HAVE_TRANSPORT_UV 0' 'USE_TORCH_DTYPES 0'; do
          echo "#define GLOO_$v"
        done
        echo '#define GLOO_VERSION (GLOO_VERSION_MAJOR * 10000 + GLOO_VERSION_MINOR * 100 + GLOO_VERSION_PATCH)'
      } >"$carry/gloo-include/gloo/config.h"
    else
      (cd "$carry" && apt-get download libgloo-dev && dpkg -x libgloo-dev_*.deb gloo-deb &&
        cp -r gloo-deb/usr/include/gloo gloo-include/ && rm -rf gloo-deb libgloo-dev_*.deb)
    fi
    # quick-mlstm's corpus (Debian's fortunes), which the GPU machine lacks.
    rm -rf "$carry/fortunes" && mkdir -p "$carry/fortunes"
    cp /usr/share/games/fortunes/* "$carry/fortunes/"
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
  all)
    mkdir -p "$logs"
    start=$(date +%s)
    deadline=$((start + ${GPU_SESSION_SECONDS:-500}))
    left() { echo $((deadline - $(date +%s))); }
    summary="$logs/summary.md"
    {
      echo "# GPU session $(date -u +%FT%TZ)"
      nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
      echo "cores: $(nproc); torch: $(python3 -c 'import torch;print(torch.__version__)' 2>&1)"
    } | tee "$summary"
    # Only what the proof runs: mrnn and the gpu-labelled tests (not the unit tests).
    targets=(mrnn mrnn_weights_difference engine_cuda_test engine_cuda_analysis_test
             engine_cuda_kernels_test engine_cuda_training_test engine_cuda_distributed_test)
    args=(--debs "$carry/debs" --cuda-arch 90 --keep-going)
    for t in "${targets[@]}"; do args+=(--target "$t"); done
    torch_include=$(python3 -c 'import torch,os;print(os.path.join(os.path.dirname(torch.__file__),"include"))')
    if [[ ! -f "$torch_include/gloo/algorithm.h" && -d "$carry/gloo-include" ]]; then
      echo "torch ships no Gloo headers: using $carry/gloo-include" | tee -a "$summary"
      args+=(--include "$carry/gloo-include")
    fi
    t0=$(date +%s)
    if timeout "$(left)" "$root/scripts/build-cuda.sh" "${args[@]}" >"$logs/build.log" 2>&1; then
      echo "build: ok in $(($(date +%s) - t0)) s" | tee -a "$summary"
    else
      echo "build: FAILED after $(($(date +%s) - t0)) s; the end of build.log:" | tee -a "$summary"
      grep -E -A4 'error:|Error [0-9]' "$logs/build.log" | grep -v '^--$' | head -80 | tee -a "$summary" || true
      tail -n 30 "$logs/build.log" | tee -a "$summary" || true
      # What did build still runs: one failed test target must not hide the rest.
    fi
    mrnn="$root/build/cuda/app/cli/mrnn"
    [[ -x "$mrnn" ]] || { echo "no mrnn was built" | tee -a "$summary"; exit 1; }
    t0=$(date +%s)
    timeout $(( $(left) > 170 ? 170 : $(left) )) ctest --test-dir "$root/build/cuda" -L gpu \
      --output-on-failure --timeout 100 >"$logs/gpu-tests.log" 2>&1 || true
    echo "gpu tests ($(($(date +%s) - t0)) s):" | tee -a "$summary"
    grep -E 'Test +#|tests passed|Total Test' "$logs/gpu-tests.log" | tee -a "$summary" || true
    # quick-mlstm on the GPU, its corpus from the carry folder; then sampled on the CPU.
    work=$(mktemp -d)
    sed "s#/usr/share/games/fortunes#$carry/fortunes#" "$root/projects/quick-mlstm/project.yaml" \
      >"$work/project.yaml"
    t0=$(date +%s)
    timeout 50 "$mrnn" train "$work/project.yaml" --device cuda --max-steps 400 \
      >"$logs/train.log" 2>&1 || echo "train: exit $?" | tee -a "$summary"
    echo "train ($(($(date +%s) - t0)) s): $(tail -n 3 "$logs/train.log" | tr '\n' ' ')" | tee -a "$summary"
    timeout 30 "$mrnn" sample "$work/project.yaml" --device cpu --prime "The " --length 300 \
      --seed 1 >"$logs/sample.log" 2>&1 || echo "sample: exit $?" | tee -a "$summary"
    { echo "sample (CPU):"; cat "$logs/sample.log"; } | tee -a "$summary"
    # The table last: it takes what time is left, less a margin for the summary.
    budget=$(( $(left) - 10 ))
    echo "bench: ${budget} s left for it" | tee -a "$summary"
    if (( budget > 30 )); then
      timeout "$budget" "$mrnn" bench --device cuda --hidden 1900 --emb 400 --batch 128 \
        --bptt 200 --vocab 205 --cells mlstm,lstm,mgru,mogrifier --precision fp32,bf16 \
        --steps 5 --repeats 2 --python python3 --peer "$carry/peer_mlstm.py" \
        --markdown "$logs/bench.md" >"$logs/bench.log" 2>&1 || echo "bench: exit $?" | tee -a "$summary"
      cat "$logs/bench.md" 2>/dev/null | tee -a "$summary" || tail -n 40 "$logs/bench.log" | tee -a "$summary"
    fi
    echo "total: $(($(date +%s) - start)) s" | tee -a "$summary"
    ;;
  *)
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
