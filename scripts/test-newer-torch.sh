#!/usr/bin/env bash
# Builds the engine, `mrnn`, the benchmarks and the tests against a newer LibTorch than this
# machine's, and runs the tests: Debian's own libtorch of a later release (sid: the newest PyTorch
# Debian ships, with its GCC and CMake), in a debootstrap folder under build/, never installed
# here. What the headers check (scripts/check-torch-headers.py) cannot see shows here: behaviour
# that changed between LibTorch 1.13 and 2.x, on the CPU, before a GPU machine's pip torch meets
# it. Needs root (debootstrap, chroot, bind mounts) and Debian's package archive.
#
# usage: scripts/test-newer-torch.sh [--suite sid|trixie] [--cuda] [--root DIR] [-- ctest arguments]
#   first run: about 3 minutes to fetch the system (1.8 GB), 10 to build, 15 to test (2 cores).
#   --cuda: Debian's CUDA LibTorch (contrib) and CUDA toolkit (non-free) instead, suite trixie
#           unless named, built as a GPU machine builds (scripts/build-cuda.sh, nvcc's host GCC
#           for both languages). No GPU here: every gpu-labelled test must report skipped, and
#           the rest run on the CPU through the CUDA LibTorch. Debian has no cuDNN (its package
#           downloads NVIDIA's at install): a stand-in package and a library of stubs let
#           LibTorch link and load; nothing here calls cuDNN.
# The build goes to build/<suite>-torch (or -cuda) in the repository; the system to DIR
# (default /var/tmp/mrnn-newer-torch-<suite>, or mrnn-newer-cuda-<suite>), outside the
# repository, whose folder is bound inside it.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
shared="$(cd "${repo}/.." && pwd)/shared"
suite=""
cuda=0
root=""
ctest_args=()
die() { echo "test-newer-torch: $*" >&2; exit 1; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --suite) [[ $# -ge 2 ]] || die "--suite needs a name"; suite="$2"; shift 2 ;;
    --cuda) cuda=1; shift ;;
    --root) [[ $# -ge 2 ]] || die "--root needs a folder"; root="$2"; shift 2 ;;
    --) shift; ctest_args=("$@"); break ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ -n "${suite}" ]] || suite=$([[ ${cuda} -eq 1 ]] && echo trixie || echo sid)
flavour=$([[ ${cuda} -eq 1 ]] && echo cuda || echo torch)
[[ "${suite}" =~ ^[a-z]+$ ]] || die "'${suite}' is not a Debian release name"
[[ $(id -u) -eq 0 ]] || die "needs root: debootstrap, chroot and bind mounts"
command -v debootstrap >/dev/null || die "debootstrap is missing (apt-get install debootstrap)"

root="$(realpath -m "${root:-/var/tmp/mrnn-newer-${flavour}-${suite}}")"
case "${root}/" in
  "${repo}/"*) die "${root} is inside the repository, which is bound inside it: choose another" ;;
esac
# A run killed before it could unmount leaves the repository bound inside: never delete
# through that, nor start another on top of it.
if grep -q " ${root}/" /proc/mounts; then
  die "${root} still has folders mounted in it (an earlier run was killed?): umount them first"
fi
packages=g++,cmake,ninja-build,libyaml-cpp-dev,libsqlite3-dev,libhwy-dev,python3,fortunes
packages+=,ca-certificates
components=main
if [[ ${cuda} -eq 1 ]]; then
  # The CUDA LibTorch comes after (apt, with cuDNN's stand-in); nvcc 12.4 wants GCC 13.
  packages+=,g++-13,dpkg-dev
  components=main,contrib,non-free
else
  packages+=,libtorch-dev,libgloo-dev,libopenblas0-openmp
fi
if [[ ! -f "${root}/.complete" ]]; then
  # Only a folder this script made (its marker inside) is ever replaced.
  if [[ -e "${root}" && ! -f "${root}/.mrnn-newer-torch" ]] &&
     [[ -n "$(ls -A "${root}" 2>/dev/null)" || ! -d "${root}" ]]; then
    die "${root} exists and was not made by this script: choose another with --root"
  fi
  rm -rf --one-file-system "${root}"
  mkdir -p "${root}" && touch "${root}/.mrnn-newer-torch"
  debootstrap --variant=minbase --components="${components}" --include="${packages}" \
    "${suite}" "${root}" http://deb.debian.org/debian
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

