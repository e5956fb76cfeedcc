# cmake -DWORK=<folder> -P torch_standard_test.cmake: mrnn_torch_cxx_standard on made-up
# LibTorch include folders, one of each kind.
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/MrnnTorchStandard.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/expect_result.cmake)

file(REMOVE_RECURSE "${WORK}")
file(WRITE "${WORK}/old/ATen/ATen.h" "#pragma once\n#include <ATen/Context.h>\n")
file(WRITE "${WORK}/new/ATen/ATen.h"
     "#pragma once\n#if !defined(_MSC_VER) && __cplusplus < 202002L\n"
     "#error C++20 or later compatible compiler is required to use ATen.\n#endif\n")
file(MAKE_DIRECTORY "${WORK}/api")

expect_result("a LibTorch that accepts C++17" 17 mrnn_torch_cxx_standard
              "${WORK}/old" "${WORK}/api")
expect_result("a LibTorch whose ATen.h asks for C++20" 20 mrnn_torch_cxx_standard
              "${WORK}/api" "${WORK}/new")
expect_result("the first ATen.h found decides" 17 mrnn_torch_cxx_standard
              "${WORK}/old" "${WORK}/new")
expect_result("no ATen.h at all" 17 mrnn_torch_cxx_standard "${WORK}/api")
file(REMOVE_RECURSE "${WORK}")
