#!/usr/bin/env bash
# Builds the engine, `mrnn`, the benchmarks and the tests against a newer LibTorch than this
# machine's, and runs the tests: Debian's own libtorch of a later release (sid: the newest PyTorch
# Debian ships, with its GCC and CMake), in a debootstrap folder under build/, never installed
# here. What the headers check (scripts/check-torch-headers.py) cannot see shows here: behaviour
# that changed between LibTorch 1.13 and 2.x, on the CPU, before a GPU machine's pip torch meets
# it. Needs root (debootstrap, chroot, bind mounts) and Debian's package archive.
#
# usage: scripts/test-newer-torch.sh [--suite sid|trixie] [--root DIR] [-- ctest arguments]
#   first run: about 3 minutes to fetch the system (1.8 GB), 10 to build, 15 to test (2 cores).
# The build goes to build/<suite>-torch in the repository; the system to DIR (default
# /var/tmp/mrnn-newer-torch-<suite>), outside the repository, whose folder is bound inside it.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
shared="$(cd "${repo}/.." && pwd)/shared"
suite=sid
root=""
ctest_args=()
die() { echo "test-newer-torch: $*" >&2; exit 1; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --suite) [[ $# -ge 2 ]] || die "--suite needs a name"; suite="$2"; shift 2 ;;
    --root) [[ $# -ge 2 ]] || die "--root needs a folder"; root="$2"; shift 2 ;;
    --) shift; ctest_args=("$@"); break ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ "${suite}" =~ ^[a-z]+$ ]] || die "'${suite}' is not a Debian release name"
[[ $(id -u) -eq 0 ]] || die "needs root: debootstrap, chroot and bind mounts"
command -v debootstrap >/dev/null || die "debootstrap is missing (apt-get install debootstrap)"

root="$(realpath -m "${root:-/var/tmp/mrnn-newer-torch-${suite}}")"
case "${root}/" in
  "${repo}/"*) die "${root} is inside the repository, which is bound inside it: choose another" ;;
esac
# A run killed before it could unmount leaves the repository bound inside: never delete
# through that, nor start another on top of it.
if grep -q " ${root}/" /proc/mounts; then
  die "${root} still has folders mounted in it (an earlier run was killed?): umount them first"
fi
packages=g++,cmake,ninja-build,libtorch-dev,libyaml-cpp-dev,libsqlite3-dev,libhwy-dev,libgloo-dev
packages+=,python3,fortunes,ca-certificates
if [[ ! -f "${root}/.complete" ]]; then
  # Only a folder this script made (its marker inside) is ever replaced.
  if [[ -e "${root}" && ! -f "${root}/.mrnn-newer-torch" ]] &&
     [[ -n "$(ls -A "${root}" 2>/dev/null)" || ! -d "${root}" ]]; then
    die "${root} exists and was not made by this script: choose another with --root"
  fi
  rm -rf --one-file-system "${root}"
  mkdir -p "${root}" && touch "${root}/.mrnn-newer-torch"
  debootstrap --variant=minbase --include="${packages}" "${suite}" "${root}" \
    http://deb.debian.org/debian
  touch "${root}/.complete"
fi

# The repository and the shared corpora at the same paths inside, so that the build's absolute
# paths and MRNN_SHARED_DIR hold; undone however the script ends.
mounts=()
cleanup() {
  local i
  # A process still inside (a test the signal is ending) keeps a mount busy: detach it lazily.
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount "${mounts[i]}" 2>/dev/null || umount --lazy "${mounts[i]}" || true
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
bind() {
  mkdir -p "${root}$2"
  mount --bind "$1" "${root}$2"
  mounts+=("${root}$2")
}
bind "${repo}" "${repo}"
[[ -d "${shared}" ]] && bind "${shared}" "${shared}"
mount -t proc proc "${root}/proc" && mounts+=("${root}/proc")
bind /dev /dev

build="build/${suite}-torch"
chroot "${root}" bash -s -- "${repo}" "${build}" "${shared}" "${ctest_args[@]}" <<'INSIDE'
set -euo pipefail
repo=$1 build=$2 shared=$3
shift 3
cd "${repo}"
echo "test-newer-torch: $(dpkg-query -W -f='libtorch-dev ${Version}' libtorch-dev)," \
     "$(g++ --version | head -1), $(cmake --version | head -1)"
cmake -S . -B "${build}" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMRNN_BUILD_GUI=OFF \
      -DMRNN_CUDA=OFF -DMRNN_UNITY_BUILD=ON -DMRNN_SHARED_DIR="${shared}" -Wno-dev >/dev/null
cmake --build "${build}" -j "$(nproc)"
# The headers check and the format check look at this machine's own build and tools.
ctest --test-dir "${build}" -j "$(nproc)" --timeout 900 --output-on-failure -E 'torch_headers|format_check' "$@"
INSIDE
