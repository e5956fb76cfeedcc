# mrnn_torch_cxx_standard(<out-var> <include-dir>...): the C++ standard to build with for the
# LibTorch whose include folders are given: 20 where its ATen.h refuses anything older (PyTorch
# 2.14 on), else 17, the project's own. The project's code is valid as either.
function(mrnn_torch_cxx_standard out)
  set(standard 17)
  foreach(dir IN LISTS ARGN)
    if(EXISTS "${dir}/ATen/ATen.h")
      file(STRINGS "${dir}/ATen/ATen.h" refusal REGEX "__cplusplus < 202002L")
      if(refusal)
        set(standard 20)
      endif()
      break()
    endif()
  endforeach()
  set(${out} ${standard} PARENT_SCOPE)
endfunction()

# As a script, for scripts/check-torch-headers.py, which compiles against headers no build was
# configured for: cmake -DINCLUDE=<dir> -P MrnnTorchStandard.cmake prints the standard.
if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  mrnn_torch_cxx_standard(standard ${INCLUDE})
  message(NOTICE "${standard}")
endif()
