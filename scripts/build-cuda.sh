#!/usr/bin/env bash
# Builds the engine, the mrnn tool and the engine tests (preset "headless": no Qt) with the
# CUDA kernels (MRNN_CUDA=ON) against a CUDA LibTorch, on a GPU machine without a package
# registry: yaml-cpp, SQLite and Highway come as Debian bookworm .deb files, fetched elsewhere
# by scripts/fetch-gpu-debs.sh and unpacked here with dpkg -x into <build-dir>/deps (never
# into /). Needs cmake, ninja, g++, nvcc and a CUDA LibTorch (by default the one inside the
# pip torch that python3 imports).
#
# usage: scripts/build-cuda.sh [options] [-- extra cmake configure arguments]
#   --debs DIR          the .deb folder (default: .gpu-debs in the repository)
#   --no-debs           use yaml-cpp, SQLite and Highway as installed on this machine
#   --torch PREFIX      LibTorch's CMake prefix, or the folder holding TorchConfig.cmake
#                       (default: $TORCH_PREFIX, else python3's torch.utils.cmake_prefix_path)
#   --build-dir DIR     the build folder (default: build/cuda in the repository)
#   --jobs N            parallel compile jobs (default: all cores)
#   --cuda-arch LIST    CUDA architectures, e.g. "90" or "80;90" (default: 80;90, A100 + H100)
#   --target NAME       build only NAME (repeatable; default: everything in the build)
#   --include DIR       an extra header folder (repeatable), e.g. Gloo's or NCCL's headers
#   --allow-cpu-torch   accept a LibTorch without CUDA (a build check; no training on GPUs)
#   --keep-going        build every target that can be built after a compile error, so that
#                       one run shows all the errors (the script still fails)
# CUDAHOSTCXX names nvcc's host compiler where nvcc refuses the C++ compiler (CUDA 12.4 and
# GCC 14: CUDAHOSTCXX=g++-13); the C++ compiler must be that GCC or newer.
set -euo pipefail
# The whole script is one block, read before it runs: editing it (a git pull) during a long
# build cannot change what runs next.
{
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

die() {
  echo "build-cuda: error: $*" >&2
  exit 1
}
note() { echo "build-cuda: $*"; }

debs="${repo}/.gpu-debs"
use_debs=1
torch_prefix="${TORCH_PREFIX:-}"
build="${repo}/build/cuda"
jobs="$(nproc 2>/dev/null || echo 4)"
cuda_arch=""
targets=()
allow_cpu_torch=0
keep_going=0
extra_includes=()
extra_cmake=()

need_value() { [[ $# -ge 2 && -n "$2" ]] || die "$1 needs a value (see --help)"; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --debs) need_value "$@"; debs="$2"; shift 2 ;;
    --no-debs) use_debs=0; shift ;;
    --torch) need_value "$@"; torch_prefix="$2"; shift 2 ;;
    --build-dir) need_value "$@"; build="$2"; shift 2 ;;
    --jobs|-j) need_value "$@"; jobs="$2"; shift 2 ;;
    --cuda-arch) need_value "$@"; cuda_arch="$2"; shift 2 ;;
    --target) need_value "$@"; targets+=("$2"); shift 2 ;;
    --include) need_value "$@"; extra_includes+=("$(cd "$2" && pwd)") || exit 1; shift 2 ;;
    --allow-cpu-torch) allow_cpu_torch=1; shift ;;
    --keep-going) keep_going=1; shift ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"; exit 0 ;;
    --) shift; extra_cmake=("$@"); break ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ "${jobs}" =~ ^[1-9][0-9]*$ ]] || die "--jobs wants a positive number, not '${jobs}'"

# --- Tools ------------------------------------------------------------------------------------
missing_tools=()
for tool in cmake ninja g++; do
  command -v "${tool}" >/dev/null || missing_tools+=("${tool}")
