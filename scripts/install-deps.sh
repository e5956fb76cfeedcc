#!/usr/bin/env bash
# Installs the Debian (bookworm) packages the workbench needs, if any are missing
# (libqt6svg6 draws the SVG window icon; qt6-svg-dev writes figures as SVG; xvfb takes
# screenshots on headless machines; fortunes is the English text the default project trains
# on; unzip unpacks downloaded standard data sets).
# libopenblas0-openmp matters: without it Debian's LibTorch falls back to the reference BLAS
# and trains about 25x slower. libgloo-dev and python3-torch serve data-parallel training
# (Gloo's headers; torchrun); slurm-wlm and munge a one-node Slurm cluster, started by
# tests/cli/experiment_slurm.sh itself, for the experiments' Slurm executor
# (docs/distributed.md). libhwy-dev is Google Highway, the vector kernels' one source
# (engine/kernels; without it configure with -DMRNN_HIGHWAY=OFF for portable loops only).
# zlib1g-dev inflates the deflated files of PyTorch archives (engine/io/zip_records.h).
# clang-format checks that the code keeps .clang-format's layout (CTest's format_check).
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config
  libtorch-dev libopenblas0-openmp libyaml-cpp-dev libsqlite3-dev zlib1g-dev libhwy-dev
  qt6-base-dev libqt6svg6 qt6-svg-dev libqcustomplot-dev libgl-dev
  xvfb xauth fortunes unzip clang-format
  libgloo-dev python3-torch
  slurm-wlm munge
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "${package}" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("${package}")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
