# MRNN_CUDA (AUTO, ON, OFF): the CUDA kernels library (engine/cuda) and its test.
#   AUTO (default): built where CMake finds a CUDA compiler (nvcc on PATH, CUDACXX or
#         CMAKE_CUDA_COMPILER) and the toolkit's cuBLAS; otherwise skipped with a message.
#   ON:   required; configuring fails naming what is missing.
#   OFF:  skipped; the build is the CPU-only one.
# Sets MRNN_CUDA_ENABLED. Included from the top-level CMakeLists.txt: enable_language must
# run at the top level for CUDA targets in any folder.
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
    # nvcc compiles through a host compiler (CUDAHOSTCXX), at times an older GCC than the C++
    # compiler (CUDA 12.4 stops at GCC 13). CMake would then put that GCC's library folder on
    # the link line ahead of the C++ compiler's, and link its older libstdc++: libraries built
    # by the newer GCC (fmt, LibTorch) fail with "undefined reference to
    # __cxa_call_terminate". The newer runtime serves the kernels' objects too: keep the host
    # compiler's folder off the link. The other way round it cannot: refuse. (CMake 3.31+
    # names the host compiler; older ones are not checked.)
    if(CMAKE_CUDA_HOST_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      string(REGEX MATCH "^[0-9]+" mrnn_host_major "${CMAKE_CUDA_HOST_COMPILER_VERSION}")
      string(REGEX MATCH "^[0-9]+" mrnn_cxx_major "${CMAKE_CXX_COMPILER_VERSION}")
      if(mrnn_host_major GREATER mrnn_cxx_major)
        message(FATAL_ERROR "nvcc compiles through GCC ${CMAKE_CUDA_HOST_COMPILER_VERSION} "
                            "(${CMAKE_CUDA_HOST_COMPILER}), newer than the C++ compiler, GCC "
                            "${CMAKE_CXX_COMPILER_VERSION} (${CMAKE_CXX_COMPILER}), whose C++ "
                            "library cannot link the kernels: configure a fresh build folder "
                            "with CUDAHOSTCXX at the C++ compiler's GCC or older")
      endif()
      foreach(dir IN LISTS CMAKE_CUDA_IMPLICIT_LINK_DIRECTORIES)
        if(dir MATCHES "/gcc/[^/]+/[0-9.]+$" AND NOT dir IN_LIST CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES)
          list(REMOVE_ITEM CMAKE_CUDA_IMPLICIT_LINK_DIRECTORIES "${dir}")
          message(STATUS "CUDA kernels: GCC ${CMAKE_CUDA_HOST_COMPILER_VERSION} for nvcc, "
                         "linked with GCC ${CMAKE_CXX_COMPILER_VERSION}'s C++ library")
        endif()
      endforeach()
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
