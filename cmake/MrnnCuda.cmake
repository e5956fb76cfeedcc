# MRNN_CUDA (AUTO, ON, OFF): the CUDA kernels library (engine/cuda) and its test.
#   AUTO (default): built where CMake finds a CUDA compiler (nvcc on PATH, CUDACXX or
#         CMAKE_CUDA_COMPILER) and the toolkit's cuBLAS; otherwise skipped with a message.
#   ON:   required; configuring fails naming what is missing.
#   OFF:  skipped; the build is the CPU-only one.
# Sets MRNN_CUDA_ENABLED. Included from the top-level CMakeLists.txt: enable_language must
# run at the top level for CUDA targets in any folder.
include(${CMAKE_CURRENT_LIST_DIR}/MrnnCudaHostCompiler.cmake)
set(MRNN_CUDA AUTO CACHE STRING
    "CUDA kernels library (engine/cuda): AUTO where nvcc is found, ON required, OFF never")
set_property(CACHE MRNN_CUDA PROPERTY STRINGS AUTO ON OFF)
string(TOUPPER "${MRNN_CUDA}" mrnn_cuda_mode)
if(NOT mrnn_cuda_mode STREQUAL "AUTO")
  if(MRNN_CUDA)
    set(mrnn_cuda_mode ON)
  else()
    set(mrnn_cuda_mode OFF)
  endif()
endif()

set(MRNN_CUDA_ENABLED OFF)
if(NOT mrnn_cuda_mode STREQUAL "OFF")
  # Ampere and Hopper (sm_80, sm_90: the A100 and H100) unless the caller chose: nvcc 13 no
  # longer builds for anything before Turing, so CMake's own default would fail there.
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
    set(CMAKE_CUDA_ARCHITECTURES 80 90 CACHE STRING "CUDA architectures to build for")
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    # CMake 3.31+ names nvcc's host compiler; older ones leave the folders as they are.
    mrnn_cuda_link_directories(mrnn_cuda_dirs
      HOST "${CMAKE_CUDA_HOST_COMPILER_ID}" "${CMAKE_CUDA_HOST_COMPILER_VERSION}"
      CXX "${CMAKE_CXX_COMPILER_ID}" "${CMAKE_CXX_COMPILER_VERSION}"
      CUDA_DIRS ${CMAKE_CUDA_IMPLICIT_LINK_DIRECTORIES}
      CXX_DIRS ${CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES})
    if(NOT mrnn_cuda_dirs STREQUAL CMAKE_CUDA_IMPLICIT_LINK_DIRECTORIES)
      set(CMAKE_CUDA_IMPLICIT_LINK_DIRECTORIES ${mrnn_cuda_dirs})
      message(STATUS "CUDA kernels: GCC ${CMAKE_CUDA_HOST_COMPILER_VERSION} for nvcc, linked "
                     "with GCC ${CMAKE_CXX_COMPILER_VERSION}'s C++ library")
    endif()
    find_package(CUDAToolkit QUIET)
    if(TARGET CUDA::cudart AND TARGET CUDA::cublas)
      set(MRNN_CUDA_ENABLED ON)
      message(STATUS "CUDA kernels: nvcc ${CMAKE_CUDA_COMPILER_VERSION}, "
                     "architectures ${CMAKE_CUDA_ARCHITECTURES}")
    elseif(mrnn_cuda_mode STREQUAL "ON")
      message(FATAL_ERROR "MRNN_CUDA is ON but the CUDA toolkit's runtime or cuBLAS "
                          "(CUDA::cudart, CUDA::cublas) was not found next to "
                          "${CMAKE_CUDA_COMPILER}: install the toolkit's cuBLAS, or configure "
                          "with -DMRNN_CUDA=OFF (or AUTO)")
    else()
      message(STATUS "CUDA kernels: none (nvcc found, but not the toolkit's cuBLAS)")
    endif()
  elseif(mrnn_cuda_mode STREQUAL "ON")
    message(FATAL_ERROR "MRNN_CUDA is ON but no CUDA compiler was found: put nvcc on PATH, "
                        "set CUDACXX or CMAKE_CUDA_COMPILER to it (e.g. "
                        "/usr/local/cuda/bin/nvcc), or configure with -DMRNN_CUDA=OFF (or AUTO)")
  else()
    message(STATUS "CUDA kernels: none (no CUDA compiler found)")
  endif()
else()
  message(STATUS "CUDA kernels: none (MRNN_CUDA=OFF)")
endif()