done
[[ ${#missing_tools[@]} -eq 0 ]] || die "not found on PATH: ${missing_tools[*]}"

# nvcc: CUDACXX, then PATH, then CUDA_HOME, then /usr/local/cuda.
nvcc=""
for candidate in "${CUDACXX:-}" "$(command -v nvcc || true)" \
                 "${CUDA_HOME:+${CUDA_HOME}/bin/nvcc}" /usr/local/cuda/bin/nvcc; do
  if [[ -n "${candidate}" && -x "${candidate}" ]]; then
    nvcc="${candidate}"
    break
  fi
done
[[ -n "${nvcc}" ]] || die "no nvcc (CUDA compiler): looked at \$CUDACXX, PATH, \$CUDA_HOME/bin" \
  "and /usr/local/cuda/bin; install the CUDA toolkit or set CUDACXX=/path/to/nvcc"
cuda_root="$(cd "$(dirname "${nvcc}")/.." && pwd)"
nvcc_version="$("${nvcc}" --version | sed -n 's/.*release \([0-9][0-9.]*\).*/\1/p')"
note "nvcc ${nvcc_version:-?} at ${nvcc} (toolkit ${cuda_root})"
[[ -e "${cuda_root}/include/cublas_v2.h" ]] || die "the CUDA toolkit at ${cuda_root} has no" \
  "cuBLAS headers (include/cublas_v2.h); engine/cuda needs cuBLAS"

# --- LibTorch ---------------------------------------------------------------------------------
if [[ -z "${torch_prefix}" ]]; then
  command -v python3 >/dev/null || die "no python3 to ask where torch is: install pip's" \
    "torch, or pass --torch /path/to/libtorch (or set TORCH_PREFIX)"
  if ! torch_info="$(python3 -c 'import torch, torch.utils
print(torch.utils.cmake_prefix_path)
print(torch.__version__)
print(torch.version.cuda or "none")' 2>&1)"; then
    die "python3 ($(command -v python3)) cannot import torch: install the CUDA torch wheel" \
      "(pip install torch), or pass --torch /path/to/libtorch. python3 said: $(tail -n 1 <<<"${torch_info}")"
  fi
  torch_prefix="$(sed -n 1p <<<"${torch_info}")"
  note "python3's torch $(sed -n 2p <<<"${torch_info}") (CUDA $(sed -n 3p <<<"${torch_info}")) at ${torch_prefix}"
fi
[[ -d "${torch_prefix}" ]] || die "the LibTorch prefix '${torch_prefix}' is not a folder"
torch_prefix="$(cd "${torch_prefix}" && pwd)"

torch_config_dir=""
for sub in . Torch share/cmake/Torch lib/cmake/Torch lib64/cmake/Torch \
           lib/x86_64-linux-gnu/cmake/Torch lib/aarch64-linux-gnu/cmake/Torch; do
  if [[ -f "${torch_prefix}/${sub}/TorchConfig.cmake" ]]; then
    torch_config_dir="$(cd "${torch_prefix}/${sub}" && pwd)"
    break
  fi
done
[[ -n "${torch_config_dir}" ]] || die "no TorchConfig.cmake under ${torch_prefix} (looked in" \
  "share/cmake/Torch, lib/cmake/Torch, lib/<arch>/cmake/Torch): pass LibTorch's folder or its" \
  "CMake prefix (python3 -c 'import torch;print(torch.utils.cmake_prefix_path)')"

# The libraries: <root>/lib for pip's torch and the LibTorch zip, <prefix>/lib/<arch> for Debian.
torch_lib_dir=""
for candidate in "${torch_config_dir}/../../../lib" "${torch_config_dir}/../.." \
                 "${torch_config_dir}/../../../lib64"; do
  if compgen -G "${candidate}/libtorch_cpu.so*" >/dev/null; then
    torch_lib_dir="$(cd "${candidate}" && pwd)"
    break
  fi
done
[[ -n "${torch_lib_dir}" ]] || die "found ${torch_config_dir}/TorchConfig.cmake but no" \
  "libtorch_cpu.so beside it (../../../lib or ../..): is this LibTorch complete?"
torch_root="$(cd "${torch_lib_dir}/.." && pwd)"
note "LibTorch: CMake package ${torch_config_dir}, libraries ${torch_lib_dir}"

torch_has_cuda=0
compgen -G "${torch_lib_dir}/libtorch_cuda.so*" >/dev/null && torch_has_cuda=1
if [[ ${torch_has_cuda} -eq 0 ]]; then
  if [[ ${allow_cpu_torch} -eq 1 ]]; then
    note "warning: this LibTorch has no CUDA (no libtorch_cuda.so in ${torch_lib_dir});" \
      "building anyway (--allow-cpu-torch): the CUDA kernels and their tests build, but" \
      "'mrnn train --device cuda' will say this LibTorch has no CUDA"
  else
    die "the LibTorch of ${torch_config_dir} has no CUDA (no libtorch_cuda.so in ${torch_lib_dir})." \
      "Use a CUDA build (pip's torch with +cu130, or the CUDA LibTorch zip from pytorch.org)," \
      "or pass --allow-cpu-torch for a build check without GPU training"
  fi
fi

# c10d: engine/distributed includes ProcessGroupGloo.hpp, which includes Gloo's headers, and
# on a CUDA LibTorch ProcessGroupNCCL.hpp, which includes nccl.h. Look for both up front
# rather than fail late in the compile.
torch_include=""
for candidate in "${torch_root}/include" "${torch_config_dir}/../../../include" \
                 "${torch_config_dir}/../../../../include"; do
  if [[ -d "${candidate}/torch/csrc" ]]; then
    torch_include="$(cd "${candidate}" && pwd)"
    break
  fi
done
[[ -n "${torch_include}" ]] || die "no LibTorch headers (include/torch/csrc) near ${torch_config_dir}"
gloo_found=0
for dir in "${extra_includes[@]}" "${torch_include}" "${cuda_root}/include" /usr/include /usr/local/include; do
  [[ -f "${dir}/gloo/algorithm.h" ]] && { gloo_found=1; break; }
done
if [[ ${gloo_found} -eq 0 && -f "${torch_include}/torch/csrc/distributed/c10d/ProcessGroupGloo.hpp" ]]; then
  die "this LibTorch has c10d's ProcessGroupGloo.hpp but not Gloo's headers (gloo/algorithm.h," \
    "looked in ${torch_include}, the CUDA toolkit, /usr/include), which engine/distributed" \
    "needs. Pass the folder holding the gloo/ headers of the Gloo this torch was built with" \
    "(github.com/pytorch/gloo at the commit of torch's third_party/gloo) with --include DIR"
fi
cxx_flags=()
for dir in "${extra_includes[@]}"; do
  cxx_flags+=("-isystem ${dir}")
done
nccl_lib=""
if [[ ${torch_has_cuda} -eq 1 ]]; then
  nccl_include=""
  python_nvidia=""
  if command -v python3 >/dev/null; then
    python_nvidia="$(python3 -c 'import nvidia, os; print(os.pathsep.join(nvidia.__path__))' 2>/dev/null || true)"
  fi
  # The NCCL that torch itself loads first (pip's nvidia-nccl package), then the toolkit's.
  search=("${extra_includes[@]}")
  IFS=: read -r -a nvidia_dirs <<<"${python_nvidia}"
  for dir in "${nvidia_dirs[@]}"; do
    search+=("${dir}/nccl/include" "${dir}"/cu*/include)
  done
  search+=("${torch_include}" "${cuda_root}/include" /usr/include /usr/local/include)
  for dir in "${search[@]}"; do
    if [[ -f "${dir}/nccl.h" ]]; then
      nccl_include="$(cd "${dir}" && pwd)"
      break
    fi
  done
  if [[ -z "${nccl_include}" ]]; then
    note "warning: no nccl.h found (CUDA toolkit, torch, pip's nvidia-nccl package); if the" \
      "compile of engine/distributed stops at nccl.h, install NCCL's headers"
  else
    note "NCCL headers: ${nccl_include}"
    case " ${extra_includes[*]} ${cuda_root}/include /usr/include " in
      *" ${nccl_include} "*) ;;
      *) cxx_flags+=("-isystem ${nccl_include}") ;;
    esac
    for candidate in "${nccl_include}/../lib"/libnccl.so.[0-9]*; do
      [[ -f "${candidate}" ]] && { nccl_lib="$(cd "$(dirname "${candidate}")" && pwd)/$(basename "${candidate}")"; break; }
    done
  fi
fi

# --- Libraries from the .deb files --------------------------------------------------------------
mkdir -p "${build}"
build="$(cd "${build}" && pwd)"
deps="${build}/deps"
multiarch="$(uname -m)-linux-gnu"
prefix_path=()
rpath=()
if [[ ${use_debs} -eq 1 ]]; then
  [[ -d "${debs}" ]] || die "no .deb folder at ${debs}: run scripts/fetch-gpu-debs.sh on a" \
    "Debian bookworm machine, copy its .gpu-debs/ here (or pass --debs DIR), or use --no-debs" \
    "where yaml-cpp, SQLite and Highway are installed"
  debs="$(cd "${debs}" && pwd)"
  missing_debs=()
  for package in libyaml-cpp-dev libyaml-cpp0.7 libsqlite3-dev libsqlite3-0 libhwy-dev libhwy1; do
    count="$(compgen -G "${debs}/${package}_*.deb" | wc -l || true)"
    [[ "${count}" -eq 1 ]] || missing_debs+=("${package} (${count} found)")
  done
  [[ ${#missing_debs[@]} -eq 0 ]] || die "${debs} should hold exactly one .deb of each of:" \
    "${missing_debs[*]}; run scripts/fetch-gpu-debs.sh again and copy its folder"
  case "$(uname -m)" in x86_64) deb_arch=amd64 ;; aarch64) deb_arch=arm64 ;; *) deb_arch="$(uname -m)" ;; esac
  for file in "${debs}"/*.deb; do
    case "${file}" in
      *_"${deb_arch}".deb|*_all.deb) ;;
      *) die "$(basename "${file}") is not built for this machine (${deb_arch}):" \
           "fetch the debs on a ${deb_arch} Debian bookworm machine" ;;
    esac
  done
  if [[ -f "${debs}/SHA256SUMS" ]]; then
    (cd "${debs}" && sha256sum --check --quiet SHA256SUMS) || die "the .deb files in ${debs}" \
      "do not match their SHA256SUMS (an incomplete copy?)"
  fi

  # Unpack again only when the .deb files changed (dpkg -x keeps the packages' file times, so
  # an unchanged set would not rebuild anything either way).
  stamp="$(cd "${debs}" && stat -c '%s %n' -- *.deb)"
  if [[ ! -f "${deps}/.stamp" || "$(cat "${deps}/.stamp")" != "${stamp}" ]]; then
    rm -rf "${deps}"
    mkdir -p "${deps}"
    for file in "${debs}"/*.deb; do
      if command -v dpkg >/dev/null; then
        dpkg -x "${file}" "${deps}"
      elif command -v ar >/dev/null; then
        # No dpkg: a .deb is an ar archive whose data.tar.* holds the files.
        member="$(ar t "${file}" | grep '^data\.tar' | head -n 1)"
        [[ -n "${member}" ]] || die "$(basename "${file}") has no data.tar member"
        case "${member}" in
          *.xz) unpack=(tar -x -J) ;;
          *.zst) unpack=(tar -x --zstd) ;;
          *.gz) unpack=(tar -x -z) ;;
          *) unpack=(tar -x) ;;
        esac
        ar p "${file}" "${member}" | "${unpack[@]}" -f - -C "${deps}" \
          || die "could not unpack $(basename "${file}") without dpkg"
      else
        die "neither dpkg nor ar (binutils) is here to unpack the .deb files"
      fi
    done
    echo "${stamp}" > "${deps}/.stamp"
    note "unpacked the .deb files of ${debs} into ${deps}"
  else
    note "using the .deb files unpacked before in ${deps}"
  fi
  [[ -f "${deps}/usr/lib/${multiarch}/cmake/yaml-cpp/yaml-cpp-config.cmake" ]] || die \
    "${deps} has no usr/lib/${multiarch}/cmake/yaml-cpp after unpacking: wrong architecture?"
  prefix_path+=("${deps}/usr" "${deps}/usr/lib/${multiarch}/cmake")
  rpath+=("${deps}/usr/lib/${multiarch}")
fi
# After the unpacked packages: a LibTorch prefix such as /usr must not win over them (nor,
# in the run path, a LibTorch library folder such as /usr/lib/<arch> that also holds them).
prefix_path+=("${torch_prefix}")
rpath+=("${torch_lib_dir}")
[[ -n "${nccl_lib}" ]] && rpath+=("$(dirname "${nccl_lib}")")

# --- Configure ------------------------------------------------------------------------------------
# pip's torch finds the CUDA toolkit itself (Caffe2's cuda.cmake): point it at nvcc's toolkit.
export CUDA_HOME="${cuda_root}" CUDA_PATH="${cuda_root}" CUDAToolkit_ROOT="${cuda_root}" CUDACXX="${nvcc}"
cmake_arch=()
if [[ -n "${cuda_arch}" ]]; then
  cmake_arch=("-DCMAKE_CUDA_ARCHITECTURES=${cuda_arch}")
fi
# Torch's CMake reads TORCH_CUDA_ARCH_LIST ("8.0;9.0") and otherwise probes the GPU (or guesses
# old architectures nvcc 13 rejects); keep it in step with CMAKE_CUDA_ARCHITECTURES.
if [[ -z "${TORCH_CUDA_ARCH_LIST:-}" ]]; then
  list=""
  IFS=';' read -r -a arch_items <<<"${cuda_arch:-80;90}"
  for item in "${arch_items[@]}"; do
    item="${item%%-*}"
    [[ "${item}" =~ ^([0-9]+)([0-9])[a-z]?$ ]] || continue
    list+="${list:+;}${BASH_REMATCH[1]}.${BASH_REMATCH[2]}"
  done
  [[ -n "${list}" ]] && export TORCH_CUDA_ARCH_LIST="${list}"
fi
nvtx=()
if [[ ${torch_has_cuda} -eq 1 && -d "${cuda_root}/include/nvtx3" ]]; then
  # CUDA 12.9+ ships NVTX 3 only (headers); older Torch CMake falls back to the removed
  # libnvToolsExt unless told where nvtx3 is.
  nvtx=(-DUSE_SYSTEM_NVTX=ON "-Dnvtx3_dir=${cuda_root}/include")
fi
join() { local IFS=';'; echo "$*"; }

configure=(
  cmake -S "${repo}" -B "${build}" -G Ninja
  # Found afresh on every run, so that a changed .deb folder (or --no-debs) takes effect.
  -U yaml-cpp_DIR -U hwy_DIR -U "SQLite3_*"
  -DCMAKE_BUILD_TYPE=Release
  -DMRNN_BUILD_GUI=OFF
  -DMRNN_BUILD_TESTS=ON
  -DMRNN_CUDA=ON
  # Batches of 8 sources: the proof's targets are 71 compiles rather than 283, and the unity
  # build is the one CI and the CUDA LibTorch rehearsal (test-newer-torch.sh --cuda) compile.
  -DMRNN_UNITY_BUILD=ON
  "-DCMAKE_CUDA_COMPILER=${nvcc}"
  "-DCUDAToolkit_ROOT=${cuda_root}"
  "-DTorch_DIR=${torch_config_dir}"
  "-DCMAKE_PREFIX_PATH=$(join "${prefix_path[@]}")"
  "-DCMAKE_BUILD_RPATH=$(join "${rpath[@]}")"
  "-DCMAKE_CXX_FLAGS=${CXXFLAGS:-}${CXXFLAGS:+ }${cxx_flags[*]}"
  "${cmake_arch[@]}"
  "${nvtx[@]}"
)
if [[ -n "${nccl_lib}" ]]; then
  # ProcessGroupNCCL.hpp's inline code may call NCCL directly; pip's torch links NCCL from its
  # own wheel, so name it (only kept where something uses it).
  configure+=("-DCMAKE_CXX_STANDARD_LIBRARIES=-Wl,--push-state,--as-needed ${nccl_lib} -Wl,--pop-state")
fi
configure+=("${extra_cmake[@]}")
note "configuring ${build}"
printf '  %q' "${configure[@]}"; echo
# pip's TorchConfig warns about kineto (a static profiler library it does not ship) and may
# warn about NVTX; both are harmless here.
"${configure[@]}" || die "CMake configure failed (messages above); nothing was built"

# --- Build ---------------------------------------------------------------------------------------
build_cmd=(cmake --build "${build}" --parallel "${jobs}")
for target in "${targets[@]}"; do
  build_cmd+=(--target "${target}")
done
[[ ${keep_going} -eq 1 ]] && build_cmd+=(-- -k 0)
note "building ${targets[*]:-everything} with ${jobs} jobs"
"${build_cmd[@]}" || die "the build failed (messages above)"

# --- Check and report --------------------------------------------------------------------------------
mrnn="${build}/app/cli/mrnn"
if [[ -x "${mrnn}" ]]; then
  runpath="$(readelf -d "${mrnn}" 2>/dev/null | sed -n 's/.*R\(UN\)\{0,1\}PATH.*\[\(.*\)\]/\2/p' | head -n 1)"
  unresolved="$(ldd "${mrnn}" 2>/dev/null | grep 'not found' || true)"
  echo
  note "mrnn: ${mrnn}"
  note "its run path: ${runpath:-none}"
  if [[ -n "${unresolved}" ]]; then
    note "warning: libraries mrnn does not find on its own:"
    echo "${unresolved}"
    note "run it with: export LD_LIBRARY_PATH=$(join "${rpath[@]}" | tr ';' ':')\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
  elif version="$("${mrnn}" --version 2>&1)"; then
    note "it starts without LD_LIBRARY_PATH: ${version}"
  else
    note "warning: '${mrnn} --version' failed: ${version}"
  fi
fi
echo
echo "Train on the GPU (--device cuda, or device: cuda in the project's training: section):"
echo "  ${mrnn} train projects/tiny-shakespeare-mlstm/project.yaml --device cuda"
echo "GPU tests (skipped, not failed, where no GPU is visible):"
echo "  ctest --test-dir ${build} -L gpu --output-on-failure"
echo "Everything else:"
echo "  ctest --test-dir ${build} -LE gpu --output-on-failure"
if command -v nvidia-smi >/dev/null; then
  echo "GPUs here:"
  nvidia-smi -L || true
fi
exit 0
}
