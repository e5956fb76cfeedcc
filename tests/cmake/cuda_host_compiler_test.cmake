# cmake -P cuda_host_compiler_test.cmake: mrnn_cuda_link_directories on the folders CMake found
# in Debian trixie with nvcc 12.4 through g++-13 beside GCC 14, and on a matched pair.
cmake_minimum_required(VERSION 3.22)
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/MrnnCudaHostCompiler.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/expect_result.cmake)

set(cuda_dirs /usr/lib/x86_64-linux-gnu/stubs /usr/lib/x86_64-linux-gnu
    /usr/lib/gcc/x86_64-linux-gnu/13 /usr/lib /lib/x86_64-linux-gnu /lib)
set(cxx_dirs /usr/lib/gcc/x86_64-linux-gnu/14 /usr/lib/x86_64-linux-gnu /usr/lib
    /lib/x86_64-linux-gnu /lib)

set(without_13 ${cuda_dirs})
list(REMOVE_ITEM without_13 /usr/lib/gcc/x86_64-linux-gnu/13)
expect_result("GCC 13 for nvcc beside GCC 14: its folder leaves the link" "${without_13}"
              mrnn_cuda_link_directories HOST GNU 13.3.0 CXX GNU 14.2.0
              CUDA_DIRS ${cuda_dirs} CXX_DIRS ${cxx_dirs})
set(cxx_dirs_13 ${cxx_dirs})
list(TRANSFORM cxx_dirs_13 REPLACE "/14$" "/13")
expect_result("one GCC for both: nothing changes" "${cuda_dirs}" mrnn_cuda_link_directories
              HOST GNU 13.3.0 CXX GNU 13.3.0 CUDA_DIRS ${cuda_dirs} CXX_DIRS ${cxx_dirs_13})
expect_result("a host compiler CMake did not name (before 3.31): nothing changes"
              "${cuda_dirs}" mrnn_cuda_link_directories HOST "" "" CXX GNU 14.2.0
              CUDA_DIRS ${cuda_dirs} CXX_DIRS ${cxx_dirs})
