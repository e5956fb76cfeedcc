#!/usr/bin/env bash
# Downloads, on a Debian bookworm machine with Debian's package registry, the .deb files that
# scripts/build-cuda.sh unpacks on a GPU machine that has no registry: the headless build's
# libraries that a bare CUDA + PyTorch image usually lacks. Nothing is installed here.
#   yaml-cpp  (libyaml-cpp-dev, libyaml-cpp0.7): project and experiment files
#   SQLite    (libsqlite3-dev, libsqlite3-0): the run database, engine/store
#   Highway   (libhwy-dev, libhwy1): the vector kernels, engine/kernels (MRNN_HIGHWAY)
# LibTorch, CUDA, CMake, ninja, g++ and OpenMP (libgomp, with g++) come from the GPU machine.
#
# usage: scripts/fetch-gpu-debs.sh [--dest DIR]    (default DIR: .gpu-debs in the repository)
# Then copy DIR to the GPU machine (the default .gpu-debs/ is git-ignored, so git does not
# carry it) and run scripts/build-cuda.sh there.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

packages=(libyaml-cpp-dev libyaml-cpp0.7 libsqlite3-dev libsqlite3-0 libhwy-dev libhwy1)

die() { echo "fetch-gpu-debs: $*" >&2; exit 1; }

dest="${repo}/.gpu-debs"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --dest) [[ $# -ge 2 ]] || die "--dest needs a folder"; dest="$2"; shift 2 ;;
    --dest=*) dest="${1#--dest=}"; shift ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done

command -v apt-get >/dev/null || die "apt-get not found: run this on a Debian bookworm machine"
command -v sha256sum >/dev/null || die "sha256sum not found (coreutils)"
# shellcheck disable=SC1091
codename="$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-unknown}")"
if [[ "${codename}" != "bookworm" ]]; then
  die "this is '${codename}', not Debian bookworm: the package names above (libyaml-cpp0.7)" \
      "and the build's expectations are bookworm's"
fi
arch="$(dpkg --print-architecture)"
[[ "${arch}" == "amd64" ]] || echo "fetch-gpu-debs: note: downloading ${arch} packages;" \
  "the GPU machine must be ${arch} too" >&2

mkdir -p "${dest}"
dest="$(cd "${dest}" && pwd)"
cd "${dest}"
# Older versions of the same packages would leave two candidates for build-cuda.sh.
for package in "${packages[@]}"; do
  rm -f -- "${package}"_*.deb
done
rm -f SHA256SUMS

echo "fetch-gpu-debs: downloading ${packages[*]} into ${dest}"
# apt-get download as root warns that the _apt user cannot write here; harmless.
if ! apt-get download "${packages[@]}"; then
  die "apt-get download failed: run 'apt-get update' (as root) and try again"
fi

for package in "${packages[@]}"; do
  compgen -G "${package}_*.deb" >/dev/null || die "${package}: no .deb was downloaded"
done
sha256sum -- *.deb > SHA256SUMS

echo
ls -l -- *.deb
echo
echo "fetch-gpu-debs: done (${dest}, checksums in SHA256SUMS). Copy the folder to the GPU"
echo "machine, e.g. 'rsync -a ${dest}/ gpu-box:mrnn-workbench/.gpu-debs/', then run there:"
echo "  scripts/build-cuda.sh            (or --debs DIR if you put it elsewhere)"