if [[ ${cuda} -eq 1 && ! -f "${root}/.cuda-complete" ]]; then
  chroot "${root}" bash -s <<'INSTALL'
set -euo pipefail
work=$(mktemp -d)
# nvidia-cudnn only downloads cuDNN from NVIDIA at install: a package of the same name, a
# later version and nothing inside stands in for it.
mkdir -p "${work}/stand-in/DEBIAN"
cat >"${work}/stand-in/DEBIAN/control" <<'CONTROL'
Package: nvidia-cudnn
Version: 9.0.0.312~cuda12+mrnn1
Architecture: amd64
Maintainer: mrnn Workbench <mrnn@localhost>
Description: stands in for the cuDNN downloader, for builds without a GPU
CONTROL
dpkg-deb --build "${work}/stand-in" "${work}/nvidia-cudnn.deb" >/dev/null
dpkg -i "${work}/nvidia-cudnn.deb"
apt-get update -q
# OpenBLAS as the README asks: LibTorch's CPU side on Debian's reference BLAS is ~25x slower.
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
  libtorch-cuda-dev libgloo-cuda-dev libnccl-dev nvidia-cuda-toolkit libopenblas0-openmp \
  python3-torch-cuda
# LibTorch's CUDA library (and Python's torch) need libcudnn.so.9 to link and load: every
# cuDNN function they name, as a stub, under cuDNN's symbol version.
lib=/usr/lib/x86_64-linux-gnu
nm -D --undefined-only "${lib}"/lib{torch_cuda,c10_cuda,torch_python}.so |
  sed -n 's/^ *U \(cudnn[A-Za-z0-9_]*\)@libcudnn.so.9$/\1/p' | sort -u |
  sed 's/.*/int &(void) { return 1; }/' >"${work}/cudnn_stubs.c"
echo 'libcudnn.so.9 { global: *; };' >"${work}/cudnn.map"
gcc -shared -fPIC -Wl,-soname,libcudnn.so.9 -Wl,--version-script="${work}/cudnn.map" \
  -o /usr/local/lib/libcudnn.so.9 "${work}/cudnn_stubs.c"
ldconfig
if ldd "${lib}/libtorch_cuda.so" | grep 'not found'; then exit 1; fi
rm -rf "${work}"
INSTALL
  touch "${root}/.cuda-complete"
fi

build="build/${suite}-${flavour}"
chroot "${root}" bash -s -- "${repo}" "${build}" "${shared}" "${cuda}" "${ctest_args[@]}" <<'INSIDE'
set -euo pipefail
repo=$1 build=$2 shared=$3 cuda=$4
shift 4
cd "${repo}"
if [[ ${cuda} -eq 1 ]]; then
  echo "test-newer-torch: $(dpkg-query -W -f='libtorch-cuda-dev ${Version}' libtorch-cuda-dev)," \
       "$(nvcc --version | tail -n 1)"
  CUDAHOSTCXX=g++-13 scripts/build-cuda.sh --no-debs --torch /usr/lib/x86_64-linux-gnu/cmake/Torch \
    --build-dir "${build}" --cuda-arch 90 -- -DMRNN_SHARED_DIR="${shared}"
  # No GPU here: a gpu test that says it passed, or failed, did not look for one properly.
  ctest --test-dir "${build}" -L gpu --timeout 300 --output-on-failure | tee "${build}/gpu-tests.log"
  if grep -E 'Test +#' "${build}/gpu-tests.log" | grep -v '\*\*\*Skipped'; then
    echo "test-newer-torch: the gpu tests above did not report skipped on a machine without a GPU"
    exit 1
  fi
  set -- -LE gpu "$@"
else
  echo "test-newer-torch: $(dpkg-query -W -f='libtorch-dev ${Version}' libtorch-dev)," \
       "$(g++ --version | head -1), $(cmake --version | head -1)"
  cmake -S . -B "${build}" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMRNN_BUILD_GUI=OFF \
        -DMRNN_CUDA=OFF -DMRNN_UNITY_BUILD=ON -DMRNN_SHARED_DIR="${shared}" -Wno-dev >/dev/null
  cmake --build "${build}" -j "$(nproc)"
fi
# The headers check and the format check look at this machine's own build and tools.
ctest --test-dir "${build}" -j "$(nproc)" --timeout 900 --output-on-failure \
  -E 'torch_headers|format_check' "$@"
INSIDE
